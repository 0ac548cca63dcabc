"""PNG previews of a book's pages, drawn by poppler's ``pdftoppm``.

The pipeline shows the first pages of each book in the Snakemake report;
the rendering tests read the same PNGs back to check a grid's structure.
A preview is a picture of the PDF as printed: it does not depend on which
renderer made the PDF.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

from ..model.fileio import write_all
from .book import RenderError

__all__ = ["render_previews", "pdf_page_count", "DEFAULT_DPI"]

DEFAULT_DPI = 100
DPI_MIN, DPI_MAX = 10, 600
INSTALL_HINT = "install poppler-utils (Debian: apt-get install poppler-utils)"
_PAGES = re.compile(r"^Pages:\s+(\d+)\s*$", re.MULTILINE)


def _tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        raise RenderError(f"{name} not found on PATH; {INSTALL_HINT}")
    return path


def _run(cmd: list[str], pdf: Path) -> str:
    run = subprocess.run(cmd, capture_output=True, text=True, errors="replace")
    if run.returncode:
        detail = (run.stderr.strip().splitlines() or [f"exit status {run.returncode}"])[-1]
        raise RenderError(f"{Path(cmd[0]).name} could not read it: {detail}", pdf)
    return run.stdout


def pdf_page_count(pdf_path) -> int:
    """The number of pages of a PDF, as poppler's ``pdfinfo`` reads it.

    Parameters
    ----------
    pdf_path : str or os.PathLike

    Returns
    -------
    int

    Raises
    ------
    RenderError
        If the file is missing or not a PDF, or ``pdfinfo`` is not installed.

    Examples
    --------
    >>> pdf_page_count("outputs/books/book-1.pdf")  # doctest: +SKIP
    17
    """
    pdf = Path(pdf_path)
    if not pdf.is_file():
        raise RenderError("no such PDF", pdf)
    m = _PAGES.search(_run([_tool("pdfinfo"), str(pdf)], pdf))
    if m is None:
        raise RenderError("pdfinfo gave no page count (not a PDF?)", pdf)
    return int(m.group(1))


def render_previews(pdf_path, out_paths, first_page: int = 1, dpi: int = DEFAULT_DPI) -> dict:
    """Write pages ``first_page``, ``first_page + 1``, ... of a PDF as PNG files.

    Parameters
    ----------
    pdf_path : str or os.PathLike
        The book.
    out_paths : sequence of paths
        One PNG per page: page ``first_page + i`` goes to ``out_paths[i]``.
    first_page : int
        The first page to draw (1 is the title page).
    dpi : int
        Resolution, 10-600 (100 draws a letter page 850 x 1100 pixels).

    Returns
    -------
    dict
        ``pages`` (previews written), ``first_page``, ``book_pages`` (pages
        in the PDF), ``dpi`` and ``paths``.

    Raises
    ------
    RenderError
        If ``pdftoppm``/``pdfinfo`` are missing (naming the Debian package
        poppler-utils), the file is not a PDF, or it has fewer pages than
        asked for.  Nothing is written then.

    Examples
    --------
    >>> render_previews("book-1.pdf", ["p1.png", "p2.png"])["pages"]  # doctest: +SKIP
    2

    Notes
    -----
    ``pdftoppm -png`` draws every page into a temporary folder first; only
    when all are drawn is each moved into place (an atomic rename beside
    its target), so a failure leaves no preview half-written.  The PNGs
    carry no date, so equal PDFs give equal bytes.  Time is linear in the
    pages and in ``dpi**2``: about 0.1 s a letter page at 100 dpi.
    """
    pdf = Path(pdf_path)
    outs = [Path(p) for p in out_paths]
    if not outs:
        raise RenderError("no preview to write: give at least one output path")
    if len({os.path.abspath(p) for p in outs}) != len(outs):
        raise RenderError("the same preview path is given twice")
    if not isinstance(first_page, int) or first_page < 1:
        raise RenderError(f"first page must be 1 or more, not {first_page!r}")
    if not isinstance(dpi, int) or not DPI_MIN <= dpi <= DPI_MAX:
        raise RenderError(f"dpi must be a whole number from {DPI_MIN} to {DPI_MAX}, not {dpi!r}")
    pdftoppm = _tool("pdftoppm")
    total = pdf_page_count(pdf)
    last = first_page + len(outs) - 1
    if last > total:
        asked = f"page {first_page} was" if last == first_page else f"pages {first_page}-{last} were"
        raise RenderError(f"has {total} page{'s' * (total != 1)}, but {asked} asked for", pdf)
    with tempfile.TemporaryDirectory(prefix="xwbook-preview-") as tmp:
        prefix = Path(tmp) / "page"
        _run([pdftoppm, "-png", "-r", str(dpi), "-f", str(first_page), "-l", str(last), str(pdf), str(prefix)], pdf)
        # pdftoppm names them page-7.png or page-07.png (as many digits as the book's page count).
        drawn = sorted(Path(tmp).glob("page-*.png"), key=lambda p: int(p.stem.rsplit("-", 1)[1]))
        if len(drawn) != len(outs):
            raise RenderError(f"pdftoppm drew {len(drawn)} pages, {len(outs)} asked for", pdf)
        # All drawn before any is renamed into place: a failed job leaves the old set or the new.
        write_all((dest, src.read_bytes()) for src, dest in zip(drawn, outs))
    return {
        "pages": len(outs),
        "first_page": first_page,
        "book_pages": total,
        "dpi": dpi,
        "paths": [str(p) for p in outs],
    }
