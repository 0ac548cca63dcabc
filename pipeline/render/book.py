"""The book both renderers print: its puzzles, front matter and page size.

Stage 7 turns a list of ``.ipuz`` puzzles into a printed book.  Two
renderers share this model: :mod:`pipeline.render.pdf` (reportlab, always
available) and :mod:`pipeline.render.latex` (jinja2 + pdfLaTeX, when TeX is
installed).  Everything they must agree on lives here: the :class:`Book`
itself, the trim sizes and their margins (:data:`TRIMS`), the text folding
used for glyphs a font lacks, and :class:`RenderError`.

A book is laid out twoside: page 1 (recto) is the title page, page 2 the
copyright page, then one page per puzzle, then the solutions, several small
filled grids per page.  The inner margin (the binding side) is wider than
the outer one, and alternates sides with the page's parity.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable

from ..model.errors import InputError
from ..model.fileio import read_text
from ..model.grid import EMPTY
from ..model.puzzle import Puzzle, read_ipuz

__all__ = [
    "Book",
    "Trim",
    "TRIMS",
    "DEFAULT_TRIM",
    "RenderError",
    "get_trim",
    "load_book",
    "read_notice",
    "fold_text",
    "solution_layout",
    "heading_title",
]

DEFAULT_TRIM = "letter"

# What an unfilled white cell may look like after read_ipuz.
_UNFILLED = (EMPTY, "0", "")


class RenderError(InputError):
    """A book cannot be rendered: missing tool, content that does not fit, TeX error.

    A subclass of :class:`~pipeline.model.errors.InputError`, so the command
    line reports it as a clean one-line message instead of a traceback.
    """


@dataclass(frozen=True)
class Trim:
    """A page size and its margins, all in inches.

    Attributes
    ----------
    name : str
        The key in :data:`TRIMS`.
    width, height : float
        The trimmed page.
    inner, outer : float
        Side margins: ``inner`` is on the binding side (left on odd pages,
        right on even pages) and excludes ``binding``.
    top, bottom : float
        Distance from the paper edge to the text block.  Running heads and
        page numbers sit inside these margins.
    binding : float
        Extra gutter added to ``inner`` for the binding (LaTeX geometry's
        ``bindingoffset``).
    """

    name: str
    width: float
    height: float
    inner: float
    outer: float
    top: float
    bottom: float
    binding: float = 0.125

    @property
    def gutter(self) -> float:
        """The whole binding-side margin, ``inner + binding`` (inches)."""
        return self.inner + self.binding

    @property
    def text_width(self) -> float:
        """Width of the text block (inches)."""
        return self.width - self.gutter - self.outer

    @property
    def text_height(self) -> float:
        """Height of the text block (inches)."""
        return self.height - self.top - self.bottom

    def left_margin(self, page: int) -> float:
        """Left margin of 1-based ``page`` (inches): the gutter on odd (recto) pages."""
        return self.gutter if page % 2 == 1 else self.outer


# The one table of page sizes; both renderers read it.  Margins follow the
# common print-on-demand minimums with room to spare (KDP asks for at least
# 0.375in inside and 0.25in outside for books under 150 pages).
TRIMS: dict[str, Trim] = {
    "letter": Trim("letter", 8.5, 11.0, inner=0.75, outer=0.625, top=0.75, bottom=0.75),
    "a4": Trim("a4", 210 / 25.4, 297 / 25.4, inner=0.75, outer=0.625, top=0.75, bottom=0.75),
    "6x9": Trim("6x9", 6.0, 9.0, inner=0.625, outer=0.5, top=0.625, bottom=0.625),
}


def get_trim(name: str) -> Trim:
    """The :class:`Trim` called ``name``.

    Raises
    ------
    RenderError
        If ``name`` is not a key of :data:`TRIMS`.

    Examples
    --------
    >>> get_trim("6x9").width
    6.0
    """
    try:
        return TRIMS[name]
    except KeyError:
        raise RenderError(f"unknown trim size {name!r} (choose from {', '.join(TRIMS)})") from None


@dataclass
class Book:
    """A crossword book: front matter and the puzzles, in print order.

    Attributes
    ----------
    title, subtitle, author : str
        Printed on the title page (``subtitle`` and ``author`` may be empty).
    copyright_lines : list of str
        Paragraphs for the copyright page: the book's own notice, then the
        licence notices of the data the puzzles were built from.
    puzzles : list of Puzzle
        Complete puzzles (every white cell holds its answer letter).
    trim : str
        A key of :data:`TRIMS`: ``"letter"`` (default), ``"6x9"`` or ``"a4"``.
    sources : list of str
        Where each puzzle came from (for error messages); may be empty.
    """

    title: str
    subtitle: str
    author: str
    copyright_lines: list[str]
    puzzles: list[Puzzle]
    trim: str = DEFAULT_TRIM
    sources: list[str] = field(default_factory=list)

    @property
    def page_trim(self) -> Trim:
        """The :class:`Trim` named by :attr:`trim`."""
        return get_trim(self.trim)

    def source(self, index: int):
        """The file puzzle ``index`` (0-based) came from, or ``None``."""
        return self.sources[index] if index < len(self.sources) else None

    def validate(self) -> None:
        """Check the book can be printed.

        Raises
        ------
        RenderError
            On an unknown trim, no puzzles, a puzzle whose solution has an
            empty cell (the solutions pages would have holes), or an entry
            with no clue or an empty one (the clue stage leaves them empty
            under ``missing_clues: leave``; a placeholder is never printed).
        """
        get_trim(self.trim)
        if not self.puzzles:
            raise RenderError("the book has no puzzles")
        for k, puzzle in enumerate(self.puzzles):
            grid = puzzle.grid
            bad = [i for i, ch in enumerate(grid.cells) if ch in _UNFILLED or not ch.strip()]
            if bad:
                r, c = divmod(bad[0], grid.cols)
                raise RenderError(
                    f"puzzle {k + 1}: cell row {r + 1} column {c + 1} holds {grid.cells[bad[0]]!r}, "
                    "not a letter (is the grid filled?)",
                    self.source(k),
                )
            for slot in grid.slots():
                if (slot.direction, slot.number) not in puzzle.clues:
                    raise RenderError(f"puzzle {k + 1}: no clue for {slot.label}", self.source(k))
            unclued = puzzle.unclued()
            if unclued:
                listed = ", ".join(f"{slot.number}-{slot.direction.title()} {answer}" for slot, answer in unclued[:10])
                more = f" and {len(unclued) - 10} more" if len(unclued) > 10 else ""
                raise RenderError(
                    f"puzzle {k + 1}: {len(unclued)} entries have an empty clue ({listed}{more}); add a clue "
                    "to clue_file for each (an 'ANSWER|clue' line; the clue stage listed them in "
                    "missing-clues.txt) and run the clue stage again",
                    self.source(k),
                )


def heading_title(puzzle, k: int) -> str:
    """The title printed beside the "Puzzle k" heading: none when it says only that.

    Examples
    --------
    >>> from types import SimpleNamespace as P
    >>> heading_title(P(title="Puzzle 3"), 3), heading_title(P(title="Sea Life"), 3)
    ('', 'Sea Life')
    """
    title = (puzzle.title or "").strip()
    return "" if title.lower() == f"puzzle {k}" else title


def read_notice(path) -> list[str]:
    """Read a licence/notice text file as a list of paragraphs.

    Blank lines separate paragraphs; the lines of one paragraph are joined
    with single spaces, so the text reflows to the page, except after a
    line broken at a hyphen (WordNet's licence has ``MERCHANT-`` /
    ``ABILITY``), which joins the next line with no space.

    Raises
    ------
    InputError
        If the file is missing or not UTF-8.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "LICENSE"
    >>> _ = p.write_text("NO WARRANTIES OF MERCHANT-  \\nABILITY OR FITNESS\\n  \\nSecond.\\n")
    >>> read_notice(p)
    ['NO WARRANTIES OF MERCHANT-ABILITY OR FITNESS', 'Second.']
    """
    paragraphs, current = [], ""
    for line in read_text(path).splitlines():
        line = line.strip()
        if line:
            joint = "" if not current or (current.endswith("-") and current[-2:-1].isalpha()) else " "
            current += joint + line
        elif current:
            paragraphs.append(current)
            current = ""
    if current:
        paragraphs.append(current)
    return paragraphs


def load_book(
    ipuz_paths: Iterable,
    title: str = "Crosswords",
    subtitle: str = "",
    author: str = "",
    copyright_lines: Iterable[str] = (),
    notice_paths: Iterable = (),
    trim: str = DEFAULT_TRIM,
) -> Book:
    """Read ``.ipuz`` puzzles into a :class:`Book`, in the order given.

    Parameters
    ----------
    ipuz_paths : iterable of path
        The puzzles, in print order.
    title, subtitle, author : str
        Title-page text.
    copyright_lines : iterable of str
        The book's own copyright paragraphs (e.g. ``"(c) 2025 A. Setter"``).
    notice_paths : iterable of path
        Licence/notice text files (e.g. WordNet's licence) appended to the
        copyright page, one paragraph per blank-line-separated block.
    trim : str
        ``"letter"``, ``"6x9"`` or ``"a4"``.

    Returns
    -------
    Book
        Distinct non-empty ``copyright`` fields of the puzzles are added to
        the copyright page after ``copyright_lines``.

    Raises
    ------
    InputError
        A puzzle file is unreadable or not a crossword.
    RenderError
        No puzzles, an unknown trim, or an unfilled puzzle.

    Examples
    --------
    >>> load_book([], title="x")  # doctest: +IGNORE_EXCEPTION_DETAIL
    Traceback (most recent call last):
    RenderError: the book has no puzzles
    """
    paths = [Path(p) for p in ipuz_paths]
    puzzles = [read_ipuz(p) for p in paths]
    lines = [str(s) for s in copyright_lines if str(s).strip()]
    for p in puzzles:
        if p.copyright and p.copyright.strip() and p.copyright not in lines:
            lines.append(p.copyright.strip())
    for path in notice_paths:
        lines.extend(read_notice(path))
    book = Book(
        title=title,
        subtitle=subtitle,
        author=author,
        copyright_lines=lines,
        puzzles=puzzles,
        trim=trim,
        sources=[str(p) for p in paths],
    )
    book.validate()
    return book


# Arrangements of the solution grids on a page, (columns, rows), most first.
_SOLUTION_LAYOUTS = ((2, 3), (2, 2), (1, 2), (1, 1))


def solution_layout(
    width: float, height: float, rows: int, cols: int, gap: float = 18.0, caption: float = 16.0, min_cell: float = 10.0
) -> tuple[int, int]:
    """How many solution grids to print per page, as ``(columns, rows)``.

    Parameters
    ----------
    width, height : float
        The space below the page heading, in points.
    rows, cols : int
        The largest grid's size.
    gap : float
        Space between grids.
    caption : float
        Height of the "Puzzle k" caption above each grid.
    min_cell : float
        Smallest acceptable square, in points.

    Returns
    -------
    tuple of int
        The first of 2x3, 2x2, 1x2, 1x1 whose squares are at least
        ``min_cell`` (1x1 if none is).

    Examples
    --------
    >>> solution_layout(504, 640, 15, 15)
    (2, 3)
    """
    for ncol, nrow in _SOLUTION_LAYOUTS:
        sw = (width - (ncol - 1) * gap) / ncol
        sh = (height - (nrow - 1) * gap) / nrow - caption
        if min(sw / cols, sh / rows) >= min_cell:
            return ncol, nrow
    return 1, 1


# Letters NFKD does not decompose, folded by hand.
_HAND_FOLDS = {
    "ł": "l", "Ł": "L", "đ": "d", "Đ": "D", "ħ": "h", "Ħ": "H", "ı": "i",
    "œ": "oe", "Œ": "OE", "ŋ": "ng", "Ŋ": "NG", "ſ": "s", "ŀ": "l", "Ŀ": "L",
    "ø": "o", "Ø": "O", "æ": "ae", "Æ": "AE", "ß": "ss", "þ": "th", "Þ": "Th",
    "ð": "d", "Ð": "D",
    "‘": "'", "’": "'", "‚": ",", "‛": "'", "“": '"', "”": '"', "„": '"',
    "‹": "<", "›": ">", "«": "<<", "»": ">>",
    "–": "-", "—": "--", "―": "--", "‐": "-", "‑": "-", "‒": "-", "−": "-",
    "…": "...", "•": "*", "·": ".", "€": "EUR", "™": "(TM)", "©": "(c)", "®": "(R)",
    "×": "x", "÷": "/", "⁄": "/", "°": " deg", "\u00a0": " ", "\u2009": " ", "\u202f": " ",
}


def fold_text(text: str, supported: Callable[[str], bool]) -> str:
    """Replace characters a font or engine cannot print with ASCII look-alikes.

    Parameters
    ----------
    text : str
        Any text.
    supported : callable
        ``supported(ch)`` is true for a character that may be kept as is.

    Returns
    -------
    str
        ``text`` with each unsupported character replaced by its hand-made
        fold (quotes, dashes, ligatures), else by the supported characters of
        its NFKD decomposition with combining marks dropped (``é`` -> ``e``),
        else by ``?``.  Control characters are dropped; tabs and line breaks
        become spaces.

    Examples
    --------
    >>> fold_text("Zoë’s café — 東京", lambda ch: ord(ch) < 128)
    "Zoe's cafe -- ??"

    Notes
    -----
    O(len(text)).
    """
    out = []
    for ch in text:
        if ch in "\t\n\r\v\f\u2028\u2029\x85":
            out.append(" ")
            continue
        cat = unicodedata.category(ch)
        if cat in ("Cc", "Cf", "Cs", "Co", "Cn"):
            continue
        if supported(ch):
            out.append(ch)
            continue
        hand = _HAND_FOLDS.get(ch)
        if hand is not None and all(supported(c) for c in hand):
            out.append(hand)
            continue
        parts = []
        for c in unicodedata.normalize("NFKD", ch):
            if unicodedata.combining(c):
                continue
            if supported(c):
                parts.append(c)
            elif c in _HAND_FOLDS and all(supported(x) for x in _HAND_FOLDS[c]):
                parts.append(_HAND_FOLDS[c])
            else:
                parts = None
                break
        out.append("".join(parts) if parts else "?")
    return "".join(out)
