"""Locked slots: runs of white cells a pattern must hold exactly (a themed grid's theme entries).

A :class:`LockedSlot` is a slot given in advance: ``length`` white cells
from ``(row, col)`` across or down, with a black square or the grid's edge
at both ends, so the pattern's slot there is exactly that run.  The
generator (:func:`pipeline.patterns.constraints.build_problem` with
``locked=``) fixes those cells, and their images under the grid's
symmetry, and lets a locked run be longer than ``max_slot_length``: a
themed grid caps the *other* slots below its shortest theme entry.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..model.errors import InputError
from ..model.grid import Grid

__all__ = ["LockedSlot", "parse_lock", "lock_values", "locked_runs", "check_locks", "slot_at"]

_DIRECTIONS = {"a": "across", "across": "across", "d": "down", "down": "down"}


@dataclass(frozen=True)
class LockedSlot:
    """A slot a pattern must have: ``length`` whites from ``(row, col)``, black or edge at both ends.

    Attributes
    ----------
    row, col : int
        0-based first cell.
    direction : str
        ``"across"`` or ``"down"``.
    length : int
    """

    row: int
    col: int
    direction: str
    length: int

    def cells(self, cols: int) -> tuple[int, ...]:
        """The run's flat cell indices, in reading order."""
        step = 1 if self.direction == "across" else cols
        start = self.row * cols + self.col
        return tuple(start + k * step for k in range(self.length))

    def ends(self, rows: int, cols: int) -> tuple[int, ...]:
        """The cells just before and after the run that must be black (none at an edge)."""
        out = []
        if self.direction == "across":
            if self.col > 0:
                out.append(self.row * cols + self.col - 1)
            if self.col + self.length < cols:
                out.append(self.row * cols + self.col + self.length)
        else:
            if self.row > 0:
                out.append((self.row - 1) * cols + self.col)
            if self.row + self.length < rows:
                out.append((self.row + self.length) * cols + self.col)
        return tuple(out)

    def spec(self) -> str:
        """The ``ROW,COL,DIR,LEN`` form ``xw patterns --lock`` reads (1-based row and column)."""
        return f"{self.row + 1},{self.col + 1},{self.direction},{self.length}"


def parse_lock(text: str, where: str = "--lock") -> LockedSlot:
    """Read ``ROW,COL,DIR,LEN`` (1-based row and column; DIR ``across``/``a`` or ``down``/``d``).

    Examples
    --------
    >>> parse_lock("4,1,across,11")
    LockedSlot(row=3, col=0, direction='across', length=11)

    Raises
    ------
    InputError
        When the text is not four fields of that form.
    """
    parts = [p.strip() for p in text.split(",")]
    if len(parts) != 4:
        raise InputError(f"{where} {text!r}: give ROW,COL,DIR,LEN (e.g. 4,1,across,11)")
    direction = _DIRECTIONS.get(parts[2].lower())
    if direction is None:
        raise InputError(f"{where} {text!r}: direction {parts[2]!r} is not across (a) or down (d)")
    try:
        row, col, length = int(parts[0]), int(parts[1]), int(parts[3])
    except ValueError:
        raise InputError(f"{where} {text!r}: row, column and length are whole numbers") from None
    if row < 1 or col < 1 or length < 1:
        raise InputError(f"{where} {text!r}: row and column count from 1, and the length is at least 1")
    return LockedSlot(row - 1, col - 1, direction, length)


def check_locks(rows: int, cols: int, locked: Sequence[LockedSlot], min_length: int = 2) -> None:
    """InputError unless every locked slot lies inside the grid and is at least ``min_length`` long."""
    for lock in locked:
        if lock.direction not in ("across", "down"):
            raise InputError(f"locked slot {lock.spec()}: direction must be across or down")
        end_r = lock.row + (lock.length - 1 if lock.direction == "down" else 0)
        end_c = lock.col + (lock.length - 1 if lock.direction == "across" else 0)
        if not (0 <= lock.row and 0 <= lock.col and end_r < rows and end_c < cols):
            raise InputError(f"locked slot {lock.spec()} does not fit in a {rows}x{cols} grid")
        if lock.length < max(2, min_length):
            raise InputError(f"locked slot {lock.spec()}: {lock.length} letters < the shortest slot, "
                             f"{max(2, min_length)}")  # fmt: skip


def lock_values(rows: int, cols: int, locked: Sequence[LockedSlot], rep: Sequence[int]) -> dict[int, int]:
    """``{orbit variable: 0 white / 1 black}`` the locked slots fix.

    Parameters
    ----------
    rep : sequence of int
        Each cell's orbit variable (:func:`pipeline.patterns.constraints.orbits`):
        a locked cell fixes its whole orbit, so a slot's symmetric image is
        locked too.

    Raises
    ------
    InputError
        When two locked slots (or a slot and a symmetric image) need one
        square both white and black.
    """
    check_locks(rows, cols, locked)
    out: dict[int, int] = {}
    owner: dict[int, LockedSlot] = {}
    for lock in locked:
        for cells, value in ((lock.cells(cols), 0), (lock.ends(rows, cols), 1)):
            for cell in cells:
                var = rep[cell]
                if out.setdefault(var, value) != value:
                    r, c = divmod(cell, cols)
                    raise InputError(
                        f"locked slots {owner[var].spec()} and {lock.spec()} need square r{r + 1}c{c + 1} (or its "
                        f"symmetric image) both white and black"
                    )
                owner.setdefault(var, lock)
    return out


def locked_runs(locked: Sequence[LockedSlot], cols: int, rep: Sequence[int]) -> list[frozenset[int]]:
    """Each locked slot's cells as a set of orbit variables (the same for a slot and its images)."""
    return [frozenset(rep[c] for c in lock.cells(cols)) for lock in locked]


def slot_at(grid: Grid, lock: LockedSlot):
    """The slot of ``grid`` that is exactly ``lock``'s run, or None."""
    cells = lock.cells(grid.cols)
    for s in grid.slots():
        if s.direction == lock.direction and s.cells == cells:
            return s
    return None
