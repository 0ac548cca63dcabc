"""Stage 1: generate black/white patterns, American or British, with python-constraint.

A *style* (:mod:`pipeline.model.rules`) says what a valid pattern is:
``american`` (180-degree symmetry, every letter checked, no entry under 3
letters, one region, at most 78 words and about 40 blacks in a 15x15) or
``british`` (seed ``000``'s eight rules and The Times's: 4-fold symmetry,
no 2x2 block of either colour, no 2-letter word, no run of more than 3
blacks, at least half of each word checked, no two unchecked letters in a
row, no square whose filling cuts the grid).  Every rule can be switched
off or bounded.

The model is python-constraint's (:mod:`pipeline.patterns.constraints`):
one 0/1 variable per symmetry orbit, nogoods for the local rules, a
weighted count for the blacks, whole-grid constraints for the rest.  It is
solved by :class:`pipeline.patterns.solver.PatternSolver`, a
python-constraint ``Solver`` that compiles the model to C and draws each
pattern by an independent randomized search, placing blacks the way
constructors do (runs of mostly 3-8 letters, few bars, few blacks on the
edges) and steered to the style's density.  Every pattern it yields obeys
every rule; the generator keeps those not equal, turned or mirrored, to
one it already has.  Everything random comes from the seed: the same
arguments give the same patterns in the same order on every machine.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..model.errors import InputError
from ..model.grid import Grid
from ..model.hexcodec import write_pattern_file
from ..model.progress import Progress
from ..model.rules import Rules, style_rules
from ..model.symmetry import SYMMETRIES, canonical_key
from .constraints import build_problem, orbits
from .locks import LockedSlot, parse_lock
from .solver import AMERICAN_HAZARD, DEFAULT_NODE_BUDGET, PatternSolver

__all__ = [
    "generate_patterns",
    "iter_patterns",
    "LockedSlot",
    "parse_lock",
    "write_patterns",
    "build_problem",
    "orbits",
    "PatternSolver",
    "SYMMETRIES",
    "STYLE_DENSITY",
]

#: Share of black cells the value choice aims at, per style: about 38 of
#: 225 in an American 15x15; British grids, with no 2x2 white block, near a third.
STYLE_DENSITY = {"american": 0.165, "british": 0.34}

#: Run-ending chances per style (see :data:`pipeline.patterns.solver.AMERICAN_HAZARD`).
#: British grids alternate letters and blacks in every other row, so a run
#: there ends after 1 letter as readily as after 3.
STYLE_HAZARD = {
    "american": AMERICAN_HAZARD,
    "british": (0.1, 0.5, 0.0, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.85, 0.9),
}

#: Chance of black the value choice gives the cells of a British grid's
#: lattice: odd row and odd column (0-based), the blacks of the classic
#: Times grid; even row and even column, where its words cross (a black
#: there starts words on an unchecked letter).  The hazards decide the rest.
BRITISH_LATTICE = (0.9, -1.0)


def _prior(style: str, rows: int, cols: int) -> list[float] | None:
    if style != "british":
        return None
    odd, even = BRITISH_LATTICE
    return [odd if r % 2 and c % 2 else even if r % 2 == c % 2 == 0 else -1.0 for r in range(rows) for c in range(cols)]


# Consecutive patterns that are old ones turned or mirrored before generation gives up.
_MAX_FRUITLESS = 500
# Consecutive solves that run out of nodes before generation gives up.
_MAX_RESTARTS = 2000


def _target(rules: Rules, cells: int, density: float) -> float:
    target = density * cells
    if rules.max_blacks is not None:
        target = min(target, rules.max_blacks - 1.5)
    if rules.min_blacks is not None:
        target = max(target, rules.min_blacks + 0.5)
    return max(target, 0.0)


def iter_patterns(
    rows: int,
    cols: int,
    seed: int,
    rules: Rules,
    *,
    style: str = "american",
    density: float | None = None,
    node_budget: int = DEFAULT_NODE_BUDGET,
    stats: dict | None = None,
    locked: Sequence[LockedSlot] = (),
    at_most: bool = False,
):
    """Yield valid patterns for ever, none alike under the grid's symmetry group.

    Parameters
    ----------
    rows, cols : int
    seed : int
    rules : Rules
    style : str
        Which style's density and run hazards steer the search (the rules
        alone decide what is valid).
    density : float, optional
        Target share of black cells (default :data:`STYLE_DENSITY`).
    node_budget : int
        Nodes one randomized solve may spend before restarting.
    stats : dict, optional
        Filled in as it goes: ``solves``, ``restarts``, ``duplicates``, ``nodes``.
    locked : sequence of LockedSlot, optional
        Slots every pattern must hold exactly (see :func:`generate_patterns`).
    at_most : bool
        Once a pattern has been found, end quietly where the errors below
        would be raised: a small grid has only a few patterns.

    Raises
    ------
    InputError
        When no pattern obeys the rules (proved by exhausting the search),
        when ``_MAX_RESTARTS`` solves in a row find none, or when
        ``_MAX_FRUITLESS`` patterns in a row are old ones.
    """
    model = build_problem(rows, cols, rules, locked)
    share = STYLE_DENSITY.get(style, STYLE_DENSITY["american"]) if density is None else density
    solver = PatternSolver(
        seed,
        grid=(rows, cols, model.cell_vars),
        target=_target(rules, rows * cols, share),
        hazard=STYLE_HAZARD.get(style, AMERICAN_HAZARD),
        prior=_prior(style, rows, cols),
        node_budget=node_budget,
        max_restarts=_MAX_RESTARTS,
    )
    model.problem.setSolver(solver)
    seen: set[str] = set()
    stats = {} if stats is None else stats
    fruitless = made = 0
    for _ in model.problem.getSolutionIter():
        made += 1
        cells = solver.cells.decode("ascii")
        key = canonical_key(cells, rows, cols)
        stats.update(solves=made, restarts=solver.restarts, nodes=solver.nodes, duplicates=made - len(seen) - 1)
        if key in seen:
            fruitless += 1
            if fruitless >= _MAX_FRUITLESS:
                if at_most:
                    return
                raise InputError(
                    f"only {len(seen)} distinct {rows}x{cols} patterns found in {made} solves ({fruitless} in a "
                    f"row were old ones turned or mirrored); ask for fewer or relax the rules"
                )
            continue
        fruitless = 0
        seen.add(key)
        yield Grid(rows, cols, cells)
    if at_most and seen:
        return
    if solver.gave_up:
        raise InputError(
            f"no {rows}x{cols} pattern found in {_MAX_RESTARTS} searches of {node_budget} nodes; the rules "
            f"({_describe(rules)}) may allow none: relax them"
        )
    raise InputError(f"no {rows}x{cols} pattern obeys the rules ({_describe(rules)})" if not seen else
                     f"only {len(seen)} distinct {rows}x{cols} patterns obey the rules ({_describe(rules)})")


def _describe(rules: Rules) -> str:
    defaults = Rules()
    changed = [f"{k}={v}" for k, v in rules.as_dict().items() if v not in (None, False) or getattr(defaults, k) != v]
    return ", ".join(changed)


def generate_patterns(
    rows: int,
    cols: int,
    count: int,
    seed: int,
    rules: Rules | None = None,
    *,
    style: str = "american",
    progress: Callable[[str], None] | None = None,
    density: float | None = None,
    node_budget: int = DEFAULT_NODE_BUDGET,
    locked: Sequence[LockedSlot] = (),
    at_most: bool = False,
    **overrides,
) -> list[Grid]:
    """Generate ``count`` valid patterns, no two alike under the grid's symmetry group.

    Parameters
    ----------
    rows, cols : int
        Grid size (3 to 100 each; presets are meant for 5 to 25).
    count : int
        How many distinct patterns to return.
    seed : int
        Seed of every random choice.
    rules : Rules, optional
        The rules; by default ``style``'s preset for this size with
        ``overrides`` applied (rule names as keyword arguments, e.g.
        ``max_blacks=40, max_slot_length=11``).
    style : str
        ``"american"`` (default) or ``"british"``: the preset, and how the
        search places blacks.
    progress : callable, optional
        Called with a one-line status after every ``count // 20`` patterns.
    density : float, optional
        Target share of black cells (default per style, kept within the
        black bounds).
    node_budget : int
        Nodes one randomized solve may spend before it restarts.
    locked : sequence of LockedSlot, optional
        Slots every pattern must hold exactly (:mod:`pipeline.patterns.locks`):
        the run's cells white, a black square or the edge at both ends, and
        the same for its symmetric image.  A locked slot may be longer than
        ``max_slot_length``, which then bounds the other slots only: a themed
        grid locks its theme entries and sets ``max_slot_length`` below the
        shortest.  Without it, the patterns are exactly those of earlier
        versions for the same arguments.
    at_most : bool
        Return fewer than ``count`` patterns when the rules allow no more
        (a 5x5 has a handful, a grid with no blacks one) rather than raise
        (see :func:`iter_patterns`).

    Returns
    -------
    list of Grid
        Patterns (``#`` black, ``.`` white), in generation order.

    Raises
    ------
    InputError
        On a bad argument or rule, or when the rules allow too few patterns
        (see :func:`iter_patterns`).

    Examples
    --------
    >>> grids = generate_patterns(15, 15, 3, seed=1)
    >>> len(grids), all(g.rows == 15 for g in grids)
    (3, True)

    A themed grid: a 15-letter entry across the middle row, the others at most 8 long:

    >>> g = generate_patterns(15, 15, 1, seed=1, locked=[LockedSlot(7, 0, "across", 15)], max_slot_length=8)[0]
    >>> g.row_strings()[7], max(s.length for s in g.slots() if s.cells[0] // 15 != 7 or s.direction == "down")
    ('...............', 8)

    Notes
    -----
    A 15x15 American pattern is ~113 orbit variables and ~900 nogoods; a
    solve takes a few hundred nodes, tens of microseconds in the kernel.
    """
    for name, value, low in (("rows", rows, 1), ("cols", cols, 1), ("count", count, 0)):
        if not isinstance(value, int) or isinstance(value, bool) or value < low:
            raise InputError(f"{name} must be an integer >= {low}, got {value!r}")
    if max(rows, cols) > 100:
        raise InputError(f"a {rows}x{cols} grid is too big (100 a side at most)")
    if rules is None:
        rules = style_rules(style, rows, cols, overrides, where="rules")
    elif overrides:
        raise InputError("give rules or rule keyword arguments, not both")
    grids: list[Grid] = []
    if count == 0:
        return grids
    stats: dict = {}
    done = Progress(count, progress, f"patterns {rows}x{cols} {style}")
    for grid in iter_patterns(rows, cols, seed, rules, style=style, density=density, node_budget=node_budget,
                              stats=stats, locked=locked, at_most=at_most):
        grids.append(grid)
        done.update(len(grids), f"{stats['solves']} solves, {stats['restarts']} restarts, "
                                f"{stats['duplicates']} alike under symmetry")  # fmt: skip
        if len(grids) == count:
            break
    return grids


def write_patterns(path, grids: Sequence[Grid]) -> None:
    """Write ``grids`` to ``path`` as hex lines (one pattern a line), atomically.

    Square grids are the seed's hex; other rectangles ``ROWSxCOLS:HEX``.
    """
    write_pattern_file(path, grids)
