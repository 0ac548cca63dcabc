"""Stage 1: generate American-style black/white patterns with python-constraint.

A pattern obeys the American rules:

* 180-degree rotational symmetry (by choice instead: 90-degree as in
  seed ``000``, a left-right mirror, or none);
* every white cell lies in an across run *and* a down run of at least
  ``min_slot_length`` cells (edges count as black), so there are no
  unchecked letters and no 1- or 2-letter words;
* no run is longer than ``max_slot_length``;
* ``min_blacks <= blacks <= max_blacks``.

Connectivity of the white cells and statistics such as the word count are
left to the later stages (connectivity, filter), as in the seed.

The model (python-constraint, as in the seed ``000``) has one 0/1 variable
per symmetry orbit -- a cell and its 180-degree image, or the centre cell
alone (:func:`orbits` for the other symmetries) -- with ``1`` meaning black.  Every rule about runs is a *nogood*: an
assignment of a few orbit variables that is forbidden ("black, white,
black" along a line is a 1-letter word; ``max_slot_length + 1`` whites in a
row is a run too long).  The black bound is a ``MaxSumConstraint`` whose
multipliers are the orbit sizes.

The solver is :class:`RandomizedSolver`, a python-constraint ``Solver``:
backtracking with forward checking over the orbit variables in row-major
order, trying "black" first with a probability modelled on how American
constructors place blacks (runs of mostly 3-8 letters, few black bars and
edge blacks, no 2x2 black blocks) and steered to a target density, and
giving up after a node budget so the caller restarts with fresh
randomness.  The heuristics only choose among legal patterns; the rules
themselves stay hard constraints.  Each pattern is an independent solve, so
the patterns are spread over the whole space rather than being the
solver's enumeration order.  Everything random comes from
``random.Random(seed)``: the same arguments give the same patterns in the
same order.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Sequence

from constraint import Constraint, MaxSumConstraint, MinSumConstraint, Problem, Solver

from .model.errors import InputError
from .model.grid import Grid, grid_lines
from .model.hexcodec import write_pattern_file
from .model.symmetry import SYMMETRIES, canonical

__all__ = [
    "generate_patterns",
    "write_patterns",
    "build_problem",
    "orbits",
    "SYMMETRIES",
    "NogoodConstraint",
    "RandomizedSolver",
    "DEFAULT_NODE_BUDGET",
]

#: Nodes (value assignments tried) one solve may spend before it gives up.
DEFAULT_NODE_BUDGET = 4000

# Black density of a typical American 15x15 (about 38 of 225 cells); used
# as the target when ``max_blacks`` allows it.
_TYPICAL_DENSITY = 0.165

# Consecutive solves that give no new pattern before generation gives up.
_MAX_FRUITLESS = 500

_MISSING = object()

# How American grids place blacks (tuned on 15x15; see _DensityOrder).
# _HAZARD[L]: chance that a white run already L cells long ends here.
_HAZARD = (0.0, 0.0, 0.0, 0.15, 0.3, 0.45, 0.55, 0.65, 0.75, 0.85, 0.9)
_P_BAR = 0.03  # a black right after a black (a bar)
_P_EDGE = 0.01  # a black at the edge, starting a run of blacks
_P_BLOCK = 0.02  # factor for a black that closes a 2x2 black block
_P_MIN, _P_MAX = 0.01, 0.95
_STEER = (0.3, 3.0)  # bounds of the density steering factor


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


class RandomizedSolver(Solver):
    """Randomized backtracking with forward checking and a node budget.

    A python-constraint ``Solver``: pass it to ``Problem(solver)`` and call
    ``problem.getSolution()``.

    Parameters
    ----------
    rng : random.Random
        The only source of randomness.
    order : sequence, optional
        Variable order; by default the order the variables were added to
        the problem.
    value_order : callable, optional
        ``value_order(variable, values, assignments, domains, rng) -> list``:
        the order to try ``values`` (the variable's current domain) in.  By
        default a random shuffle.
    node_budget : int, optional
        Give up (return ``None`` and set :attr:`gave_up`) after trying this
        many values.  ``None`` searches to the end.
    forwardcheck : bool
        Let constraints hide values of unassigned variables (default).

    Attributes
    ----------
    nodes : int
        Values tried by the last :meth:`getSolution`.
    gave_up : bool
        True when the last solve hit the node budget (as opposed to proving
        there is no solution).

    Notes
    -----
    The search is python-constraint's ``BacktrackingSolver`` with a fixed
    variable order (a row-major order lets the window constraints of a grid
    prune early) and a randomized value order.  Before a value is tried,
    the domains of all later variables push their state; a failed value
    pops them, undoing what forward checking hid.  Time is O(nodes *
    (constraints per variable + variables)).
    """

    def __init__(
        self,
        rng: random.Random,
        order: Sequence | None = None,
        value_order: Callable | None = None,
        node_budget: int | None = DEFAULT_NODE_BUDGET,
        forwardcheck: bool = True,
    ):
        self._rng = rng
        self._order = list(order) if order is not None else None
        self._value_order = value_order or _shuffled
        self._budget = node_budget
        self._forwardcheck = forwardcheck
        self.nodes = 0
        self.gave_up = False

    def getSolution(self, domains: dict, constraints: list, vconstraints: dict):  # noqa: D102
        order = self._order if self._order is not None else list(domains)
        n = len(order)
        rng, budget, choose = self._rng, self._budget, self._value_order
        assignments: dict = {}
        stack: list = []  # (variable, untried values, pushed domains)
        self.nodes = 0
        self.gave_up = False
        depth = 0
        values = None
        pushdomains = None
        while True:
            if depth == n:
                return assignments.copy()
            variable = order[depth]
            if values is None:
                values = list(choose(variable, list(domains[variable]), assignments, domains, rng))
                values.reverse()  # pop() from the end tries them in order
                pushdomains = [domains[x] for x in order[depth + 1 :]] if self._forwardcheck else None
            accepted = False
            while values:
                self.nodes += 1
                if budget is not None and self.nodes > budget:
                    self.gave_up = True
                    return None
                assignments[variable] = values.pop()
                if pushdomains:
                    for domain in pushdomains:
                        domain.pushState()
                for constraint, variables in vconstraints[variable]:
                    if not constraint(variables, domains, assignments, pushdomains):
                        break
                else:
                    accepted = True
                    break
                if pushdomains:
                    for domain in pushdomains:
                        domain.popState()
            if accepted:
                stack.append((variable, values, pushdomains))
                depth += 1
                values = None
                continue
            # Dead end: back up to the latest variable with values left.
            assignments.pop(variable, None)
            while stack:
                variable, values, pushdomains = stack.pop()
                depth -= 1
                if pushdomains:
                    for domain in pushdomains:
                        domain.popState()
                if values:
                    break
                del assignments[variable]
            else:
                return None

    def getSolutions(self, domains, constraints, vconstraints):  # noqa: D102
        raise NotImplementedError("RandomizedSolver finds one solution a call; call it again for another")


def _shuffled(variable, values, assignments, domains, rng):
    rng.shuffle(values)
    return values


def _run_nogoods(line: list[int], min_len: int, max_len: int):
    """Forbidden cell assignments (cell -> 1 black / 0 white) along one line.

    A run of ``L < min_len`` whites bounded by blacks or the edges, and
    ``max_len + 1`` consecutive whites.
    """
    n = len(line)
    for length in range(1, min(min_len, n + 1)):
        for start in range(0, n - length + 1):
            pattern = {line[k]: 0 for k in range(start, start + length)}
            if start > 0:
                pattern[line[start - 1]] = 1
            if start + length < n:
                pattern[line[start + length]] = 1
            yield pattern
    for start in range(0, n - max_len):
        yield {line[k]: 0 for k in range(start, start + max_len + 1)}


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


def build_problem(
    rows: int,
    cols: int,
    max_blacks: int,
    min_blacks: int = 0,
    max_slot_length: int = 15,
    min_slot_length: int = 3,
    symmetry: str = "rotational",
) -> tuple[Problem, list[int], dict[int, int]]:
    """The python-constraint model of a ``rows x cols`` pattern.

    Returns
    -------
    problem : constraint.Problem
        Variables are orbit representatives (the smallest flat index of a
        cell's orbit under ``symmetry``, see :func:`orbits`), in row-major
        order, domain ``[0, 1]`` (1 = black).  Use ``problem.setSolver``
        before solving.
    variables : list of int
        The orbit variables, row-major.
    weights : dict
        Orbit size (cells) of each variable: for the 180-degree symmetry 2,
        or 1 for the centre cell.

    Notes
    -----
    One nogood per window (deduplicated: a window and its rotated image
    give the same nogood, and a window holding both cells of an orbit
    maps them to one variable -- or is dropped when it needs that
    variable both black and white).  O(rows * cols * min_slot_length)
    constraints.
    """
    rep = orbits(rows, cols, symmetry)
    variables = sorted(set(rep))
    weights = {v: 0 for v in variables}
    for v in rep:
        weights[v] += 1
    problem = Problem()
    problem.addVariables(variables, [0, 1])
    seen = set()
    for line in grid_lines(rows, cols):
        for pattern in _run_nogoods(line, min_slot_length, max_slot_length):
            merged: dict[int, int] = {}
            for cell, value in pattern.items():
                var = rep[cell]
                if merged.setdefault(var, value) != value:
                    break  # needs one orbit both black and white: never happens
            else:
                key = frozenset(merged.items())
                if key not in seen:
                    seen.add(key)
                    items = sorted(merged.items())
                    problem.addConstraint(NogoodConstraint(items), [v for v, _ in items])
    problem.addConstraint(MaxSumConstraint(max_blacks, [weights[v] for v in variables]), variables)
    if min_blacks > 0:
        problem.addConstraint(MinSumConstraint(min_blacks, [weights[v] for v in variables]), variables)
    return problem, variables, weights


class _DensityOrder:
    """Value order that places blacks the way American constructors do.

    Black is tried first with probability ``1 - (1 - hx) * (1 - hy)``,
    where ``hx`` and ``hy`` are the chances that the across and the down
    run of white cells should end here, given how long they already are
    (:data:`_HAZARD`: rising with the run's length; a black right after a
    black, a *bar*, or at the grid's edge is unlikely).  Cells that forward
    checking has already made white count as part of the run, so a row
    that cannot be broken later is broken now.  A black that forces blacks
    up to the right edge is weighed by the down runs it breaks; one that
    would close a 2x2 black block is made unlikely.  Last, the probability
    is scaled by how far the black count is from the target density.

    The rules stay hard constraints; this only makes some legal patterns
    likelier.  O(rows + cols) a call.
    """

    def __init__(self, variables, weights, cols, target, rep):
        self._rep = rep
        self._pos = {v: k for k, v in enumerate(variables)}
        self._variables = variables
        self._weights = weights
        self._cols = cols
        self._n = n = sum(weights.values())
        self._target = target
        self._density = target / max(1, n)
        # remaining[k]: cells in orbits k.. (inclusive)
        rem = [0] * (len(variables) + 1)
        for k in range(len(variables) - 1, -1, -1):
            rem[k] = rem[k + 1] + weights[variables[k]]
        self._remaining = rem

    @staticmethod
    def _run_end(length: int, at_edge: bool) -> float:
        if length == 0:
            return _P_EDGE if at_edge else _P_BAR
        return _HAZARD[length] if length < len(_HAZARD) else _HAZARD[-1]

    def _white_run(self, cell, step, limit, assignments, domains):
        """Cells sure to be white from ``cell`` (exclusive) in steps of ``step``, at most ``limit``.

        A cell is sure to be white when it is assigned white or forward
        checking has hidden black from its domain.
        """
        count = 0
        i = cell + step
        while count < limit:
            v = self._rep[i]
            value = assignments.get(v)
            if value == 0 or (value is None and 1 not in domains[v]):
                count += 1
                i += step
            else:
                break
        return count

    def _down_hazard(self, cell, assignments, domains):
        """Chance that the down run through ``cell`` should end here."""
        cols = self._cols
        r = cell // cols
        up = self._white_run(cell, -cols, r, assignments, domains)
        down = self._white_run(cell, cols, self._n // cols - 1 - r, assignments, domains)
        return self._run_end(up + down, up == r)

    def __call__(self, variable, values, assignments, domains, rng):
        if len(values) < 2:
            return values
        k = self._pos[variable]
        w = self._weights
        blacks = sum(w[v] for v in self._variables[:k] if assignments.get(v) == 1)
        # Representatives come first in row-major order, so the cells left
        # of and above one are decided; cells past the middle are images of
        # decided ones, so a run may be known to continue right or below.
        cols = self._cols
        c = variable % cols
        left = self._white_run(variable, -1, c, assignments, domains)
        right = self._white_run(variable, 1, cols - 1 - c, assignments, domains)
        hx = self._run_end(left + right, left == c)
        row0 = variable - c
        rep = self._rep
        if all(assignments.get(rep[row0 + j]) == 1 for j in range(c)) and c < 3:
            # A bar from the left edge may go on to column 2: it breaks those columns.
            span = range(c, min(3, cols))
        elif left > 0 and 1 <= cols - 1 - c <= 2:
            # A black here forces blacks up to the right edge.
            span = range(c, cols)
        else:
            span = (c,)
        hy = max(self._down_hazard(row0 + j, assignments, domains) for j in span)
        p = 1.0 - (1.0 - hx) * (1.0 - hy)
        if variable >= cols:
            # Blacks this one forces (to the right edge) would close a 2x2 black block.
            above = variable - cols
            first = c - 1 if left == 0 < c else c
            last = span[-1] if left > 0 and span[-1] == cols - 1 else c
            if any(
                assignments.get(rep[above + j - c]) == 1 == assignments.get(rep[above + j + 1 - c])
                for j in range(first, last)
            ):
                p *= _P_BLOCK
        expected = self._density * self._remaining[k]
        if expected > 0:
            p *= min(_STEER[1], max(_STEER[0], (self._target - blacks) / expected))
        p = min(_P_MAX, max(_P_MIN, p))
        return [1, 0] if rng.random() < p else [0, 1]


def _check_args(rows, cols, count, max_blacks, min_blacks, max_slot_length, min_slot_length):
    for name, value, low in (
        ("rows", rows, 1),
        ("cols", cols, 1),
        ("count", count, 0),
        ("max_blacks", max_blacks, 0),
        ("min_blacks", min_blacks, 0),
        ("max_slot_length", max_slot_length, 1),
        ("min_slot_length", min_slot_length, 1),
    ):
        if not isinstance(value, int) or isinstance(value, bool) or value < low:
            raise InputError(f"{name} must be an integer >= {low}, got {value!r}")
    if min_blacks > max_blacks:
        raise InputError(f"min_blacks {min_blacks} > max_blacks {max_blacks}")
    if min_slot_length > max_slot_length:
        raise InputError(f"min_slot_length {min_slot_length} > max_slot_length {max_slot_length}")
    if min(rows, cols) < min_slot_length:
        raise InputError(
            f"a {rows}x{cols} grid has no room for a white cell: every one needs an across and a "
            f"down run of at least min_slot_length {min_slot_length}"
        )


def generate_patterns(
    rows: int,
    cols: int,
    count: int,
    seed: int,
    max_blacks: int = 40,
    min_blacks: int = 0,
    max_slot_length: int = 15,
    min_slot_length: int = 3,
    progress: Callable[[str], None] | None = None,
    *,
    density: float | None = None,
    node_budget: int = DEFAULT_NODE_BUDGET,
    symmetry: str = "rotational",
) -> list[Grid]:
    """Generate ``count`` patterns obeying the American rules, no two alike under symmetry.

    Parameters
    ----------
    rows, cols : int
        Grid size.
    count : int
        How many distinct patterns to return.
    seed : int
        Seed of the ``random.Random`` all randomness comes from.
    max_blacks, min_blacks : int
        Bounds on the number of black cells.
    max_slot_length, min_slot_length : int
        Bounds on the length of every across and down run of white cells.
    progress : callable, optional
        Called with a one-line status message after every ``count // 20``
        patterns (and the last).
    density : float, optional
        Target fraction of black cells; by default the typical American
        density (0.165), lowered to fit ``max_blacks`` and raised to reach
        ``min_blacks``.
    node_budget : int
        Nodes one solve may spend before it restarts with fresh randomness.
    symmetry : str
        ``"rotational"`` (default: 180 degrees), ``"quarter"`` (90
        degrees), ``"mirror"`` (left-right) or ``"none"``; see :func:`orbits`.

    Returns
    -------
    list of Grid
        Patterns (``#`` black, ``.`` white), in generation order.

    Raises
    ------
    InputError
        On a bad argument, or when ``_MAX_FRUITLESS`` solves in a row give
        no new pattern (the rules leave too few patterns, or none).

    Notes
    -----
    Each pattern is an independent solve of the model of
    :func:`build_problem` by :class:`RandomizedSolver` with a fresh
    ``random.Random`` drawn from the master one; a solve that hits the
    node budget is simply restarted.  Duplicates -- a pattern equal to an
    earlier one turned or mirrored (:func:`pipeline.model.symmetry.canonical`)
    -- and patterns with no white cell are skipped.  A 15x15 solve is about 113 variables and
    ~1,100 constraints; cost per solve is O(nodes * constraints per
    variable).
    """
    _check_args(rows, cols, count, max_blacks, min_blacks, max_slot_length, min_slot_length)
    n = rows * cols
    rep = orbits(rows, cols, symmetry)
    problem, variables, weights = build_problem(
        rows, cols, max_blacks, min_blacks, max_slot_length, min_slot_length, symmetry
    )
    if density is None:
        target = _TYPICAL_DENSITY * n
        target = min(target, max_blacks - 1.5)
        target = max(target, min_blacks + 0.5, 0.0)
    else:
        target = density * n
    order = _DensityOrder(variables, weights, cols, target, rep)
    master = random.Random(seed)
    seen: set[str] = set()
    grids: list[Grid] = []
    solves = fruitless = gave_up = 0
    every = max(1, count // 20)
    while len(grids) < count:
        rng = random.Random(master.getrandbits(64))
        solver = RandomizedSolver(rng, order=variables, value_order=order, node_budget=node_budget)
        problem.setSolver(solver)
        solution = problem.getSolution()
        solves += 1
        grid = None
        if solution is None:
            gave_up += solver.gave_up
            if not solver.gave_up:
                raise InputError(
                    f"no {rows}x{cols} pattern has {min_blacks}-{max_blacks} blacks and every run "
                    f"{min_slot_length}-{max_slot_length} cells long"
                )
        else:
            cells = ["#" if solution[rep[i]] else "." for i in range(n)]
            candidate = Grid(rows, cols, cells)
            key = canonical(candidate)
            if key not in seen and "." in key:
                seen.add(key)
                grid = candidate
        if grid is None:
            fruitless += 1
            if fruitless >= _MAX_FRUITLESS:
                raise InputError(
                    f"only {len(grids)} distinct {rows}x{cols} patterns found after {solves} solves "
                    f"({fruitless} in a row gave nothing new); ask for fewer or relax the rules"
                )
            continue
        fruitless = 0
        grids.append(grid)
        if progress is not None and (len(grids) % every == 0 or len(grids) == count):
            progress(f"patterns {rows}x{cols}: {len(grids)}/{count} ({solves} solves, {gave_up} restarts)")
    return grids


def write_patterns(path, grids: Sequence[Grid]) -> None:
    """Write ``grids`` to ``path`` as hex lines (one pattern a line), atomically.

    Square grids are the seed's hex; other rectangles ``ROWSxCOLS:HEX``.
    """
    write_pattern_file(path, grids)
