"""The reportlab renderer: a print-ready PDF book without TeX.

The book follows :func:`~pipeline.render.layout.plan_book`, the page plan the
LaTeX renderer follows too: page 1 is the title page, page 2 the copyright
page, then the contents (each section in bold with its puzzle range, every
puzzle and the page it starts on, with dot leaders), then page by page
what the plan says -- section opening pages, puzzles, minis pages, any
blank page -- and the solutions, section by section, several small filled
grids per page.  Every page but the title, copyright, section and blank
pages carries a running head in its top margin (what the page holds on the
outer side, the book's title in italic on the inner side, a thin rule under
both) and its number centred in the footer.

A puzzle is headed "Puzzle k" and its level and title ("Easy · Fire ___").
By its size and the layout (``book.page_layout``):

``"page"``
    A puzzle on one page: heading, numbered grid, Across and Down clues in
    columns (3 on letter and A4, 2 on 6x9, one more and narrower when the
    clues need it).  The grid sits at the top,
    centred over all the columns or right-aligned over the last few, and
    the clues flow down the columns around it.
``"facing"``
    The grid on a left-hand page, as large as the text block allows; its
    clues on the right-hand page facing it, down as many columns of at
    least 150pt as fit.
large grids (21x21, 25x25)
    The grid alone on a page, its clues down the following page(s) (in
    ``"facing"``, from the page facing it); over several pages each is
    filled before the next.
minis (in a titled section)
    Several to a page, stacked: a caption, the grid on the left, its clues
    beside it (:func:`~pipeline.render.layout.mini_box`), in type up to
    three points over the trim's floor.

Type: clues are set as large as fits, from the trim's ``font_max`` down to
its ``font_floor`` (14pt to 8pt; large print 16pt to 11pt).  A puzzle that
needs smaller type is set smaller, down to
:data:`~pipeline.render.book.FONT_HARD_MIN`, with a warning on stderr and
an entry in the render's ``below_floor``; below that it is a
:class:`~pipeline.render.book.RenderError`, never clipped text.

Every page is computed before anything is drawn, and checked: every text
run, measured, must lie inside its column or the text block (running heads
and folios inside their margins), no text may overlap a grid, and every
grid must lie inside the text block.

The only fonts are the Bitstream Vera TrueType fonts shipped inside
reportlab, embedded as subsets; the canvas runs in reportlab's *invariant*
mode, so the same book always gives the same bytes.
"""

from __future__ import annotations

import io
import math
import sys
from dataclasses import dataclass, field

from reportlab import rl_config
from reportlab.pdfgen import canvas as rl_canvas

from ..model.fileio import write_bytes
from ..model.grid import BLACK
from ..model.progress import Progress
from ..model.puzzle import Puzzle
from .book import Book, RenderError, Trim, clip_text
from .layout import (
    CONTENTS_COL_GAP,
    CONTENTS_LEADING,
    CONTENTS_SIZE,
    GRID_PAGE_CELL_MIN,
    HEADING_HEIGHT,
    MINI_CAPTION,
    MINI_CAPTION_SIZE,
    MINI_COL_GAP,
    SOLUTION_CAPTION,
    SOLUTION_CELL_MAX,
    SOLUTION_GAP,
    PageSpec,
    Plan,
    SectionLine,
    contents_label,
    mini_box,
    mini_type_max,
    plan_book,
    plan_stats,
    puzzle_caption,
    section_blurb,
)
from .pdftext import (  # noqa: F401  (_Clues, _flow and the rest: the tests reach them through this module)
    _ASCENT,
    _BOLD,
    _COL_GAP,
    _DESCENT,
    _ITALIC,
    _LEADING,
    _REGULAR,
    _Clues,
    _Text,
    _balanced,
    _choose_size,
    _clean,
    _column_options,
    _flow,
    _frames,
    _register_fonts,
    _width,
    _wrap,
)

__all__ = ["render_pdf"]


