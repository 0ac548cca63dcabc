"""The book both renderers print: its puzzles, front matter and page size.

Stage 7 turns a list of ``.ipuz`` puzzles into a printed book.  Two
renderers share this model: :mod:`pipeline.render.pdf` (reportlab, always
available) and :mod:`pipeline.render.latex` (jinja2 + pdfLaTeX, when TeX is
installed).  Everything they must agree on lives here: the :class:`Book`
itself, the trim sizes and their margins (:data:`TRIMS`), the text folding
used for glyphs a font lacks, and :class:`RenderError`.

A book is laid out twoside (the inner margin, on the binding side, wider
than the outer one and alternating sides with the page's parity); which
page holds what is :func:`~pipeline.render.layout.plan_book`'s, re-exported
here.
"""

from __future__ import annotations

import math
import unicodedata
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable, Iterable

from ..model.errors import InputError
from ..model.fileio import read_text
from ..model.grid import BLACK, EMPTY
from ..model.puzzle import Puzzle, read_ipuz
from .labels import contents_label, heading_title, puzzle_caption  # noqa: F401  (re-exported)
from .layout import Plan, plan_book, solution_layout  # noqa: F401  (the page plan lives there; re-exported)

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
    "puzzle_caption",
    "Plan",
    "plan_book",
    "contents_label",
    "get_layout",
    "TRIM_ALIASES",
    "LAYOUTS",
    "FONT_HARD_MIN",
    "entry_name",
    "check_letters_and_clues",
    "type_sizes",
    "clip_text",
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
    """A page size, its margins and its type bounds; lengths in inches.

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
    font_max, font_floor : float
        Clue type sizes in points: the renderers try ``font_max`` first and
        shrink the type to fit, never below ``font_floor`` without saying so
        (a puzzle set smaller is listed in the render's ``below_floor``), and
        never below :data:`FONT_HARD_MIN`.
    layout : str
        The layout ``"auto"`` picks on this trim: ``"page"`` (a puzzle and
        its clues on one page) or ``"facing"`` (the grid on a left-hand page,
        its clues on the right-hand page facing it).
    """

    name: str
    width: float
    height: float
    inner: float
    outer: float
    top: float
    bottom: float
    binding: float = 0.125
    font_max: float = 14.0
    font_floor: float = 8.0
    layout: str = "page"

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
# 0.375in inside and 0.25in outside for books under 150 pages, 0.5in inside
# up to 300 pages).  Type bounds after Crossword Nexus's print layout, which
# shrinks clues from 14pt to no less than 8pt; large print starts at 16pt.
TRIMS: dict[str, Trim] = {
    "letter": Trim("letter", 8.5, 11.0, inner=0.75, outer=0.625, top=0.75, bottom=0.75),
    "a4": Trim("a4", 210 / 25.4, 297 / 25.4, inner=0.75, outer=0.625, top=0.75, bottom=0.75),
    "6x9": Trim("6x9", 6.0, 9.0, inner=0.625, outer=0.5, top=0.625, bottom=0.625, layout="facing"),
    "large-print": Trim(
        "large-print", 8.5, 11.0, inner=0.75, outer=0.625, top=0.75, bottom=0.75,
        font_max=16.0, font_floor=11.0, layout="facing",
    ),
}
# Other names users write for the same trims.
TRIM_ALIASES = {"8.5x11": "letter", "us-letter": "letter", "large": "large-print"}
LAYOUTS = ("auto", "page", "facing")
# Below this a clue is unreadable: a puzzle that needs smaller type is an error.
FONT_HARD_MIN = 6.0
# Smallest margin (inches) a printer will accept without bleed, and the
# smallest text block that still holds a 15x15 grid at the smallest squares.
MARGIN_MIN = 0.25
TEXT_MIN = 3.0
_MARGIN_KEYS = ("inner", "outer", "top", "bottom", "binding")


