"""The reportlab renderer: a print-ready PDF book without TeX.

Page 1 is the title page, page 2 the copyright page, then one page per
puzzle (heading, numbered grid, Across and Down clues in columns), then the
solutions, several small filled grids per page.  The only fonts are the
Bitstream Vera TrueType fonts shipped inside reportlab, embedded as
subsets; the canvas runs in reportlab's *invariant* mode, so the same book
always gives the same bytes.

Layout of a puzzle page: the text block is cut into ``n`` clue columns
(3 on letter and A4, 2 on 6x9).  The grid sits at the top, either centred
over all the columns or right-aligned over the last few, and the clues flow
down the columns around it.  :func:`_layout_puzzle` tries type sizes from
9.5pt down to 7pt and grid sizes from large to small (then one column more)
and keeps the first arrangement in which every clue fits, with the columns
balanced; if none fits it raises
:class:`~pipeline.render.book.RenderError` rather than clip anything.
"""

from __future__ import annotations

import io
import math
import os
from dataclasses import dataclass, field
from pathlib import Path

import reportlab
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen import canvas as rl_canvas

from ..model.fileio import write_bytes
from ..model.grid import BLACK
from ..model.puzzle import Puzzle
from .book import Book, RenderError, Trim, fold_text, heading_title, solution_layout

__all__ = ["render_pdf", "FONT_MAX", "FONT_MIN"]

# -- fonts --------------------------------------------------------------------
_FONT_DIR = Path(os.path.dirname(reportlab.__file__)) / "fonts"
_REGULAR, _BOLD, _ITALIC = "XWBook-Vera", "XWBook-VeraBd", "XWBook-VeraIt"
_FONT_FILES = {_REGULAR: "Vera.ttf", _BOLD: "VeraBd.ttf", _ITALIC: "VeraIt.ttf"}
_CHARSET: frozenset[int] = frozenset()

# -- sizes, in points ---------------------------------------------------------
FONT_MAX = 9.5  # clue type size tried first
FONT_MIN = 7.0  # the floor: below this a puzzle is an error, not a squeeze
_FONT_STEP = 0.25
_LEADING = 1.2  # line spacing as a multiple of the type size
_CELL_MAX = 26.0  # grid square sizes: largest (15x15), comfortable, smallest
_CELL_MAX_SMALL = 36.0  # largest for a small grid (a 5x5 mini)
_CELL_COMFORT = 18.0
_CELL_MIN = 14.0
_COL_GAP = 12.0
_COL_MIN_WIDTH = 150.0
_GRID_GAP = 14.0  # between the grid and the clues below it
_HEAD_SIZE = 16.0
_HEAD_GAP = 12.0  # between the heading rule and the content
_SOL_CELL_MAX = 14.0
_SOL_CELL_MIN = 10.0
_SOL_GAP = 18.0
_COPYRIGHT_SIZES = (8.5, 8.0, 7.5, 7.0, 6.5, 6.0)


def _register_fonts() -> None:
    """Register the Vera TTFs once per process (idempotent)."""
    global _CHARSET
    if _CHARSET:
        return
    charset = None
    for name, filename in _FONT_FILES.items():
        path = _FONT_DIR / filename
        try:
            font = pdfmetrics.getFont(name)
        except KeyError:
            if not path.is_file():
                raise RenderError(f"reportlab's font {filename} is missing (reinstall reportlab)", path) from None
            font = TTFont(name, str(path))
            pdfmetrics.registerFont(font)
        keys = set(font.face.charToGlyph)
        charset = keys if charset is None else charset & keys
    _CHARSET = frozenset(charset)


def _clean(text: str) -> str:
    """``text`` with characters the Vera fonts lack folded to ASCII look-alikes."""
    return fold_text(str(text), lambda ch: ord(ch) in _CHARSET).strip()


def _width(text: str, font: str, size: float) -> float:
    return pdfmetrics.stringWidth(text, font, size)


def _wrap(text: str, font: str, size: float, width: float) -> list[str]:
    """Greedy line breaking at spaces; a word wider than ``width`` is split."""
    lines: list[str] = []
    line = ""
    for word in text.split():
        trial = f"{line} {word}" if line else word
        if _width(trial, font, size) <= width:
            line = trial
            continue
        if line:
            lines.append(line)
        line = ""
        while _width(word, font, size) > width:
            cut = len(word) - 1
            while cut > 1 and _width(word[:cut], font, size) > width:
                cut -= 1
            lines.append(word[:cut])
            word = word[cut:]
        line = word
    if line or not lines:
        lines.append(line)
    return lines


