"""The white cells of a grid as a graph (networkx): regions and cut cells.

A crossword's white cells must form one region (all-over interlock), and a
British grid must not hang on a single cell: filling one white square
must not cut off a part of the grid big enough to hold a word.  Both are
questions about the graph whose nodes are the white cells and whose edges
join white cells that share a side.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .grid import Grid

# networkx is imported in the functions that use it: importing it takes 0.1 s,
# and the config check (so every Snakemake start, twice a SLURM job) imports
# this module without needing it.
if TYPE_CHECKING:
    import networkx as nx

__all__ = ["white_graph", "components", "is_connected", "cut_cells"]


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
    import networkx as nx

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
    import networkx as nx

    return sorted((set(c) for c in nx.connected_components(white_graph(grid))), key=min)


def is_connected(grid: Grid) -> bool:
    """True when the white cells form a single region.

    A grid with no white cell is not connected (there is no puzzle in it).

    Notes
    -----
    ``networkx.is_connected``, O(rows * cols).
    """
    import networkx as nx

    g = white_graph(grid)
    return g.number_of_nodes() > 0 and nx.is_connected(g)


def cut_cells(grid: Grid, min_part: int = 3) -> dict[int, list[int]]:
    """White cells whose filling cuts off a part of at least ``min_part`` cells.

    Filling a white cell (making it black) splits the white graph when the
    cell is an articulation point.  A split that only strands a single
    unchecked letter at a word's end is ordinary in British grids; one that
    cuts off ``min_part`` cells or more (room for a word) means the grid
    hangs on that cell, which the Times rules forbid.

    Parameters
    ----------
    grid : Grid
    min_part : int
        The smallest cut-off part that counts (default 3, the shortest word).

    Returns
    -------
    dict
        ``{cell: sizes}``: for each such cell, the sizes of the parts its
        filling leaves, largest first.  Empty when there is none.

    Examples
    --------
    >>> from pipeline.model.grid import parse_grid
    >>> cut_cells(parse_grid("...#...\\n.......\\n...#..."))  # the middle row holds the halves together
    {9: [10, 8], 10: [9, 9], 11: [10, 8]}
    >>> cut_cells(parse_grid("...\\n...\\n..."))
    {}

    Notes
    -----
    ``networkx.articulation_points`` (Tarjan's depth-first search, O(V + E)),
    then the components of its region without it: O(A * (V + E)) for A
    articulation points.  Each region is judged alone, so a grid in two
    regions has no cut cell for that alone.
    """
    import networkx as nx

    g = white_graph(grid)
    out = {}
    for cell in sorted(nx.articulation_points(g)):
        # Parts of the cell's own region only: another region is not "cut off" by it.
        region = nx.node_connected_component(g, cell) - {cell}
        parts = sorted((len(c) for c in nx.connected_components(g.subgraph(region))), reverse=True)
        if len(parts) > 1 and parts[1] >= min_part:
            out[cell] = parts
    return out
