"""The LaTeX renderer's estimates: how large a puzzle's clue type and grid can be on its page.

TeX cannot be asked in advance whether a page overflows, so each puzzle's
clue type size (from the trim's ``font_max`` down, in half points) and grid
square are estimated here from Times metrics, for each of the plan's
layouts (:mod:`pipeline.render.layout`): a puzzle on one page, a grid page
and its clue page(s), or a mini in its box.  ``extra`` room taken off is
how the renderer tightens a puzzle that TeX found ran over.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from reportlab.pdfbase import pdfmetrics

from ..model.puzzle import Puzzle
from .book import FONT_HARD_MIN, Book, RenderError, clip_text, fold_text, type_sizes
from .layout import GRID_PAGE_CELL_MIN, HEADING_HEIGHT, MINI_CAPTION, MiniBox, mini_type_max, puzzle_caption

_LEADING = 1.2  # clue baselineskip / clue type size
_SIZE_STEP = 0.5  # clue sizes tried, points apart
_COL_MEASURE = 11.0  # a third clue column only if it is at least this many ems wide
_CELL_MAX = 26.0  # grid squares, bp: largest (15x15), comfortable, smallest
_CELL_MAX_SMALL = 36.0  # largest for a small grid (a 5x5 mini), and on a facing grid page
_CELL_COMFORT = 18.0
_CELL_MIN = 14.0
_TITLE_LINE = 16.0  # each extra line of a long puzzle title, bp
_GRID_GAP = 14.0  # the gap below the grid and multicols' space
_COL_SEP = 12.0
_DIGIT = 0.5  # a clue's number is set flush right in a box as wide as its digits in bold (ems) ...
_CLUE_GAP = 0.5  # ... plus this, where the clue's text starts on every line
_SAFETY = 1.0  # estimated clue height is multiplied by this ...
_SLACK_LINES = 1.0  # ... plus this many lines for column balancing (TeX's page marks catch the rest)


# -- layout estimates ---------------------------------------------------------
def _latin1(text: str) -> str:
    return fold_text(text, lambda ch: ord(ch) < 256)


@dataclass(frozen=True)
class _Clues:
    """A puzzle's clues as the estimates need them."""

    words: list  # each clue's word widths in Times at 1pt (widths scale with the size)
    number: float  # the clue numbers' box, ems
    hang: float  # where each clue's text starts, ems


def _measure_clues(puzzle: Puzzle) -> _Clues:
    entries = [e for direction in ("across", "down") for e in puzzle.entries(direction)]
    words = [[pdfmetrics.stringWidth(w, "Times-Roman", 1.0) for w in _latin1(clue).split()] for _s, _a, clue in entries]
    number = _DIGIT * max(len(str(slot.number)) for slot, _a, _c in entries)
    return _Clues(words, number, number + _CLUE_GAP)


_SPACE = pdfmetrics.stringWidth(" ", "Times-Roman", 1.0)


