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
from .latex import render_latex
from .pdf import render_pdf
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
