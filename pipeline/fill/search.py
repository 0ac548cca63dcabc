"""Search: choose a slot, try a word, propagate, and back up on failure.

The slot chosen is the one with fewest candidates relative to how often it
has failed (dom/wdeg); the word tried is, among the best-scored few, the one
that leaves its crossing slots the most candidates (a one-step lookahead,
Ginsberg's "minlook" made cheap: one AND and popcount per crossing letter),
with seeded noise so different seeds give different fills.  A failed
word is removed from the slot and the removal propagated (two-way
branching), so the search is complete: a run that ends without finding a
fill has proved there is none.  Runs restart after a growing number of
failures, keeping the failure weights, which steers later runs to the
slots that are really hard; the last run is always allowed to finish.
"""

from __future__ import annotations

import bisect
import time
from dataclasses import dataclass, field

from ..model.grid import Grid
from . import _kernel
from .index import WordIndex
from .problem import FillProblem

__all__ = ["Exclusions", "FillResult", "Filler", "adjusted_score", "FILLED", "UNFILLABLE", "TIMEOUT"]

FILLED = "filled"
UNFILLABLE = "unfillable"
TIMEOUT = "timeout"
ALL_LETTERS = (1 << 26) - 1


_STATUS = {0: FILLED, 1: UNFILLABLE, 2: TIMEOUT}
_NO_LIMIT = (1 << 62)


def adjusted_score(score: float, word: str, penalty=None) -> float:
    """``score`` less ``penalty[word]`` points, never below 0 (the list's scale).

    Examples
    --------
    >>> adjusted_score(70, "ERA", {"ERA": 30}), adjusted_score(20, "ERA", {"ERA": 30}), adjusted_score(70, "EON", {"ERA": 30})
    (40, 0, 70)
    """
    if not penalty:
        return score
    points = penalty.get(word)
    return score if not points else max(0, score - points)


@dataclass
class FillResult:
    """What a fill attempt found.

    Attributes
    ----------
    status : str
        ``"filled"``, ``"unfillable"`` (the search space is exhausted) or
        ``"timeout"`` (the budget ran out first).
    grid : Grid or None
        The filled grid when ``status == "filled"``.
    seconds : float
        Search time, index load excluded.
    nodes, fails, restarts : int
        Words tried, dead ends met, restarts made.
    score : float or None
        Mean score of the entries of the fill.
    min_entry_score : float or None
        The lowest-scored entry in the fill.
    wall_clock : bool
        True when the wall-clock ``timeout``, not the node budget, ended
        the search: such a result depends on the machine's speed and load.
    weights : list of float
        Per slot (`FillProblem` order), the failures it was blamed for: where
        the search met dead ends.
    levels : list of int
        Per slot, the grade its floor came down to (0: its first; see the
        ``floors`` of `Filler`).
    """

    status: str
    grid: Grid | None = None
    seconds: float = 0.0
    nodes: int = 0
    fails: int = 0
    restarts: int = 0
    score: float | None = None
    min_entry_score: float | None = None
    words: list[str] = field(default_factory=list)
    extra: dict = field(default_factory=dict)
    wall_clock: bool = False
    weights: list[float] = field(default_factory=list)
    levels: list[int] = field(default_factory=list)

    def as_dict(self) -> dict:
        return {
            **self.extra,
            "status": self.status,
            "grid": self.grid.row_strings() if self.grid else None,
            "seconds": round(self.seconds, 6),
            "nodes": self.nodes,
            "fails": self.fails,
            "restarts": self.restarts,
            "score": None if self.score is None else round(self.score, 3),
            "min_entry_score": self.min_entry_score,
            "words": self.words,
        }

    def add_fill(self, grid: Grid, index: WordIndex, penalty=None) -> None:
        """Record ``grid`` as the fill: its words, their mean score and the weakest.

        ``penalty`` (``{word: points}``) lowers those words' scores, never below 0.
        """
        words = grid.words()
        scores = [adjusted_score(index.score(w), w, penalty) for w in words]
        self.grid = grid
        self.words = words
        self.score = sum(scores) / len(scores) if scores else None
        self.min_entry_score = min(scores) if scores else None