# -- drawing operations -------------------------------------------------------
@dataclass
class _Text:
    x: float
    y: float
    text: str
    font: str
    size: float
    align: str = "left"  # "left", "right" or "centre"


@dataclass
class _GridOp:
    x: float  # left edge
    top: float  # top edge
    cell: float
    puzzle: Puzzle
    solution: bool


@dataclass
class _Page:
    """Everything drawn on one page, computed before drawing."""

    texts: list[_Text] = field(default_factory=list)
    grids: list[_GridOp] = field(default_factory=list)
    rules: list[tuple[float, float, float]] = field(default_factory=list)  # x0, x1, y
    folio: bool = True  # print the page number
    clue_size: float | None = None
    outline: str = ""  # entry in the PDF's bookmarks, if any


@dataclass
class _Area:
    """The text block of a page, in points from the bottom-left corner."""

    left: float
    bottom: float
    width: float
    height: float

    @property
    def top(self) -> float:
        return self.bottom + self.height


def _area(trim: Trim, page: int) -> _Area:
    return _Area(
        trim.left_margin(page) * 72,
        trim.bottom * 72,
        trim.text_width * 72,
        trim.text_height * 72,
    )


def _heading(page: _Page, area: _Area, label: str, title: str) -> float:
    """Draw ``label`` (bold) and ``title`` with a rule below; return the content top."""
    y = area.top - _HEAD_SIZE * 0.8
    page.texts.append(_Text(area.left, y, label, _BOLD, _HEAD_SIZE))
    title = _clean(title)
    if title:
        size = 12.0
        x = area.left + _width(label, _BOLD, _HEAD_SIZE) + 10
        room = area.left + area.width - x
        if _width(title, _REGULAR, size) <= room:
            page.texts.append(_Text(x, y, title, _REGULAR, size))
        else:
            for line in _wrap(title, _REGULAR, size, area.width):
                y -= size * _LEADING
                page.texts.append(_Text(area.left, y, line, _REGULAR, size))
    y -= 7
    page.rules.append((area.left, area.left + area.width, y))
    return y - _HEAD_GAP


# -- puzzle pages -------------------------------------------------------------
@dataclass
class _Block:
    """One unbreakable item of the clue flow: a section heading or a clue."""

    height: float
    number: str  # "" for a heading
    lines: list[str]
    heading: bool = False


def _clue_blocks(puzzle: Puzzle, size: float, col_width: float) -> list[_Block]:
    lead = size * _LEADING
    num_width = _width("000.", _BOLD, size) + size * 0.35
    blocks = []
    for name, direction in (("ACROSS", "across"), ("DOWN", "down")):
        hsize = size + 1.5
        blocks.append(_Block(hsize * 1.45, "", [name], heading=True))
        for slot, _answer, clue in puzzle.entries(direction):
            lines = _wrap(_clean(clue), _REGULAR, size, col_width - num_width)
            blocks.append(_Block(len(lines) * lead + size * 0.15, f"{slot.number}.", lines))
    return blocks


