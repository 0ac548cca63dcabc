"""The page plan both renderers follow: which page holds what.

A book is a list of sections (consecutive puzzles with the same
``Puzzle.section``); a legacy book is one untitled section and is planned
exactly as before sections existed.  The plan is made here once, from the
puzzles' sizes and the trim, and both renderers print it page for page:

* page 1 the title page, page 2 the copyright page, then the contents
  (sections in bold with their puzzle range, every puzzle, the solutions);
* each titled section opens with a section page (its title, its puzzle
  range, sizes and levels); in the ``"facing"`` layout it is a right-hand
  page, so the section's first spread starts on the left-hand page after it;
* each puzzle by its size (:func:`size_class`):

  - **mini** (no side over :data:`MINI_MAX_SIDE`): two or more consecutive
    minis of a titled section share pages, up to :data:`MINIS_PER_PAGE_MAX`
    a page, stacked, each with its caption, its grid on the left and its
    clues beside it (:func:`mini_box`); a lone mini, and every mini of a
    legacy book, is laid out as a standard one;
  - **standard**: a page of its own (``"page"``: grid and clues), or a
    spread (``"facing"``: grid on the left-hand page, clues on the right);
  - **large** (a side of :data:`LARGE_MIN_SIDE` or more): its grid alone on a
    page as large as the text block allows, its clues on the next page or
    pages (:func:`clue_pages`; in the ``"facing"`` layout the grid is on a
    left-hand page, its clues start facing it);

* then the solutions, section by section, each section's on pages of its
  own (its title beside the "Solutions" heading), as many grids a page as
  the section's largest grid allows (:func:`solution_layout`).

Lengths are in points (bp) unless they say otherwise.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .labels import contents_label, heading_title, puzzle_caption, puzzle_range, section_blurb  # noqa: F401

if TYPE_CHECKING:  # book.py imports this module; nothing here needs book.py at run time
    from .book import Book

__all__ = [
    "Plan",
    "PageSpec",
    "Section",
    "SectionLine",
    "MiniBox",
    "plan_book",
    "solution_layout",
    "contents_label",
    "heading_title",
    "puzzle_caption",
    "section_blurb",
    "size_class",
    "mini_box",
]

# -- sizes, in points ---------------------------------------------------------------
# Space every page heading ("Contents", "Puzzle 7", "Solutions") takes with its rule.
HEADING_HEIGHT = 40.0
CONTENTS_SIZE = 10.0  # contents type size
CONTENTS_LEADING = 15.0  # one contents line
CONTENTS_COL_GAP = 24.0
SOLUTION_GAP = 18.0  # between solution grids
SOLUTION_CAPTION = 16.0  # the "Puzzle k" caption above each
SOLUTION_CELL_MAX = 14.0
SOLUTION_CELL_MIN = 10.0

#: A grid no wider and no taller than this is a mini.
MINI_MAX_SIDE = 9
#: A grid this wide or tall (21x21, 25x25) is large: its grid on a page of its own.
LARGE_MIN_SIDE = 18
MINIS_PER_PAGE_MAX = 4
MINI_CAPTION = 24.0  # a mini's caption line ("Puzzle 3 · Easy") and the gap below it
MINI_CAPTION_SIZE = 12.0  # its type
MINI_GAP = 18.0  # between two minis on a page
MINI_CELL_MAX = 24.0
MINI_CELL_MIN = 14.0
MINI_CLUE_GAP = 14.0  # between a mini's grid and its clues
MINI_COL_GAP = 12.0  # between its clue columns
MINI_COL_MIN = 150.0  # a second clue column only if both are this wide
CLUE_COL_GAP = 12.0  # between the columns of a clue page
#: The most pages a large grid's clues may take.
CLUE_PAGES_MAX = 3
#: Smallest square of a grid printed alone on its page (a large grid; a 25x25 on a 6x9 page).
GRID_PAGE_CELL_MIN = 10.0

# Arrangements of the solution grids on a page, (columns, rows), most first;
# the 3-wide ones only take grids of minis (their squares are at least SOLUTION_CELL_MIN anyway).
_SOLUTION_LAYOUTS = ((3, 4), (3, 3), (2, 3), (2, 2), (1, 2), (1, 1))


def size_class(grid) -> str:
    """``"mini"``, ``"standard"`` or ``"large"``: how a grid of this size is laid out.

    Examples
    --------
    >>> from types import SimpleNamespace as G
    >>> [size_class(G(rows=r, cols=c)) for r, c in ((5, 5), (9, 7), (15, 15), (11, 21), (25, 25))]
    ['mini', 'mini', 'standard', 'large', 'large']
    """
    side = max(grid.rows, grid.cols)
    if side <= MINI_MAX_SIDE:
        return "mini"
    return "large" if side >= LARGE_MIN_SIDE else "standard"


class SectionLine(tuple):
    """A contents line ``(label, page)`` naming a section (printed bold); equal to the plain tuple."""

    __slots__ = ()


@dataclass(frozen=True)
class Section:
    """A run of consecutive puzzles with the same ``section`` title.

    ``first`` and ``last`` are 0-based and inclusive; ``page`` is the
    section's opening page (``None`` for an untitled section, which has
    none); ``solutions`` the first of its solutions pages.
    """

    title: str
    first: int
    last: int
    page: int | None
    solutions: int

    @property
    def count(self) -> int:
        return self.last - self.first + 1

    @property
    def puzzle_range(self) -> str:
        """``"Puzzles 13-72"``."""
        return puzzle_range(self.first, self.last)


def solution_layout(
    width: float, height: float, rows: int, cols: int, gap: float = 18.0, caption: float = 16.0, min_cell: float = 10.0,
    wide: bool = True,
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
    wide : bool
        Whether minis may go three to a row (not in a legacy book, which
        prints as it did before sections).

    Returns
    -------
    tuple of int
        The first of 3x4 and 3x3 (minis only), 2x3, 2x2, 1x2, 1x1 whose
        squares are at least ``min_cell`` (1x1 if none is).

    Examples
    --------
    >>> solution_layout(504, 640, 15, 15), solution_layout(504, 640, 5, 5), solution_layout(504, 640, 21, 21)
    ((2, 3), (3, 4), (2, 2))
    """
    for ncol, nrow in _SOLUTION_LAYOUTS:
        if ncol > 2 and (not wide or max(rows, cols) > MINI_MAX_SIDE):
            continue
        sw = (width - (ncol - 1) * gap) / ncol
        sh = (height - (nrow - 1) * gap) / nrow - caption
        if min(sw / cols, sh / rows) >= min_cell:
            return ncol, nrow
    return 1, 1


