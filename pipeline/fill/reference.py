"""The reference strategy: python-constraint, as the seeds fill grids.

Seed ``000`` (part 2) models a fill with one variable per slot whose domain
is indices into the word list, a binary constraint per crossing ("letter 4
of word 1 is letter 2 of word 7") and an ``AllDifferentConstraint`` so no
word is used twice.  This module builds that model with python-constraint
(PyPI ``python-constraint2``, module ``constraint``) for filling and for
counting.  It is the cross-check for :mod:`pipeline.fill.count` and the
engine, not the fast path: keep it to small grids and small lists.

All letters different (seed ``003``) is modelled on the same word
variables: each domain keeps only words with no repeated letter, and every
pair of slots gets a constraint that their letters differ wherever their
cells differ (the one shared cell of a crossing pair must agree instead).
"""

from __future__ import annotations

import random
import time

from constraint import AllDifferentConstraint, FunctionConstraint, Problem

from ..model.grid import BLACK, EMPTY, Grid
from ..model.symmetry import transpose
from .index import WordIndex

__all__ = ["constraint_fill", "constraint_count", "constraint_fills"]


def constraint_fill(
    grid: Grid, words, seed: int = 0, distinct_letters: bool = False, timeout: float | None = None
) -> Grid | None:
    """Fill ``grid`` with python-constraint, no word twice; None if it cannot be filled.

    Parameters
    ----------
    grid : Grid
        ``.`` cells to fill, letters kept, ``#`` black.
    words : iterable of str, or WordIndex
        The word list (upper case A-Z).
    seed : int
        Shuffles each domain, as the seed does, so seeds give different fills.
    distinct_letters : bool
        Every letter of the grid different.
    timeout : float, optional
        Seconds.

    Returns
    -------
    Grid or None

    Raises
    ------
    TimeoutError
        When ``timeout`` runs out before the search ends.

    Examples
    --------
    >>> from pipeline.model.grid import parse_grid
    >>> constraint_fill(parse_grid("..\\n.."), ["AB", "CD", "AC", "BD"]).row_strings()
    ['AB', 'CD']
    >>> constraint_fill(parse_grid("..\\n.."), ["AB", "BA"]) is None
    True

    Notes
    -----
    python-constraint's backtracking with forward checking over the slot
    variables: exponential in the number of slots in the worst case, with
    O(|domain|) work per constraint check.
    """
    model = _Model(grid, words, distinct_words=True, distinct_letters=distinct_letters, seed=seed)
    if model.problem is None:
        return None
    model.arm(timeout)
    solution = model.problem.getSolution()
    return None if solution is None else model.grid_of(solution)


def constraint_fills(
    grid: Grid, words, distinct_words: bool = False, transpose_once: bool = False, distinct_letters: bool = False
):
    """Yield every fill of ``grid`` found by python-constraint (as Grids).

    Rules as :func:`pipeline.fill.count.count_fills`; with ``transpose_once``
    the fill of a pair that is kept is the one whose rows read first.

    Examples
    --------
    >>> from pipeline.model.grid import parse_grid
    >>> sorted(g.to_text() for g in constraint_fills(parse_grid("A.\\n.."), ["AB", "BA"]))
    ['AB\\nBA\\n']

    Notes
    -----
    Enumerates every solution (python-constraint ``getSolutionIter``); with
    ``transpose_once`` all fills are collected first to pair them.
    """
    model = _Model(grid, words, distinct_words or distinct_letters, distinct_letters)
    if model.problem is None:
        return
    fills = (model.grid_of(s) for s in model.problem.getSolutionIter())
    if not transpose_once:
        yield from fills
        return
    found = {g.to_text(): g for g in fills}
    for text, g in found.items():
        t = transpose(g)
        if t.to_text() in found and t.row_strings() < g.row_strings():
            continue
        yield g


