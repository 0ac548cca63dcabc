"""The python-constraint model of a pattern: one 0/1 variable per symmetry orbit.

Every rule of :class:`pipeline.model.rules.Rules` becomes constraints on
the orbit variables (``1`` = black):

* the rules about runs and blocks are *nogoods*, :class:`NogoodConstraint`:
  a joint assignment of a few variables that is forbidden ("black, white,
  black" along a line is a 1-letter word; ``max_slot_length + 1`` whites in
  a row is a word too long; four whites in a square is a 2x2 white block;
  two side-by-side white cells with blacks above and below both are two
  unchecked letters in a row);
* the bounds on blacks are a :class:`BlackCountConstraint` whose weights
  are the orbit sizes;
* the whole-grid rules (one region, the word count, the share of checked
  letters, no cut cell) are :class:`GridRuleConstraint`: they judge a
  complete assignment with the model's own checker,
  :func:`pipeline.model.rules.rule_violations`.

Each constraint works with any python-constraint solver (the tests solve
small grids with the stock ``BacktrackingSolver`` and compare);
:class:`pipeline.patterns.solver.PatternSolver` compiles them to C.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from itertools import combinations
from math import comb

from constraint import Constraint, Problem

from ..model.errors import InputError
from ..model.grid import Grid, grid_lines
from ..model.rules import Rules, rule_violations
from ..model.symmetry import SYMMETRIES
from .locks import lock_values, locked_runs

__all__ = [
    "orbits",
    "NogoodConstraint",
    "BlackCountConstraint",
    "GridRuleConstraint",
    "PatternModel",
    "build_problem",
    "GRID_RULES",
]

_MISSING = object()

#: The rules judged on the whole grid by :class:`GridRuleConstraint`.
GRID_RULES = ("connected", "words", "min_checked_share", "no_cut_cell")


class NogoodConstraint(Constraint):
    """Forbid one joint assignment of a few variables.

    Parameters
    ----------
    forbidden : sequence of (variable, value)
        The assignment that must not happen (each variable once).

    Notes
    -----
    The constraint is broken only when every variable holds its forbidden
    value.  With forward checking, once all but one variable hold their
    forbidden values, that value is hidden from the last variable's domain.
    A call is O(k) for k variables.
    """

    def __init__(self, forbidden: Sequence[tuple[Hashable, object]]):
        self._items = tuple(forbidden)

    @property
    def forbidden(self) -> tuple:
        """The forbidden ``(variable, value)`` pairs."""
        return self._items

    def __call__(self, variables, domains, assignments, forwardcheck=False):  # noqa: D102
        free = free_value = None
        nfree = 0
        for var, bad in self._items:
            value = assignments.get(var, _MISSING)
            if value is _MISSING:
                nfree += 1
                if nfree > 1:
                    return True
                free, free_value = var, bad
            elif value != bad:
                return True
        if nfree == 0:
            return False
        if forwardcheck:
            domain = domains[free]
            if free_value in domain:
                domain.hideValue(free_value)
                if not domain:
                    return False
        return True

    def __repr__(self) -> str:
        return f"NogoodConstraint({list(self._items)!r})"


class BlackCountConstraint(Constraint):
    """``minimum <= sum(weight * value) <= maximum`` over 0/1 variables.

    Parameters
    ----------
    weights : dict
        Variable -> the cells it stands for (its orbit's size).
    minimum, maximum : int or None
        Bounds on the black cells; ``None`` for an open side.

    Notes
    -----
    Broken as soon as the blacks assigned pass ``maximum`` or the blacks
    assigned plus every unassigned cell fall short of ``minimum``.  O(v) a
    call for v variables.
    """

    def __init__(self, weights: dict, minimum: int | None, maximum: int | None):
        self.weights = dict(weights)
        self.minimum = minimum
        self.maximum = maximum

    def __call__(self, variables, domains, assignments, forwardcheck=False):  # noqa: D102
        blacks = free = 0
        for v in variables:
            value = assignments.get(v, _MISSING)
            if value is _MISSING:
                free += self.weights[v]
            elif value:
                blacks += self.weights[v]
        if self.maximum is not None and blacks > self.maximum:
            return False
        return self.minimum is None or blacks + free >= self.minimum


class GridRuleConstraint(Constraint):
    """One whole-grid rule, judged when every variable is assigned.

    Parameters
    ----------
    rows, cols : int
    cell_vars : sequence
        The variable of each cell, row-major.
    rule : str
        One of :data:`GRID_RULES`: ``connected``, ``words`` (the word-count
        bounds), ``min_checked_share`` or ``no_cut_cell``.
    rules : Rules
        Where the rule's bounds come from.

    Notes
    -----
    The check is :func:`pipeline.model.rules.rule_violations` with only this
    rule on, so the generator and the filter cannot disagree on a rule.
    O(rows * cols) a complete assignment (more for ``no_cut_cell``).
    """

    def __init__(self, rows: int, cols: int, cell_vars: Sequence, rule: str, rules: Rules):
        if rule not in GRID_RULES:
            raise ValueError(f"rule {rule!r}: one of {', '.join(GRID_RULES)}")
        self.rows, self.cols, self.cell_vars, self.rule = rows, cols, list(cell_vars), rule
        only = dict(symmetry="none", min_slot_length=rules.min_slot_length, all_checked=False, connected=False)
        if rule == "words":
            only.update(min_words=rules.min_words, max_words=rules.max_words)
        else:
            only[rule] = getattr(rules, rule)
        self.rules = Rules(**only)

    def __call__(self, variables, domains, assignments, forwardcheck=False):  # noqa: D102
        if len(assignments) < len(variables) and any(v not in assignments for v in variables):
            return True
        grid = Grid(self.rows, self.cols, ("#" if assignments[v] else "." for v in self.cell_vars))
        return not rule_violations(grid, self.rules, limit=1)

    def __repr__(self) -> str:
        return f"GridRuleConstraint({self.rule!r}, {self.rules!r})"


def orbits(rows: int, cols: int, symmetry: str = "rotational") -> list[int]:
    """For each cell, the representative (smallest flat index) of its symmetry orbit.

    Parameters
    ----------
    symmetry : str
        ``"rotational"`` (180 degrees, the American rule), ``"quarter"``
        (90 degrees, 4-fold, as seed ``000``; square grids only),
        ``"mirror"`` (left-right) or ``"none"``.

    Examples
    --------
    >>> orbits(2, 3, "rotational")
    [0, 1, 2, 2, 1, 0]
    >>> orbits(3, 3, "quarter")
    [0, 1, 0, 1, 4, 1, 0, 1, 0]
    >>> orbits(2, 3, "mirror")
    [0, 1, 0, 3, 4, 3]
    """
    if symmetry not in SYMMETRIES:
        raise InputError(f"symmetry {symmetry!r}: one of {', '.join(SYMMETRIES)}")
    if symmetry == "quarter" and rows != cols:
        raise InputError(f"quarter-turn symmetry needs a square grid, not {rows}x{cols}")
    n = rows * cols
    out = []
    for i in range(n):
        r, c = divmod(i, cols)
        if symmetry == "rotational":
            images = (i, n - 1 - i)
        elif symmetry == "quarter":
            images = (i, c * cols + (cols - 1 - r), n - 1 - i, (cols - 1 - c) * cols + r)
        elif symmetry == "mirror":
            images = (i, r * cols + (cols - 1 - c))
        else:
            images = (i,)
        out.append(min(images))
    return out


@dataclass
class PatternModel:
    """A pattern's python-constraint model and how its variables map to cells.

    Attributes
    ----------
    problem : constraint.Problem
        Variables are orbit representatives in row-major order, domain
        ``[0, 1]`` (1 = black).  Set a solver before solving.
    variables : list of int
        The orbit variables, row-major.
    weights : dict
        Orbit size (cells) of each variable.
    cell_vars : list of int
        The variable of each cell, row-major.
    rows, cols : int
    rules : Rules
    """

    problem: Problem
    variables: list
    weights: dict
    cell_vars: list
    rows: int
    cols: int
    rules: Rules


def _word_at(line: list[int], start: int, length: int) -> dict[int, int]:
    """A word of ``length`` whites from ``start`` along ``line``: its cells white, the cells bounding it black."""
    pattern = {line[k]: 0 for k in range(start, start + length)}
    if start > 0:
        pattern[line[start - 1]] = 1
    if start + length < len(line):
        pattern[line[start + length]] = 1
    return pattern


def _line_nogoods(line: list[int], rules: Rules, black_run: int | None, allowed_long=None):
    """Forbidden cell assignments (cell -> 1 black / 0 white) along one line.

    ``allowed_long(cells)`` (optional) says whether a run of whites too long
    for ``max_slot_length`` may stand all the same (it lies in a locked slot).
    """
    n = len(line)
    # Runs too short: 1 letter (when every letter must be checked) up to min_slot_length - 1.
    for length in range(1 if rules.all_checked else 2, min(rules.min_slot_length, n + 1)):
        for start in range(0, n - length + 1):
            yield _word_at(line, start, length)
    if rules.max_slot_length is not None:
        for start in range(0, n - rules.max_slot_length):
            window = [line[k] for k in range(start, start + rules.max_slot_length + 1)]
            if allowed_long is None or not allowed_long(window):
                yield {cell: 0 for cell in window}
    if black_run is not None:
        for start in range(0, n - black_run):
            yield {line[k]: 1 for k in range(start, start + black_run + 1)}


# Above this many nogoods for one word position, the checked-share rule is
# left to the whole-grid check instead (see _share_nogoods).
_MAX_SHARE_SETS = 64


def _share_nogoods(rows: int, cols: int, rules: Rules):
    """The checked-share rule as nogoods, when they are few; else None.

    A word of L letters breaks ``min_checked_share`` s when k = floor((1 - s)
    L) + 1 of its letters are unchecked, a letter being unchecked when both
    cells across it are black (or the edge).  One nogood per word position
    and per set of k positions; with ``no_adjacent_unchecked`` only sets
    without neighbours can happen, which leaves at most one set for s = 1/2
    (odd L, every other letter unchecked from the first).
    """
    share = rules.min_checked_share
    out = []
    for line in grid_lines(rows, cols):
        n = len(line)
        across = line[1] - line[0] == 1 if n > 1 else True
        top = n if rules.max_slot_length is None else min(n, rules.max_slot_length)
        for length in range(max(2, rules.min_slot_length), top + 1):
            k = int((1 - share) * length + 1e-9) + 1
            if k > length:
                continue
            free = length - k + 1 if rules.no_adjacent_unchecked else length
            if comb(free, k) > _MAX_SHARE_SETS:
                return None
            # Sets without neighbours are k of the free positions, spread: p_i = q_i + i.
            sets = [tuple(q + i for i, q in enumerate(qs)) if rules.no_adjacent_unchecked else qs
                    for qs in combinations(range(free), k)]
            for start in range(0, n - length + 1):
                base = _word_at(line, start, length)
                for ps in sets:
                    pattern = dict(base)
                    for p in ps:
                        cell = line[start + p]
                        r, c = divmod(cell, cols)
                        for dr, dc in (((1, 0), (-1, 0)) if across else ((0, 1), (0, -1))):
                            if 0 <= r + dr < rows and 0 <= c + dc < cols:
                                pattern[(r + dr) * cols + c + dc] = 1
                    out.append(pattern)
    return out


def _cell_nogoods(rows: int, cols: int, rules: Rules):
    """Forbidden assignments around cells: isolated whites, 2x2 blocks, unchecked pairs."""

    def around(i, steps):
        r, c = divmod(i, cols)
        for dr, dc in steps:
            if 0 <= r + dr < rows and 0 <= c + dc < cols:
                yield (r + dr) * cols + c + dc

    for i in range(rows * cols):
        r, c = divmod(i, cols)
        if not rules.all_checked:
            # A white square in no word: every neighbour black (or the edge).
            yield {i: 0, **{j: 1 for j in around(i, ((0, 1), (0, -1), (1, 0), (-1, 0)))}}
        if r + 1 < rows and c + 1 < cols:
            block = (i, i + 1, i + cols, i + cols + 1)
            if rules.no_white_2x2:
                yield {j: 0 for j in block}
            if rules.no_black_2x2:
                yield {j: 1 for j in block}
        if rules.no_adjacent_unchecked:
            # Side-by-side letters with nothing across them are two unchecked letters in a row.
            for nxt, cross in ((i + 1, ((1, 0), (-1, 0))), (i + cols, ((0, 1), (0, -1)))):
                if (nxt == i + 1 and c + 1 < cols) or (nxt == i + cols and r + 1 < rows):
                    pattern = {i: 0, nxt: 0}
                    pattern.update({j: 1 for j in around(i, cross)})
                    pattern.update({j: 1 for j in around(nxt, cross)})
                    yield pattern


def build_problem(rows: int, cols: int, rules: Rules, locked: Sequence = ()) -> PatternModel:
    """The python-constraint model of a ``rows x cols`` pattern under ``rules``.

    Parameters
    ----------
    rows, cols : int
    rules : Rules
    locked : sequence of LockedSlot, optional
        Slots the pattern must hold exactly (:mod:`pipeline.patterns.locks`):
        their cells white and the squares at their ends black, as unit
        nogoods on the orbit variables (so their symmetric images too); a
        locked run may be longer than ``max_slot_length``, which then bounds
        only the other slots.  Without it the model is as it always was.

    Returns
    -------
    PatternModel

    Notes
    -----
    One nogood per forbidden window, mapped to orbit variables and
    deduplicated: a window and its symmetric image give the same nogood;
    one that needs an orbit both black and white can never happen and is
    dropped.  O(rows * cols * max(min_slot_length, max_black_run))
    constraints.

    Examples
    --------
    >>> from pipeline.model.rules import style_rules
    >>> m = build_problem(15, 15, style_rules("american", 15, 15))
    >>> len(m.variables), sum(m.weights.values())
    (113, 225)
    """
    rep = orbits(rows, cols, rules.symmetry)
    variables = sorted(set(rep))
    weights = {v: 0 for v in variables}
    for v in rep:
        weights[v] += 1
    problem = Problem()
    problem.addVariables(variables, [0, 1])
    seen = set()

    def add(pattern):
        merged: dict[int, int] = {}
        for cell, value in pattern.items():
            if merged.setdefault(rep[cell], value) != value:
                return  # needs one orbit both black and white: never happens
        key = frozenset(merged.items())
        if key not in seen:
            seen.add(key)
            items = sorted(merged.items())
            problem.addConstraint(NogoodConstraint(items), [v for v, _ in items])

    allowed_long = None  # a window of white cells longer than max_slot_length is allowed inside a locked run
    if locked:
        fixed = lock_values(rows, cols, locked, rep)
        runs = locked_runs(locked, cols, rep)
        allowed_long = lambda window: any({rep[c] for c in window} <= run for run in runs)  # noqa: E731

    for line in grid_lines(rows, cols):
        for pattern in _line_nogoods(line, rules, rules.max_black_run, allowed_long):
            add(pattern)
    for pattern in _cell_nogoods(rows, cols, rules):
        add(pattern)
    if rules.min_checked_share is not None:
        for pattern in _share_nogoods(rows, cols, rules) or ():
            add(pattern)
    if locked:
        for var, value in sorted(fixed.items()):
            key = frozenset({(var, 1 - value)})
            if key not in seen:
                seen.add(key)
                problem.addConstraint(NogoodConstraint([(var, 1 - value)]), [var])
    if rules.min_blacks is not None or rules.max_blacks is not None:
        problem.addConstraint(BlackCountConstraint(weights, rules.min_blacks, rules.max_blacks), variables)
    grid_rules = [
        ("connected", rules.connected),
        ("words", rules.min_words is not None or rules.max_words is not None),
        ("min_checked_share", rules.min_checked_share is not None),
        ("no_cut_cell", rules.no_cut_cell),
    ]
    for name, on in grid_rules:
        if on:
            problem.addConstraint(GridRuleConstraint(rows, cols, rep, name, rules), variables)
    return PatternModel(problem, variables, weights, rep, rows, cols, dataclasses.replace(rules))
