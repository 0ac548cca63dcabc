"""Better fills within the budget.

`fill_graded` (what ``xw fill`` does by default) finds a first fill that
uses words a daily paper would print wherever the grid allows: every slot
starts with a score floor of 50, and only the slots where the search keeps
failing come down by fives to 30, then to anything.

The first fill is the fastest the search finds.  ``fill_best`` then bans
every word scoring at or below that fill's weakest entry and fills again,
and again, each time lifting the floor; it keeps the best fill found (the
highest weakest entry, then the highest mean score) and stops when a floor
proves unfillable or the budget is spent.  Each round is a complete search
at its floor, so the last floor that failed is a real bound: no fill of
this grid from this list has all entries above it (when that round was
proven unfillable rather than out of time).
"""

from __future__ import annotations

import time

from .problem import FillProblem
from .search import FILLED, UNFILLABLE, Exclusions, Filler, FillResult, adjusted_score

__all__ = ["GRADES", "PATIENCE", "RELAX_SHARE", "SCARCE", "fill_best", "fill_graded"]

#: The floors `fill_graded` tries for a slot, best first: fine in a daily
#: paper, then by fives down to 30 ("use when a corner needs it"), then anything.
GRADES = (50, 45, 40, 35, 30)
#: Slots blamed for at least this share of the most blamed slot's failures
#: come down a grade after a failed run of the search.
RELAX_SHARE = 0.5
#: A slot whose length has fewer words than this at a grade starts below it.
SCARCE = 200
#: Words tried per slot after which every floor comes down at each failed run.
PATIENCE = 400


def _better(a: FillResult, b: FillResult | None) -> bool:
    """Whether ``a`` is a better fill than ``b``: a higher weakest entry (of those it chose), then a higher mean."""
    if b is None:
        return True
    weakest = lambda r: r.extra.get("weakest_open", r.min_entry_score)  # noqa: E731
    return (weakest(a), a.score) > (weakest(b), b.score)


def _weakest(result: FillResult, fixed: list[bool], index, penalty) -> float:
    """The lowest (penalised) score of the entries ``result`` chose, those of the ``fixed`` slots aside."""
    words = [result.grid.word(slot) for slot, f in zip(result.grid.slots(), fixed) if not f]
    return min(adjusted_score(index.score(w), w, penalty) for w in words)


def fill_best(
    grid,
    index,
    seed=0,
    timeout=10.0,
    max_nodes=None,
    improve_nodes=None,
    min_score=None,
    exclude=(),
    progress=None,
    penalty=None,
):
    """The best fill found within ``timeout`` seconds.

    Parameters
    ----------
    max_nodes : int, optional
        Budget of the first fill, in words tried.
    improve_nodes : int, optional
        Budget of all the later, better fills together (None: until ``timeout``).
    penalty : dict, optional
        ``{word: points}`` taken off those words' scores (see
        :class:`~pipeline.fill.search.Filler`): fills are judged, and the
        floor raised, on the lowered scores, so a penalised word is the
        first to go when a better fill exists.

    Returns
    -------
    FillResult
        The best fill (``status`` filled) with ``rounds`` (fill attempts,
        the last one the one that stopped the search) and
        ``bound`` (the first floor at which the grid proved unfillable, or
        None) in ``extra``; or the first round's result when nothing filled.
        Its ``wall_clock`` is True when ``timeout`` ended any round, or the
        search, before the node budgets did: then which fill is returned
        depends on the machine's speed.

    Examples
    --------
    >>> from pipeline.fill.index import WordIndex
    >>> from pipeline.model.grid import parse_grid
    >>> idx = WordIndex({"AB": 10, "CD": 10, "AC": 10, "BD": 10, "XY": 90, "ZW": 90, "XZ": 90, "YW": 90})
    >>> r = fill_best(parse_grid("..\\n.."), idx, timeout=5)
    >>> r.min_entry_score, r.extra["rounds"], r.extra["bound"] > 90
    (90, 3, True)

    With 85 points off XY the 10-scored fill is the better one:

    >>> r = fill_best(parse_grid("..\\n.."), idx, timeout=5, penalty={"XY": 85})
    >>> sorted(r.words), r.min_entry_score
    (['AB', 'AC', 'BD', 'CD'], 10)
    """
    start = time.perf_counter()
    deadline = start + timeout
    problem = FillProblem(grid)  # one for every round
    exclusions = Exclusions(exclude, penalty)  # and one list of excluded and penalised words
    # Entries the grid gives whole are kept as they are: no floor for them, and the fills are judged
    # on the others.
    given = problem.given
    fixed = [all(c in given for c in cells) for cells in problem.cells]
    floors = [0 if f else None for f in fixed] if any(fixed) else None
    nodes_left = max_nodes
    floor = min_score
    best = None
    first = None
    rounds = 0
    bound = None
    total_nodes = 0
    wall_clock = False
    while True:
        if nodes_left is not None and nodes_left <= 0:
            break
        left = deadline - time.perf_counter()
        if left <= 0 and rounds:  # the first round always runs: it is the result when nothing fills
            wall_clock = True
            break
        filler = Filler(problem, index, seed=seed + rounds, min_score=floor, floors=floors, exclusions=exclusions)
        result = filler.fill(left, nodes_left)
        rounds += 1
        total_nodes += result.nodes
        wall_clock = wall_clock or result.wall_clock
        if nodes_left is not None and rounds > 1:
            nodes_left -= result.nodes
        first = first or result
        if rounds == 1:
            nodes_left = improve_nodes
        if result.status != FILLED:
            if result.status == UNFILLABLE and best is not None:
                bound = floor
            break
        if floors is not None:
            result.extra["weakest_open"] = _weakest(result, fixed, index, exclusions.penalty)
        if _better(result, best):
            best = result
            if progress:
                progress(f"round {rounds}: weakest entry {best.min_entry_score:g}, mean {best.score:.1f}")
        # Ban every word as weak as this fill's weakest and fill again.
        floor = result.extra.get("weakest_open", result.min_entry_score) + 1e-9
    out = best or first
    out.seconds = time.perf_counter() - start
    out.nodes = total_nodes
    out.extra = {"rounds": rounds, "bound": bound}
    out.wall_clock = wall_clock
    return out