class Filler:
    """Fill one grid from one index.

    Parameters
    ----------
    grid : Grid or FillProblem
        Black squares, empty cells and any letters already placed (or its
        `FillProblem`, when the caller has built it already).
    index : WordIndex
    seed : int
        Seeds value choice; the same seed gives the same fill.
    min_score : float, optional
        Words scoring below this are not used.
    exclude : iterable of str, optional
        Words that may not be used (already used elsewhere in a book).
    penalty : dict, optional
        ``{word: points}``: those words' scores are lowered by ``points``
        (never below 0), for the order candidates are tried in, for
        ``min_score`` and for the fill's scores; a book stage uses it to
        prefer words it has not used yet.  Without it the search is the
        same, step for step, as before penalties existed.
    first_cutoff : int
        Failures allowed in the first run before a restart; each later run
        allows 1.5 times more.
    good : float, optional
        Words scoring at least this are *good*: a value choice prefers the
        word that leaves its crossings the most good words (and a quarter
        weight on all their words), so the first fill spends good words
        where they are plentiful and keeps them possible where they are
        scarce.  None: every word counts alike.
    floors : list, optional
        A score floor per slot (`FillProblem` order), in place of
        ``min_score`` for that slot; None entries mean ``min_score``.  An
        entry may also be a sequence of floors, best first (its *grades*):
        the slot starts at the first, and when a run fails or restarts the
        search lowers the floors of the slots it blamed most for its dead
        ends by one grade and starts again (`relax_share`: slots blamed at
        least that share of the most blamed one's failures), so a floor
        comes down only where a corner needs it.
    relax_share : float
        See ``floors``.
    patience : int, optional
        Words tried after which every graded floor comes down a grade at
        each failed or restarted run, not only the most blamed (None:
        never): a grid too hard for the top grades gets a fill in good time.
    look : int
        How many of the best-scored candidates the value choice compares by
        the room they leave their crossings (1: take them in score order).
        On the default patterns 16 needs about half the nodes of 1 for
        nearly the same mean score.

    Examples
    --------
    >>> from pipeline.model.grid import parse_grid
    >>> idx = WordIndex({w: 50 for w in ["BAT", "ORE", "WED", "BOW", "ARE", "TED"]})
    >>> r = Filler(parse_grid("...\\n...\\n..."), idx, seed=1).fill(timeout=5)
    >>> r.status, sorted(r.words)
    ('filled', ['ARE', 'BAT', 'BOW', 'ORE', 'TED', 'WED'])

    A penalty moves a word down the order: with ``look=1`` the best-scored
    candidate is taken, and 90 less 30 is below 70.

    >>> idx = WordIndex({"AAA": 90, "BBB": 70})
    >>> Filler(parse_grid("..."), idx, look=1).fill().words
    ['AAA']
    >>> Filler(parse_grid("..."), idx, look=1, penalty={"AAA": 30}).fill().words
    ['BBB']

    Notes
    -----
    The search runs in the C kernel (``_kernel.c``); this class builds its
    arguments from the grid and the index and checks what comes back.
    Penalised words are handed to the kernel with their place in the new
    order (a binary search each, O(p log n) for p penalised words), so the
    index is not re-sorted and a fill without penalties costs nothing more.
    """

    def __init__(
        self,
        grid: Grid | FillProblem,
        index: WordIndex,
        seed: int = 0,
        min_score=None,
        exclude=(),
        first_cutoff: int = 64,
        look: int = 16,
        penalty=None,
        floors=None,
        good=None,
        relax_share: float = 0.5,
        patience: int | None = None,
        exclusions: Exclusions | None = None,
    ):
        self.good = good
        self.relax_share = relax_share
        self.patience = patience
        self.problem = grid if isinstance(grid, FillProblem) else FillProblem(grid)
        self.floors = list(floors) if floors is not None else [None] * len(self.problem)
        if len(self.floors) != len(self.problem):
            raise ValueError(f"{len(self.floors)} floors for {len(self.problem)} slots")
        self.index = index
        self.seed = seed
        self.min_score = min_score
        self.exclusions = exclusions if exclusions is not None else Exclusions(exclude, penalty)
        self.exclude = self.exclusions.exclude
        self.penalty = self.exclusions.penalty
        self.first_cutoff = first_cutoff
        self.look = max(1, look)
        self.lidx = [index[n] for n in self.problem.lengths]

    def _arguments(self):
        p = self.problem
        cset = [0] * (p.grid.rows * p.grid.cols)
        for cell in p.owner:
            cset[cell] = ALL_LETTERS
        for cell, letter in p.given.items():
            cset[cell] = 1 << (ord(letter) - 65)
        limit, banned, moved = [], [], []
        per_length: dict[tuple, tuple] = {}
        for li, spec in zip(self.lidx, self.floors):
            grades = tuple(spec) if isinstance(spec, (list, tuple)) else (spec,)
            grades = tuple(self.min_score if g is None else g for g in grades)
            key = (li.length, grades)
            if key not in per_length:
                lims = [len(li) if g is None else li.count_at_least(g) for g in grades]
                out, order = self.exclusions.for_slot(li, grades[-1], lims[-1])
                per_length[key] = (lims if len(lims) > 1 else lims[0], out, order)
            lim, out, order = per_length[key]
            limit.append(lim)
            banned.append(out)
            moved.append(order)
        return [li.kernel for li in self.lidx], [list(c) for c in p.cells], cset, limit, banned, moved

    def fill(self, timeout: float = 10.0, max_nodes: int | None = None) -> FillResult:
        """Search for a fill within ``timeout`` seconds and ``max_nodes`` words tried.

        The node budget makes "out of time" reproducible: the same grid, list,
        seed and budget give the same result on any machine at any load,
        unless the wall clock ends the search first (``wall_clock`` in the
        result).
        """
        start = time.perf_counter()
        p = self.problem
        if p.orphans and any(c not in p.given for c in p.orphans):
            return FillResult(UNFILLABLE, seconds=time.perf_counter() - start)
        words, cells, cset, limit, banned, moved = self._arguments()
        budget = _NO_LIMIT if max_nodes is None else min(int(max_nodes), _NO_LIMIT)
        args = [words, cells, cset, limit, banned, self.seed % (1 << 64), budget, float(timeout), self.first_cutoff, self.look]
        args += [moved if any(moved) else None,
                 None if self.good is None else [li.count_at_least(self.good) for li in self.lidx],
                 float(self.relax_share), -1 if self.patience is None else int(self.patience)]  # fmt: skip
        status, chosen, nodes, fails, restarts, weights, levels = _kernel.solve(*args)
        r = FillResult(_STATUS[status], seconds=time.perf_counter() - start, nodes=nodes, fails=fails, restarts=restarts)
        r.weights = weights
        r.levels = levels
        # The kernel stops on the node budget only past it (nodes > budget), on the clock at or under it.
        r.wall_clock = r.status == TIMEOUT and nodes <= budget
        if chosen is not None:
            cells_out = list(p.grid.cells)
            for li, slot_cells, k in zip(self.lidx, p.cells, chosen):
                for cell, ch in zip(slot_cells, li.words[k]):
                    cells_out[cell] = ch
            grid = Grid(p.grid.rows, p.grid.cols, cells_out)
            check_fill(grid, grid.words(), p, self.index, self.exclude)
            r.add_fill(grid, self.index, self.penalty)
        return r


