"""The seed's hex form of a black/white pattern, byte for byte.

``bin2hex`` turns a row-major bit string (``1`` white, ``0`` black) into
hex digits, four bits a digit, and ends a bit count that is not a multiple
of four with one extra letter from ``g``-``t``::

    0 -> g   1 -> h   00 -> i  01 -> j  10 -> k  11 -> l
    000 -> m 001 -> n 010 -> o 011 -> p 100 -> q 101 -> r 110 -> s 111 -> t

A square grid's side is the square root of its bit count, so the string
alone says its size and stays byte-compatible with the seed.  A grid that
is not square is written ``ROWSxCOLS:HEX`` (``5x7:...``): the seed never
made one, and the prefix keeps the hex part in the seed's form.
"""

from __future__ import annotations

import math
import re

from .errors import InputError, numbered_lines
from .fileio import atomic_write, read_text
from .grid import MAX_SIDE, Grid

__all__ = ["bin2hex", "hex2bin", "encode_grid", "decode_pattern", "read_pattern_file", "write_pattern_file"]

_BIN = ["0000", "0001", "0010", "0011", "0100", "0101", "0110", "0111",
        "1000", "1001", "1010", "1011", "1100", "1101", "1110", "1111",
        "0", "1", "00", "01", "10", "11", "000", "001", "010", "011", "100", "101", "110", "111"]  # fmt: skip
_HEX = "0123456789ABCDEFghijklmnopqrst"
_TO_HEX = dict(zip(_BIN, _HEX))
_SIZE = re.compile(r"[0-9]{1,6}[xX][0-9]{1,6}")
_RATIO = re.compile(r"[-+]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?")
_TO_BIN = dict(zip(_HEX, _BIN))
# Lower-case a-f are read as A-F; the seed never wrote them, but people type them.
_TO_BIN.update({h.lower(): b for h, b in zip("ABCDEF", _BIN[10:16])})


def bin2hex(bits: str) -> str:
    """Encode a bit string exactly as the seed's ``bin2hex``.

    Examples
    --------
    >>> bin2hex("111100001")
    'F0h'
    """
    if any(b not in "01" for b in bits):
        raise ValueError("bit string may hold only 0 and 1")
    return "".join(_TO_HEX[bits[i : i + 4]] for i in range(0, len(bits), 4))


def hex2bin(text: str) -> str:
    """Decode the seed's hex form back to bits.

    Raises
    ------
    ValueError
        On a character outside ``0-9 A-F g-t``, or an extra letter that is
        not the last character.

    Examples
    --------
    >>> hex2bin("F0h")
    '111100001'
    """
    out = []
    for k, ch in enumerate(text):
        b = _TO_BIN.get(ch)
        if b is None:
            raise ValueError(f"character {k + 1} {ch!r} is not a hex digit or one of the letters g-t")
        if len(b) < 4 and k != len(text) - 1:
            raise ValueError(f"character {k + 1} {ch!r} ends a pattern but more follows")
        out.append(b)
    return "".join(out)


def encode_grid(grid: Grid) -> str:
    """The hex line for a grid's pattern (letters are ignored)."""
    h = bin2hex(grid.to_bits())
    if grid.rows == grid.cols:
        return h
    return f"{grid.rows}x{grid.cols}:{h}"


def decode_pattern(line: str, path=None, lineno: int | None = None) -> Grid:
    """Read one hex pattern line (square, or ``ROWSxCOLS:HEX``) into a Grid.

    A line of the seed's 580-line pattern files, ``HEX ratio`` or
    ``HEX,ratio``, is read too: the pattern is the first field, the second
    must be a number and there is no third.

    Raises
    ------
    InputError
        Naming ``path`` and ``lineno`` when the line is not a pattern: a
        character outside the code, a length that is no grid's, a side
        over `MAX_SIDE`, or more on the line than ``HEX ratio``.
    """
    field = line.strip().replace(",", " ").split()
    if not field:
        raise InputError("empty pattern line", path, lineno)
    if len(field) > 2 or (len(field) == 2 and not _RATIO.fullmatch(field[1])):
        junk = " ".join(field[1:])
        raise InputError(
            f"{junk[:40]!r} after the pattern: a line is HEX, or the seed's HEX ratio (a number)", path, lineno
        )
    text = field[0]
    rows = cols = None
    if ":" in text:
        size, text = text.split(":", 1)
        if not _SIZE.fullmatch(size):
            raise InputError(f"size {size[:40]!r} is not ROWSxCOLS (two whole numbers, 5x7)", path, lineno)
        r, c = size.lower().split("x")
        rows, cols = int(r), int(c)
        if not (1 <= rows <= MAX_SIDE and 1 <= cols <= MAX_SIDE):
            raise InputError(f"size {size}: rows and columns go from 1 to {MAX_SIDE}", path, lineno)
    try:
        bits = hex2bin(text)
    except ValueError as e:
        raise InputError(f"bad hex pattern {text[:40]!r}: {e}", path, lineno) from None
    if rows is None:
        side = math.isqrt(len(bits))
        if side * side != len(bits) or side == 0:
            raise InputError(
                f"{len(bits)} bits is not a square grid; write a rectangle as ROWSxCOLS:HEX",
                path,
                lineno,
            )
        if side > MAX_SIDE:
            raise InputError(f"{side}x{side} is too big: rows and columns go up to {MAX_SIDE}", path, lineno)
        rows = cols = side
    elif rows * cols != len(bits) or rows <= 0 or cols <= 0:
        raise InputError(f"{rows}x{cols} needs {rows * cols} bits, the hex holds {len(bits)}", path, lineno)
    return Grid.from_bits(bits, rows, cols)


def read_pattern_file(path) -> list[tuple[int, str, Grid]]:
    """The patterns of a hex file as ``(line number, line, grid)``, blank lines skipped.

    Raises
    ------
    InputError
        On a missing file or a line that is not a pattern, naming file and line.
    """
    out = []
    for lineno, line in numbered_lines(read_text(path)):
        if line.strip():
            out.append((lineno, line, decode_pattern(line, path, lineno)))
    return out


def write_pattern_file(path, grids) -> None:
    """Write grids as hex lines (one pattern a line), atomically."""
    with atomic_write(path) as f:
        for grid in grids:
            f.write(encode_grid(grid) + "\n")