# -- sizes, in points ---------------------------------------------------------
_CELL_MAX = 26.0  # grid square sizes: largest (15x15), comfortable, smallest
_CELL_MAX_SMALL = 36.0  # largest for a small grid (a 5x5 mini), and on a grid page
_CELL_COMFORT = 18.0
_CELL_MIN = 14.0
_GRID_GAP = 14.0  # between the grid and the clues below it
_HEAD_SIZE = 16.0
_HEAD_GAP = 12.0  # between the heading rule and the content
_RUNNING_SIZE = 8.0  # running heads
_RUNNING_RAISE = 20.0  # running head baseline above the text block, at most
_RUNNING_RULE = 4.0  # its rule, below the baseline
_FOLIO_SIZE = 9.0
_SOL_CAPTION_SIZE = 9.0
_COPYRIGHT_SIZES = (8.5, 8.0, 7.5, 7.0, 6.5, 6.0)
_EPS = 0.01  # tolerance of the overflow check


# -- drawing operations -------------------------------------------------------

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
    rules: list[tuple[float, float, float, float]] = field(default_factory=list)  # x0, x1, y, width
    folio: bool = True  # print the page number
    head: str | None = None  # the running head's outer part; None: no running head
    clue_sizes: dict[int, float] = field(default_factory=dict)  # 0-based puzzle -> its clue type
    outline: str = ""  # entry in the PDF's bookmarks, if any
    what: str = ""  # what the page holds, for error messages ("puzzle 7")


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

    @property
    def right(self) -> float:
        return self.left + self.width


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
        room = area.right - x
        if _width(title, _REGULAR, size) <= room:
            page.texts.append(_Text(x, y, title, _REGULAR, size))
        else:
            for line in _wrap(title, _REGULAR, size, area.width):
                y -= size * _LEADING
                page.texts.append(_Text(area.left, y, line, _REGULAR, size))
    y -= 7
    page.rules.append((area.left, area.right, y, 0.5))
    return y - _HEAD_GAP


def _fixed_heading(page: _Page, area: _Area, label: str, title: str = "") -> float:
    """A heading in the plan's :data:`HEADING_HEIGHT`, ``title`` cut to its line; return the content top."""
    room = area.width - _width(label, _BOLD, _HEAD_SIZE) - 10
    title = clip_text(_clean(title), room, lambda t: _width(t, _REGULAR, 12.0))
    top = _heading(page, area, label, title)
    if top < area.top - HEADING_HEIGHT:  # a constant that drifted, not bad input
        raise RenderError(f"the {label!r} heading takes {area.top - top:.1f}pt, over the plan's {HEADING_HEIGHT:g}pt")
    return area.top - HEADING_HEIGHT




# -- puzzle pages -------------------------------------------------------------
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


def _column_tops(puzzle: Puzzle, area: _Area, top: float, ncol: int, col_w: float, cell: float, gx: float):
    """``(x, top)`` of each clue column: below the grid where the grid is above it."""
    tops = []
    gw = puzzle.grid.cols * cell
    for c in range(ncol):
        x = area.left + c * (col_w + _COL_GAP)
        covered = x < gx + gw - 0.01 and x + col_w > gx + 0.01
        tops.append((x, top - puzzle.grid.rows * cell - _GRID_GAP if covered else top))
    return tops



def _puzzle_page(book: Book, k: int, page_no: int) -> _Page:
    """Puzzle ``k`` (0-based), grid and clues, on page ``page_no``."""
    puzzle, trim = book.puzzles[k], book.page_trim
    area = _area(trim, page_no)
    clues = _Clues(puzzle)
    page = _Page(head=contents_label(puzzle, k + 1), outline=_clean(contents_label(puzzle, k + 1)), what=f"puzzle {k + 1}")
    top = _heading(page, area, f"Puzzle {k + 1}", puzzle_caption(puzzle, k + 1))
    # Preference: the usual columns with comfortable squares, then smaller
    # squares, then narrower columns; within each, the largest type, then
    # the largest grid that leaves room for it.
    passes = []
    for ncol, col_w in _column_options(area.width):
        candidates = _grid_candidates(puzzle, area, top, ncol, col_w)
        for floor in (_CELL_COMFORT, _CELL_MIN):
            passes.append((ncol, col_w, [c for c in candidates if c[0] >= floor]))

    def fits(p, size):
        ncol, col_w, candidates = p
        blocks = clues.blocks(size, col_w)
        for cell, gx, _span in candidates:
            tops = _column_tops(puzzle, area, top, ncol, col_w, cell, gx)
            if _flow(blocks, _frames(tops, area.bottom, col_w), size, None):
                return cell, gx, tops, col_w
        return None

    found = _choose_size(trim, passes, fits)
    if found is None:
        raise book.clues_do_not_fit(k, f" with {_CELL_MIN:g}pt squares")
    size, (cell, gx, tops, col_w) = found
    page.texts.extend(_balanced(clues.blocks(size, col_w), tops, area.bottom, col_w, size, clues.number_width(size)))
    page.grids.append(_GridOp(gx, top, cell, puzzle, solution=False))
    page.clue_sizes[k] = size
    return page