def _lines(words: list[float], width: float) -> int:
    """Lines a clue of ``words`` (widths in ems) takes set ragged-right ``width`` ems wide."""
    lines, line = 1, 0.0
    for w in words:
        if line and line + _SPACE + w > width:
            lines += 1
            line = 0.0
        if w > width:  # a long word overflows; TeX may hyphenate, count it whole
            lines += int(w // width)
            w = w % width
        line += (_SPACE if line else 0.0) + w
    return lines


def _column_width(text_width: float, ncols: int) -> float:
    return (text_width - (ncols - 1) * _COL_SEP) / ncols


def _clue_lines(clues: _Clues, size: float, column: float) -> float:
    """Lines the clues take in a ``column`` bp wide at ``size`` points, the two direction headings included."""
    width = column / size - clues.hang  # in ems
    if width <= 1:
        return math.inf
    return sum(_lines(ws, width) for ws in clues.words) + 2 * 1.7


def _column_choices(size: float, text_width: float) -> tuple[int, ...]:
    """Clue columns to try at ``size``: two, or three when each is still a fair measure."""
    third = (text_width - 2 * _COL_SEP) / 3
    return (2, 3) if third >= _COL_MEASURE * size else (2,)


def _heading_height(title: str, text_width: float) -> float:
    """Height (bp) of a "Puzzle k" heading with ``title`` beside it."""
    w = pdfmetrics.stringWidth(_latin1(title), "Helvetica", 12) + 110
    return HEADING_HEIGHT + (max(1, math.ceil(w / text_width)) - 1) * _TITLE_LINE


def _times_width(text: str, size: float, font: str = "Times-Roman") -> float:
    return pdfmetrics.stringWidth(_latin1(text), font, size)


def _truncate(label: str, size: float, width: float, font: str = "Times-Roman") -> str:
    """``label``, cut short with an ellipsis to be at most ``width`` bp in ``font`` at ``size``."""
    return clip_text(label, width, lambda t: _times_width(t, size, font), "\u2026")


_HEAD_SIZE = 8.0 * 0.92  # running heads: \footnotesize Helvetica, scaled as helvet is loaded


def _running_head(text: str, text_width: float) -> str:
    """A running head's text, cut to half the text block (each side of the head has half)."""
    return _truncate(text, _HEAD_SIZE, text_width * 0.48, "Helvetica")


@dataclass(frozen=True)
class _Fit:
    size: float  # clue type, points
    ncols: int  # clue columns
    cell: float  # grid square, bp
    head: float  # heading height, bp
    free: int = 0  # "page" layout: clue columns beside the grid (0: the grid is centred over them all)
    band: float = 0.0  # "page" layout: height of the grid and the gap below it, bp


def _grid_too_large(book: Book, k: int, cell: float, least: float = _CELL_MIN) -> RenderError:
    puzzle = book.puzzles[k]
    return RenderError(
        f"puzzle {k + 1} ({puzzle.title or 'untitled'}): its {puzzle.grid.rows}x{puzzle.grid.cols} grid needs "
        f"squares of at least {least:g}bp, and a {book.trim} page leaves room for {math.floor(cell * 2) / 2:g}bp; "
        "choose a larger trim",
        book.source(k),
    )


def _grid_band(rows: int, cols: int, cell: float, ncols: int, column: float) -> tuple[int, float]:
    """Clue columns left free beside a grid of ``cell`` squares set flush right, and the band's height."""
    width = cols * cell + 1.1  # the frame's line sticks out by half its width on each side
    spanned = 1
    while spanned * column + (spanned - 1) * _COL_SEP < width:
        spanned += 1
    return ncols - spanned, rows * cell + _GRID_GAP


def _fit_page(book: Book, k: int, clues: _Clues, extra: float) -> _Fit:
    """Puzzle ``k`` on one page: the largest clue type, then the largest grid, that fit.

    The grid sits at the top, flush right over as few clue columns as it
    needs; the clues run down the columns left of it, then on across all the
    columns below it, balanced.
    """
    puzzle, trim = book.puzzles[k], book.page_trim
    tw, th = trim.text_width * 72, trim.text_height * 72
    rows, cols = puzzle.grid.rows, puzzle.grid.cols
    head = _heading_height(puzzle_caption(puzzle, k + 1), tw)
    biggest = math.floor(min(max(_CELL_MAX, min(_CELL_MAX_SMALL, 390.0 / cols)), (tw - 1.1) / cols) * 2) / 2
    if min(biggest, (th - head - _GRID_GAP) / rows) < _CELL_MIN:
        raise _grid_too_large(book, k, min(biggest, (th - head - _GRID_GAP) / rows))
    passes = ((_CELL_COMFORT, trim.font_floor), (_CELL_MIN, trim.font_floor), (_CELL_MIN, FONT_HARD_MIN))
    for cell_floor, size_floor in passes:
        for size in type_sizes(trim.font_max, size_floor, _SIZE_STEP):
            skip = size * _LEADING
            best = None  # at this size, the columns that leave the grid the most room (fewer on a tie)
            for ncols in _column_choices(size, tw):
                column = _column_width(tw, ncols)
                lines = _clue_lines(clues, size, column) * _SAFETY
                cell = biggest
                while cell >= cell_floor:  # the largest square that leaves the clues room
                    free, band = _grid_band(rows, cols, cell, ncols, column)
                    rest = max(0.0, lines - free * math.floor(band / skip))
                    below = (math.ceil(rest / ncols) + _SLACK_LINES) * skip if rest else 0.0
                    if head + band + below + extra <= th:
                        if best is None or cell > best.cell:
                            best = _Fit(size, ncols, cell, head, free, band)
                        break
                    cell -= 0.5
            if best is not None:
                return best
    raise book.clues_do_not_fit(k, f" beside a grid of {_CELL_MIN:g}bp squares")


def _fit_facing(book: Book, k: int, clues: _Clues, extra_grid: float, extra_clues: float, pages: int = 1) -> _Fit:
    """Puzzle ``k``'s grid alone on a page, as large as it allows; its clues, as large as ``pages`` pages allow.

    The grid's squares may be as small as
    :data:`~pipeline.render.layout.GRID_PAGE_CELL_MIN` (a 25x25 on 6x9).
    Over several pages multicols fills each page before the next, with one
    heading, and balances the last.
    """
    puzzle, trim = book.puzzles[k], book.page_trim
    tw, th = trim.text_width * 72, trim.text_height * 72
    rows, cols = puzzle.grid.rows, puzzle.grid.cols
    head = _heading_height(puzzle_caption(puzzle, k + 1), tw)
    cell = math.floor(min(_CELL_MAX_SMALL, (tw - 1.1) / cols, (th - head - extra_grid) / rows) * 2) / 2
    if cell < GRID_PAGE_CELL_MIN:
        raise _grid_too_large(book, k, cell, GRID_PAGE_CELL_MIN)
    room = pages * th - HEADING_HEIGHT - extra_clues
    for size in type_sizes(trim.font_max, FONT_HARD_MIN, _SIZE_STEP):
        for ncols in _column_choices(size, tw):
            # each page's columns end up to a line short (a clue is not split), and the last are balanced
            lines = _clue_lines(clues, size, _column_width(tw, ncols)) * _SAFETY / ncols + _SLACK_LINES * pages
            if lines * size * _LEADING <= room:
                return _Fit(size, ncols, cell, head)
    raise book.clues_do_not_fit(k, " on their own page" if pages == 1 else f" on {pages} pages")


def _fit_mini(book: Book, k: int, clues: _Clues, extra: float, box: MiniBox) -> _Fit:
    """Mini ``k`` in its box on a minis page: the grid's squares are the box's, the clues as large as fit beside it."""
    trim = book.page_trim
    room = box.clue_height - extra
    for size in type_sizes(mini_type_max(trim), FONT_HARD_MIN, _SIZE_STEP):
        lines = _clue_lines(clues, size, box.column_width) * _SAFETY / box.columns + _SLACK_LINES
        if lines * size * _LEADING <= room:
            return _Fit(size, box.columns, box.cell, MINI_CAPTION)
    raise book.clues_do_not_fit(k, f" beside a {book.puzzles[k].grid.rows}x{book.puzzles[k].grid.cols} mini")