# -- minis ----------------------------------------------------------------------------
@dataclass(frozen=True)
class MiniBox:
    """Where a mini goes on its page: offsets from the text block's top-left corner.

    The caption line is at the top of the box; below it the grid (its
    top-left corner at ``(0, MINI_CAPTION)`` below the box's top) and, right
    of it, ``columns`` clue columns ``column_width`` wide from ``clue_x``,
    down to the bottom of the box.
    """

    top: float  # the box's top, below the text block's top
    height: float
    cell: float
    clue_x: float
    columns: int
    column_width: float

    @property
    def clue_height(self) -> float:
        """Room for the clues, from the grid's top to the box's bottom."""
        return self.height - MINI_CAPTION


def mini_box(width: float, height: float, rows: int, cols: int, per_page: int, slot: int) -> MiniBox:
    """The ``slot``-th (0-based) of ``per_page`` mini boxes stacked in a ``width`` x ``height`` text block.

    Examples
    --------
    >>> b = mini_box(504, 684, 5, 5, 3, 1)
    >>> b.top, b.height, b.cell, b.columns
    (234.0, 216.0, 24.0, 2)
    """
    box = (height - (per_page - 1) * MINI_GAP) / per_page
    cell = math.floor(min(MINI_CELL_MAX, (box - MINI_CAPTION) / rows, width * 0.45 / cols) * 2) / 2
    clue_x = cols * cell + MINI_CLUE_GAP
    room = width - clue_x
    ncols = 2 if room >= 2 * MINI_COL_MIN + MINI_COL_GAP else 1
    return MiniBox(
        top=slot * (box + MINI_GAP),
        height=box,
        cell=cell,
        clue_x=clue_x,
        columns=ncols,
        column_width=(room - (ncols - 1) * MINI_COL_GAP) / ncols,
    )


