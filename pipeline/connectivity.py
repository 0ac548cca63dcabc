"""Stage 2: keep the patterns whose white cells hold together.

A crossword's white cells must all be reachable from each other through
shared edges (the seed's ``isfullyconnected``); a pattern split into
islands is two puzzles, not one.  A British grid must also not hang on a
single square: filling one white cell must not cut off a part big enough
for a word (The Times's rule, ``no_cut_cell``).  Both are graph questions
answered by networkx in :mod:`pipeline.model.graph`; which of them apply
comes from the style's rules (:func:`pipeline.model.rules.style_rules`).

Every dropped pattern gets a reason that names the regions (how many,
each one's size and first cell) or the cut cells (each cell and the sizes
of the parts its filling leaves).
"""

from __future__ import annotations

from .model.fileio import atomic_write
from .model.graph import components, is_connected, white_graph
from .model.grid import Grid
from .model.hexcodec import encode_grid, read_pattern_file, write_pattern_file
from .model.rules import Rules, graph_violations, rules_by_size

__all__ = [
    "white_graph",
    "components",
    "is_connected",
    "connectivity_reasons",
    "ConnectivityResult",
    "keep_connected",
    "REPORT_COLUMNS",
]

#: Columns of the ``--report`` table of dropped patterns, in order.
REPORT_COLUMNS = ("line", "hex", "reason")



def connectivity_reasons(grid: Grid, rules: Rules) -> list[str]:
    """Why ``grid`` fails the connectivity rules of ``rules`` (empty when it passes).

    Parameters
    ----------
    grid : Grid
        A pattern; letters count as white.
    rules : Rules
        Only ``connected``, ``no_cut_cell`` and ``min_slot_length`` (the
        smallest cut-off part that counts) are read.

    Returns
    -------
    list of str
        At most two reasons: the regions, when ``rules.connected`` and the
        white cells are not one region (``"white squares in 2 regions (9
        from r1c1, 9 from r1c5)"``, or ``"no white square"``); the cut
        cells, when ``rules.no_cut_cell`` and some cell holds the grid
        together (``"cut cells: r2c4 (parts 10, 8)"``, the first five
        named).

    Examples
    --------
    >>> from pipeline.model.grid import parse_grid
    >>> from pipeline.model.rules import style_rules
    >>> g = parse_grid("...#...\\n.......\\n...#...")
    >>> connectivity_reasons(g, style_rules("american", 3, 7))
    []
    >>> connectivity_reasons(g, style_rules("british", 3, 7))
    ['cut cells: r2c3 (parts 10, 8), r2c4 (parts 9, 9), r2c5 (parts 10, 8)']
    >>> connectivity_reasons(parse_grid("...#...\\n...#..."), Rules())
    ['white squares in 2 regions (6 from r1c1, 6 from r1c5)']

    Notes
    -----
    :func:`pipeline.model.rules.graph_violations`: regions by breadth-first
    search, O(rows * cols); cut cells by :func:`pipeline.model.graph.cut_cells`
    on each region alone (so one region never counts as a part cut off from
    another), O(A * rows * cols) for A articulation points.
    """
    return graph_violations(grid, rules)


class ConnectivityResult(tuple):
    """``(kept, dropped)``, as :func:`keep_connected` returns it, with the reasons.

    It unpacks and compares as the pair of counts; ``reasons`` holds a
    ``(line, hex, reason)`` triple per dropped pattern, in input order.
    """

    def __new__(cls, kept: int, dropped: int, reasons: list[tuple[int, str, str]]):
        self = super().__new__(cls, (kept, dropped))
        self.reasons = reasons
        return self

    @property
    def kept(self) -> int:
        return self[0]

    @property
    def dropped(self) -> int:
        return self[1]


def keep_connected(
    in_path,
    out_path,
    style: str = "american",
    overrides: dict | None = None,
    report=None,
    where: str = "pattern_rules",
) -> ConnectivityResult:
    """Copy the patterns of a hex file that hold together to another.

    Parameters
    ----------
    in_path : path
        Hex patterns, one a line (blank lines are skipped).
    out_path : path
        Written atomically: the kept patterns, in input order, in the
        canonical hex form (:func:`pipeline.model.hexcodec.encode_grid`).
    style : str
        The rule preset (``american``, ``british``), applied at each
        pattern's size: its ``connected`` rule drops a pattern whose white
        cells are not one region (off: disconnected patterns are kept), its
        ``no_cut_cell`` rule (british) one that hangs on a single cell.
    overrides : dict, optional
        Rule name -> value, as for :func:`pipeline.model.rules.style_rules`
        (``{"no_cut_cell": False}``).
    report : path, optional
        Written atomically: a tab-separated table with a header line
        (:data:`REPORT_COLUMNS`) and a row per dropped pattern: its input
        line number, canonical hex and reasons joined by ``"; "``.
    where : str
        How errors name the overrides (``pattern_rules``, ``--rule``).

    Returns
    -------
    ConnectivityResult
        ``(kept, dropped)``, with ``.reasons``: ``(line, hex, reason)`` for
        each dropped pattern.

    Raises
    ------
    InputError
        On a missing file, a line that is not a hex pattern, an unknown
        style or rule, a bad rule value, or rules that cannot apply to a
        pattern's size (naming the file and line); nothing is written then.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / "in.hex").write_text("5x7:EFDFBF7Et\\n5x7:EFDFFF7Et\\n")  # split in two; joined by row 3
    >>> r = keep_connected(d / "in.hex", d / "out.hex")
    >>> r, r.reasons
    ((1, 1), [(1, '5x7:EFDFBF7Et', 'white squares in 2 regions (15 from r1c1, 15 from r1c5)')])
    >>> keep_connected(d / "in.hex", d / "out.hex", "british").reasons[1][2]
    'cut cells: r3c3 (parts 16, 14), r3c4 (parts 15, 15), r3c5 (parts 16, 14)'
    >>> keep_connected(d / "in.hex", d / "out.hex", "british", {"no_cut_cell": False})
    (1, 1)

    Notes
    -----
    :func:`connectivity_reasons` on each pattern: O(patterns * rows * cols),
    times the articulation points when ``no_cut_cell`` is on.
    """
    rules_at = rules_by_size(style, overrides, where)
    kept, reasons = [], []
    for lineno, _, grid in read_pattern_file(in_path):
        why = connectivity_reasons(grid, rules_at(grid.rows, grid.cols, in_path, lineno))
        if why:
            reasons.append((lineno, encode_grid(grid), "; ".join(why)))
        else:
            kept.append(grid)
    if report is not None:
        with atomic_write(report) as f:
            f.write("\t".join(REPORT_COLUMNS) + "\n")
            for row in reasons:
                f.write("\t".join(str(v).replace("\t", " ") for v in row) + "\n")
    write_pattern_file(out_path, kept)
    return ConnectivityResult(len(kept), len(reasons), reasons)
