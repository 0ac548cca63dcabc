"""Stage 2: keep the patterns whose white cells form one connected region.

A crossword's white cells must all be reachable from each other through
shared edges (the seed's ``isfullyconnected``); a pattern split into
islands is two puzzles, not one.  The test uses networkx: the white cells
are the nodes, 4-neighbour adjacencies the edges.
"""

from __future__ import annotations

from .model.graph import components, is_connected, white_graph
from .model.hexcodec import read_pattern_file, write_pattern_file

__all__ = ["white_graph", "components", "is_connected", "keep_connected"]


def keep_connected(in_path, out_path) -> tuple[int, int]:
    """Copy the connected patterns of a hex file to another.

    Parameters
    ----------
    in_path : path
        Hex patterns, one a line (blank lines are skipped).
    out_path : path
        Written atomically: the connected patterns, in input order, in the
        canonical hex form (:func:`pipeline.model.hexcodec.encode_grid`).

    Returns
    -------
    (kept, dropped) : tuple of int

    Raises
    ------
    InputError
        On a missing file or a line that is not a hex pattern, naming the
        file and line; ``out_path`` is then left untouched.
    """
    grids = [grid for _, _, grid in read_pattern_file(in_path)]
    kept = [g for g in grids if is_connected(g)]
    write_pattern_file(out_path, kept)
    return len(kept), len(grids) - len(kept)
