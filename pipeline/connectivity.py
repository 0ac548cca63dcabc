"""Stage 2: keep the patterns whose white cells form one connected region.

A crossword's white cells must all be reachable from each other through
shared edges (the seed's ``isfullyconnected``); a pattern split into
islands is two puzzles, not one.  The test uses networkx: the white cells
are the nodes, 4-neighbour adjacencies the edges.
"""

from __future__ import annotations

import networkx as nx

from .model.grid import Grid
from .model.hexcodec import read_pattern_file, write_pattern_file

__all__ = ["white_graph", "components", "is_connected", "keep_connected"]


def white_graph(grid: Grid) -> nx.Graph:
    """The graph of ``grid``'s white cells.

    Parameters
    ----------
    grid : Grid
        Any grid; letters count as white.

    Returns
    -------
    networkx.Graph
        One node per white cell (its flat index ``row * cols + col``), an
        edge between white cells that share a side.

    Notes
    -----
    O(rows * cols).
    """
    g = nx.Graph()
    cols = grid.cols
    white = [not grid.is_black(i) for i in range(grid.rows * cols)]
    g.add_nodes_from(i for i, w in enumerate(white) if w)
    for i, w in enumerate(white):
        if not w:
            continue
        if (i + 1) % cols and white[i + 1]:
            g.add_edge(i, i + 1)
        if i + cols < len(white) and white[i + cols]:
            g.add_edge(i, i + cols)
    return g


def components(grid: Grid) -> list[set[int]]:
    """The connected regions of white cells.

    Returns
    -------
    list of set of int
        Each region as a set of flat cell indices, ordered by their first
        (top-left-most) cell; empty when the grid has no white cell.

    Notes
    -----
    ``networkx.connected_components`` (breadth-first search), O(rows * cols).
    """
    return sorted((set(c) for c in nx.connected_components(white_graph(grid))), key=min)


def is_connected(grid: Grid) -> bool:
    """True when the white cells form a single region.

    A grid with no white cell is not connected (there is no puzzle in it).

    Notes
    -----
    ``networkx.is_connected``, O(rows * cols).
    """
    g = white_graph(grid)
    return g.number_of_nodes() > 0 and nx.is_connected(g)


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
