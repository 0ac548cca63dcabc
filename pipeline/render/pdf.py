"""The reportlab renderer: a print-ready PDF book without TeX.

The book follows :func:`~pipeline.render.book.plan_book`, the page plan the
LaTeX renderer follows too: page 1 is the title page, page 2 the copyright
page, then the contents (every puzzle and the page it starts on, with dot
leaders), any blank page the plan asks for, the puzzles, and the solutions,
several small filled grids per page.  Every page but the title, copyright
and blank pages carries a running head in its top margin (what the page
holds on the outer side, the book's title in italic on the inner side, a
thin rule under both) and its number centred in the footer.

Two layouts (``book.page_layout``):

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

import functools
import io
import math
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path

import reportlab
from reportlab import rl_config
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen import canvas as rl_canvas

from ..model.fileio import write_bytes
from ..model.grid import BLACK
from ..model.progress import Progress
from ..model.puzzle import Puzzle
from .book import (
    CONTENTS_COL_GAP,
    CONTENTS_LEADING,
    CONTENTS_SIZE,
    FONT_HARD_MIN,
    HEADING_HEIGHT,
    SOLUTION_CAPTION,
    SOLUTION_CELL_MAX,
    SOLUTION_GAP,
    Book,
    Plan,
    RenderError,
    Trim,
    clip_text,
    contents_label,
    fold_text,
    heading_title,
    plan_book,
    type_sizes,
)

__all__ = ["render_pdf"]

# -- fonts --------------------------------------------------------------------
_FONT_DIR = Path(os.path.dirname(reportlab.__file__)) / "fonts"
_REGULAR, _BOLD, _ITALIC = "XWBook-Vera", "XWBook-VeraBd", "XWBook-VeraIt"
_FONT_FILES = {_REGULAR: "Vera.ttf", _BOLD: "VeraBd.ttf", _ITALIC: "VeraIt.ttf"}
_CHARSET: frozenset[int] = frozenset()
# Advance widths per font, in 1/1000 em, as reportlab measures them: the
# layout measures every word once and wraps at any size by arithmetic.
_WIDTHS: dict[str, dict[int, float]] = {}
_DEFAULT_WIDTH: dict[str, float] = {}
_ASCENT = 0.77  # Vera's ascender and descender, as a fraction of the size,
_DESCENT = 0.25  # rounded up: the boxes the overflow check measures

# -- sizes, in points ---------------------------------------------------------
_FONT_STEP = 0.25  # clue type sizes are multiples of this
_LEADING = 1.15  # line spacing as a multiple of the type size (8pt on 9.2pt)
_CLUE_GAP = 0.1  # extra space after each clue, a multiple of the type size
_CELL_MAX = 26.0  # grid square sizes: largest (15x15), comfortable, smallest
_CELL_MAX_SMALL = 36.0  # largest for a small grid (a 5x5 mini), and on a grid page
_CELL_COMFORT = 18.0
_CELL_MIN = 14.0
_CELL_MIN_FACING = 10.0  # a grid page's squares, when the grid is large for the page
_COL_GAP = 12.0
_COL_MIN_WIDTH = 150.0
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
        _WIDTHS[name] = dict(font.face.charWidths)
        _DEFAULT_WIDTH[name] = font.face.defaultWidth
        keys = set(font.face.charToGlyph)
        charset = keys if charset is None else charset & keys
    _CHARSET = frozenset(charset)


@functools.lru_cache(maxsize=None)
def _clean(text: str) -> str:
    """``text`` with characters the Vera fonts lack folded to ASCII look-alikes."""
    _register_fonts()
    return fold_text(str(text), lambda ch: ord(ch) in _CHARSET).strip()


def _units(text: str, font: str) -> float:
    """Advance width of ``text`` in ``font`` at 1000pt (reportlab's sum, so exact)."""
    get, dw = _WIDTHS[font].get, _DEFAULT_WIDTH[font]
    return sum(get(ord(ch), dw) for ch in text)


def _width(text: str, font: str, size: float) -> float:
    """Width of ``text`` in points: ``pdfmetrics.stringWidth`` from cached widths."""
    return 0.001 * size * _units(text, font)


def _measure(text: str, font: str) -> list[tuple[str, float]]:
    """The words of ``text`` with their widths in 1/1000 em, for :func:`_wrap_measured`."""
    return [(word, _units(word, font)) for word in text.split()]


def _wrap(text: str, font: str, size: float, width: float) -> list[str]:
    """Greedy line breaking at spaces; a word wider than ``width`` is split.

    Every line is at most ``width`` points wide as ``pdfmetrics.stringWidth``
    measures it, unless a single character is wider.  Always at least one
    line (``[""]`` for empty text).
    """
    return _wrap_measured(_measure(text, font), font, size, width)


def _wrap_measured(words: list[tuple[str, float]], font: str, size: float, width: float) -> list[str]:
    """:func:`_wrap` on words measured once by :func:`_measure`.

    The layout wraps every clue at several type sizes, so the words are
    measured once and each size costs additions only; the sums are the
    ones reportlab makes (the widths are dyadic fractions, added exactly).
    """
    scale = 0.001 * size
    space = _units(" ", font)
    lines: list[str] = []
    line, units = "", 0.0
    for word, wu in words:
        trial = units + space + wu if line else wu
        if scale * trial <= width:
            line = f"{line} {word}" if line else word
            units = trial
            continue
        if line:
            lines.append(line)
        while scale * wu > width and len(word) > 1:
            cut = len(word) - 1
            while cut > 1 and scale * _units(word[:cut], font) > width:
                cut -= 1
            lines.append(word[:cut])
            word = word[cut:]
            wu = _units(word, font)
        line, units = word, wu
    if line or not lines:
        lines.append(line)
    return lines


# -- drawing operations -------------------------------------------------------
@dataclass
class _Text:
    """One run of text; ``box`` is the region it must stay in (None: the text block)."""

    x: float
    y: float
    text: str
    font: str
    size: float
    align: str = "left"  # "left", "right" or "centre"
    box: tuple[float, float, float, float] | None = None  # left, bottom, right, top


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
    clue_size: float | None = None
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


def _fixed_heading(page: _Page, area: _Area, label: str) -> float:
    """A title-less heading in the plan's :data:`HEADING_HEIGHT`; return the content top."""
    top = _heading(page, area, label, "")
    if top < area.top - HEADING_HEIGHT:  # a constant that drifted, not bad input
        raise RenderError(f"the {label!r} heading takes {area.top - top:.1f}pt, over the plan's {HEADING_HEIGHT:g}pt")
    return area.top - HEADING_HEIGHT


def _largest_fitting(sizes: list[float], fits):
    """``(size, fits(size))`` for the largest of ``sizes`` (descending) that fits, or None.

    ``fits`` returns a layout or None and is monotone: if a size fits, every
    smaller one does.  So a bisection, after trying the largest size alone
    (most small puzzles fit at once): O(log len(sizes)) calls.
    """
    if not sizes:
        return None
    first = fits(sizes[0])
    if first is not None:
        return sizes[0], first
    best = fits(sizes[-1])
    if best is None:
        return None
    lo, hi = 1, len(sizes) - 1  # sizes[hi] fits; everything before lo does not
    while lo < hi:
        mid = (lo + hi) // 2
        result = fits(sizes[mid])
        if result is not None:
            hi, best = mid, result
        else:
            lo = mid + 1
    return sizes[hi], best


# -- clue columns ---------------------------------------------------------------
@dataclass(slots=True)
class _Block:
    """One unbreakable item of the clue flow: a section heading or a clue."""

    height: float
    number: str  # "" for a heading
    lines: list[str]
    heading: bool = False


class _Clues:
    """A puzzle's clues, cleaned and measured once, wrapped at any size on demand."""

    def __init__(self, puzzle: Puzzle):
        self.items: list[tuple[str, list[tuple[str, float]] | None]] = []
        for name, direction in (("ACROSS", "across"), ("DOWN", "down")):
            self.items.append((name, None))
            for slot, _answer, clue in puzzle.entries(direction):
                self.items.append((f"{slot.number}.", _measure(_clean(clue), _REGULAR)))
        self.count = len(self.items) - 2
        # Room for the longest clue number ("78."), the same for every clue.
        self.widest = "0" * max((len(label) - 1 for label, words in self.items if words is not None), default=1) + "."
        self._cache: dict[tuple[float, float], list[_Block]] = {}

    def blocks(self, size: float, col_width: float) -> list[_Block]:
        """The flow at type ``size`` in columns ``col_width`` wide."""
        key = (size, col_width)
        blocks = self._cache.get(key)
        if blocks is None:
            lead = size * _LEADING
            hsize = size + 1.5
            text_width = col_width - self.number_width(size)
            blocks = []
            for label, words in self.items:
                if words is None:
                    blocks.append(_Block(hsize * 1.45, "", [label], heading=True))
                else:
                    lines = _wrap_measured(words, _REGULAR, size, text_width)
                    blocks.append(_Block(len(lines) * lead + size * _CLUE_GAP, label, lines))
            self._cache[key] = blocks
        return blocks

    def number_width(self, size: float) -> float:
        """Room for a clue number and the space after it (Vera's digits are all one width)."""
        return _width(self.widest, _BOLD, size) + size * 0.35




def _column_options(area_width: float) -> list[tuple[int, float]]:
    """``(columns, column width)``: as many of :data:`_COL_MIN_WIDTH` as fit, then one more."""
    n = max(1, int((area_width + _COL_GAP) // (_COL_MIN_WIDTH + _COL_GAP)))
    return [(m, (area_width - (m - 1) * _COL_GAP) / m) for m in (n, n + 1)]


def _frames(tops: list[tuple[float, float]], bottom: float, width: float) -> list[tuple[float, float, float, float]]:
    """Columns ``(x, top)`` cut off at ``bottom``, as ``(x, top, height, width)`` frames."""
    return [(x, top, top - bottom, width) for x, top in tops if top - bottom > 0]


def _flow(blocks: list[_Block], frames, size: float, placed: list[_Text] | None = None, num_width: float = 0.0) -> bool:
    """Place ``blocks`` down ``frames`` ``(x, top, height, width)``; False if they overflow.

    With ``placed`` None only checks the fit, else appends the text runs,
    each clue's text ``num_width`` right of its column's edge.
    Blocks are never split; a heading moves to the next frame rather than
    end one.  O(len(blocks)); the layout calls it a few hundred times per
    puzzle, so it is a plain loop over precomputed heights.
    """
    if not frames:
        return False
    lead = size * _LEADING
    nf, nb = len(frames), len(blocks)
    f, used, cap = 0, 0.0, frames[0][2]
    for k in range(nb):
        block = blocks[k]
        need = block.height
        if block.heading and k + 1 < nb:
            need += blocks[k + 1].height  # keep a heading with its first clue
        gap = lead * 0.9 if block.heading and used > 0 else 0.0
        while used + gap + need > cap:
            f += 1
            if f == nf:
                return False
            used, gap, cap = 0.0, 0.0, frames[f][2]
        used += gap
        if placed is not None:
            x, top, height, width = frames[f]
            box = (x, top - height, x + width, top)
            if block.heading:
                hsize = size + 1.5
                placed.append(_Text(x, top - used - hsize * 0.95, block.lines[0], _BOLD, hsize, box=box))
            else:
                base = top - used - size * 0.95
                placed.append(_Text(x + num_width - size * 0.35, base, block.number, _BOLD, size, "right", box))
                for i, line in enumerate(block.lines):
                    placed.append(_Text(x + num_width, base - i * lead, line, _REGULAR, size, box=box))
        used += block.height
    return True


def _balanced(blocks: list[_Block], tops, bottom: float, width: float, size: float, num_width: float) -> list[_Text]:
    """Place ``blocks`` in columns ``tops`` with the common bottom line raised as far as they fit.

    So the columns come out balanced instead of the first ones full and the
    last ones empty.  The caller knows they fit down to ``bottom``.
    """
    lo, hi = bottom, max(top for _x, top in tops)
    for _ in range(14):
        mid = (lo + hi) / 2
        if _flow(blocks, _frames(tops, mid, width), size, None):
            lo = mid
        else:
            hi = mid
    placed: list[_Text] = []
    if not _flow(blocks, _frames(tops, lo, width), size, placed, num_width):  # cannot happen: lo fits
        raise RenderError("clue columns: a fitting layout stopped fitting")
    return placed


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


def _choose_size(trim: Trim, passes, fits):
    """The layout of the first pass that fits at the trim's sizes, else the largest below the floor.

    ``passes`` are preferences in order; ``fits(pass, size)`` returns a
    layout or None.  Returns ``(size, layout)`` or None if nothing fits even
    at :data:`FONT_HARD_MIN`.
    """
    for p in passes:
        found = _largest_fitting(type_sizes(trim.font_max, trim.font_floor, _FONT_STEP), lambda s: fits(p, s))
        if found:
            return found
    best = None
    low = type_sizes(trim.font_floor - _FONT_STEP, FONT_HARD_MIN, _FONT_STEP)
    for p in passes:
        found = _largest_fitting(low, lambda s: fits(p, s))
        if found and (best is None or found[0] > best[0]):
            best = found
            low = [s for s in low if s > found[0]]  # only a larger size can win now
    return best


def _puzzle_page(book: Book, k: int, page_no: int) -> _Page:
    """Puzzle ``k`` (0-based), grid and clues, on page ``page_no``."""
    puzzle, trim = book.puzzles[k], book.page_trim
    area = _area(trim, page_no)
    clues = _Clues(puzzle)
    page = _Page(head=contents_label(puzzle, k + 1), outline=_clean(contents_label(puzzle, k + 1)), what=f"puzzle {k + 1}")
    top = _heading(page, area, f"Puzzle {k + 1}", heading_title(puzzle, k + 1))
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
    page.clue_size = size
    return page


def _grid_page(book: Book, k: int, page_no: int) -> _Page:
    """Puzzle ``k``'s grid alone, as large as the text block allows (the ``facing`` layout)."""
    puzzle = book.puzzles[k]
    area = _area(book.page_trim, page_no)
    page = _Page(head=contents_label(puzzle, k + 1), outline=_clean(contents_label(puzzle, k + 1)), what=f"puzzle {k + 1}")
    top = _heading(page, area, f"Puzzle {k + 1}", heading_title(puzzle, k + 1))
    rows, cols = puzzle.grid.rows, puzzle.grid.cols
    cell = math.floor(min(_CELL_MAX_SMALL, area.width / cols, (top - area.bottom) / rows) * 2) / 2
    if cell < _CELL_MIN_FACING:
        raise RenderError(
            f"puzzle {k + 1}: its {rows}x{cols} grid needs squares of at least {_CELL_MIN_FACING:g}pt; "
            f"a {book.page_trim.name} page allows {cell:g}pt (choose a larger trim)",
            book.source(k),
        )
    page.grids.append(_GridOp(area.left + (area.width - cell * cols) / 2, top, cell, puzzle, solution=False))
    return page


def _clue_page(book: Book, k: int, page_no: int) -> _Page:
    """Puzzle ``k``'s clues, down the columns of a whole page (the ``facing`` layout)."""
    puzzle, trim = book.puzzles[k], book.page_trim
    area = _area(trim, page_no)
    clues = _Clues(puzzle)
    page = _Page(head=contents_label(puzzle, k + 1), what=f"puzzle {k + 1}")
    top = _heading(page, area, f"Puzzle {k + 1}", "Clues")
    ncol, col_w = _column_options(area.width)[0]
    tops = [(area.left + c * (col_w + _COL_GAP), top) for c in range(ncol)]
    frames = _frames(tops, area.bottom, col_w)

    def fits(_p, size):
        return True if _flow(clues.blocks(size, col_w), frames, size, None) else None

    found = _choose_size(trim, [None], fits)
    if found is None:
        raise book.clues_do_not_fit(k)
    size = found[0]
    page.texts.extend(_balanced(clues.blocks(size, col_w), tops, area.bottom, col_w, size, clues.number_width(size)))
    page.clue_size = size
    return page


# -- front matter -------------------------------------------------------------
def _title_page(book: Book) -> _Page:
    trim = book.page_trim
    area = _area(trim, 1)
    page = _Page(folio=False, what="the title page")
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
    for i, (label, number) in enumerate(plan.contents[index]):
        c, r = divmod(i, nrow)
        if c >= ncol:
            raise RenderError(f"contents page {index + 1} holds more lines than its {ncol}x{nrow}")
        x = area.left + c * (col_w + CONTENTS_COL_GAP)
        y = top - r * CONTENTS_LEADING - (CONTENTS_LEADING + size * (_ASCENT - _DESCENT)) / 2
        box = (x, top - (r + 1) * CONTENTS_LEADING, x + col_w, top - r * CONTENTS_LEADING)
        num = str(number)
        num_x0 = x + col_w - _width(num, _REGULAR, size)
        text = clip_text(_clean(label), num_x0 - x - 2 * pitch, lambda t: _width(t, _REGULAR, size))
        page.texts.append(_Text(x, y, text, _REGULAR, size, box=box))
        # Dot leaders on a pitch common to every line, so the dots line up.
        first = math.ceil((_width(text, _REGULAR, size) + pitch * 0.25) / pitch)
        last = math.floor((num_x0 - pitch * 0.25 - x) / pitch)
        if last > first:
            page.texts.append(_Text(x + first * pitch, y, " ." * (last - first), _REGULAR, size, box=box))
        page.texts.append(_Text(x + col_w, y, num, _REGULAR, size, "right", box))
    return page


# -- solutions ----------------------------------------------------------------
def _solutions_page(book: Book, plan: Plan, index: int, page_no: int) -> _Page:
    """Solutions page ``index`` (0-based): the plan's puzzles, row by row."""
    area = _area(book.page_trim, page_no)
    page = _Page(head=plan.solution_label(index), outline="Solutions" if index == 0 else "", what="the solutions")
    top = _fixed_heading(page, area, "Solutions")
    ncol, nrow = plan.solution_columns, plan.solution_rows
    sw = (area.width - (ncol - 1) * SOLUTION_GAP) / ncol
    sh = (top - area.bottom - (nrow - 1) * SOLUTION_GAP) / nrow
    for j, k in enumerate(plan.solutions[index]):
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
    """Every page of the book, in order, where the plan puts it."""
    trim = book.page_trim
    pages = [_title_page(book), _copyright_page(book)]
    for index in range(len(plan.contents)):
        pages.append(_contents_page(book, plan, index, len(pages) + 1))

    def skip_to(page_no: int, what: str) -> None:
        while len(pages) + 1 < page_no:
            if len(pages) + 1 not in plan.blank_pages:
                raise RenderError(f"the page plan leaves page {len(pages) + 1} unused before {what}")
            pages.append(_Page(folio=False, what="a blank page"))
        if len(pages) + 1 != page_no:
            raise RenderError(f"{what} should start on page {page_no}, but page {len(pages) + 1} is next")

    for k in range(len(book.puzzles)):
        skip_to(plan.puzzle_pages[k], f"puzzle {k + 1}")
        if plan.layout == "facing":
            if plan.puzzle_pages[k] % 2 == 1:
                raise RenderError(f"puzzle {k + 1}'s grid is planned on page {plan.puzzle_pages[k]}, a right-hand page")
            pages.append(_grid_page(book, k, len(pages) + 1))
            pages.append(_clue_page(book, k, len(pages) + 1))
        else:
            pages.append(_puzzle_page(book, k, len(pages) + 1))
        laid.update(k + 1)
        size = pages[-1].clue_size
        if size < trim.font_floor - 1e-9:
            below_floor.append({"puzzle": k + 1, "size": size})
            print(
                f"xw render: warning: puzzle {k + 1} set in {size:g}pt type, below the "
                f"{trim.font_floor:g}pt floor of the {trim.name} trim",
                file=sys.stderr,
            )
    skip_to(plan.solution_first, "the solutions")
    for index in range(len(plan.solutions)):
        pages.append(_solutions_page(book, plan, index, len(pages) + 1))
    if len(pages) != plan.total:
        raise RenderError(f"the book came out {len(pages)} pages long; the page plan has {plan.total}")
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
        ``pages`` (total), ``puzzle_pages`` (pages holding puzzles: one per
        puzzle, two with ``"facing"``), ``contents_pages``,
        ``solution_pages``, ``solutions_per_page``, ``layout``, ``trim``
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
    sizes = [p.clue_size for p in pages if p.clue_size is not None]
    return {
        "pages": len(pages),
        "puzzle_pages": len(book.puzzles) * plan.pages_per_puzzle,
        "contents_pages": len(plan.contents),
        "solution_pages": len(plan.solutions),
        "solutions_per_page": plan.solution_columns * plan.solution_rows,
        "layout": plan.layout,
        "trim": trim.name,
        "page_size": [round(trim.width * 72, 2), round(trim.height * 72, 2)],
        "min_font_size": min(sizes),
        "below_floor": below_floor,
        "path": str(out_path),
    }
