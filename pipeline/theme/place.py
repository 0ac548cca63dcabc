"""Where a theme set's entries go: symmetric across slots, the longest of the grid.

A theme set (:class:`pipeline.theme.sets.ThemeSet`) is pairs of entries of
one length and perhaps a centre entry.  Each pair sits in two across slots
that the grid's 180-degree turn swaps: the first entry in row ``r`` from
column ``c``, the second in row ``rows - 1 - r`` ending at column
``cols - 1 - c``; the centre entry sits in the middle row, centred, its
own image.  The classic rows (0-based, 15x15): a pair in row 3 and 11 with
the centre in row 7, or two pairs in rows 3, 6, 8 and 11.  A *layout* is
one such choice, as :class:`pipeline.patterns.locks.LockedSlot` objects for
the pattern generator, which makes every other slot shorter than the
shortest theme entry.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..model.grid import BLACK, Grid
from ..patterns.locks import LockedSlot
from .sets import ThemeSet

__all__ = ["Placement", "layouts", "theme_grid", "theme_problems"]


@dataclass(frozen=True)
class Placement:
    """One theme entry in its locked slot."""

    entry: str
    slot: LockedSlot


def _pair_rows(rows: int, pairs: int, centre: bool) -> list[tuple[int, ...]]:
    """Top-half rows for ``pairs`` pairs of theme entries, best first."""
    m = rows // 2
    if pairs == 1:
        if centre:  # rows 3, 7, 11 of a 15x15 (0-based); a smaller grid keeps its pair off the second row
            cands = [(m - 4,), (m - 3,), (m - 5,)] if rows >= 15 else [(m - 3,), (m - 4,)]
        else:
            cands = [(m - 3,), (m - 4,), (m - 2,)]
    else:
        cands = [(m - 4, m - 1), (m - 5, m - 2), (m - 5, m - 1), (m - 4, m - 2)]
        if rows % 2 == 0:
            cands = [(r1, r2 + 1) for r1, r2 in cands]
    out = []
    for rs in cands:
        ok = all(0 <= r for r in rs) and all(b - a >= 2 for a, b in zip(rs, rs[1:]))
        last = rs[-1]
        ok = ok and (rows - 1 - last) - last >= 2 and (not centre or m - last >= 2)
        if ok and rs not in out:
            out.append(rs)
    return out


def layouts(tset: ThemeSet, rows: int, cols: int, seed: int = 0, limit: int | None = None) -> list[tuple[Placement, ...]]:
    """The layouts for ``tset`` in a ``rows x cols`` grid, best rows first, the column choices in a seeded order.

    Each pair's first entry goes in its top row flush left, flush right or
    set in (the second, turned, at the bottom); the centre entry is centred
    in the middle row.  The row choices (:func:`_pair_rows`) take turns; within
    one, flush left comes first, then the other flush choices, then the
    set-in ones in a seeded order.

    Examples
    --------
    >>> from pipeline.theme.sets import ThemeSet
    >>> s = ThemeSet("k", "category", "T", (("ABCDEFGHIJK", "BCDEFGHIJKL"),), "CDEFGHIJKLMNO")
    >>> [(p.entry, p.slot.spec()) for p in layouts(s, 15, 15)[0]]
    [('ABCDEFGHIJK', '4,1,across,11'), ('BCDEFGHIJKL', '12,5,across,11'), ('CDEFGHIJKLMNO', '8,2,across,13')]
    """
    rng = random.Random(seed)
    per_rows = []
    for rs in _pair_rows(rows, len(tset.pairs), tset.centre is not None):
        out = []
        per_rows.append(out)
        sides = [list(range(cols - len(a) + 1)) for a, _ in tset.pairs]
        combos = [()]
        for choice in sides:
            combos = [c + (x,) for c in combos for x in choice]
        rng.shuffle(combos)
        # Flush left, then flush left or right, then the rest (entries set in from both edges) shuffled.
        combos.sort(key=lambda c: (c != tuple(0 for _ in c), not all(x in (0, cols - len(a)) for x, (a, _) in
                                                                      zip(c, tset.pairs))))  # fmt: skip
        for cs in combos:
            placed = []
            for (a, b), r, c in zip(tset.pairs, rs, cs):
                placed.append(Placement(a, LockedSlot(r, c, "across", len(a))))
                placed.append(Placement(b, LockedSlot(rows - 1 - r, cols - c - len(b), "across", len(b))))
            if tset.centre is not None:
                m = len(tset.centre)
                placed.append(Placement(tset.centre, LockedSlot(rows // 2, (cols - m) // 2, "across", m)))
            out.append(tuple(placed))
    # Round robin over the row choices: the first of each, then the second of each, ...
    out = [lay[k] for k in range(max(map(len, per_rows), default=0)) for lay in per_rows if k < len(lay)]
    return out[:limit] if limit is not None else out


def theme_grid(pattern: Grid, placements) -> Grid:
    """``pattern`` with each placement's entry written into its slot."""
    cells = list(pattern.cells)
    for p in placements:
        for cell, letter in zip(p.slot.cells(pattern.cols), p.entry):
            cells[cell] = letter
    return Grid(pattern.rows, pattern.cols, cells)


def theme_problems(grid: Grid, entries) -> list[str]:
    """What keeps ``grid`` from being a themed grid for ``entries`` (empty when it is one).

    Each entry fills a slot of its own; the black squares are 180-degree
    symmetric; each theme slot's turned image is a theme slot of the same
    length; every other slot is shorter than the shortest theme entry.

    Examples
    --------
    >>> from pipeline.model.grid import parse_grid
    >>> g = parse_grid("CATS#\\n.....\\n.....\\n.....\\n#DOGS")
    >>> theme_problems(g, ["CATS", "DOGS"])[0]
    'r2c1: 5-letter across slot, not shorter than the theme entries (4)'
    >>> theme_problems(g, ["CATS", "EMUS"])[0]
    'theme entry EMUS in no slot'
    """
    cols, n = grid.cols, grid.rows * grid.cols
    out = []
    for i in range(n):
        if (grid.cells[i] == BLACK) != (grid.cells[n - 1 - i] == BLACK):
            r, c = divmod(i, cols)
            out.append(f"r{r + 1}c{c + 1}: black squares not 180-degree symmetric")
            break
    todo = list(entries)
    theme = []
    for s in grid.slots():
        if grid.word(s) in todo:
            todo.remove(grid.word(s))
            theme.append(s)
    out += [f"theme entry {e} in no slot" for e in todo]
    if not theme:
        return out
    shortest = min(s.length for s in theme)
    cells = {s.cells for s in theme}
    for s in theme:
        image = tuple(sorted(n - 1 - c for c in s.cells))
        if image not in cells:
            out.append(f"{s.label} {grid.word(s)}: its turned image is no theme slot")
    for s in grid.slots():
        if s.cells not in cells and s.length >= shortest:
            r, c = divmod(s.cells[0], cols)
            out.append(f"r{r + 1}c{c + 1}: {s.length}-letter {s.direction} slot, not shorter than the theme "
                       f"entries ({shortest})")  # fmt: skip
    return out
