"""Stage 7 exports: a puzzle as an Across Lite ``.puz`` file, through puzpy.

The ``.puz`` format (version 1.3, the one every solving app reads) stores
the solution and an empty fill one byte per square (``.`` black, ``-``
empty), then title, author, copyright, the clues in one list and the notes,
all as Latin-1 strings, and four checksums over them: the global one, the
CIB (header) one and the masked low/high ones.  puzpy computes the
checksums; this module chooses what goes in and proves what came out.

Every string outside Latin-1 is folded to ASCII look-alikes with
:func:`~pipeline.render.book.fold_text` (the same table the book renderers
use) and reported in a warning.  After writing, the file is read back with
:func:`puz.load`, which raises on any checksum mismatch, and its solution,
clues (by Across Lite's own numbering) and header fields are compared with
the puzzle; any difference is a :class:`~pipeline.render.book.RenderError`
and the file is removed.
"""

from __future__ import annotations

import contextlib
import struct
from pathlib import Path

import puz

from ..model.fileio import write_bytes
from ..model.grid import BLACK
from ..model.puzzle import Puzzle
from .book import RenderError, check_letters_and_clues, entry_name, fold_text

__all__ = ["write_puz", "puz_bytes", "verify_puz", "puz_title", "puz_notes", "PUZ_VERSION"]

PUZ_VERSION = "1.3"
_BLACK, _BLANK = puz.BLACKSQUARE, puz.BLANKSQUARE
# The masked checksums are 8 bytes at offset 16: the low halves, then the high halves.
_MAGIC_AT = 16


def _latin1(ch: str) -> bool:
    return ord(ch) < 256


def _fold(text: str, what: str, source: str, warnings: list[str]) -> str:
    """``text`` in Latin-1, with a warning in ``warnings`` when it had to change."""
    folded = fold_text(text, _latin1)
    if folded != text:
        warnings.append(f'{source}, {what}: "{text}" printed as "{folded}"')
    return folded


def _ordered_slots(puzzle: Puzzle):
    """The slots in Across Lite's clue order: by number, across before down."""
    return sorted(puzzle.grid.slots(), key=lambda s: (s.number, s.direction != "across"))


def puz_title(puzzle: Puzzle) -> str:
    """The ``.puz`` title: the puzzle's (a themed puzzle's names its theme), else its section's.

    Examples
    --------
    >>> from pipeline.model.grid import Grid
    >>> g = Grid.from_rows(["AB", "CD"])
    >>> puz_title(Puzzle(g, {}, title="Fire ___")), puz_title(Puzzle(g, {}, section="Daily"))
    ('Fire ___', 'Daily')
    """
    return puzzle.title or puzzle.section


def puz_notes(puzzle: Puzzle) -> str:
    """The ``.puz`` notes: the puzzle's section, level and theme title, then any notes of its own.

    Solving apps show the notes when the puzzle opens, so the theme entries
    (:meth:`Puzzle.notes` lists them for the ``.ipuz``) are left out: they
    would give the theme away.

    Examples
    --------
    >>> from pipeline.model.grid import Grid
    >>> g = Grid.from_rows(["AB", "CD"])
    >>> puz_notes(Puzzle(g, {}, title="Fire ___", section="Themed", level="medium", theme=("FIREDRILL",)))
    'Section: Themed. Level: Medium. Theme: Fire ___.'
    >>> puz_notes(Puzzle(g, {}))
    ''
    """
    parts = [
        f"Section: {puzzle.section}." if puzzle.section else "",
        f"Level: {puzzle.level.capitalize()}." if puzzle.level else "",
        f"Theme: {puzzle.title}." if puzzle.theme and puzzle.title else "",
        str(puzzle.extra.get("notes") or ""),
    ]
    return " ".join(p for p in parts if p)


def _build(puzzle: Puzzle, source: str) -> tuple[puz.Puzzle, list[str]]:
    """The puzpy puzzle for ``puzzle`` and the warnings its folding raised."""
    grid = puzzle.grid
    if grid.rows < 1 or grid.cols < 1 or grid.rows > 255 or grid.cols > 255:
        raise RenderError(f"a {grid.rows}x{grid.cols} grid cannot be a .puz (1 to 255 squares a side)", source)
    check_letters_and_clues(
        puzzle, source, "a .puz square must be one letter A-Z (rebus and unfilled squares are not exported)"
    )
    warnings: list[str] = []
    p = puz.Puzzle(version=PUZ_VERSION)
    p.width, p.height = grid.cols, grid.rows
    p.solution = "".join(_BLACK if ch == BLACK else ch for ch in grid.cells)
    p.fill = "".join(_BLACK if ch == BLACK else _BLANK for ch in grid.cells)
    p.title = _fold(puz_title(puzzle), "title", source, warnings)
    p.author = _fold(puzzle.author, "author", source, warnings)
    p.copyright = _fold(puzzle.copyright, "copyright", source, warnings)
    p.notes = _fold(puz_notes(puzzle), "notes", source, warnings)
    p.clues = [
        _fold(puzzle.clues[(s.direction, s.number)], entry_name(s), source, warnings) for s in _ordered_slots(puzzle)
    ]
    return p, warnings


