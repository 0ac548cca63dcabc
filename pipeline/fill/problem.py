"""A grid seen by the filler: slots, the cells they share, and letters given.

Cells are numbered by their flat grid index.  Each slot lists, per
position, its cell and the crossing slot there (``-1`` for an unchecked
cell), so propagation walks arrays instead of looking things up.
"""

from __future__ import annotations

from ..model.grid import BLACK, EMPTY, Grid, Slot

__all__ = ["FillProblem"]


class FillProblem:
    """Slots and crossings of ``grid`` (letters already in it are givens).

    Attributes
    ----------
    slots : list of Slot
        Every run of two or more white cells.
    lengths : list of int
    cells : list of tuple of int
        ``cells[s][pos]``: the grid cell at ``pos`` of slot ``s``.
    crossings : list of tuple
        ``crossings[s]``: ``(pos, cell, t, tpos)`` for each position; ``t``
        is the slot crossing there (``-1`` if none) and ``tpos`` its position.
    given : dict
        ``{cell: letter}`` for letters already in the grid.
    """

    def __init__(self, grid: Grid):
        self.grid = grid
        self.slots: list[Slot] = list(grid.slots())
        self.lengths = [s.length for s in self.slots]
        self.cells = [s.cells for s in self.slots]
        owner: dict[int, list[tuple[int, int]]] = {}
        for s, slot in enumerate(self.slots):
            for pos, cell in enumerate(slot.cells):
                owner.setdefault(cell, []).append((s, pos))
        crossings = []
        for s, slot in enumerate(self.slots):
            row = []
            for pos, cell in enumerate(slot.cells):
                other = [(t, tp) for t, tp in owner[cell] if t != s]
                t, tp = other[0] if other else (-1, -1)
                row.append((pos, cell, t, tp))
            crossings.append(tuple(row))
        self.crossings = crossings
        self.owner = owner
        self.given = {i: ch for i, ch in enumerate(grid.cells) if ch not in (BLACK, EMPTY)}
        # Single white cells in no slot at all (a 1x1 island) cannot be filled.
        self.orphans = [i for i, ch in enumerate(grid.cells) if ch != BLACK and i not in owner]

    def __len__(self) -> int:
        return len(self.slots)