def _clue_estimate(puzzle, size: float, width: float, columns: int) -> float:
    """A guess at the height of a puzzle's clues in ``columns`` columns ``width`` wide at ``size`` points.

    The plan's guess only (0.45em a character, half a line more a column); each
    renderer measures its own type and sets it to fit.
    """
    text = width - 2.2 * size  # less the clue numbers
    lines = 2 * 1.6 + sum(
        max(1, math.ceil(0.45 * size * len(clue) / text)) for direction in ("across", "down") for *_, clue in puzzle.entries(direction)
    )
    return (math.ceil(lines / columns) + 0.5) * size * 1.2


def mini_type_max(trim) -> float:
    """The largest clue type of a mini: three points over the trim's floor (11pt on letter, 14pt in large print)."""
    return min(trim.font_max, trim.font_floor + 3)


def minis_per_page(trim, puzzles, width: float, height: float) -> int:
    """How many of these minis go on a page: the most (up to :data:`MINIS_PER_PAGE_MAX`) leaving room for each.

    Room: squares of at least :data:`MINI_CELL_MIN` and the clues, by an
    estimate, in type a point over the trim's floor.
    """
    size = trim.font_floor + 1
    for n in range(MINIS_PER_PAGE_MAX, 1, -1):
        ok = True
        for p in puzzles:
            box = mini_box(width, height, p.grid.rows, p.grid.cols, n, 0)
            if box.cell < MINI_CELL_MIN or _clue_estimate(p, size, box.column_width, box.columns) > box.clue_height:
                ok = False
                break
        if ok:
            return n
    return 1