def puz_bytes(puzzle: Puzzle, source: str = "puzzle") -> bytes:
    """The ``.puz`` file for ``puzzle``, as bytes.

    Parameters
    ----------
    puzzle : Puzzle
        A filled puzzle: every white cell one letter A-Z, every entry clued.
    source : str, optional
        Names the puzzle in error messages.

    Returns
    -------
    bytes
        An Across Lite 1.3 file; text outside Latin-1 folded (see
        :func:`write_puz` for the warnings).

    Raises
    ------
    RenderError
        A white cell that is not one letter A-Z (naming the cell), an entry
        with no clue, or a grid wider or taller than 255.

    Examples
    --------
    >>> from pipeline.model.grid import Grid
    >>> g = Grid.from_rows(["AB", "CD"])
    >>> p = Puzzle(g, {(s.direction, s.number): s.label for s in g.slots()}, title="Tiny")
    >>> data = puz_bytes(p)
    >>> data[2:14], puz.load(data).clues
    (b'ACROSS&DOWN\\x00', ['1A', '1D', '2D', '3A'])

    Notes
    -----
    Deterministic: no dates or random bytes go into a ``.puz``.  O(cells + clue text).
    """
    p, _ = _build(puzzle, source)
    return p.tobytes()


def verify_puz(data: bytes, puzzle: Puzzle, source: str = "puzzle") -> None:
    """Check that ``data`` is the ``.puz`` of ``puzzle``, read back by puzpy.

    Parameters
    ----------
    data : bytes
        A ``.puz`` file's bytes.
    puzzle : Puzzle
        The puzzle it should hold.
    source : str, optional
        Names the file in error messages.

    Raises
    ------
    RenderError
        puzpy rejects the file (a checksum does not match: global, CIB or a
        masked low/high one; or the file is truncated), or the header fields,
        solution, fill, title, author, copyright, notes or clues (matched to
        their entries by Across Lite's own numbering) differ from
        ``puzzle``'s, or there are stray bytes.

    Examples
    --------
    >>> from pipeline.model.grid import Grid
    >>> g = Grid.from_rows(["AB", "CD"])
    >>> p = Puzzle(g, {(s.direction, s.number): s.label for s in g.slots()})
    >>> data = puz_bytes(p)
    >>> verify_puz(data, p)
    >>> verify_puz(data[:-1] + b"?", p)  # doctest: +IGNORE_EXCEPTION_DETAIL
    Traceback (most recent call last):
    RenderError: puzzle: the .puz does not read back: global checksum does not match

    Notes
    -----
    ``puz.load`` recomputes the global, CIB and masked checksums and raises
    on a mismatch; they are compared again here (the masked ones as their
    low and high halves) so the check does not hang on that behaviour.
    Every byte of the file is covered: the checksums cover the grids and
    strings, the comparisons cover the rest.  O(file size).
    """
    try:
        got = puz.load(bytes(data))
    except puz.PuzzleFormatError as e:
        raise RenderError(f"the .puz does not read back: {e.message or 'format error'}", source) from None
    except (UnicodeDecodeError, ValueError, IndexError) as e:
        raise RenderError(f"the .puz does not read back: {e}", source) from None

    def bad(what: str) -> RenderError:
        return RenderError(f"the .puz read back does not match the puzzle: {what}", source)

    stored_global, stored_cib = struct.unpack_from("<H", data, 0)[0], struct.unpack_from("<H", data, 14)[0]
    if stored_global != got.global_cksum():
        raise bad("global checksum")
    if stored_cib != got.header_cksum():
        raise bad("CIB checksum")
    magic = struct.pack("<Q", got.magic_cksum())
    if data[_MAGIC_AT : _MAGIC_AT + 4] != magic[:4]:
        raise bad("masked checksum (low)")
    if data[_MAGIC_AT + 4 : _MAGIC_AT + 8] != magic[4:]:
        raise bad("masked checksum (high)")

    want, _ = _build(puzzle, source)
    header = {
        "preamble": (got.preamble, b""),
        "version": (got.fileversion, want.fileversion),
        "reserved bytes": ((got.unk1, got.unk2, got.scrambled_cksum), (want.unk1, want.unk2, 0)),
        "size": ((got.width, got.height), (want.width, want.height)),
        "puzzle type": ((got.puzzletype, got.solution_state), (puz.PuzzleType.Normal, puz.SolutionState.Unlocked)),
        "extensions": (got.extensions, {}),
        "trailing bytes": (got.postscript, b""),
    }
    for what, (a, b) in header.items():
        if a != b:
            raise bad(f"{what} {a!r}, expected {b!r}")
    for what in ("solution", "fill", "title", "author", "copyright", "notes"):
        if getattr(got, what) != getattr(want, what):
            raise bad(f"{what} {getattr(got, what)!r}, expected {getattr(want, what)!r}")
    if len(got.clues) != len(want.clues):
        raise bad(f"{len(got.clues)} clues, expected {len(want.clues)}")
    numbering = got.clue_numbering()
    entries = sorted(numbering.across + numbering.down, key=lambda e: e["clue_index"])
    solution = got.solution_grid()
    for entry, slot, text in zip(entries, _ordered_slots(puzzle), want.clues):
        label = entry_name(slot)
        if (entry["num"], entry["dir"], entry["cell"], entry["len"]) != (
            slot.number,
            slot.direction,
            slot.cells[0],
            slot.length,
        ):
            raise bad(f"Across Lite numbers {entry['num']}-{entry['dir'].title()} where the puzzle has {label}")
        if entry["clue"] != text:
            raise bad(f"{label} clue {entry['clue']!r}, expected {text!r}")
        if solution.get_string_for_clue(entry) != puzzle.grid.word(slot):
            raise bad(f"{label} answer {solution.get_string_for_clue(entry)!r}, expected {puzzle.grid.word(slot)!r}")
    if len(entries) != len(want.clues):
        raise bad(f"Across Lite numbers {len(entries)} entries, the puzzle has {len(want.clues)}")
    if got.tobytes() != bytes(data):
        raise bad("puzpy writes it back differently (a stray byte)")


