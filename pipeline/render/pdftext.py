"""Type for the reportlab renderer: its fonts, measuring, line breaking and clue columns.

The only fonts are the Bitstream Vera TrueType fonts shipped inside
reportlab, embedded as subsets.  Every word is measured once, with the
advance widths reportlab itself sums, and wrapped at any size by
arithmetic; a puzzle's clues flow down columns as unbreakable blocks
(:func:`_flow`), balanced (:func:`_balanced`), at the largest type size
that fits (:func:`_choose_size`).
"""

from __future__ import annotations

import functools
import os
from dataclasses import dataclass
from pathlib import Path

import reportlab
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from ..model.puzzle import Puzzle
from .book import FONT_HARD_MIN, RenderError, Trim, fold_text, type_sizes

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

_FONT_STEP = 0.25  # clue type sizes are multiples of this
_LEADING = 1.15  # line spacing as a multiple of the type size (8pt on 9.2pt)
_CLUE_GAP = 0.1  # extra space after each clue, a multiple of the type size
_COL_GAP = 12.0
_COL_MIN_WIDTH = 150.0


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


def _flow(blocks: list[_Block], frames, size: float, placed: list[_Text] | None = None, num_width: float = 0.0,
          owners: list[int] | None = None) -> bool:  # fmt: skip
    """Place ``blocks`` down ``frames`` ``(x, top, height, width)``; False if they overflow.

    With ``placed`` None only checks the fit, else appends the text runs,
    each clue's text ``num_width`` right of its column's edge, and to
    ``owners`` (if given) the index of the frame each run is in.
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
        if owners is not None and placed is not None:
            owners.extend([f] * (len(placed) - len(owners)))
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


def _choose_size(trim: Trim, passes, fits, largest: float | None = None):
    """The layout of the first pass that fits at the trim's sizes, else the largest below the floor.

    ``passes`` are preferences in order; ``fits(pass, size)`` returns a
    layout or None.  Returns ``(size, layout)`` or None if nothing fits even
    at :data:`FONT_HARD_MIN`.  ``largest`` caps the sizes tried (the trim's
    ``font_max`` by default).
    """
    top = trim.font_max if largest is None else largest
    for p in passes:
        found = _largest_fitting(type_sizes(top, trim.font_floor, _FONT_STEP), lambda s: fits(p, s))
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
