"""Stage 7 exports: a puzzle laid out for submission to the New York Times.

The Times asks for a PDF on letter paper: the filled grid, with its numbers
and answer letters, first (an empty numbered grid beside it is usual, and
included here); then the clues, double-spaced, one line per entry with the
clue number, the clue, and the answer in a column of its own at the right,
the Across clues and then the Down.  The constructor's name and contact
details head every page, with the page number as "n of N".

The drawing pieces are the reportlab renderer's (:mod:`pipeline.render.pdf`):
the embedded Vera fonts, the text folding for glyphs they lack, line
breaking and the grid.  The canvas runs in reportlab's *invariant* mode, so
the same puzzle always gives the same bytes.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field

from reportlab.lib.pagesizes import letter
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen import canvas as rl_canvas

from ..model.fileio import write_bytes
from ..model.puzzle import Puzzle
from .book import RenderError, check_letters_and_clues, entry_name
from .pdf import _BOLD, _REGULAR, _clean, _draw_grid, _GridOp, _register_fonts, _wrap

__all__ = ["render_submission", "CLUE_SIZE", "LINE_STEP"]

# -- sizes, in points ---------------------------------------------------------
_PAGE_W, _PAGE_H = letter
_MARGIN = 54.0  # 0.75in all round
CLUE_SIZE = 11.0  # the clue list's type size
LINE_STEP = 2 * 1.2 * CLUE_SIZE  # double spacing: twice the single-spaced leading, baseline to baseline
_HEAD_SIZE = 10.0  # running head: constructor, contact, "n of N"
_HEAD_LEADING = 12.5
_HEAD_GAP = 8.0  # rule below the running head
_CAPTION_SIZE = 12.0
_CAPTION_GAP = 10.0  # caption baseline to the grid's top edge
_GRID_GAP = 28.0  # between the filled grid and the blank one
_CELL_MAX = 30.0
_CELL_SHARED_MIN = 16.0  # smallest square for both grids on page 1; else one grid a page
_NUMBER_GAP = 8.0  # between the clue number and the clue
_ANSWER_GAP = 24.0  # between the clue and the answer column
_CLUE_MIN_WIDTH = 144.0


@dataclass
class _Page:
    """What one page draws besides its running head, computed before drawing."""

    texts: list[tuple[float, float, str, str, float, str]] = field(default_factory=list)  # x, y, text, font, size, align
    grids: list[tuple[float, float, float, bool]] = field(default_factory=list)  # x, top, cell, filled


_HEAD_Y = _PAGE_H - _MARGIN + 12 - _HEAD_SIZE  # the head's first baseline: it rises into the top margin a little


def _head_rule(head: list[str]) -> float:
    """Where the rule under the running head's lines goes."""
    return _HEAD_Y - _HEAD_LEADING * (max(len(head), 1) - 1) - _HEAD_GAP


def _content_top(head: list[str]) -> float:
    return _head_rule(head) - 18


def _grid_pages(puzzle: Puzzle, title: str, top: float) -> list[_Page]:
    """Page 1: the filled grid and the blank numbered grid, or one grid a page when both do not fit."""
    g = puzzle.grid
    width = _PAGE_W - 2 * _MARGIN
    height = top - _MARGIN
    caption = _CAPTION_SIZE + _CAPTION_GAP
    captions = [f"{title}: solution" if title else "Solution", f"{title}: grid" if title else "Grid"]
    shared = min(_CELL_MAX, width / g.cols, (height - 2 * caption - _GRID_GAP) / (2 * g.rows))
    if shared >= _CELL_SHARED_MIN:
        layout = [[(captions[0], True), (captions[1], False)]]
        cell = shared
    else:
        layout = [[(captions[0], True)], [(captions[1], False)]]
        cell = min(_CELL_MAX, width / g.cols, (height - caption) / g.rows)
    pages = []
    for grids in layout:
        page = _Page()
        y = top
        for text, filled in grids:
            page.texts.append((_MARGIN, y - _CAPTION_SIZE, text, _BOLD, _CAPTION_SIZE, "left"))
            grid_top = y - caption
            page.grids.append((_MARGIN + (width - cell * g.cols) / 2, grid_top, cell, filled))
            y = grid_top - cell * g.rows - _GRID_GAP
        pages.append(page)
    return pages


