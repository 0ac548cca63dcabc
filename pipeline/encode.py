"""Stage 4: write the final hex patterns, and the ``xw hex`` text converters.

The hex form is the seed's ``bin2hex`` (see :mod:`pipeline.model.hexcodec`):
row-major bits, ``1`` white, four to a hex digit, an extra letter ``g``-``t``
for the last one to three bits; a grid that is not square is prefixed
``ROWSxCOLS:``.  This stage gathers the filtered patterns, proves each one
survives a decode/encode round trip unchanged, and writes them one a line.

``encode_lines`` and ``decode_lines`` convert between that form and what a
person types or reads: bit strings (``0101...``, rows concatenated) or grid
text (``#``/``.`` rows, grids separated by blank lines).
"""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Iterable

from .model.errors import InputError
from .model.fileio import atomic_write, read_text
from .model.grid import Grid, parse_grid
from .model.hexcodec import bin2hex, decode_pattern, encode_grid, read_pattern_file
from .model.symmetry import canonical

__all__ = ["encode_patterns", "merge_stats", "encode_lines", "decode_lines"]

_UPPER_HEX = str.maketrans("abcdef", "ABCDEF")
_BITS = re.compile(r"^(?:(\d+)[xX](\d+):)?([01][01 \t]*)$")


def _first_field(line: str) -> str:
    # As decode_pattern reads it: "HEX", "HEX ratio" or "HEX,ratio".
    return line.strip().replace(",", " ").split()[0]


def _check_round_trip(line: str, grid: Grid, path, lineno: int) -> str:
    """The canonical hex of ``grid``; InputError unless it matches ``line``'s."""
    field = _first_field(line)
    given = field.split(":", 1)[-1].translate(_UPPER_HEX)
    out = encode_grid(grid)
    if bin2hex(grid.to_bits()) != given or decode_pattern(out) != grid:
        raise InputError(f"pattern {field[:40]!r} does not re-encode identically (got {out[:40]!r})", path, lineno)
    return out


def encode_patterns(in_paths, out_path, limit: int | None = None) -> int:
    """Gather hex patterns from files into the final ``.hex`` file.

    Parameters
    ----------
    in_paths : path or sequence of paths
        Hex pattern files, one pattern a line (blank lines skipped), read
        in order.
    out_path : path
        Written atomically: one canonical hex pattern a line.
    limit : int, optional
        Write at most this many patterns (the first ones).

    Returns
    -------
    int
        Patterns written.

    Raises
    ------
    InputError
        On a missing file, a line that is not a pattern, or one that does
        not decode and re-encode to the same hex (file and line named);
        ``out_path`` is then left untouched.

    Notes
    -----
    Duplicates (the same pattern, or one turned or mirrored, in one file
    or across files: :func:`pipeline.model.symmetry.canonical`) are
    written once, the first seen.  O(total cells).
    """
    if isinstance(in_paths, (str, Path)):
        in_paths = [in_paths]
    if limit is not None and (not isinstance(limit, int) or limit < 0):
        raise InputError(f"limit must be a whole number >= 0, got {limit!r}")
    out: list[str] = []
    seen: set[str] = set()
    for path in in_paths:
        if limit is not None and len(out) >= limit:
            break
        for lineno, line, grid in read_pattern_file(path):
            hexline = _check_round_trip(line, grid, path, lineno)
            key = canonical(grid)
            if key in seen:
                continue
            seen.add(key)
            out.append(hexline)
            if limit is not None and len(out) >= limit:
                break
    with atomic_write(out_path) as f:
        for h in out:
            f.write(h + "\n")
    return len(out)