def get_trim(name: str, margins: dict | None = None) -> Trim:
    """The :class:`Trim` called ``name``, with ``margins`` changed.

    Parameters
    ----------
    name : str
        A key of :data:`TRIMS` or of :data:`TRIM_ALIASES` (``"8.5x11"``).
    margins : dict, optional
        Inches for any of ``inner``, ``outer``, ``top``, ``bottom`` and
        ``binding`` (the gutter added on the binding side); ``None`` values
        keep the trim's own.

    Raises
    ------
    RenderError
        If ``name`` is unknown, a margin is not a number, under
        :data:`MARGIN_MIN` (``binding`` may be 0), or leaves a text block
        narrower or shorter than :data:`TEXT_MIN` inches.

    Examples
    --------
    >>> get_trim("6x9").width
    6.0
    >>> get_trim("8.5x11", {"inner": 1.0}).gutter
    1.125
    """
    key = TRIM_ALIASES.get(name, name)
    try:
        trim = TRIMS[key]
    except KeyError:
        names = ", ".join([*TRIMS, *TRIM_ALIASES])
        raise RenderError(f"unknown trim size {name!r} (choose from {names})") from None
    changes = {}
    for k, v in (margins or {}).items():
        if v is None:
            continue
        if k not in _MARGIN_KEYS:
            raise RenderError(f"margins.{k}: unknown margin (choose from {', '.join(_MARGIN_KEYS)})")
        if isinstance(v, bool) or not isinstance(v, (int, float)) or v != v:
            raise RenderError(f"margins.{k}: {v!r} is not a length in inches")
        low = 0.0 if k == "binding" else MARGIN_MIN
        if v < low:
            raise RenderError(f"margins.{k}: {v:g}in is under the {low:g}in a printer needs")
        changes[k] = float(v)
    if changes:
        trim = replace(trim, **changes)
    if trim.text_width < TEXT_MIN or trim.text_height < TEXT_MIN:
        raise RenderError(
            f"margins: a {trim.name} page with these margins leaves a {trim.text_width:.2f} x "
            f"{trim.text_height:.2f}in text block; at least {TEXT_MIN:g} x {TEXT_MIN:g}in is needed"
        )
    return trim


