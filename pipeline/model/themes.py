"""Themed candidates: a pattern with its theme entries written in, for the fill stage to fill around.

A themed puzzle's grid is made in two steps: the theme stage (``xw theme``,
:mod:`pipeline.theme`) finds a theme set (three to five long entries with
one connection, and a title naming it) and a symmetric pattern whose longest
slots hold them; the fill stage fills the rest.  This module is the file
between them, a TSV with a header line::

    pattern<TAB>grid<TAB>title<TAB>kind<TAB>entries

``pattern``
    The black/white pattern, :func:`pipeline.model.hexcodec.encode_grid`.
``grid``
    The grid's text rows joined by ``/``: ``#`` black, ``.`` empty, the
    theme entries' letters in their cells.
``title``
    What the set has in common, as a solver would name it ("Fire ___").
``kind``
    ``shared-first-word``, ``shared-last-word``, ``category``, ``hidden-word``, ...
``entries``
    The theme answers, comma-separated, in grid order (across before down,
    each by clue number).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from .errors import InputError, numbered_lines
from .fileio import read_text, write_text
from .grid import BLACK, Grid
from .hexcodec import decode_pattern, encode_grid

__all__ = ["ThemedCandidate", "HEADER", "KINDS", "write_themes", "read_themes", "theme_slots"]

#: The header line of a themes file.
HEADER = "pattern\tgrid\ttitle\tkind\tentries"
#: The kinds of theme the theme stage makes (a file may name others of the same form).
KINDS = ("shared-first-word", "shared-last-word", "category", "hidden-word")
_KIND = re.compile(r"[a-z][a-z0-9-]*")
_ENTRY = re.compile(r"[A-Z]+")
_ROW = re.compile(r"[#.A-Z]+")


@dataclass(frozen=True)
class ThemedCandidate:
    """A pattern with its theme entries in place, and what connects them.

    Attributes
    ----------
    grid : Grid
        ``#`` black, ``.`` (EMPTY) open, letters in the theme entries' cells.
    title : str
        The theme, as a solver would name it: ``"Fire ___"``, ``"Dog Breeds"``.
    kind : str
        ``"shared-first-word"``, ``"shared-last-word"``, ``"category"``, ``"hidden-word"``, ...
    entries : tuple of str
        The theme answers, upper case, in grid order.
    """

    grid: Grid
    title: str
    kind: str
    entries: tuple[str, ...]


def theme_slots(grid: Grid, entries: Iterable[str]) -> list:
    """The slots of ``grid`` holding ``entries``, one for each, in grid order; ValueError if one is missing."""
    todo = list(entries)
    out = []
    for s in grid.slots():
        word = grid.word(s)
        if word in todo:
            todo.remove(word)
            out.append(s)
    if todo:
        raise ValueError(f"theme entries not in the grid: {', '.join(todo)}")
    return out


def _line(c: ThemedCandidate) -> str:
    for name, text in (("title", c.title), ("kind", c.kind)):
        if not text or "\t" in text or "\n" in text or "\r" in text:
            raise ValueError(f"{name} {text!r}: one line of text, no tabs")
    if not _KIND.fullmatch(c.kind):
        raise ValueError(f"kind {c.kind!r}: lower-case letters, digits and hyphens")
    if not c.entries or any(not _ENTRY.fullmatch(e) for e in c.entries):
        raise ValueError(f"entries {c.entries!r}: one or more words of capitals A-Z")
    return "\t".join((encode_grid(c.grid), "/".join(c.grid.row_strings()), c.title, c.kind, ",".join(c.entries)))


def write_themes(path, candidates: Iterable[ThemedCandidate]) -> None:
    """Write ``candidates`` to ``path`` as a themes TSV, atomically (all or nothing).

    Raises
    ------
    ValueError
        On a title or kind that is not one line of text, or an entry that is not capitals.
    """
    lines = [HEADER] + [_line(c) for c in candidates]
    write_text(path, "\n".join(lines) + "\n")


def read_themes(path) -> list[ThemedCandidate]:
    """Read a themes TSV written by :func:`write_themes`.

    Raises
    ------
    InputError
        Naming the file and line: a missing or wrong header, a line without
        five tab-separated fields, a pattern that does not decode, grid rows
        that are not the pattern's shape or hold other characters, an empty
        title, a bad kind, or an entry that is not capitals or not a slot of
        the grid.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from pipeline.model.grid import parse_grid
    >>> g = parse_grid("CAT#\\n...#\\n#...\\n#DOG")
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "t.themes.tsv"
    >>> write_themes(p, [ThemedCandidate(g, "Pets", "category", ("CAT", "DOG"))])
    >>> read_themes(p)[0] == ThemedCandidate(g, "Pets", "category", ("CAT", "DOG"))
    True
    """
    lines = list(numbered_lines(read_text(path)))
    if not lines:
        raise InputError("empty themes file: the first line is the header " + repr(HEADER), path, 1)
    if lines[0][1].lstrip("\ufeff") != HEADER:
        raise InputError(f"the first line must be the header {HEADER!r}", path, lines[0][0])
    out = []
    for lineno, line in lines[1:]:
        if not line.strip():
            continue
        out.append(_parse_line(line, path, lineno))
    return out


def _parse_line(line: str, path, lineno: int) -> ThemedCandidate:
    fields = line.split("\t")
    if len(fields) != 5:
        raise InputError(f"{len(fields)} tab-separated fields, expected 5 (pattern, grid, title, kind, entries)",
                         path, lineno)  # fmt: skip
    pattern_text, grid_text, title, kind, entries_text = fields
    pattern = decode_pattern(pattern_text, path, lineno)
    rows = grid_text.split("/")
    if len(rows) != pattern.rows or any(len(r) != pattern.cols for r in rows):
        raise InputError(f"grid {grid_text[:40]!r}: not {pattern.rows} rows of {pattern.cols} cells joined by '/'",
                         path, lineno)  # fmt: skip
    bad = next((r for r in rows if not _ROW.fullmatch(r)), None)
    if bad is not None:
        raise InputError(f"grid row {bad!r}: cells are '#', '.' or capitals A-Z", path, lineno)
    grid = Grid.from_rows(rows)
    if any((a == BLACK) != (b == BLACK) for a, b in zip(grid.cells, pattern.cells)):
        raise InputError("the grid's black squares are not the pattern's", path, lineno)
    if not title.strip():
        raise InputError("empty title", path, lineno)
    if not _KIND.fullmatch(kind):
        raise InputError(f"kind {kind!r}: lower-case letters, digits and hyphens (e.g. shared-first-word)",
                         path, lineno)  # fmt: skip
    entries = tuple(entries_text.split(","))
    if not entries_text or any(not _ENTRY.fullmatch(e) for e in entries):
        raise InputError(f"entries {entries_text[:60]!r}: comma-separated words of capitals A-Z", path, lineno)
    try:
        theme_slots(grid, entries)
    except ValueError as e:
        raise InputError(str(e), path, lineno) from None
    return ThemedCandidate(grid, title, kind, entries)