def _grid_page(book: Book, k: int, page_no: int) -> _Page:
    """Puzzle ``k``'s grid alone, as large as the text block allows (the ``facing`` layout)."""
    puzzle = book.puzzles[k]
    area = _area(book.page_trim, page_no)
    page = _Page(head=contents_label(puzzle, k + 1), outline=_clean(contents_label(puzzle, k + 1)), what=f"puzzle {k + 1}")
    top = _heading(page, area, f"Puzzle {k + 1}", puzzle_caption(puzzle, k + 1))
    rows, cols = puzzle.grid.rows, puzzle.grid.cols
    cell = math.floor(min(_CELL_MAX_SMALL, area.width / cols, (top - area.bottom) / rows) * 2) / 2
    if cell < GRID_PAGE_CELL_MIN:
        raise RenderError(
            f"puzzle {k + 1}: its {rows}x{cols} grid needs squares of at least {GRID_PAGE_CELL_MIN:g}pt; "
            f"a {book.page_trim.name} page allows {cell:g}pt (choose a larger trim)",
            book.source(k),
        )
    page.grids.append(_GridOp(area.left + (area.width - cell * cols) / 2, top, cell, puzzle, solution=False))
    return page


def _clue_pages(book: Book, k: int, page_no: int, count: int) -> list[_Page]:
    """Puzzle ``k``'s clues down the columns of ``count`` whole pages from ``page_no`` (a grid page's clues).

    On one page the columns are balanced; over several, each page is filled
    before the next.
    """
    puzzle, trim = book.puzzles[k], book.page_trim
    clues = _Clues(puzzle)
    pages, frames, tops = [], [], []
    for i in range(count):
        area = _area(trim, page_no + i)
        page = _Page(head=contents_label(puzzle, k + 1), what=f"puzzle {k + 1}")
        top = _heading(page, area, f"Puzzle {k + 1}", "Clues" if i == 0 else "Clues (continued)")
        ncol, col_w = _column_options(area.width)[0]
        tops = [(area.left + c * (col_w + _COL_GAP), top) for c in range(ncol)]
        frames += _frames(tops, area.bottom, col_w)
        pages.append(page)

    def fits(_p, size):
        return True if _flow(clues.blocks(size, col_w), frames, size, None) else None

    found = _choose_size(trim, [None], fits)
    if found is None:
        raise book.clues_do_not_fit(k, f" on {count} page{'s' if count > 1 else ''}")
    size = found[0]
    blocks, num_width = clues.blocks(size, col_w), clues.number_width(size)
    if count == 1:
        pages[0].texts.extend(_balanced(blocks, tops, area.bottom, col_w, size, num_width))
    else:
        placed, owners = [], []
        _flow(blocks, frames, size, placed, num_width, owners)
        for text, f in zip(placed, owners):
            pages[f // ncol].texts.append(text)
    pages[0].clue_sizes[k] = size
    return pages


# -- front matter -------------------------------------------------------------
def _centred_heading(page: _Page, text: str, sizes, cx: float, y: float, width: float) -> tuple[float, float]:
    """``text`` in bold, centred on ``cx`` from ``y`` down, at the first of ``sizes`` that takes three
    lines or fewer; returns the ``y`` below it and the size used."""
    for size in sizes:
        lines = _wrap(_clean(text), _BOLD, size, width)
        if len(lines) <= 3:
            break
    for line in lines:
        page.texts.append(_Text(cx, y, line, _BOLD, size, "centre"))
        y -= size * 1.2
    return y, size


def _title_page(book: Book) -> _Page:
    trim = book.page_trim
    area = _area(trim, 1)
    page = _Page(folio=False, what="the title page")
    cx = area.left + area.width / 2
    y = area.top - area.height * 0.28
    y, size = _centred_heading(page, book.title, (30.0, 26.0, 22.0, 18.0), cx, y, area.width)
    if book.subtitle:
        y -= 8
        for line in _wrap(_clean(book.subtitle), _ITALIC, 15.0, area.width):
            page.texts.append(_Text(cx, y, line, _ITALIC, 15.0, "centre"))
            y -= 15.0 * 1.25
    page.rules.append((cx - 60, cx + 60, y - 6, 0.5))
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
    page = _Page(folio=False, what="the copyright page")
    y = area.bottom + height - size * 0.95
    for lines in wrapped:
        for line in lines:
            page.texts.append(_Text(area.left, y, line, _REGULAR, size))
            y -= lead
        y -= size * 0.6
    return page


def _contents_page(book: Book, plan: Plan, index: int, page_no: int) -> _Page:
    """Contents page ``index`` (0-based): label, dot leaders and page number, down columns."""
    area = _area(book.page_trim, page_no)
    page = _Page(head="Contents", outline="Contents" if index == 0 else "", what="the contents")
    top = _fixed_heading(page, area, "Contents")
    ncol, nrow = plan.contents_columns, plan.contents_rows
    col_w = (area.width - (ncol - 1) * CONTENTS_COL_GAP) / ncol
    size = CONTENTS_SIZE
    pitch = _width(" .", _REGULAR, size)
    for i, line in enumerate(plan.contents[index]):
        label, number = line
        font = _BOLD if isinstance(line, SectionLine) else _REGULAR
        c, r = divmod(i, nrow)
        if c >= ncol:
            raise RenderError(f"contents page {index + 1} holds more lines than its {ncol}x{nrow}")
        x = area.left + c * (col_w + CONTENTS_COL_GAP)
        y = top - r * CONTENTS_LEADING - (CONTENTS_LEADING + size * (_ASCENT - _DESCENT)) / 2
        box = (x, top - (r + 1) * CONTENTS_LEADING, x + col_w, top - r * CONTENTS_LEADING)
        num = str(number)
        num_x0 = x + col_w - _width(num, _REGULAR, size)
        text = clip_text(_clean(label), num_x0 - x - 2 * pitch, lambda t: _width(t, font, size))
        page.texts.append(_Text(x, y, text, font, size, box=box))
        # Dot leaders on a pitch common to every line, so the dots line up.
        first = math.ceil((_width(text, font, size) + pitch * 0.25) / pitch)
        last = math.floor((num_x0 - pitch * 0.25 - x) / pitch)
        if last > first:
            page.texts.append(_Text(x + first * pitch, y, " ." * (last - first), _REGULAR, size, box=box))
        page.texts.append(_Text(x + col_w, y, num, _REGULAR, size, "right", box))
    return page


# -- sections and minis ----------------------------------------------------------
def _section_page(book: Book, plan: Plan, spec: PageSpec, page_no: int) -> _Page:
    """A section's opening page: its title, its puzzles' range, sizes and levels; no head, no folio."""
    section = plan.sections[spec.index]
    area = _area(book.page_trim, page_no)
    page = _Page(folio=False, outline=_clean(section.title), what=f"the opening of section {section.title!r}")
    cx = area.left + area.width / 2
    y = area.top - area.height * 0.3
    y, size = _centred_heading(page, section.title, (28.0, 24.0, 20.0, 16.0), cx, y, area.width)
    page.rules.append((cx - 60, cx + 60, y + size * 0.4, 0.5))
    y -= 14.0 * 1.2
    for text, font, tsize in ((section.puzzle_range, _REGULAR, 14.0),
                              (section_blurb(book.puzzles, section.first, section.last), _ITALIC, 12.0)):  # fmt: skip
        for line in _wrap(_clean(text), font, tsize, area.width):
            page.texts.append(_Text(cx, y, line, font, tsize, "centre"))
            y -= tsize * 1.5
    return page


def _caption(page: _Page, x: float, y: float, width: float, k: int, caption: str, box) -> None:
    """A mini's caption line: "Puzzle k" in bold, then its level and title, cut to ``width``."""
    label = f"Puzzle {k + 1}"
    page.texts.append(_Text(x, y, label, _BOLD, MINI_CAPTION_SIZE, box=box))
    caption = _clean(caption)
    if caption:
        x1 = x + _width(label, _BOLD, MINI_CAPTION_SIZE) + 8
        size = MINI_CAPTION_SIZE - 1
        text = clip_text(caption, x + width - x1, lambda t: _width(t, _REGULAR, size))
        page.texts.append(_Text(x1, y, text, _REGULAR, size, box=box))


def _minis_page(book: Book, plan: Plan, spec: PageSpec, page_no: int) -> _Page:
    """Several minis stacked down the page (:func:`~pipeline.render.layout.mini_box`): caption, grid, clues beside it."""
    trim = book.page_trim
    area = _area(trim, page_no)
    ks = spec.puzzles
    page = _Page(head=plan.running_head(book.puzzles, spec), outline=_clean(plan.running_head(book.puzzles, spec)),
                 what=f"puzzles {ks[0] + 1}-{ks[-1] + 1}")  # fmt: skip
    for slot, k in enumerate(ks):
        puzzle = book.puzzles[k]
        box = mini_box(area.width, area.height, puzzle.grid.rows, puzzle.grid.cols, spec.rows, slot)
        top = area.top - box.top
        region = (area.left, top - box.height, area.right, top)
        _caption(page, area.left, top - MINI_CAPTION_SIZE * 0.95, area.width, k, puzzle_caption(puzzle, k + 1), region)
        body = top - MINI_CAPTION
        page.grids.append(_GridOp(area.left, body, box.cell, puzzle, solution=False))
        clues = _Clues(puzzle)
        col_w = box.column_width
        tops = [(area.left + box.clue_x + c * (col_w + MINI_COL_GAP), body) for c in range(box.columns)]
        bottom = top - box.height
        frames = _frames(tops, bottom, col_w)

        def fits(_p, size, clues=clues, frames=frames):
            return True if _flow(clues.blocks(size, col_w), frames, size, None) else None

        found = _choose_size(trim, [None], fits, mini_type_max(trim))
        if found is None:
            raise book.clues_do_not_fit(k, f" beside a {puzzle.grid.rows}x{puzzle.grid.cols} mini")
        size = found[0]
        page.texts.extend(_balanced(clues.blocks(size, col_w), tops, bottom, col_w, size, clues.number_width(size)))
        page.clue_sizes[k] = size
    return page


# -- solutions ----------------------------------------------------------------
def _solutions_page(book: Book, plan: Plan, spec: PageSpec, page_no: int) -> _Page:
    """A solutions page: its puzzles' filled grids, row by row, under its section's title."""
    index = spec.index
    area = _area(book.page_trim, page_no)
    page = _Page(head=plan.solution_label(index), outline="Solutions" if index == 0 else "", what="the solutions")
    top = _fixed_heading(page, area, "Solutions", plan.sections[spec.section].title)
    ncol, nrow = spec.columns, spec.rows
    sw = (area.width - (ncol - 1) * SOLUTION_GAP) / ncol
    sh = (top - area.bottom - (nrow - 1) * SOLUTION_GAP) / nrow
    for j, k in enumerate(spec.puzzles):
        grid = book.puzzles[k].grid
        r, c = divmod(j, ncol)
        if r >= nrow:
            raise RenderError(f"solutions page {index + 1} holds more grids than its {ncol}x{nrow}")
        x = area.left + c * (sw + SOLUTION_GAP)
        y = top - r * (sh + SOLUTION_GAP)
        cell = min(SOLUTION_CELL_MAX, sw / grid.cols, (sh - SOLUTION_CAPTION) / grid.rows)
        gx = x + (sw - cell * grid.cols) / 2
        page.texts.append(_Text(gx, y - _SOL_CAPTION_SIZE, f"Puzzle {k + 1}", _BOLD, _SOL_CAPTION_SIZE))
        page.grids.append(_GridOp(gx, y - SOLUTION_CAPTION, cell, book.puzzles[k], solution=True))
    return page


# -- running heads, folios and the overflow check -------------------------------
def _furnish(page: _Page, trim: Trim, page_no: int, book_title: str) -> None:
    """Add the running head (outer part and italic book title) and the folio to ``page``."""
    area = _area(trim, page_no)
    if page.head is not None:
        top_margin = trim.height * 72 - area.top
        y = area.top + min(_RUNNING_RAISE, top_margin * 0.5)
        box = (area.left, area.top, area.right, trim.height * 72)
        outer = clip_text(_clean(page.head), area.width * 0.62, lambda t: _width(t, _REGULAR, _RUNNING_SIZE))
        outer_w = _width(outer, _REGULAR, _RUNNING_SIZE)
        inner = clip_text(book_title, area.width - outer_w - 18, lambda t: _width(t, _ITALIC, _RUNNING_SIZE))
        if page_no % 2 == 1:  # recto: outer side on the right
            page.texts.append(_Text(area.right, y, outer, _REGULAR, _RUNNING_SIZE, "right", box))
            if inner:
                page.texts.append(_Text(area.left, y, inner, _ITALIC, _RUNNING_SIZE, box=box))
        else:
            page.texts.append(_Text(area.left, y, outer, _REGULAR, _RUNNING_SIZE, box=box))
            if inner:
                page.texts.append(_Text(area.right, y, inner, _ITALIC, _RUNNING_SIZE, "right", box))
        page.rules.append((area.left, area.right, y - _RUNNING_RULE, 0.4))
    if page.folio:
        box = (area.left, 0.0, area.right, area.bottom)
        page.texts.append(_Text(area.left + area.width / 2, area.bottom * 0.5, str(page_no), _REGULAR, _FOLIO_SIZE, "centre", box))


def _check_page(page: _Page, page_no: int, trim: Trim) -> None:
    """Raise :class:`RenderError` if anything on ``page`` lies outside its place.

    Every text run, at its measured width and the font's ascender and
    descender, must lie inside its box (its column, or the text block), not
    over a grid; every grid inside the text block.  O(texts * grids).
    """
    area = _area(trim, page_no)
    block = (area.left, area.bottom, area.right, area.top)

    def fail(what: str):
        where = f"page {page_no}" + (f" ({page.what})" if page.what else "")
        return RenderError(f"{where}: {what} (a layout bug: please report it)")

    rects = []
    for g in page.grids:
        x0, x1 = g.x, g.x + g.puzzle.grid.cols * g.cell
        y0, y1 = g.top - g.puzzle.grid.rows * g.cell, g.top
        if x0 < block[0] - _EPS or x1 > block[2] + _EPS or y0 < block[1] - _EPS or y1 > block[3] + _EPS:
            raise fail(f"a {g.cell:g}pt grid at ({x0:.1f}, {y0:.1f})-({x1:.1f}, {y1:.1f}) leaves the text block")
        rects.append((x0, y0, x1, y1))
    for t in page.texts:
        w = _width(t.text, t.font, t.size)
        x0 = t.x - w if t.align == "right" else t.x - w / 2 if t.align == "centre" else t.x
        x1, y0, y1 = x0 + w, t.y - t.size * _DESCENT, t.y + t.size * _ASCENT
        left, bottom, right, top = t.box or block
        if x0 < left - _EPS or x1 > right + _EPS:
            raise fail(f"{t.text!r} runs {max(left - x0, x1 - right):.2f}pt outside its column")
        if y0 < bottom - _EPS or y1 > top + _EPS:
            raise fail(f"{t.text!r} runs {max(bottom - y0, y1 - top):.2f}pt below or above its column")
        for gx0, gy0, gx1, gy1 in rects:
            if x0 < gx1 - _EPS and x1 > gx0 + _EPS and y0 < gy1 - _EPS and y1 > gy0 + _EPS:
                raise fail(f"{t.text!r} overlaps a grid")


# -- drawing ------------------------------------------------------------------
def _draw_grid(c, op: _GridOp) -> None:
    """Draw a grid: black squares, lines, frame, then numbers (puzzle) or letters (solution)."""
    _register_fonts()
    g = op.puzzle.grid
    cell, x0, top = op.cell, op.x, op.top
    c.setFillGray(0)
    c.setStrokeGray(0)
    path = c.beginPath()
    for r in range(g.rows):  # runs of black squares, one rectangle each
        row = g.cells[r * g.cols : (r + 1) * g.cols]
        col = 0
        while col < g.cols:
            if row[col] == BLACK:
                end = col
                while end < g.cols and row[end] == BLACK:
                    end += 1
                path.rect(x0 + col * cell, top - (r + 1) * cell, (end - col) * cell, cell)
                col = end
            else:
                col += 1
    c.drawPath(path, stroke=0, fill=1)
    c.setLineWidth(0.5 if not op.solution else 0.35)
    c.grid([x0 + j * cell for j in range(g.cols + 1)], [top - r * cell for r in range(g.rows + 1)])
    c.setLineWidth(1.25 if not op.solution else 0.8)
    c.rect(x0, top - g.rows * cell, g.cols * cell, g.rows * cell, stroke=1, fill=0)
    text = c.beginText()
    if op.solution:
        size = cell * 0.62
        text.setFont(_REGULAR, size)
        for i, ch in enumerate(g.cells):
            if ch != BLACK:
                r, col = divmod(i, g.cols)
                letter = _clean(ch)
                text.setTextOrigin(
                    x0 + (col + 0.5) * cell - _width(letter, _REGULAR, size) / 2, top - (r + 0.5) * cell - size * 0.36
                )
                text.textLine(letter)
    else:
        size = max(4.5, min(cell * 0.3, 7.5)) if cell < 30 else cell * 0.27  # larger on a large-print grid
        text.setFont(_REGULAR, size)
        for i, n in sorted(g.numbers().items()):
            r, col = divmod(i, g.cols)
            text.setTextOrigin(x0 + col * cell + cell * 0.07, top - r * cell - size * 0.95)
            text.textLine(str(n))
    c.drawText(text)


def _draw_page(c, page: _Page, page_no: int) -> None:
    c.setStrokeGray(0)
    for x0, x1, y, lw in page.rules:
        c.setLineWidth(lw)
        c.line(x0, y, x1, y)
    c.setFillGray(0)
    if page.texts:  # first, so a text extractor reads the heading before a grid's numbers
        # One text object for the page: much cheaper than a drawString each.
        text = c.beginText()
        font = None
        for t in page.texts:
            if (t.font, t.size) != font:
                text.setFont(t.font, t.size)
                font = (t.font, t.size)
            x = t.x
            if t.align != "left":
                w = _width(t.text, t.font, t.size)
                x -= w if t.align == "right" else w / 2
            text.setTextOrigin(x, t.y)
            text.textLine(t.text)
        c.drawText(text)
    for op in page.grids:
        _draw_grid(c, op)
    if page.outline:
        key = f"page{page_no}"
        c.bookmarkPage(key)
        c.addOutlineEntry(page.outline, key, level=0)
    c.showPage()


# -- the book -----------------------------------------------------------------
def _pages(book: Book, plan: Plan, below_floor: list[dict], laid: Progress) -> list[_Page]:
    """Every page of the book, in order, as the plan has it."""
    trim = book.page_trim
    pages: list[_Page] = []
    sizes: dict[int, float] = {}
    for page_no, spec in enumerate(plan.pages, start=1):
        kind = spec.kind
        if kind == "title":
            page = _title_page(book)
        elif kind == "copyright":
            page = _copyright_page(book)
        elif kind == "contents":
            page = _contents_page(book, plan, spec.index, page_no)
        elif kind == "blank":
            page = _Page(folio=False, what="a blank page")
        elif kind == "section":
            page = _section_page(book, plan, spec, page_no)
        elif kind == "minis":
            page = _minis_page(book, plan, spec, page_no)
        elif kind == "solutions":
            page = _solutions_page(book, plan, spec, page_no)
        elif kind == "clues":
            if spec.index == 0:
                pending = _clue_pages(book, spec.puzzles[0], page_no, len(plan.clue_pages(spec.puzzles[0])))
            page = pending.pop(0)
        else:
            k = spec.puzzles[0]
            if kind == "grid" and plan.kinds[k] == "facing" and page_no % 2 == 1:
                raise RenderError(f"puzzle {k + 1}'s grid is planned on page {page_no}, a right-hand page")
            make = {"puzzle": _puzzle_page, "grid": _grid_page}[kind]
            page = make(book, k, page_no)
        pages.append(page)
        sizes.update(page.clue_sizes)
        if page.clue_sizes:
            laid.update(len(sizes))
    for k, size in sorted(sizes.items()):
        if size < trim.font_floor - 1e-9:
            below_floor.append({"puzzle": k + 1, "size": size})
            print(
                f"xw render: warning: puzzle {k + 1} set in {size:g}pt type, below the "
                f"{trim.font_floor:g}pt floor of the {trim.name} trim",
                file=sys.stderr,
            )
    if len(sizes) != len(book.puzzles) or len(pages) != plan.total:
        raise RenderError(f"the book came out {len(pages)} pages long with {len(sizes)} puzzles; the page plan has "
                          f"{plan.total} and {len(book.puzzles)}")  # fmt: skip
    return pages


def render_pdf(book: Book, out_path, progress=None) -> dict:
    """Render ``book`` to a print-ready PDF with reportlab.

    Parameters
    ----------
    book : Book
        The puzzles and front matter; ``book.trim`` and ``book.margins`` set
        the page, ``book.layout`` the layout (see :class:`Book`).
    out_path : str or os.PathLike
        Where to write the PDF (atomically: a crash leaves no partial file).
    progress : callable, optional
        Called with a line of progress (puzzles laid out, pages drawn) now and then.

    Returns
    -------
    dict
        ``pages`` (total), the plan's figures
        (:func:`~pipeline.render.layout.plan_stats`: ``puzzle_pages``,
        ``contents_pages``, ``solution_pages``, ``solutions_per_page``,
        ``minis_pages``, ``layout``, ``sections``), ``trim``
        (its name), ``page_size`` (``[width, height]`` in points),
        ``min_font_size`` (smallest clue type used, points),
        ``below_floor`` (``{"puzzle": k, "size": points}`` for each puzzle
        set below the trim's ``font_floor``, also warned about on stderr)
        and ``path``.

    Raises
    ------
    RenderError
        If the book is invalid, a puzzle's clues do not fit on a page even
        at :data:`~pipeline.render.book.FONT_HARD_MIN`, the copyright page
        overflows, or (a bug) a page breaks the page plan or the overflow
        check.  No file is written then.

    Examples
    --------
    >>> from pipeline.model.grid import Grid
    >>> from pipeline.model.puzzle import Puzzle
    >>> import tempfile, os
    >>> g = Grid.from_rows(["AB", "CD"])
    >>> p = Puzzle(g, {(s.direction, s.number): "clue" for s in g.slots()})
    >>> out = os.path.join(tempfile.mkdtemp(), "b.pdf")
    >>> stats = render_pdf(Book("T", "", "", [], [p]), out)
    >>> stats["pages"], stats["contents_pages"], stats["min_font_size"], stats["below_floor"]
    (5, 1, 14.0, [])

    Notes
    -----
    Each puzzle's type size is found by bisection over the sizes in 0.25pt
    steps (a smaller size never fits worse), trying the grid sizes at each:
    O(clues * grid sizes * log sizes) per puzzle, about 10 ms for a 15x15.
    Deterministic: reportlab's invariant mode fixes the dates and document
    ID, and nothing else varies, so equal books give equal bytes.
    """
    book.validate()
    _register_fonts()
    trim = book.page_trim
    plan = plan_book(book)
    below_floor: list[dict] = []
    pages = _pages(book, plan, below_floor, Progress(len(book.puzzles), progress, "puzzles laid out"))
    title = _clean(book.title)
    for page_no, page in enumerate(pages, start=1):
        _furnish(page, trim, page_no, title)
        _check_page(page, page_no, trim)

    buf = io.BytesIO()
    # Streams deflated but not ASCII85-armoured: a quarter smaller and a
    # third of a second faster to write (reportlab's default armours them).
    a85, rl_config.useA85 = rl_config.useA85, 0
    try:
        c = rl_canvas.Canvas(
            buf,
            pagesize=(trim.width * 72, trim.height * 72),
            invariant=1,
            pageCompression=1,
            initialFontName=_REGULAR,
            initialFontSize=10,
        )
        c.setTitle(title)
        c.setAuthor(_clean(book.author))
        c.setSubject("Crossword puzzles")
        c.setCreator("xwbook")
        drawn = Progress(len(pages), progress, "pages drawn")
        for page_no, page in enumerate(pages, start=1):
            _draw_page(c, page, page_no)
            drawn.update(page_no)
        c.save()
    finally:
        rl_config.useA85 = a85
    write_bytes(out_path, buf.getvalue())
    sizes = [size for p in pages for size in p.clue_sizes.values()]
    return {
        "pages": len(pages),
        **plan_stats(plan),
        "trim": trim.name,
        "page_size": [round(trim.width * 72, 2), round(trim.height * 72, 2)],
        "min_font_size": min(sizes),
        "below_floor": below_floor,
        "path": str(out_path),
    }
