"""Stage 5, the filler: put listed words in every slot of a grid.

The engine is split by concern, like ingrid_core: ``index`` (the word list
as bitsets), ``problem`` (slots and crossings), the C kernel ``_kernel.c`` (arc
consistency, no word twice, slot choice, value order, restarts) driven by
``search``.  ``batch`` runs it over a pattern file for the pipeline.
"""

from .index import WordIndex, load_index
from .search import FILLED, TIMEOUT, UNFILLABLE, Filler, FillResult

__all__ = ["WordIndex", "load_index", "Filler", "FillResult", "fill_grid", "FILLED", "UNFILLABLE", "TIMEOUT"]


def fill_grid(grid, index, seed=0, timeout=10.0, min_score=None, exclude=(), max_nodes=None):
    """Fill ``grid`` from ``index``; see :class:`Filler`.

    Examples
    --------
    >>> from pipeline.model.grid import parse_grid
    >>> idx = WordIndex({"AB": 50, "CD": 50, "AC": 50, "BD": 50})
    >>> sorted(fill_grid(parse_grid("..\\n.."), idx).words)
    ['AB', 'AC', 'BD', 'CD']
    """
    return Filler(grid, index, seed=seed, min_score=min_score, exclude=exclude).fill(timeout, max_nodes)