def write_puz(puzzle: Puzzle, path, source: str | None = None) -> list[str]:
    """Write ``puzzle`` as an Across Lite ``.puz`` file and verify it.

    Parameters
    ----------
    puzzle : Puzzle
        A filled puzzle: every white cell one letter A-Z, every entry clued.
    path : str or os.PathLike
        The ``.puz`` to write (atomically).
    source : str, optional
        Names the puzzle in warnings and errors (its ``.ipuz`` file, say);
        ``path`` by default.

    Returns
    -------
    list of str
        One warning per string that had to change to fit Latin-1, naming the
        puzzle and the clue (or title, author, copyright, notes), e.g.
        ``'p3.ipuz, 17-Across: "Zoë’s café — 東京" printed as "Zoë's café -- ??"'``.

    Raises
    ------
    RenderError
        Bad content (see :func:`puz_bytes`), or the written file does not
        read back as the puzzle (see :func:`verify_puz`); no file is left at
        ``path`` then.

    Examples
    --------
    >>> import os, tempfile
    >>> from pipeline.model.grid import Grid
    >>> g = Grid.from_rows(["AB", "CD"])
    >>> p = Puzzle(g, {(s.direction, s.number): "Clue" for s in g.slots()}, title="Café №1")
    >>> out = os.path.join(tempfile.mkdtemp(), "p.puz")
    >>> write_puz(p, out, source="p.ipuz")
    ['p.ipuz, title: "Café №1" printed as "Café No1"']
    >>> puz.read(out).title
    'Café No1'

    Notes
    -----
    The bytes are verified in memory before the atomic write and read back
    from disk after it.  O(cells + clue text).
    """
    path = Path(path)
    source = str(path) if source is None else str(source)
    p, warnings = _build(puzzle, source)
    data = p.tobytes()
    verify_puz(data, puzzle, source)
    write_bytes(path, data)
    try:
        try:
            written = path.read_bytes()
        except OSError as e:
            raise RenderError(f"cannot read the written .puz back: {e.strerror}", path) from None
        verify_puz(written, puzzle, str(path))
    except RenderError:
        with contextlib.suppress(FileNotFoundError):
            path.unlink()
        raise
    return warnings