def _clue_pages(entries: list[tuple[str, list[tuple[str, str, str]]]], top: float) -> list[_Page]:
    """The clue list, double-spaced, a clue's lines kept on one page, no heading left alone at a foot."""
    size = CLUE_SIZE
    answers = [answer for _, rows in entries for _, _, answer in rows]
    numbers = [number for _, rows in entries for number, _, _ in rows]
    answer_w = max(pdfmetrics.stringWidth(a, _REGULAR, size) for a in answers)
    number_w = max(pdfmetrics.stringWidth(n, _BOLD, size) for n in numbers)
    right = _PAGE_W - _MARGIN
    clue_x = _MARGIN + number_w + _NUMBER_GAP
    clue_w = right - answer_w - _ANSWER_GAP - clue_x
    if clue_w < _CLUE_MIN_WIDTH:
        raise RenderError(f"an answer {answer_w:.0f}pt wide leaves too little room for the clues")
    first = top - size  # the first baseline
    per_page = int((first - _MARGIN) // LINE_STEP) + 1  # baselines that fit down to the bottom margin
    pages = [_Page()]
    line = 0  # the next free baseline on the current page

    def place(n_lines: int) -> float:
        nonlocal line
        if line + n_lines > per_page:
            pages.append(_Page())
            line = 0
        y = first - line * LINE_STEP
        line += n_lines
        return y

    for k, (heading, rows) in enumerate(entries):
        if k and line:
            line += 1  # a blank line between the sections
        for j, (number, clue, answer) in enumerate(rows):
            lines = _wrap(clue, _REGULAR, size, clue_w)
            if len(lines) + 1 > per_page:
                raise RenderError(f"{heading.title()} clue {number} is {len(lines)} lines long, more than a page")
            if j == 0:  # the heading stays with the section's first clue
                y = place(1 + len(lines))
                pages[-1].texts.append((_MARGIN, y, heading, _BOLD, size, "left"))
                y -= LINE_STEP
            else:
                y = place(len(lines))
            page = pages[-1]
            page.texts.append((clue_x - _NUMBER_GAP, y, number, _BOLD, size, "right"))
            for i, text in enumerate(lines):
                page.texts.append((clue_x, y - i * LINE_STEP, text, _REGULAR, size, "left"))
            page.texts.append((right, y, answer, _REGULAR, size, "right"))  # after the clue: text order reads right
    return pages


def _draw(c, page: _Page, puzzle: Puzzle, head: list[str], page_no: int, total: int) -> None:
    y = _HEAD_Y
    c.setFillGray(0)
    c.setFont(_REGULAR, _HEAD_SIZE)
    c.drawRightString(_PAGE_W - _MARGIN, y, f"{page_no} of {total}")
    for k, text in enumerate(head):
        c.setFont(_BOLD if k == 0 else _REGULAR, _HEAD_SIZE)
        c.drawString(_MARGIN, y - k * _HEAD_LEADING, text)
    rule = _head_rule(head)
    c.setLineWidth(0.5)
    c.setStrokeGray(0)
    c.line(_MARGIN, rule, _PAGE_W - _MARGIN, rule)
    for x, top, cell, filled in page.grids:
        if filled:
            _draw_grid(c, _GridOp(x=x, top=top, cell=cell, puzzle=puzzle, solution=True))
        _draw_grid(c, _GridOp(x=x, top=top, cell=cell, puzzle=puzzle, solution=False))
    c.setFillGray(0)
    for x, y, text, font, size, align in page.texts:
        c.setFont(font, size)
        if align == "right":
            c.drawRightString(x, y, text)
        else:
            c.drawString(x, y, text)
    c.showPage()


def render_submission(puzzle: Puzzle, out_path, constructor: str = "", contact: str = "", source: str | None = None) -> dict:
    """Lay out ``puzzle`` for submission to the New York Times, as a letter-size PDF.

    Parameters
    ----------
    puzzle : Puzzle
        A filled puzzle: every white cell one letter A-Z, every entry clued.
    out_path : str or os.PathLike
        Where to write the PDF (atomically).
    constructor : str, optional
        The name at the top of every page; the puzzle's author by default.
    contact : str, optional
        Address, e-mail, telephone: printed under the name on every page, a
        line per ``\\n``.
    source : str, optional
        Names the puzzle in warnings and errors; ``out_path`` by default.

    Returns
    -------
    dict
        ``pages`` (total), ``grid_pages`` (1: both grids on page 1; 2: the
        filled grid on page 1, the blank one on page 2), ``clue_pages``,
        ``path`` and ``warnings``: one per string that had to change for the
        Vera fonts, e.g. ``'p.ipuz, 3-Down: "東京" printed as "??"'``.

    Raises
    ------
    RenderError
        A white cell that is not one letter A-Z, an entry with no clue, or an
        answer so long the clue column would be narrower than 2 inches.

    Examples
    --------
    >>> import os, tempfile
    >>> from pipeline.model.grid import Grid
    >>> g = Grid.from_rows(["AB", "CD"])
    >>> p = Puzzle(g, {(s.direction, s.number): "Clue" for s in g.slots()}, title="Tiny")
    >>> out = os.path.join(tempfile.mkdtemp(), "nyt.pdf")
    >>> stats = render_submission(p, out, constructor="A. Setter", contact="a@example.org")
    >>> stats["pages"], stats["grid_pages"], stats["warnings"]
    (2, 1, [])

    Notes
    -----
    Every clue-list baseline lies on one grid of pitch :data:`LINE_STEP`
    (double spacing at :data:`CLUE_SIZE`); a clue that wraps keeps the same
    spacing and is never split across pages.  Deterministic: reportlab's
    invariant mode fixes dates and the document ID.  O(clue text).
    """
    source = str(out_path) if source is None else str(source)
    check_letters_and_clues(puzzle, source, "the submission grid needs one letter A-Z a square")
    _register_fonts()
    warnings: list[str] = []

    def clean(text: str, what: str) -> str:
        folded = _clean(text)
        if folded != text.strip():
            warnings.append(f'{source}, {what}: "{text}" printed as "{folded}"')
        return folded

    title = clean(puzzle.title, "title")
    name = constructor if constructor.strip() else puzzle.author
    head = [line for line in [clean(name, "constructor")] + [clean(x, "contact") for x in contact.splitlines()] if line]
    entries = []
    for direction in ("across", "down"):
        rows = [
            (str(slot.number), clean(clue, entry_name(slot)), answer) for slot, answer, clue in puzzle.entries(direction)
        ]
        if rows:
            entries.append((direction.upper(), rows))

    top = _content_top(head)
    grid_pages = _grid_pages(puzzle, title, top)
    clue_pages = _clue_pages(entries, top) if entries else []
    pages = grid_pages + clue_pages

    buf = io.BytesIO()
    c = rl_canvas.Canvas(buf, pagesize=letter, invariant=1, pageCompression=1, initialFontName=_REGULAR)
    c.setTitle(title or "Crossword")
    c.setAuthor(head[0] if head else "")
    c.setSubject("Crossword submission")
    c.setCreator("xwbook")
    for page_no, page in enumerate(pages, start=1):
        _draw(c, page, puzzle, head, page_no, len(pages))
    c.save()
    write_bytes(out_path, buf.getvalue())
    return {
        "pages": len(pages),
        "grid_pages": len(grid_pages),
        "clue_pages": len(clue_pages),
        "path": str(out_path),
        "warnings": warnings,
    }