def fill_graded(
    grid,
    index,
    seed=0,
    timeout=10.0,
    max_nodes=None,
    min_score=None,
    exclude=(),
    penalty=None,
    grades=GRADES,
    relax_share=RELAX_SHARE,
    patience=PATIENCE,
):
    """A first fill with the best-scored words the grid allows, slot by slot.

    Every slot starts with the floor ``grades[0]`` (only words scoring at
    least that may go there), or, when its length has fewer than `SCARCE`
    words that good (and under half its words), the first grade that has
    them (a 15-letter slot seldom has a fine word to spare).  When a run of the search fails
    or restarts, the slots it blamed most for its dead ends (its failure
    weights: at least ``relax_share`` of the most blamed slot's) come down
    one grade and the search starts again, keeping what it learned of where
    the grid is hard.  The last grade is ``min_score`` (or no floor), so a
    grid the plain search fills, this fills too.  Value choice prefers the
    word that leaves its crossings the most words of the top grade.

    Parameters
    ----------
    max_nodes : int, optional
        Budget in words tried (None: ``timeout`` only).
    min_score : float, optional
        The lowest floor: no word under it is ever used.
    grades : sequence of float
        The floors, best first; those not above ``min_score`` are skipped.
    relax_share : float
        Which blamed slots come down after a failed run.
    patience : int
        Words tried per slot after which every slot comes down a grade at
        each failed run (a grid too hard for the top grades).

    Returns
    -------
    FillResult
        With ``extra["relaxed"]``: the slots whose floor came down below
        ``grades[0]``.  ``unfillable`` means proven so at ``min_score``.

    Notes
    -----
    One search (`pipeline.fill.search.Filler` with graded ``floors``):
    deterministic for a seed and a node budget.  A grid that fills at the
    top grade costs what the plain search costs, give or take the floors'
    pruning; a harder one costs its restarts.

    Examples
    --------
    >>> from pipeline.fill.index import WordIndex
    >>> from pipeline.model.grid import parse_grid
    >>> idx = WordIndex({"AB": 60, "CD": 60, "AC": 60, "BD": 60, "XY": 20, "ZW": 20, "XZ": 20, "YW": 20})
    >>> r = fill_graded(parse_grid("..\\n.."), idx, seed=3)
    >>> sorted(r.words), r.extra["relaxed"]
    (['AB', 'AC', 'BD', 'CD'], 0)

    Where no fine word fits, the floor comes down there and only there:

    >>> idx = WordIndex({"AB": 60, "CD": 60, "AC": 60, "BX": 20, "BD": 20})
    >>> r = fill_graded(parse_grid("..\\n.."), idx)
    >>> sorted(r.words), r.min_entry_score, r.extra["relaxed"]
    (['AB', 'AC', 'BD', 'CD'], 20, 1)
    """
    steps = [g for g in grades if min_score is None or g > min_score] + [min_score]
    problem = FillProblem(grid)
    given = set(problem.given)
    floors = []
    for cells in problem.cells:
        if all(c in given for c in cells):  # its word is given: no floor
            floors.append(min_score)
            continue
        li = index[len(cells)]
        bottom = len(li) if min_score is None else li.count_at_least(min_score)
        first = 0
        while first < len(steps) - 1 and li.count_at_least(steps[first]) < min(SCARCE, bottom / 2):
            first += 1
        floors.append(tuple(steps[first:]))
    filler = Filler(problem, index, seed=seed, min_score=min_score, exclude=exclude, penalty=penalty, floors=floors,
                    good=steps[0], relax_share=relax_share, patience=patience * len(floors))  # fmt: skip
    result = filler.fill(timeout, max_nodes)
    relaxed = 0
    for spec, level in zip(floors, result.levels):
        if isinstance(spec, tuple) and (len(steps) - len(spec) + level) > 0:
            relaxed += 1
    result.extra = {"relaxed": relaxed}
    return result
