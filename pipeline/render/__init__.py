"""Stage 7: render a book of puzzles as PDF.

Two renderers print the same :class:`~pipeline.render.book.Book`:

* :func:`~pipeline.render.pdf.render_pdf` draws it with reportlab (pure
  Python, fonts embedded, byte-for-byte reproducible);
* :func:`~pipeline.render.latex.render_latex` fills the jinja2 template
  ``templates/book.tex.j2`` and runs pdfLaTeX through latexmk (needs TeX
  Live; every string reaches TeX through
  :func:`~pipeline.render.texescape.tex_escape`).
"""

from .book import TRIMS, Book, RenderError, Trim, get_trim, load_book
from .texescape import tex_escape

__all__ = [
    "Book",
    "Trim",
    "TRIMS",
    "RenderError",
    "get_trim",
    "load_book",
    "render_pdf",
    "render_latex",
    "tex_escape",
]


def __getattr__(name):
    # The renderers load reportlab and jinja2 (about 80 ms): only when one is
    # asked for, so every `xw` command that reads the book model starts fast.
    if name == "render_pdf":
        from .pdf import render_pdf

        return render_pdf
    if name == "render_latex":
        from .latex import render_latex

        return render_latex
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