def clue_columns(width: float) -> tuple[int, float]:
    """``(columns, column width)`` of a page of clues ``width`` wide: as many of 150pt as fit.

    Examples
    --------
    >>> clue_columns(504), clue_columns(342)
    ((3, 160.0), (2, 165.0))
    """
    n = max(1, int((width + CLUE_COL_GAP) // (MINI_COL_MIN + CLUE_COL_GAP)))
    return n, (width - (n - 1) * CLUE_COL_GAP) / n


def clue_pages(trim, puzzle, width: float, height: float) -> int:
    """How many pages a large grid's clues take (the pages after its grid page), up to :data:`CLUE_PAGES_MAX`.

    The fewest whose columns hold them by a generous estimate two points
    over the trim's type floor; each renderer then sets them as large as
    those pages allow.
    """
    size = trim.font_floor + 2
    ncols, col_w = clue_columns(width)
    for n in range(1, CLUE_PAGES_MAX):
        if _clue_estimate(puzzle, size, col_w, ncols * n) <= height - HEADING_HEIGHT:
            return n
    return CLUE_PAGES_MAX


# -- the plan -------------------------------------------------------------------------
@dataclass(frozen=True)
class PageSpec:
    """What one page holds.

    ``kind`` is ``title``, ``copyright``, ``contents``, ``blank``,
    ``section`` (a section's opening page), ``puzzle`` (grid and clues),
    ``grid`` (a grid alone), ``clues`` (a grid's clues), ``minis`` (several
    minis) or ``solutions``.  ``index`` counts the pages of its kind
    (contents, solutions, a large grid's clue pages) or names the section (0-based); ``puzzles`` the
    0-based puzzles on the page; ``columns`` and ``rows`` arrange a
    solutions page's grids, and ``rows`` is a minis page's boxes a page.
    """

    kind: str
    index: int = 0
    puzzles: tuple[int, ...] = ()
    columns: int = 0
    rows: int = 0
    section: int = 0


@dataclass(frozen=True)
class Plan:
    """Which page holds what: the one pagination both renderers print.

    Pages are numbered from 1 (the title page, a right-hand page); odd pages
    are right-hand (recto), even pages left-hand (verso).

    Attributes
    ----------
    layout : str
        ``"page"`` or ``"facing"``.
    contents : list of list of (str, int)
        The contents pages (they start on page 3), each a list of
        ``(label, page)`` lines: sections (:class:`SectionLine`), puzzles, solutions.
    contents_columns, contents_rows : int
        How the lines of one contents page are arranged: down the first
        column, then the next.
    puzzle_pages : list of int
        The page each puzzle starts on (its grid's page).
    kinds : list of str
        Each puzzle's layout: ``"page"``, ``"facing"`` (a spread: grid on a
        left-hand page), ``"split"`` (grid page, then clue page) or ``"mini"``.
    blank_pages : list of int
        Pages left empty (with ``"facing"``, before a spread or a section page
        that would otherwise start on the wrong side).
    solution_first : int
        The first solutions page.
    solutions : list of list of int
        For each solutions page, the 0-based puzzles it shows, in order.
    solution_columns, solution_rows : int
        How the grids of the first solutions page are arranged (each page's
        own are in :attr:`pages`).
    sections : list of Section
        The book's sections, in order.
    pages : list of PageSpec
        Every page, in order (``pages[0]`` is page 1).
    total : int
        Pages in the book.
    """

    layout: str
    contents: list[list[tuple[str, int]]]
    contents_columns: int
    contents_rows: int
    puzzle_pages: list[int]
    kinds: list[str]
    blank_pages: list[int]
    solution_first: int
    solutions: list[list[int]]
    solution_columns: int
    solution_rows: int
    sections: list[Section]
    pages: list[PageSpec]
    total: int

    @property
    def pages_per_puzzle(self) -> int:
        """1 for ``"page"``, 2 for ``"facing"`` (the pages of a standard puzzle)."""
        return 2 if self.layout == "facing" else 1

    @property
    def titled(self) -> bool:
        """Whether the book has titled sections (a legacy book has one untitled one)."""
        return any(s.title for s in self.sections)

    @property
    def puzzle_page_count(self) -> int:
        """Pages holding puzzles: grids, clues or minis."""
        return sum(p.kind in ("puzzle", "grid", "clues", "minis") for p in self.pages)

    def solution_pages(self) -> list[tuple[int, PageSpec]]:
        """``(page number, spec)`` of every solutions page, in order."""
        return [(i + 1, p) for i, p in enumerate(self.pages) if p.kind == "solutions"]

    def solution_label(self, index: int) -> str:
        """The running head of solutions page ``index`` (0-based): first and last puzzle on it.

        Examples
        --------
        >>> from types import SimpleNamespace as S
        >>> Plan.solution_label(S(solutions=[[0, 1, 2], [3]]), 0), Plan.solution_label(S(solutions=[[0, 1, 2], [3]]), 1)
        ('Solutions 1-3', 'Solutions 4')
        """
        ks = self.solutions[index]
        return f"Solutions {ks[0] + 1}" + (f"-{ks[-1] + 1}" if len(ks) > 1 else "")

    def clue_pages(self, k: int) -> list[int]:
        """The pages holding puzzle ``k``'s clues (0-based ``k``), in order."""
        return [i + 1 for i, p in enumerate(self.pages) if p.kind in ("puzzle", "clues", "minis") and k in p.puzzles]

    def running_head(self, puzzles, spec: PageSpec) -> str:
        """The outer running head of a puzzle page: ``"Puzzle 7: Title"``, or ``"Puzzles 1-4"`` on a minis page."""
        ks = spec.puzzles
        if spec.kind == "minis":
            return puzzle_range(ks[0], ks[-1])
        return contents_label(puzzles[ks[0]], ks[0] + 1)


def _runs(puzzles) -> list[tuple[str, int, int]]:
    """``(title, first, last)`` of each run of consecutive puzzles with the same section."""
    runs: list[list] = []
    for k, p in enumerate(puzzles):
        title = (getattr(p, "section", "") or "").strip()
        if runs and runs[-1][0] == title:
            runs[-1][2] = k
        else:
            runs.append([title, k, k])
    return [tuple(r) for r in runs]


def plan_book(book: "Book") -> Plan:
    """Paginate ``book``: contents, sections, puzzles and solutions, and the page of each.

    Both renderers lay their pages out by this plan, so a puzzle is on the
    same page in either PDF and the contents are right in both; the LaTeX
    renderer checks TeX kept to it.

    Examples
    --------
    >>> from pipeline.model.grid import Grid
    >>> from pipeline.model.puzzle import Puzzle
    >>> from pipeline.render.book import Book
    >>> g = Grid.from_rows(["AB", "CD"])
    >>> p = Puzzle(g, {(s.direction, s.number): "clue" for s in g.slots()})
    >>> plan = plan_book(Book("T", "", "", [], [p], layout="facing"))
    >>> plan.contents, plan.puzzle_pages, plan.blank_pages, plan.solution_first, plan.total
    ([[('Puzzle 1', 4), ('Solutions', 6)]], [4], [], 6, 6)
    """
    trim = book.page_trim
    layout = book.page_layout
    puzzles = book.puzzles
    n = len(puzzles)
    width, height = trim.text_width * 72, trim.text_height * 72
    runs = _runs(puzzles)
    titled = any(title for title, _f, _l in runs)

    # What follows the contents, page by page but for the page numbers.
    kinds = [""] * n
    items: list[tuple] = []  # ("section", s) | (kind, k) | ("minis", ks, per_page)
    for s, (title, first, last) in enumerate(runs):
        if title:
            items.append(("section", s))
        k = first
        while k <= last:
            end = k
            while size_class(puzzles[k].grid) == "mini" and end < last and size_class(puzzles[end + 1].grid) == "mini":
                end += 1
            if end > k and titled:  # two or more minis in a row share pages (not in a legacy book)
                group = list(range(k, end + 1))
                per = minis_per_page(trim, [puzzles[j] for j in group], width, height)
                for i in range(0, len(group), per):
                    items.append(("minis", tuple(group[i : i + per]), per))
                for j in group:
                    kinds[j] = "mini"
                k = end + 1
                continue
            if layout == "facing":
                kinds[k] = "facing"
            else:
                kinds[k] = "split" if size_class(puzzles[k].grid) == "large" else "page"
            items.append((kinds[k], k))
            k += 1

    # The contents' lines, so that their pages can be counted first.
    labels: list[tuple[str, object]] = []  # (label, what it points at)
    for s, (title, first, last) in enumerate(runs):
        if title:
            labels.append((f"{title} · {puzzle_range(first, last)}", ("section", s)))
        labels.extend((contents_label(puzzles[k], k + 1), ("puzzle", k)) for k in range(first, last + 1))
    labels.append(("Solutions", ("solutions", -1)))
    if titled:
        labels.extend((title, ("solutions", s)) for s, (title, _f, _l) in enumerate(runs) if title)
    ccols = 2 if width >= 4.5 * 72 else 1
    crows = max(1, int((height - HEADING_HEIGHT) // CONTENTS_LEADING))
    per_contents = ccols * crows
    n_contents = -(-len(labels) // per_contents)

    pages = [PageSpec("title"), PageSpec("copyright")] + [PageSpec("contents", i) for i in range(n_contents)]
    blank: list[int] = []
    starts = [0] * n
    section_pages: dict[int, int] = {}

    def add(spec: PageSpec) -> int:
        pages.append(spec)
        return len(pages)

    def to_side(odd: bool) -> None:
        """In the facing layout, a blank page unless the next page is on the side wanted."""
        if layout == "facing" and (len(pages) + 1) % 2 != odd:
            blank.append(add(PageSpec("blank")))

    for item in items:
        if item[0] == "section":
            to_side(odd=True)
            section_pages[item[1]] = add(PageSpec("section", item[1], section=item[1]))
        elif item[0] == "minis":
            page = add(PageSpec("minis", puzzles=item[1], rows=item[2]))
            for k in item[1]:
                starts[k] = page
        else:
            kind, k = item
            if kind == "facing":
                to_side(odd=False)
            if kind == "page":
                starts[k] = add(PageSpec("puzzle", puzzles=(k,)))
            else:
                starts[k] = add(PageSpec("grid", puzzles=(k,)))
                large = size_class(puzzles[k].grid) == "large"
                for i in range(clue_pages(trim, puzzles[k], width, height) if large else 1):
                    add(PageSpec("clues", i, puzzles=(k,)))

    # Solutions, section by section.
    solution_first = len(pages) + 1
    solutions: list[list[int]] = []
    sections: list[Section] = []
    arrangements: list[tuple[int, int]] = []
    for s, (title, first, last) in enumerate(runs):
        run = puzzles[first : last + 1]
        ncol, nrow = solution_layout(
            width,
            height - HEADING_HEIGHT,
            max(p.grid.rows for p in run),
            max(p.grid.cols for p in run),
            SOLUTION_GAP,
            SOLUTION_CAPTION,
            SOLUTION_CELL_MIN,
            wide=titled,
        )
        per = ncol * nrow
        sections.append(Section(title, first, last, section_pages.get(s), len(pages) + 1))
        for i in range(first, last + 1, per):
            ks = list(range(i, min(i + per, last + 1)))
            add(PageSpec("solutions", len(solutions), tuple(ks), ncol, nrow, section=s))
            solutions.append(ks)
            arrangements.append((ncol, nrow))

    where: dict = {("section", i): s.page for i, s in enumerate(sections) if s.title}
    where.update({("puzzle", k): starts[k] for k in range(n)})
    where.update({("solutions", i): s.solutions for i, s in enumerate(sections)})
    where[("solutions", -1)] = solution_first
    lines = []
    for label, key in labels:
        line = (label, where[key])
        bold = key[0] == "section" or (titled and key == ("solutions", -1))
        lines.append(SectionLine(line) if bold else line)
    contents = [lines[i : i + per_contents] for i in range(0, len(lines), per_contents)]
    return Plan(
        layout=layout,
        contents=contents,
        contents_columns=ccols,
        contents_rows=crows,
        puzzle_pages=starts,
        kinds=kinds,
        blank_pages=blank,
        solution_first=solution_first,
        solutions=solutions,
        solution_columns=arrangements[0][0],
        solution_rows=arrangements[0][1],
        sections=sections,
        pages=pages,
        total=len(pages),
    )


def plan_stats(plan: Plan) -> dict:
    """The page figures both renderers report (``xw render --stats``), sections included.

    ``puzzle_pages`` (pages holding grids, clues or minis), ``contents_pages``,
    ``solution_pages``, ``solutions_per_page`` (the most on one page),
    ``layout``, ``minis_pages`` and ``sections``: per section its ``title``
    ("" when untitled), ``puzzles``, ``first`` and ``last`` puzzle (1-based),
    its opening ``page`` (None when untitled) and first ``solutions`` page.
    """
    return {
        "puzzle_pages": plan.puzzle_page_count,
        "contents_pages": len(plan.contents),
        "solution_pages": len(plan.solutions),
        "solutions_per_page": max(p.columns * p.rows for _n, p in plan.solution_pages()),
        "minis_pages": sum(p.kind == "minis" for p in plan.pages),
        "layout": plan.layout,
        "sections": [
            {"title": s.title, "puzzles": s.count, "first": s.first + 1, "last": s.last + 1, "page": s.page,
             "solutions": s.solutions}  # fmt: skip
            for s in plan.sections
        ],
    }
