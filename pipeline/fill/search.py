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

import random
import time
from math import log2
from dataclasses import dataclass, field

from ..model.grid import Grid
from .index import WordIndex
from .problem import FillProblem
from .propagate import Propagator

__all__ = ["FillResult", "Filler", "FILLED", "UNFILLABLE", "TIMEOUT"]

FILLED = "filled"
UNFILLABLE = "unfillable"
TIMEOUT = "timeout"
ALL_LETTERS = (1 << 26) - 1


class _Abort(Exception):
    pass


class _Restart(Exception):
    pass


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


class Filler:
    """Fill one grid from one index.

    Parameters
    ----------
    grid : Grid
        Black squares, empty cells and any letters already placed.
    index : WordIndex
    seed : int
        Seeds value choice; the same seed gives the same fill.
    min_score : float, optional
        Words scoring below this are not used.
    exclude : iterable of str, optional
        Words that may not be used (already used elsewhere in a book).
    first_cutoff : int
        Failures allowed in the first run before a restart; each later run
        allows 1.5 times more.
    look : int
        How many of the best-scored candidates the value choice compares by
        the room they leave their crossings (0: take them in score order,
        with a little randomness).  On the default patterns 16 needs about
        half the nodes of 0 for nearly the same mean score.

    Examples
    --------
    >>> from pipeline.model.grid import parse_grid
    >>> idx = WordIndex({w: 50 for w in ["BAT", "ORE", "WED", "BOW", "ARE", "TED"]})
    >>> r = Filler(parse_grid("...\\n...\\n..."), idx, seed=1).fill(timeout=5)
    >>> r.status, sorted(r.words)
    ('filled', ['ARE', 'BAT', 'BOW', 'ORE', 'TED', 'WED'])
    """

    def __init__(self, grid: Grid, index: WordIndex, seed: int = 0, min_score=None, exclude=(), first_cutoff: int = 64, look: int = 16):
        self.problem = FillProblem(grid)
        self.index = index
        self.rng = random.Random(seed)
        self.prop = Propagator(self.problem, index)
        self.min_score = min_score
        self.exclude = set(exclude)
        self.first_cutoff = first_cutoff
        self.look = look
        self.nodes = self.fails = self.restarts = 0

    # -- state ------------------------------------------------------------
    def _initial(self):
        p, prop = self.problem, self.prop
        dom = []
        for s, li in enumerate(prop.lidx):
            d = li.full if self.min_score is None else li.at_least(self.min_score)
            for w in self.exclude:
                k = li.position.get(w)
                if k is not None:
                    d &= ~(1 << k)
            dom.append(d)
        ncells = p.grid.rows * p.grid.cols
        cset = [0] * ncells
        for cell in p.owner:
            cset[cell] = ALL_LETTERS
        for cell, letter in p.given.items():
            bit = 1 << (ord(letter) - 65)
            cset[cell] = bit
            for s, pos in p.owner.get(cell, ()):
                dom[s] &= prop.lidx[s].masks[pos][ord(letter) - 65]
        if any(d == 0 for d in dom) or p.orphans and any(c not in p.given for c in p.orphans):
            return None
        if not prop.run(dom, cset, list(range(len(dom)))):
            return None
        return dom, cset

    # -- search -------------------------------------------------------------
    def _choose(self, dom):
        weight = self.prop.weight
        best, best_key = -1, None
        for s, d in enumerate(dom):
            n = d.bit_count()
            if n > 1:
                key = n / (weight[s] + 1)
                if best_key is None or key < best_key:
                    best, best_key = s, key
        return best

    def _pick(self, d: int) -> int:
        """One word of ``d``: mostly the best-scored, sometimes one of the next few."""
        k = min(int(self.rng.expovariate(0.7)), 7)
        x = d
        while True:
            low = x & -x
            x ^= low
            if not k or not x:
                return low
            k -= 1

    def _pick_look(self, s: int, dom) -> int:
        """Among the ``look`` best-scored words for ``s``, the one leaving its crossings most choice.

        A word's room is the sum over its crossings of log2 of the crossing
        slot's candidates that agree with its letter there (-1 if one has
        none), plus up to one unit of seeded noise.
        """
        x = dom[s]
        masks = self.prop.masks
        cross = [(pos, t, masks[t][tp]) for pos, _cell, t, tp in self.problem.crossings[s] if t >= 0]
        codes = self.prop.codes[s]
        best_room, best = None, 0
        for _ in range(self.look):
            if not x:
                break
            v = x & -x
            x ^= v
            code = codes[v.bit_length() - 1]
            room = self.rng.random()
            for pos, t, mt in cross:
                n = (dom[t] & mt[code[pos].bit_length() - 1]).bit_count()
                if not n:
                    room = -1.0
                    break
                room += log2(n)
            if best_room is None or room > best_room:
                best_room, best = room, v
        return best

    def _solve(self, dom, cset) -> bool:
        prop = self.prop
        while True:
            s = self._choose(dom)
            if s < 0:
                self.solution = dom
                return True
            self.nodes += 1
            if self.nodes > self.max_nodes or time.perf_counter() > self.deadline:
                raise _Abort
            v = self._pick_look(s, dom) if self.look else self._pick(dom[s])
            d2, c2 = dom[:], cset[:]
            d2[s] = v
            if prop.run(d2, c2, [s]) and self._solve(d2, c2):
                return True
            self.fails += 1
            if self.fails > self.cutoff:
                raise _Restart
            dom[s] &= ~v
            if not prop.run(dom, cset, [s]):
                return False

    def fill(self, timeout: float = 10.0, max_nodes: int | None = None) -> FillResult:
        """Search for a fill within ``timeout`` seconds and ``max_nodes`` words tried.

        The node budget makes "out of time" reproducible: the same grid, list,
        seed and budget give the same result on any machine at any load.
        """
        start = time.perf_counter()
        self.deadline = start + timeout
        self.max_nodes = max_nodes if max_nodes is not None else float("inf")
        state = self._initial()
        if state is None:
            return FillResult(UNFILLABLE, seconds=time.perf_counter() - start)
        cutoff = float(self.first_cutoff)
        while True:
            dom, cset = state[0][:], state[1][:]
            self.cutoff = self.fails + int(cutoff)
            try:
                found = self._solve(dom, cset)
            except _Restart:
                self.restarts += 1
                cutoff *= 1.5
                continue
            except _Abort:
                return self._result(TIMEOUT, start)
            if not found:
                return self._result(UNFILLABLE, start)
            return self._result(FILLED, start, self.solution)

    def _result(self, status, start, dom=None) -> FillResult:
        r = FillResult(status, seconds=time.perf_counter() - start, nodes=self.nodes, fails=self.fails, restarts=self.restarts)
        if dom is not None:
            grid = self._grid_from(dom)
            words = [grid.word(s) for s in self.problem.slots]
            check_fill(grid, words, self.problem, self.index, self.exclude)
            scores = [self.index.score(w) for w in words]
            r.grid = grid
            r.words = words
            r.score = sum(scores) / len(scores) if scores else None
            r.min_entry_score = min(scores) if scores else None
        return r

    def _grid_from(self, dom) -> Grid:
        g = self.problem.grid.copy()
        cells = list(g.cells)
        for s, d in enumerate(dom):
            word = self.prop.lidx[s].words[d.bit_length() - 1]
            for cell, ch in zip(self.problem.cells[s], word):
                cells[cell] = ch
        return Grid(g.rows, g.cols, cells)


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
