"""Better fills within the budget: raise the floor until the grid says no.

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

from .search import FILLED, UNFILLABLE, Filler, FillResult

__all__ = ["fill_best"]


def _better(a: FillResult, b: FillResult | None) -> bool:
    if b is None:
        return True
    return (a.min_entry_score, a.score) > (b.min_entry_score, b.score)


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
        filler = Filler(grid, index, seed=seed + rounds, min_score=floor, exclude=exclude, penalty=penalty)
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
        if _better(result, best):
            best = result
            if progress:
                progress(f"round {rounds}: weakest entry {best.min_entry_score:g}, mean {best.score:.1f}")
        # Ban every word as weak as this fill's weakest and fill again.
        floor = result.min_entry_score + 1e-9
    out = best or first
    out.seconds = time.perf_counter() - start
    out.nodes = total_nodes
    out.extra = {"rounds": rounds, "bound": bound}
    out.wall_clock = wall_clock
    return out
