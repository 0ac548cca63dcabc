"""Grids and slots: the shape every stage shares.

A grid is a rectangle of cells, each black (``#``), white and empty (``.``)
or white with a letter (``A``-``Z``).  A *slot* is a maximal run of two or
more white cells across or down; slots are numbered the newspaper way,
left to right, top to bottom.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from .errors import InputError, numbered_lines

__all__ = ["BLACK", "EMPTY", "MAX_SIDE", "Grid", "Slot", "parse_grid", "grid_row_lines", "grid_lines"]

BLACK = "#"
EMPTY = "."
#: The most rows or columns a grid read from a file may have: the filler's
#: longest slot (pipeline/fill/_kernel.c), far past any printed crossword.
MAX_SIDE = 64

# Emogic's templates write 'x' for a black square and 'o' for an empty one.
_CELL_ALIASES = {"#": BLACK, "x": BLACK, ".": EMPTY, "o": EMPTY, "_": EMPTY, "?": EMPTY}


@dataclass(frozen=True)
class Slot:
    """A run of white cells that holds one answer.

    Attributes
    ----------
    number : int
        The clue number printed in its first cell.
    direction : str
        ``"across"`` or ``"down"``.
    cells : tuple of int
        Flat cell indices ``row * cols + col``, in reading order.
    """

    number: int
    direction: str
    cells: tuple[int, ...]

    @property
    def length(self) -> int:
        return len(self.cells)

    @property
    def label(self) -> str:
        """``"1A"``-style label, as constructors write it."""
        return f"{self.number}{self.direction[0].upper()}"


class Grid:
    """A rectangular crossword grid.

    Parameters
    ----------
    rows, cols : int
        Its size.
    cells : iterable of str
        ``rows * cols`` cells in row-major order, each ``#``, ``.`` or a
        capital letter.

    Examples
    --------
    >>> g = parse_grid("#..\\n...\\n..#")
    >>> [s.label for s in g.slots()]
    ['1A', '3A', '4A', '1D', '2D', '3D']
    >>> g.to_bits()
    '011111110'
    """

    __slots__ = ("rows", "cols", "cells", "_slots")

    def __init__(self, rows: int, cols: int, cells: Iterable[str]):
        self.rows = rows
        self.cols = cols
        self.cells = list(cells)
        if len(self.cells) != rows * cols:
            raise ValueError(f"{rows}x{cols} grid needs {rows * cols} cells, got {len(self.cells)}")
        self._slots = None

    # -- construction -------------------------------------------------
    @classmethod
    def from_bits(cls, bits: str, rows: int, cols: int) -> "Grid":
        """A pattern from a row-major bit string (``1`` white, ``0`` black)."""
        if len(bits) != rows * cols:
            raise ValueError(f"{rows}x{cols} grid needs {rows * cols} bits, got {len(bits)}")
        return cls(rows, cols, (EMPTY if b == "1" else BLACK for b in bits))

    @classmethod
    def from_rows(cls, rows: list[str]) -> "Grid":
        """A grid from its text rows (``#``, ``.`` and letters only)."""
        return cls(len(rows), len(rows[0]) if rows else 0, "".join(rows))

    def copy(self) -> "Grid":
        g = Grid(self.rows, self.cols, self.cells)
        g._slots = self._slots
        return g

    # -- views ----------------------------------------------------------
    def __eq__(self, other) -> bool:
        return isinstance(other, Grid) and (self.rows, self.cols, self.cells) == (
            other.rows,
            other.cols,
            other.cells,
        )

    def __hash__(self) -> int:
        return hash((self.rows, self.cols, "".join(self.cells)))

    def __repr__(self) -> str:
        return f"Grid({self.rows}x{self.cols})"

    def is_black(self, index: int) -> bool:
        return self.cells[index] == BLACK

    def row_strings(self) -> list[str]:
        c = self.cols
        return ["".join(self.cells[r * c : (r + 1) * c]) for r in range(self.rows)]

    def to_text(self) -> str:
        """The grid text: one row a line, ending with a newline."""
        return "\n".join(self.row_strings()) + "\n"

    def to_bits(self) -> str:
        """Row-major bit string, ``1`` = white (the seed's binary form)."""
        return "".join("0" if ch == BLACK else "1" for ch in self.cells)

    def pattern(self) -> "Grid":
        """The same shape with every white cell empty."""
        return Grid(self.rows, self.cols, (BLACK if ch == BLACK else EMPTY for ch in self.cells))

    def black_count(self) -> int:
        return sum(1 for ch in self.cells if ch == BLACK)

    def is_complete(self) -> bool:
        """True when every white cell holds a letter."""
        return all(ch != EMPTY for ch in self.cells)

    def slots(self) -> list[Slot]:
        """All slots, across first then down, each in number order.

        Notes
        -----
        A single white cell between blacks (an unchecked letter in a
        British grid) belongs to no slot in that direction. O(rows * cols).
        """
        if self._slots is None:
            self._slots = _find_slots(self.rows, self.cols, self.cells)
        return self._slots

    def numbers(self) -> dict[int, int]:
        """Map of cell index to the clue number printed in it."""
        return {s.cells[0]: s.number for s in self.slots()}

    def word(self, slot: Slot) -> str:
        """The letters in ``slot`` (``.`` for an empty cell)."""
        return "".join(self.cells[i] for i in slot.cells)

    def words(self) -> list[str]:
        return [self.word(s) for s in self.slots()]


def grid_lines(rows: int, cols: int) -> list[list[int]]:
    """Every row, then every column, as a list of flat cell indices.

    Examples
    --------
    >>> grid_lines(2, 3)
    [[0, 1, 2], [3, 4, 5], [0, 3], [1, 4], [2, 5]]
    """
    across = [[r * cols + c for c in range(cols)] for r in range(rows)]
    down = [[r * cols + c for r in range(rows)] for c in range(cols)]
    return across + down


def _find_slots(rows: int, cols: int, cells: list[str]) -> list[Slot]:
    white = [ch != BLACK for ch in cells]

    def starts(i: int, step_back_ok: bool, prev: int, nxt_ok: bool, nxt: int) -> bool:
        return white[i] and (not step_back_ok or not white[prev]) and nxt_ok and white[nxt]

    numbers: dict[int, int] = {}
    n = 0
    for r in range(rows):
        for c in range(cols):
            i = r * cols + c
            a = starts(i, c > 0, i - 1, c + 1 < cols, i + 1)
            d = starts(i, r > 0, i - cols, r + 1 < rows, i + cols)
            if a or d:
                n += 1
                numbers[i] = n
    across, down = [], []
    for r in range(rows):
        for c in range(cols):
            i = r * cols + c
            if i not in numbers:
                continue
            if white[i] and (c == 0 or not white[i - 1]) and c + 1 < cols and white[i + 1]:
                run = []
                cc = c
                while cc < cols and white[r * cols + cc]:
                    run.append(r * cols + cc)
                    cc += 1
                across.append(Slot(numbers[i], "across", tuple(run)))
            if white[i] and (r == 0 or not white[i - cols]) and r + 1 < rows and white[i + cols]:
                run = []
                rr = r
                while rr < rows and white[rr * cols + c]:
                    run.append(rr * cols + c)
                    rr += 1
                down.append(Slot(numbers[i], "down", tuple(run)))
    return across + down


def parse_grid(text: str, path=None, fillable: bool = False) -> Grid:
    """Read grid text: one row a line.

    ``#`` (or Emogic's ``x``) is black, ``.`` (or ``o``, ``_``, ``?``) is an
    empty white cell, ``A``-``Z`` is a letter (lower-case letters other than
    ``x`` and ``o`` are read as capitals).  Spaces between cells and blank
    lines before or after the grid are ignored.

    Parameters
    ----------
    text : str
    path : str or os.PathLike, optional
        Named in errors.
    fillable : bool
        Also require a grid to fill: at least one word, and every white
        square in a word (a run of two or more across or down).

    Raises
    ------
    InputError
        On an unknown character, rows of different lengths, an empty grid or
        one wider or taller than `MAX_SIDE`, naming the line; with
        ``fillable``, a grid of no words or a white square in none.

    Examples
    --------
    >>> parse_grid("..#\\n...").row_strings()
    ['..#', '...']
    >>> parse_grid(".#.\\n###", "g.txt", fillable=True)
    Traceback (most recent call last):
    pipeline.model.errors.InputError: g.txt:1: no words: every row and column has fewer than 2 white squares in a row
    """
    lines = dict(numbered_lines(text))
    row_lines = grid_row_lines(text)
    rows: list[str] = []
    for lineno in row_lines:
        line = lines[lineno].replace(" ", "").replace("\t", "")
        out = []
        for col, ch in enumerate(line, start=1):
            if ch in _CELL_ALIASES:
                out.append(_CELL_ALIASES[ch])
            elif "A" <= ch <= "Z":
                out.append(ch)
            elif "a" <= ch <= "z":
                out.append(ch.upper())
            else:
                raise InputError(
                    f"column {col}: {ch!r} is not a cell (use '#' black, '.' empty, A-Z letters)",
                    path,
                    lineno,
                )
        if rows and len(out) != len(rows[0]):
            raise InputError(
                f"row has {len(out)} cells but the first row (line {row_lines[0]}) has {len(rows[0])}",
                path,
                lineno,
            )
        if len(out) > MAX_SIDE:
            raise InputError(f"row of {len(out)} cells: a grid is at most {MAX_SIDE} wide", path, lineno)
        if len(rows) == MAX_SIDE:
            raise InputError(f"row {len(rows) + 1}: a grid is at most {MAX_SIDE} rows tall", path, lineno)
        rows.append("".join(out))
    if not rows:
        raise InputError("no grid found (empty input)", path, None if path is None else 1)
    # A blank line ends the grid; anything after it is an error.
    rest = [k for k, t in lines.items() if k > row_lines[-1] and t.strip()]
    if rest:
        raise InputError("text after the blank line that ended the grid", path, rest[0])
    grid = Grid.from_rows(rows)
    if fillable:
        _check_fillable(grid, path, row_lines)
    return grid


def grid_row_lines(text: str) -> list[int]:
    """The line number of each row of a grid `parse_grid` reads from ``text``.

    Examples
    --------
    >>> grid_row_lines("\\n\\n..\\n..\\n")
    [3, 4]
    """
    out = []
    for lineno, raw in numbered_lines(text):
        if raw.replace(" ", "").replace("\t", ""):
            out.append(lineno)
        elif out:
            break
    return out


def _check_fillable(grid: Grid, path, row_lines: list[int]) -> None:
    """InputError unless ``grid`` has a word and every white square is in one."""
    if not grid.slots():
        raise InputError(
            "no words: every row and column has fewer than 2 white squares in a row", path, row_lines[0]
        )
    in_word = {i for s in grid.slots() for i in s.cells}
    for i, ch in enumerate(grid.cells):
        if ch != BLACK and i not in in_word:
            r, c = divmod(i, grid.cols)
            raise InputError(
                f"column {c + 1}: a white square in no word (no white neighbour across or down)", path, row_lines[r]
            )