class Exclusions:
    """The words searches may not use and the penalised ones, worked out per length once for many searches
    of one index.

    `fill_best` runs one search after another on the same grid with the
    same ``exclude`` and ``penalty`` and a rising floor; what each length's
    words become for the kernel (the excluded words' places, the penalised
    words' places in the lowered order) does not depend on the floor, so it
    is found once, here, and each search only cuts it at its floor.
    """

    def __init__(self, exclude=(), penalty=None):
        self.exclude = set(exclude)
        self.penalty = {w: p for w, p in (penalty or {}).items() if p > 0}
        self._excluded: dict[int, list[str]] = {}  # by length, so each length looks up only its own words
        for w in self.exclude:
            self._excluded.setdefault(len(w), []).append(w)
        self._penalised: dict[int, list[str]] = {}
        for w in self.penalty:
            self._penalised.setdefault(len(w), []).append(w)
        self._done: dict[int, tuple] = {}

    def _length(self, li) -> tuple[set[int], list[tuple]]:
        """The excluded words' places in ``li``, and the penalised words' ``(lowered score, rank, place)``
        in their lowered order, ``rank`` being how many words of the index come before the lowered word."""
        got = self._done.get(li.length)
        if got is None:
            position = li.position
            out = {position[w] for w in self._excluded.get(li.length, ()) if w in position}
            entries = []
            for w in self._penalised.get(li.length, ()):
                k = position.get(w)
                if k is not None and k not in out:
                    score = adjusted_score(li.scores[k], w, self.penalty)
                    entries.append(((-score, w), k, score))
            entries.sort()
            key = lambda i: (-li.scores[i], li.words[i])  # noqa: E731 -- the index's own order
            ranked = [(score, bisect.bisect_left(range(len(li)), sort_key, key=key), k) for sort_key, k, score in entries]
            got = self._done[li.length] = (out, ranked)
        return got

    def for_slot(self, li, floor, limit: int) -> tuple[list[int], list[int]]:
        """What the kernel takes for a slot of ``li``'s length whose words are the first ``limit`` (``floor`` their
        lowest score): the places of its banned words (sorted), and its penalised words as ``[rank, place, ...]``
        in their lowered order.  A penalised word the floor now rules out is banned instead."""
        out, ranked = self._length(li)
        banned = set(out)
        moved: list[int] = []
        for score, rank, k in ranked:
            if k >= limit:
                continue
            if floor is not None and score < floor:
                banned.add(k)
            else:
                moved += [rank, k]
        return sorted(banned), moved


def check_fill(grid: Grid, words, problem: FillProblem, index: WordIndex, exclude=()) -> None:
    """Raise AssertionError unless the fill is valid: every entry a listed
    word, none twice, none excluded, every given letter kept, no empty cell."""
    seen = set()
    for w in words:
        if w not in index:
            raise AssertionError(f"filler produced {w!r}, not in the word list")
        if w in seen:
            raise AssertionError(f"filler used {w!r} twice")
        if w in exclude:
            raise AssertionError(f"filler used excluded {w!r}")
        seen.add(w)
    for cell, letter in problem.given.items():
        if grid.cells[cell] != letter:
            raise AssertionError(f"filler changed the given letter at cell {cell}")
    if not grid.is_complete():
        raise AssertionError("filler left a cell empty")