def constraint_count(
    grid: Grid, words, distinct_words: bool = False, transpose_once: bool = False, distinct_letters: bool = False
) -> int:
    """The number of fills of ``grid``, counted by python-constraint.

    Parameters and rules as :func:`pipeline.fill.count.count_fills`.

    Examples
    --------
    >>> from pipeline.model.grid import parse_grid
    >>> constraint_count(parse_grid("..\\n.."), ["AB", "BA", "AA"])
    7
    >>> constraint_count(parse_grid("..\\n.."), ["AB", "BA", "AA"], transpose_once=True)
    6

    Notes
    -----
    One solution at a time from python-constraint: O(fills) at best, and
    the search itself is exponential in the number of slots.
    """
    return sum(1 for _ in constraint_fills(grid, words, distinct_words, transpose_once, distinct_letters))


class _Model:
    """The slot-variable model of ``grid`` (``problem`` is None when a domain is empty)."""

    def __init__(self, grid: Grid, words, distinct_words: bool, distinct_letters: bool, seed: int | None = None):
        self.grid = grid
        self.deadline = None
        if isinstance(words, WordIndex):
            words = [w for li in words.lengths.values() for w in li.words]
        self.words = sorted(set(words)) if seed is None else list(dict.fromkeys(words))
        self.slots = grid.slots()
        self.problem = None
        given = {i: ch for i, ch in enumerate(grid.cells) if ch not in (BLACK, EMPTY)}
        covered = {cell for s in self.slots for cell in s.cells}
        if any(ch == EMPTY and i not in covered for i, ch in enumerate(grid.cells)):
            return  # a white cell in no slot cannot be filled
        if distinct_letters and len(set(given.values())) != len(given):
            return
        rng = random.Random(seed)
        problem = Problem()
        W = self.words
        for v, slot in enumerate(self.slots):
            dom = [
                k
                for k, w in enumerate(W)
                if len(w) == slot.length
                and all(given.get(cell, ch) == ch for cell, ch in zip(slot.cells, w))
                and (not distinct_letters or _letters_ok(w, slot.cells, given))
            ]
            if not dom:
                return
            if seed is not None:
                rng.shuffle(dom)
            problem.addVariable(v, dom)
        if not self.slots:
            return
        for a, sa in enumerate(self.slots):
            for b in range(a + 1, len(self.slots)):
                sb = self.slots[b]
                shared = set(sa.cells) & set(sb.cells)
                for cell in shared:
                    problem.addConstraint(FunctionConstraint(self._same(sa.cells.index(cell), sb.cells.index(cell))), [a, b])
                if distinct_letters:
                    pairs = [(i, j) for i, ca in enumerate(sa.cells) for j, cb in enumerate(sb.cells) if ca != cb]
                    problem.addConstraint(FunctionConstraint(self._differ(pairs)), [a, b])
        if distinct_words and len(self.slots) > 1:
            problem.addConstraint(AllDifferentConstraint())
        self.problem = problem

    def _tick(self):
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise TimeoutError("python-constraint ran out of time")

    def _same(self, i: int, j: int):
        W = self.words

        def same(a, b):
            self._tick()
            return W[a][i] == W[b][j]

        return same

    def _differ(self, pairs):
        W = self.words

        def differ(a, b):
            self._tick()
            wa, wb = W[a], W[b]
            return all(wa[i] != wb[j] for i, j in pairs)

        return differ

    def arm(self, timeout: float | None) -> None:
        self.deadline = None if timeout is None else time.perf_counter() + timeout

    def grid_of(self, solution: dict) -> Grid:
        cells = list(self.grid.cells)
        for v, k in solution.items():
            for cell, ch in zip(self.slots[v].cells, self.words[k]):
                cells[cell] = ch
        return Grid(self.grid.rows, self.grid.cols, cells)


def _letters_ok(word: str, cells, given: dict) -> bool:
    """No repeated letter, and no letter that is given in a cell outside the slot."""
    if len(set(word)) != len(word):
        return False
    elsewhere = {ch for cell, ch in given.items() if cell not in cells}
    return not set(word) & elsewhere