def get_layout(trim: Trim, layout: str = "auto") -> str:
    """``"page"`` or ``"facing"``: ``layout``, or the trim's own for ``"auto"``.

    Examples
    --------
    >>> get_layout(get_trim("6x9")), get_layout(get_trim("letter"), "facing")
    ('facing', 'facing')
    """
    if layout not in LAYOUTS:
        raise RenderError(f"unknown layout {layout!r} (choose from {', '.join(LAYOUTS)})")
    return trim.layout if layout == "auto" else layout


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
        A key of :data:`TRIMS` or :data:`TRIM_ALIASES`: ``"letter"``
        (default; also ``"8.5x11"``), ``"6x9"``, ``"a4"``, ``"large-print"``.
    sources : list of str
        Where each puzzle came from (for error messages); may be empty.
    layout : str
        ``"page"`` (a puzzle and its clues on one page), ``"facing"`` (grid
        on the left-hand page, clues on the right) or ``"auto"`` (the
        trim's: facing on 6x9 and large print, one page otherwise).
    margins : dict
        Margins in inches replacing the trim's (``inner``, ``outer``,
        ``top``, ``bottom``, ``binding``); see :func:`get_trim`.
    """

    title: str
    subtitle: str
    author: str
    copyright_lines: list[str]
    puzzles: list[Puzzle]
    trim: str = DEFAULT_TRIM
    sources: list[str] = field(default_factory=list)
    layout: str = "auto"
    margins: dict = field(default_factory=dict)

    @property
    def page_trim(self) -> Trim:
        """The :class:`Trim` named by :attr:`trim`, with :attr:`margins` applied."""
        return get_trim(self.trim, self.margins)

    @property
    def page_layout(self) -> str:
        """``"page"`` or ``"facing"``: :attr:`layout` with ``"auto"`` resolved."""
        return get_layout(self.page_trim, self.layout)

    def source(self, index: int):
        """The file puzzle ``index`` (0-based) came from, or ``None``."""
        return self.sources[index] if index < len(self.sources) else None

    def clues_do_not_fit(self, index: int, where: str = "") -> RenderError:
        """The error for puzzle ``index`` (0-based) whose clues do not fit even at :data:`FONT_HARD_MIN`.

        ``where`` says what the renderer tried (" beside a grid of 14pt squares").
        """
        puzzle = self.puzzles[index]
        return RenderError(
            f"puzzle {index + 1} ({puzzle.title or 'untitled'}): its {len(puzzle.grid.slots())} clues do not fit "
            f"on a {self.page_trim.name} page{where} even in {FONT_HARD_MIN:g}pt type; shorten the clues or "
            "choose a larger trim",
            self.source(index),
        )

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
        get_layout(self.page_trim, self.layout)
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
                listed = ", ".join(f"{entry_name(slot)} {answer}" for slot, answer in unclued[:10])
                more = f" and {len(unclued) - 10} more" if len(unclued) > 10 else ""
                raise RenderError(
                    f"puzzle {k + 1}: {len(unclued)} entries have an empty clue ({listed}{more}); add a clue "
                    "to clue_file for each (an 'ANSWER|clue' line; the clue stage listed them in "
                    "missing-clues.txt) and run the clue stage again",
                    self.source(k),
                )


def entry_name(slot) -> str:
    """An entry as messages name it: ``"17-Across"``.

    Examples
    --------
    >>> from pipeline.model.grid import Grid
    >>> [entry_name(s) for s in Grid.from_rows(["AB", "CD"]).slots()][:2]
    ['1-Across', '3-Across']
    """
    return f"{slot.number}-{slot.direction.title()}"


_LETTERS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ")


def check_letters_and_clues(puzzle: Puzzle, source, need: str) -> None:
    """Raise unless every white cell holds one letter A-Z and every entry has a clue.

    The exports (``.puz``, the NYT submission) need exactly that; the books
    check less (:meth:`Book.validate`).

    Parameters
    ----------
    puzzle : Puzzle
        The puzzle to export.
    source : str or path
        Names the puzzle in the message.
    need : str
        Ends the message about a bad cell: what the export needs and why.

    Raises
    ------
    RenderError
        Naming the first bad cell (row, column and its entries) or the
        first entry with no clue (and its answer).
    """
    grid = puzzle.grid
    for i, ch in enumerate(grid.cells):
        if ch != BLACK and ch not in _LETTERS:
            r, c = divmod(i, grid.cols)
            slots = [entry_name(s) for s in grid.slots() if i in s.cells]
            where = f" (in {' and '.join(slots)})" if slots else ""
            raise RenderError(f"cell row {r + 1} column {c + 1}{where} holds {ch!r}; {need}", source)
    for slot in grid.slots():
        if not puzzle.clues.get((slot.direction, slot.number), "").strip():
            raise RenderError(f"{entry_name(slot)} ({grid.word(slot)}) has no clue", source)


def type_sizes(high: float, low: float, step: float) -> list[float]:
    """Type sizes from ``high`` down to ``low``, ``step`` points apart (empty if ``high < low``).

    Examples
    --------
    >>> type_sizes(9, 8, 0.25), type_sizes(7.75, 8, 0.25)
    ([9.0, 8.75, 8.5, 8.25, 8.0], [])
    """
    n = math.floor((high - low) / step + 1e-9)
    return [round(high - i * step, 4) for i in range(n + 1)]


def clip_text(text: str, width: float, measure: Callable[[str], float], ellipsis: str = "...") -> str:
    """``text``, cut short and ended with ``ellipsis`` if ``measure`` finds it wider than ``width``.

    The cut text is measured with ``...`` after it; if not even that fits,
    the result is empty.

    Examples
    --------
    >>> clip_text("Crosswords, Volume 1", 10, len)
    'Crossw...'
    >>> clip_text("Crosswords", 2, len)
    ''
    """
    if measure(text) <= width:
        return text
    while text and measure(text + "...") > width:
        text = text[:-1]
    return text.rstrip() + ellipsis if text else ""


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
    layout: str = "auto",
    margins: dict | None = None,
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
        ``"letter"`` (or ``"8.5x11"``), ``"6x9"``, ``"a4"`` or ``"large-print"``.
    layout : str
        ``"auto"``, ``"page"`` or ``"facing"`` (see :class:`Book`).
    margins : dict, optional
        Margins replacing the trim's, in inches (see :func:`get_trim`).

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
        No puzzles, an unknown trim or layout, margins a printer would
        refuse, or an unfilled puzzle.

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
        layout=layout,
        margins=dict(margins or {}),
    )
    book.validate()
    return book


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