def _column_options(area_width: float) -> list[tuple[int, float]]:
    """``(columns, column width)``: the usual count, then one more as a fallback."""
    n = max(1, int((area_width + _COL_GAP) // (_COL_MIN_WIDTH + _COL_GAP)))
    return [(m, (area_width - (m - 1) * _COL_GAP) / m) for m in (n, n + 1)]


def _grid_candidates(puzzle: Puzzle, area: _Area, top: float, ncol: int, col_w: float):
    """``(cell, grid_x, spanned_columns)`` options, largest squares first."""
    rows, cols = puzzle.grid.rows, puzzle.grid.cols
    height = top - area.bottom
    out = []
    hcap = min(height * 0.72 / rows, max(_CELL_MAX, min(_CELL_MAX_SMALL, 390.0 / cols)))
    # Centred over every column, at any size from the largest down.
    cell = math.floor(min(area.width / cols, hcap) * 2) / 2
    while cell >= _CELL_MIN:
        x = area.left + (area.width - cell * cols) / 2
        out.append((cell, x, ncol))
        cell -= 1.0
    # Right-aligned over the last s columns, as large as they allow.
    for s in range(ncol - 1, 0, -1):
        span = s * col_w + (s - 1) * _COL_GAP
        cell = math.floor(min(span / cols, hcap) * 2) / 2
        if cell >= _CELL_MIN:
            out.append((cell, area.left + area.width - cell * cols, s))
    out.sort(key=lambda t: (-t[0], -t[2]))
    return out


def _frames(tops: list[tuple[float, float]], bottom: float) -> list[tuple[float, float, float]]:
    """Columns ``(x, top)`` cut off at ``bottom``, as ``(x, top, height)`` frames."""
    return [(x, top, top - bottom) for x, top in tops if top - bottom > 0]


def _flow(blocks: list[_Block], frames: list[tuple[float, float, float]], size: float, page: _Page | None) -> bool:
    """Place ``blocks`` down ``frames`` ``(x, top, height)``; False if they overflow.

    With ``page`` None only checks the fit.  Blocks are never split; a
    heading moves to the next frame rather than end one.  O(len(blocks)).
    """
    lead = size * _LEADING
    num_width = _width("000.", _BOLD, size) + size * 0.35
    f, used = 0, 0.0
    placed: list[_Text] = []
    for k, block in enumerate(blocks):
        need = block.height
        if block.heading and k + 1 < len(blocks):
            need += blocks[k + 1].height  # keep a heading with its first clue
        gap = lead * 0.9 if block.heading and used > 0 else 0.0
        while f < len(frames) and used + gap + need > frames[f][2]:
            f, used, gap = f + 1, 0.0, 0.0
        if f == len(frames):
            return False
        x, top, _h = frames[f]
        used += gap
        if block.heading:
            hsize = size + 1.5
            placed.append(_Text(x, top - used - hsize * 0.95, block.lines[0], _BOLD, hsize))
        else:
            base = top - used - size * 0.95
            placed.append(_Text(x + num_width - size * 0.35, base, block.number, _BOLD, size, "right"))
            for i, line in enumerate(block.lines):
                placed.append(_Text(x + num_width, base - i * lead, line, _REGULAR, size))
        used += block.height
    if page is not None:
        page.texts.extend(placed)
    return True


def _layout_puzzle(book: Book, k: int, page_no: int) -> _Page:
    """Lay out puzzle ``k`` (0-based) on page ``page_no``; raise if it cannot fit."""
    puzzle = book.puzzles[k]
    area = _area(book.page_trim, page_no)
    # Preference: the usual columns with comfortable squares, then smaller
    # squares, then narrower columns; within each, the largest type first.
    passes = [(cols, floor) for cols in _column_options(area.width) for floor in (_CELL_COMFORT, _CELL_MIN)]
    for (ncol, col_w), floor in passes:
        size = FONT_MAX
        while size >= FONT_MIN - 1e-9:
            blocks = _clue_blocks(puzzle, size, col_w)
            page = _Page()
            top = _heading(page, area, f"Puzzle {k + 1}", heading_title(puzzle, k + 1))
            for cell, gx, span in _grid_candidates(puzzle, area, top, ncol, col_w):
                if cell < floor:
                    continue
                tops = []
                for c in range(ncol):
                    x = area.left + c * (col_w + _COL_GAP)
                    gw = puzzle.grid.cols * cell
                    covered = x < gx + gw - 0.01 and x + col_w > gx + 0.01  # grid above it
                    tops.append((x, top - puzzle.grid.rows * cell - _GRID_GAP if covered else top))
                if not _flow(blocks, _frames(tops, area.bottom), size, None):
                    continue
                # It fits: raise the common bottom line as far as it still
                # fits, so the columns come out balanced instead of the
                # first ones full and the last ones empty.
                lo, hi = area.bottom, top
                for _ in range(14):
                    mid = (lo + hi) / 2
                    lo, hi = (mid, hi) if _flow(blocks, _frames(tops, mid), size, None) else (lo, mid)
                trial = _Page(texts=list(page.texts), rules=list(page.rules))
                _flow(blocks, _frames(tops, lo), size, trial)
                trial.grids.append(_GridOp(gx, top, cell, puzzle, solution=False))
                trial.clue_size = size
                trial.outline = f"Puzzle {k + 1}" + (f": {_clean(heading_title(puzzle, k + 1))}" if heading_title(puzzle, k + 1) else "")
                return trial
            size -= _FONT_STEP
    n = len(puzzle.grid.slots())
    raise RenderError(
        f"puzzle {k + 1} ({puzzle.title or 'untitled'}): its {n} clues do not fit on one "
        f"{book.trim} page even at {FONT_MIN:g}pt type with {_CELL_MIN:g}pt squares; "
        "shorten the clues or choose a larger trim",
        book.source(k),
    )


# -- front matter -------------------------------------------------------------
def _title_page(book: Book) -> _Page:
    trim = book.page_trim
    area = _area(trim, 1)
    page = _Page(folio=False)
    cx = area.left + area.width / 2
    y = area.top - area.height * 0.28
    for size in (30.0, 26.0, 22.0, 18.0):
        lines = _wrap(_clean(book.title), _BOLD, size, area.width)
        if len(lines) <= 3:
            break
    for line in lines:
        page.texts.append(_Text(cx, y, line, _BOLD, size, "centre"))
        y -= size * 1.2
    if book.subtitle:
        y -= 8
        for line in _wrap(_clean(book.subtitle), _ITALIC, 15.0, area.width):
            page.texts.append(_Text(cx, y, line, _ITALIC, 15.0, "centre"))
            y -= 15.0 * 1.25
    page.rules.append((cx - 60, cx + 60, y - 6))
    if book.author:
        y = area.bottom + area.height * 0.25
        for line in _wrap(_clean(book.author), _REGULAR, 14.0, area.width):
            page.texts.append(_Text(cx, y, line, _REGULAR, 14.0, "centre"))
            y -= 14.0 * 1.25
    return page


def _copyright_page(book: Book) -> _Page:
    area = _area(book.page_trim, 2)
    paragraphs = [_clean(p) for p in book.copyright_lines if _clean(p)]
    for size in _COPYRIGHT_SIZES:
        lead = size * 1.3
        wrapped = [_wrap(p, _REGULAR, size, area.width) for p in paragraphs]
        height = sum(len(w) for w in wrapped) * lead + max(0, len(wrapped) - 1) * size * 0.6
        if height <= area.height:
            break
    else:
        raise RenderError(
            f"the copyright page's {len(paragraphs)} paragraphs do not fit on one {book.trim} page "
            f"even at {_COPYRIGHT_SIZES[-1]:g}pt; shorten the notices"
        )
    page = _Page(folio=False)
    y = area.bottom + height - size * 0.95
    for lines in wrapped:
        for line in lines:
            page.texts.append(_Text(area.left, y, line, _REGULAR, size))
            y -= lead
        y -= size * 0.6
    return page


# -- solutions ----------------------------------------------------------------
def _solution_layout(book: Book) -> tuple[int, int]:
    area = _area(book.page_trim, 1)
    return solution_layout(
        area.width,
        area.height - (_HEAD_SIZE + 7 + _HEAD_GAP),
        max(p.grid.rows for p in book.puzzles),
        max(p.grid.cols for p in book.puzzles),
        _SOL_GAP,
        16,
        _SOL_CELL_MIN,
    )


def _solution_pages(book: Book, first_page: int) -> list[_Page]:
    ncol, nrow = _solution_layout(book)
    per_page = ncol * nrow
    pages = []
    for start in range(0, len(book.puzzles), per_page):
        page_no = first_page + len(pages)
        area = _area(book.page_trim, page_no)
        page = _Page()
        top = _heading(page, area, "Solutions", "")
        sw = (area.width - (ncol - 1) * _SOL_GAP) / ncol
        sh = (top - area.bottom - (nrow - 1) * _SOL_GAP) / nrow
        for j, k in enumerate(range(start, min(start + per_page, len(book.puzzles)))):
            grid = book.puzzles[k].grid
            r, c = divmod(j, ncol)
            x = area.left + c * (sw + _SOL_GAP)
            y = top - r * (sh + _SOL_GAP)
            cell = min(_SOL_CELL_MAX, sw / grid.cols, (sh - 16) / grid.rows)
            gx = x + (sw - cell * grid.cols) / 2
            page.texts.append(_Text(gx, y - 9, f"Puzzle {k + 1}", _BOLD, 9.0))
            page.grids.append(_GridOp(gx, y - 16, cell, book.puzzles[k], solution=True))
        if not pages:
            page.outline = "Solutions"
        pages.append(page)
    return pages


# -- drawing ------------------------------------------------------------------
def _draw_grid(c, op: _GridOp) -> None:
    g = op.puzzle.grid
    cell, x0, top = op.cell, op.x, op.top
    c.setFillGray(0)
    c.setStrokeGray(0)
    for i, ch in enumerate(g.cells):
        if ch == BLACK:
            r, col = divmod(i, g.cols)
            c.rect(x0 + col * cell, top - (r + 1) * cell, cell, cell, stroke=0, fill=1)
    c.setLineWidth(0.5 if not op.solution else 0.35)
    c.grid([x0 + j * cell for j in range(g.cols + 1)], [top - r * cell for r in range(g.rows + 1)])
    c.setLineWidth(1.25 if not op.solution else 0.8)
    c.rect(x0, top - g.rows * cell, g.cols * cell, g.rows * cell, stroke=1, fill=0)
    if op.solution:
        size = cell * 0.62
        c.setFont(_REGULAR, size)
        for i, ch in enumerate(g.cells):
            if ch != BLACK:
                r, col = divmod(i, g.cols)
                c.drawCentredString(x0 + (col + 0.5) * cell, top - (r + 0.5) * cell - size * 0.36, _clean(ch))
    else:
        size = max(4.5, min(cell * 0.3, 7.5))
        c.setFont(_REGULAR, size)
        for i, n in sorted(g.numbers().items()):
            r, col = divmod(i, g.cols)
            c.drawString(x0 + col * cell + cell * 0.07, top - r * cell - size * 0.95, str(n))


def _draw_page(c, page: _Page, page_no: int, trim: Trim) -> None:
    c.setFont(_REGULAR, 10)
    for x0, x1, y in page.rules:
        c.setLineWidth(0.5)
        c.setStrokeGray(0)
        c.line(x0, y, x1, y)
    for op in page.grids:
        _draw_grid(c, op)
    c.setFillGray(0)
    for t in page.texts:
        c.setFont(t.font, t.size)
        if t.align == "right":
            c.drawRightString(t.x, t.y, t.text)
        elif t.align == "centre":
            c.drawCentredString(t.x, t.y, t.text)
        else:
            c.drawString(t.x, t.y, t.text)
    if page.outline:
        key = f"page{page_no}"
        c.bookmarkPage(key)
        c.addOutlineEntry(page.outline, key, level=0)
    if page.folio:
        area = _area(trim, page_no)
        c.setFont(_REGULAR, 9)
        c.drawCentredString(area.left + area.width / 2, trim.bottom * 72 * 0.5, str(page_no))
    c.showPage()


def render_pdf(book: Book, out_path) -> dict:
    """Render ``book`` to a PDF with reportlab.

    Parameters
    ----------
    book : Book
        The puzzles and front matter; ``book.trim`` sets the page size.
    out_path : str or os.PathLike
        Where to write the PDF (atomically: a crash leaves no partial file).

    Returns
    -------
    dict
        ``pages`` (total), ``puzzle_pages``, ``solution_pages``,
        ``solutions_per_page``, ``min_font_size`` (smallest clue type used,
        points), ``trim`` and ``path``.

    Raises
    ------
    RenderError
        If the book is invalid, or a puzzle's clues do not fit on its page
        at the 7pt floor, or the copyright page overflows.

    Examples
    --------
    >>> from pipeline.model.grid import Grid
    >>> from pipeline.model.puzzle import Puzzle
    >>> import tempfile, os
    >>> g = Grid.from_rows(["AB", "CD"])
    >>> p = Puzzle(g, {(s.direction, s.number): "clue" for s in g.slots()})
    >>> out = os.path.join(tempfile.mkdtemp(), "b.pdf")
    >>> render_pdf(Book("T", "", "", [], [p]), out)["pages"]
    4

    Notes
    -----
    Deterministic: reportlab's invariant mode fixes the dates and document
    ID, and nothing else varies, so equal books give equal bytes.  Time is
    O(puzzles * clues * tries), a fraction of a second per puzzle.
    """
    book.validate()
    _register_fonts()
    trim = book.page_trim
    pages = [_title_page(book), _copyright_page(book)]
    for k in range(len(book.puzzles)):
        pages.append(_layout_puzzle(book, k, len(pages) + 1))
    n_before = len(pages)
    pages.extend(_solution_pages(book, n_before + 1))
    ncol, nrow = _solution_layout(book)

    buf = io.BytesIO()
    c = rl_canvas.Canvas(
        buf,
        pagesize=(trim.width * 72, trim.height * 72),
        invariant=1,
        pageCompression=1,
        initialFontName=_REGULAR,
        initialFontSize=10,
    )
    c.setTitle(_clean(book.title))
    c.setAuthor(_clean(book.author))
    c.setSubject("Crossword puzzles")
    c.setCreator("xwbook")
    for page_no, page in enumerate(pages, start=1):
        _draw_page(c, page, page_no, trim)
    c.save()
    write_bytes(out_path, buf.getvalue())
    sizes = [p.clue_size for p in pages if p.clue_size is not None]
    return {
        "pages": len(pages),
        "puzzle_pages": len(book.puzzles),
        "solution_pages": len(pages) - n_before,
        "solutions_per_page": ncol * nrow,
        "min_font_size": min(sizes),
        "trim": trim.name,
        "path": str(out_path),
    }
