"""When two patterns are the same pattern, and how different a batch is.

A pattern turned a quarter or half turn, or mirrored, is the same pattern
to a solver: the grid's symmetry group is the dihedral group of the square
(8 elements) for a square grid and the 4 half-turns and mirrors for any
other rectangle.  :func:`canonical` picks one representative per class, so
"no two patterns equal under the symmetry group" is a set of canonical
keys.  :func:`diversity` is the batch figure the pattern stages print: the
mean Hamming distance between two patterns of the batch, as a fraction of
the cells.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from .grid import Grid

__all__ = ["SYMMETRIES", "images", "canonical", "canonical_key", "diversity", "transpose"]

#: The symmetries a generated pattern may have (see pipeline.patterns.orbits):
#: 180 degrees (American), 90 degrees (4-fold), a left-right mirror, none.
SYMMETRIES = ("rotational", "quarter", "mirror", "none")

# Above this many patterns the diversity is the mean over a fixed, seeded
# sample of pairs instead of all of them.
_EXACT_PAIRS = 500_000
_SAMPLE_PAIRS = 200_000


def transpose(g: Grid) -> Grid:
    """Rows read as columns (letters kept); a ``rows x cols`` grid becomes ``cols x rows``."""
    return Grid(g.cols, g.rows, [g.cells[r * g.cols + c] for c in range(g.cols) for r in range(g.rows)])


def _mirror(g: Grid) -> Grid:
    """Left-right mirror."""
    return Grid(g.rows, g.cols, [g.cells[r * g.cols + (g.cols - 1 - c)] for r in range(g.rows) for c in range(g.cols)])


def _flip(g: Grid) -> Grid:
    """Top-bottom mirror."""
    return Grid(g.rows, g.cols, [g.cells[(g.rows - 1 - r) * g.cols + c] for r in range(g.rows) for c in range(g.cols)])


def images(grid: Grid) -> list[Grid]:
    """``grid`` under every element of its symmetry group (8 if square, else 4).

    Examples
    --------
    >>> from pipeline.model.grid import parse_grid
    >>> len(images(parse_grid("#..\\n...\\n...")))
    8
    >>> sorted({g.to_text() for g in images(parse_grid("#..\\n...\\n..."))})[0]
    '#..\\n...\\n...\\n'
    """
    base = [grid, _mirror(grid), _flip(grid), _mirror(_flip(grid))]
    if grid.rows != grid.cols:
        return base
    return base + [transpose(g) for g in base]


def canonical(grid: Grid) -> str:
    """One key per class of patterns equal under the symmetry group.

    The smallest row-major black/white string (``#`` black, any other cell
    white) among :func:`images`, prefixed with the size; letters are ignored.

    Examples
    --------
    >>> from pipeline.model.grid import parse_grid
    >>> canonical(parse_grid("#..\\n...\\n...")) == canonical(parse_grid("...\\n...\\n..#"))
    True
    >>> canonical(parse_grid("#..\\n...\\n...")) == canonical(parse_grid(".#.\\n...\\n..."))
    False
    """
    return canonical_key("".join("#" if ch == "#" else "." for ch in grid.cells), grid.rows, grid.cols)


def canonical_key(cells: str, rows: int, cols: int) -> str:
    """:func:`canonical` of a pattern given as its row-major ``#``/``.`` string.

    Notes
    -----
    The images are made by slicing strings (rows reversed, each row
    reversed, columns read as rows), about 10 microseconds for a 15x15: the
    generator keys every pattern it makes.
    """
    lines = [cells[r * cols : (r + 1) * cols] for r in range(rows)]
    mirror = "".join(line[::-1] for line in lines)
    flip = "".join(reversed(lines))
    keys = [cells, mirror, flip, cells[::-1]]
    if rows == cols:
        keys += ["".join(k[c::cols] for c in range(cols)) for k in tuple(keys)]
    return f"{rows}x{cols}:" + min(keys)


def diversity(grids: Sequence[Grid]) -> float:
    """Mean Hamming distance between two patterns of ``grids``, as a fraction of cells.

    0 when every pattern is the same (or there are fewer than two); about
    0.5 for independent random patterns of density one half.  Patterns of
    different sizes are compared only with patterns of their own size.

    Notes
    -----
    Each pattern is one integer of bits; a pair costs one XOR and a
    popcount.  All pairs up to 500,000 of them, else a seeded sample of
    200,000 pairs (the same figure every run).
    """
    by_size: dict[tuple[int, int], list[int]] = {}
    for g in grids:
        bits = int("".join("1" if ch == "#" else "0" for ch in g.cells) or "0", 2)
        by_size.setdefault((g.rows, g.cols), []).append(bits)
    total = pairs = 0.0
    for (rows, cols), xs in by_size.items():
        n = len(xs)
        if n < 2:
            continue
        cells = rows * cols
        if n * (n - 1) // 2 <= _EXACT_PAIRS:
            s = sum((xs[i] ^ xs[j]).bit_count() for i in range(n) for j in range(i + 1, n))
            k = n * (n - 1) // 2
        else:
            rng = random.Random(0)
            s = 0
            for _ in range(_SAMPLE_PAIRS):
                i, j = rng.sample(range(n), 2)
                s += (xs[i] ^ xs[j]).bit_count()
            k = _SAMPLE_PAIRS
        total += s / cells
        pairs += k
    return total / pairs if pairs else 0.0