def merge_stats(in_paths, out_path) -> int:
    """Join the filter's per-shard stats tables into one.

    Parameters
    ----------
    in_paths : path or sequence of paths
        Tab-separated tables that share one header line (the filter stage
        writes one per shard).
    out_path : path
        Written atomically: the header with a ``source`` column (the input
        file's name without its suffix) added in front, then every row.

    Returns
    -------
    int
        Rows written (header not counted).

    Raises
    ------
    InputError
        On a missing or empty file, or a header that differs from the
        first file's, naming the file and line.
    """
    if isinstance(in_paths, (str, Path)):
        in_paths = [in_paths]
    header = None
    rows: list[str] = []
    for path in in_paths:
        lines = read_text(path).splitlines()
        if not lines:
            raise InputError("empty stats table (no header line)", path, 1)
        if header is None:
            header = lines[0]
        elif lines[0] != header:
            raise InputError("header differs from the first table's", path, 1)
        source = Path(path).stem
        rows.extend(f"{source}\t{line}" for line in lines[1:] if line.strip())
    with atomic_write(out_path) as f:
        if header is not None:
            f.write(f"source\t{header}\n")
        for row in rows:
            f.write(row + "\n")
    return len(rows)


def _bits_grid(m: re.Match, path, lineno: int) -> Grid:
    bits = re.sub(r"[ \t]", "", m.group(3))
    if m.group(1) is not None:
        rows, cols = int(m.group(1)), int(m.group(2))
        if rows * cols != len(bits) or rows == 0 or cols == 0:
            raise InputError(f"{rows}x{cols} needs {rows * cols} bits, the line has {len(bits)}", path, lineno)
    else:
        side = math.isqrt(len(bits))
        if side * side != len(bits):
            raise InputError(
                f"{len(bits)} bits is not a square grid; write a rectangle as ROWSxCOLS:BITS", path, lineno
            )
        rows = cols = side
    return Grid.from_bits(bits, rows, cols)


def encode_lines(lines: Iterable[str], path="<stdin>") -> list[str]:
    """Hex lines for patterns typed as bit strings or as grid text.

    Parameters
    ----------
    lines : iterable of str
        Each non-blank line is either a bit string -- a whole pattern,
        rows concatenated, ``1`` white, ``0`` black, optionally prefixed
        ``ROWSxCOLS:`` (needed when it is not square; spaces inside are
        ignored) -- or a row of grid text (``#`` black, ``.`` white,
        letters white; see :func:`pipeline.model.grid.parse_grid`).
        Consecutive grid rows form one grid; a blank line ends it.
    path : str
        Name used in error messages.

    Returns
    -------
    list of str
        The hex patterns, in input order (print one a line).

    Raises
    ------
    InputError
        Naming the line of a bit string that is not square or not its
        stated size, or of a bad grid row.

    Examples
    --------
    >>> encode_lines(["111101111", "", "...", ".#.", "...", "2x3:101111"])
    ['F7h', 'F7h', '2x3:Bl']
    """
    out: list[str] = []
    block: list[tuple[int, str]] = []

    def flush():
        if not block:
            return
        first = block[0][0]
        try:
            grid = parse_grid("\n".join(raw for _, raw in block))
        except InputError as e:
            raise InputError(e.message, path, first + (e.line or 1) - 1) from None
        out.append(encode_grid(grid))
        block.clear()

    for lineno, raw in enumerate(lines, start=1):
        line = raw.strip()
        if not line:
            flush()
            continue
        m = _BITS.match(line)
        if m:
            flush()
            out.append(encode_grid(_bits_grid(m, path, lineno)))
        else:
            block.append((lineno, raw.rstrip("\r\n")))
    flush()
    return out


def decode_lines(lines: Iterable[str], path="<stdin>") -> list[str]:
    """Grid text for hex pattern lines.

    Parameters
    ----------
    lines : iterable of str
        Hex patterns, one a line (blank lines skipped; ``HEX ratio`` lines
        of the seed's files are read too).
    path : str
        Name used in error messages.

    Returns
    -------
    list of str
        The lines of grid text (``#`` black, ``.`` white, one row a line),
        an empty line between patterns (print one a line).

    Raises
    ------
    InputError
        Naming the line that is not a hex pattern (wrong letter, extra
        letter not last, bit count not square...).

    Examples
    --------
    >>> for line in decode_lines(["77g", "4Ah"]):
    ...     print(line)
    #..
    .#.
    ..#
    <BLANKLINE>
    #.#
    #.#
    .#.
    """
    out: list[str] = []
    for lineno, line in enumerate(lines, start=1):
        if line.strip():
            if out:
                out.append("")
            out.extend(decode_pattern(line, path, lineno).row_strings())
    return out
