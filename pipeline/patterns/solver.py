"""PatternSolver: a python-constraint ``Solver`` that runs the search in C.

python-constraint stays the modelling layer (``Problem``, variables,
constraints; :mod:`pipeline.patterns.constraints`).  Its stock solvers
push and pop every later domain at every node and call each constraint
through Python, which for a 15x15 pattern (113 variables, ~1,000
constraints) gives a few dozen patterns a second.  This solver reads the
same ``(domains, constraints, vconstraints)`` that ``Problem`` hands every
solver, compiles the constraints it knows into the kernel
(``pipeline/patterns/_kernel.c``) and keeps the rest as Python checks of
each complete assignment, so any Problem over 0/1 variables is solved
correctly, and ours fast:

==========================  =============================================
constraint                  compiled to
==========================  =============================================
``NogoodConstraint``        a clause (unit propagation)
``BlackCountConstraint``    the weighted black-count bounds
``GridRuleConstraint``      the kernel's whole-grid checks (one region,
                            word count, checked share, cut cells)
anything else               checked in Python on each solution
==========================  =============================================

Each solution is an independent randomized solve (seeded from ``seed``),
so a stream of solutions is spread over the whole space rather than being
one enumeration order; the same seed gives the same stream on every
machine.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from constraint import Solver

from . import _kernel
from .constraints import BlackCountConstraint, GridRuleConstraint, NogoodConstraint

__all__ = ["PatternSolver", "AMERICAN_HAZARD", "DEFAULT_NODE_BUDGET"]

#: Nodes (values tried) one randomized solve may spend before a restart.
DEFAULT_NODE_BUDGET = 2000

#: How American constructors end white runs (tuned on 15x15): index L is the
#: chance a run of L whites ends here; index 0 is a black right after a black
#: (a bar); an edge black is a third of that.
AMERICAN_HAZARD = (0.03, 0.0, 0.0, 0.15, 0.3, 0.45, 0.55, 0.65, 0.75, 0.85, 0.9)

_UNSET = -1


class PatternSolver(Solver):
    """Randomized backtracking with unit propagation, compiled; one solve a solution.

    Parameters
    ----------
    seed : int
        Every random choice comes from it.
    grid : (rows, cols, cell_vars), optional
        The grid the variables stand for: ``cell_vars`` is the variable of
        each cell, row-major.  Without it the problem is taken as a row of
        cells, one a variable, and values are drawn at even odds.
    target : float, optional
        Black cells the value choice steers towards (with ``grid``).
    hazard : sequence of float
        The run-ending chances of the value choice (:data:`AMERICAN_HAZARD`).
    prior : sequence of float, optional
        Per cell (with ``grid``), a fixed chance of black for the value
        choice, or a negative number to use the hazards.
    node_budget : int
        Nodes one solve may spend before it restarts with a fresh seed.
    max_restarts : int, optional
        Give up (end the stream, set :attr:`gave_up`) after this many
        restarts in a row; ``None``: never.

    Attributes
    ----------
    cells : bytes or None
        The last solution as row-major cells, ``#`` black, ``.`` white.
    nodes, restarts, rejected : int
        Work so far: nodes searched, solves that ran out of nodes,
        solutions a Python-only constraint rejected.
    gave_up : bool

    Notes
    -----
    A solve is O(nodes * clauses per variable); see the kernel's header
    comment for the search.  ``getSolutionIter`` ends when the search space
    is exhausted (no solution at all) or after ``max_restarts``.
    """

    requires_pickling = False

    def __init__(
        self,
        seed: int,
        grid: tuple[int, int, Sequence] | None = None,
        target: float | None = None,
        hazard: Sequence[float] = AMERICAN_HAZARD,
        prior: Sequence[float] | None = None,
        node_budget: int = DEFAULT_NODE_BUDGET,
        max_restarts: int | None = None,
    ):
        self._rng = random.Random(seed)
        self._grid = grid
        self._target = target
        self._hazard = tuple(hazard)
        self._prior = prior
        self._budget = node_budget
        self._max_restarts = max_restarts
        self.cells = None
        self.nodes = self.restarts = self.rejected = 0
        self.gave_up = False

    # -- python-constraint's Solver interface ----------------------------
    def getSolution(self, domains: dict, constraints: list, vconstraints: dict):  # noqa: D102
        return next(self.getSolutionIter(domains, constraints, vconstraints), None)

    def getSolutions(self, domains, constraints, vconstraints):  # noqa: D102
        raise NotImplementedError(
            "PatternSolver draws solutions at random; take as many as needed from getSolutionIter()"
        )

    def getSolutionIter(self, domains: dict, constraints: list, vconstraints: dict):  # noqa: D102
        names = list(domains)
        index = {v: k for k, v in enumerate(names)}
        model, python_checks, first = self._compile(names, index, domains, constraints)
        in_a_row = 0
        while True:
            status, cells, nodes = model.solve(self._rng.getrandbits(64), self._budget)
            self.nodes += nodes
            if status == 1:
                return
            if status == 2:
                self.restarts += 1
                in_a_row += 1
                if self._max_restarts is not None and in_a_row >= self._max_restarts:
                    self.gave_up = True
                    return
                continue
            in_a_row = 0
            solution = {name: 1 if cells[first[k]] == 35 else 0 for k, name in enumerate(names)}  # 35: '#' 
            if any(not c(vs, domains, solution) for c, vs in python_checks):
                self.rejected += 1
                continue
            self.cells = cells
            yield solution

    # -- compiling ---------------------------------------------------------
    def _compile(self, names, index, domains, constraints):
        nvars = len(names)
        clauses, python_checks = [], []
        weights = [1] * nvars
        min_black = max_black = min_words = max_words = cut_part = _UNSET
        connected, share = 0, -1.0
        for var, domain in domains.items():
            values = set(domain)
            if not values <= {0, 1}:
                raise ValueError(f"PatternSolver solves 0/1 variables; {var!r} has {sorted(values)!r}")
            if len(values) == 1:  # (Problem hands no solver an empty domain)
                clauses.append((index[var] * 2 + (1 - values.pop()),))
        grid = self._grid
        for constraint, variables in constraints:
            if isinstance(constraint, NogoodConstraint):
                clauses.append(tuple(index[v] * 2 + int(bool(value)) for v, value in constraint.forbidden))
            elif isinstance(constraint, BlackCountConstraint) and len(variables) == nvars and max_black == _UNSET:
                for v in variables:
                    weights[index[v]] = constraint.weights[v]
                min_black = _UNSET if constraint.minimum is None else constraint.minimum
                max_black = _UNSET if constraint.maximum is None else constraint.maximum
            elif isinstance(constraint, GridRuleConstraint) and (grid is None or grid[:2] == (constraint.rows, constraint.cols)):
                grid = grid or (constraint.rows, constraint.cols, constraint.cell_vars)
                r = constraint.rules
                if constraint.rule == "connected":
                    connected = 1
                elif constraint.rule == "words":
                    min_words = _UNSET if r.min_words is None else r.min_words
                    max_words = _UNSET if r.max_words is None else r.max_words
                elif constraint.rule == "min_checked_share":
                    share = r.min_checked_share
                else:
                    cut_part = r.min_slot_length
            else:
                python_checks.append((constraint, variables))
        if grid is None:
            rows, cols, rep, target = 1, nvars, list(range(nvars)), -1.0
        else:
            rows, cols, cell_vars = grid
            rep = [index[v] for v in cell_vars]
            target = -1.0 if self._target is None else float(self._target)
        prior = [-1.0] * (rows * cols) if self._prior is None or grid is None else [float(p) for p in self._prior]
        # Decisions in the order of each variable's first cell (row-major).
        first = {}
        for cell, var in enumerate(rep):
            first.setdefault(var, cell)
        if len(first) != nvars:
            raise ValueError("PatternSolver: every variable must stand for at least one cell of the grid")
        order = sorted(range(nvars), key=lambda v: first.get(v, rows * cols + v))
        model = _kernel.Model(
            nvars, weights, clauses, order, min_black, max_black, rows, cols, rep, connected, min_words, max_words,
            share, cut_part, target, self._hazard, prior,
        )
        return model, python_checks, [first[v] for v in range(nvars)]
