"""Clue shards: a folder of ``_xx.txt`` files, ``ANSWER|clue`` a line.

A shard holds the answers that begin with its two letters (the seed's
Emogic layout), so a book opens only the few dozen shards its answers
need.  An answer may have many lines, one per clue.  A clue may start
with its level, ``TAR|hard: Sailor``: ``easy`` (a straight clue, the one
an easy puzzle prints) or ``hard`` (a secondary sense, misdirection); a
clue with no level is easy (`clue_level`).

Also the readers of the big clue files users bring (`read_clue_file`),
streamed a line at a time, in three forms:

* ``pipe``: ``ANSWER|clue`` lines, blank lines and ``#`` comments skipped
  (the shard form itself);
* ``xd``: the xd crossword corpus's ``clues.tsv``,
  ``pubid<TAB>year<TAB>answer<TAB>clue``, with or without its header line;
* ``clu``: Emogic's ``_AE.clu`` files, the pipe form in UTF-8 or, when the
  file is not valid UTF-8, Windows-1252.
"""

from __future__ import annotations

import codecs
import re
import unicodedata
from collections.abc import Callable, Iterator
from pathlib import Path

from .errors import InputError
from .fileio import atomic_write, cache_key, prune_beside, sealed, unsealed, write_bytes
from .wordlist import normalise

__all__ = [
    "MAX_CLUE_LENGTH", "CLUE_FORMATS", "CLUE_LEVELS", "clue_level", "tag_level", "XD_HEADER", "shard_name", "is_shard_name", "read_shard", "read_clues_for", "read_shards_cached",
    "write_shards", "check_clue", "clue_key", "clue_format", "read_clue_file", "read_pipe_clues", "read_xd_clues", "read_clu_clues",
]  # fmt: skip

MAX_CLUE_LENGTH = 300
_CONTROL = re.compile(r"[\x00-\x08\x0a-\x1f]")
_SHARD_NAME = re.compile(r"_[a-z]{1,2}\.txt")
_CACHE_CODE = ("model/cluefile.py", "model/wordlist.py")  # the code that reads shards: part of a cache entry's key
#: A clue's levels, easiest first: an untagged clue is the first.
CLUE_LEVELS = ("easy", "hard")
_LEVEL_TAG = re.compile(r"(easy|hard):[ \t]*")


def clue_level(clue: str) -> tuple[str, str]:
    """``(level, text)`` of a clue as a clue file writes it: its level tag, if any, taken off.

    Examples
    --------
    >>> clue_level("hard: Sailor"), clue_level("Pitch")
    (('hard', 'Sailor'), ('easy', 'Pitch'))
    """
    m = _LEVEL_TAG.match(clue)
    return (m.group(1), clue[m.end():]) if m else (CLUE_LEVELS[0], clue)


def tag_level(text: str, level: str) -> str:
    """A clue as a clue file writes it: ``text`` behind its level tag (none for an easy clue).

    Examples
    --------
    >>> tag_level("Sailor", "hard"), tag_level("Pitch", "easy")
    ('hard: Sailor', 'Pitch')
    """
    if level not in CLUE_LEVELS:
        raise ValueError(f"clue level {level!r}: choose one of {', '.join(CLUE_LEVELS)}")
    return text if level == CLUE_LEVELS[0] else f"{level}: {text}"


def shard_name(answer: str) -> str:
    """The shard file an answer lives in.

    Examples
    --------
    >>> shard_name("AEACUS")
    '_ae.txt'
    """
    return "_" + answer[:2].lower() + ".txt"


def is_shard_name(name: str) -> bool:
    """Whether a file name is a shard's (``_ae.txt``; ``_a.txt`` for one-letter answers).

    Examples
    --------
    >>> is_shard_name("_ae.txt"), is_shard_name("notes.txt")
    (True, False)
    """
    return _SHARD_NAME.fullmatch(name) is not None


def clue_key(clue: str) -> str:
    """The form two clue texts share when they are the same clue (case, spaces and level ignored).

    Examples
    --------
    >>> clue_key("  Mined  Rock ") == clue_key("hard: mined rock")
    True
    """
    return " ".join(clue_level(clue)[1].lower().split())


def check_clue(clue: str) -> str | None:
    """Why ``clue`` (its level tag aside) cannot be printed, or None if it can."""
    clue = clue_level(clue)[1]
    if not clue.strip():
        return "empty clue"
    if "\x00" in clue:
        return "NUL byte in clue"
    if _CONTROL.search(clue):
        return "control character in clue"
    if len(clue) > MAX_CLUE_LENGTH:
        return f"clue of {len(clue)} characters (at most {MAX_CLUE_LENGTH})"
    return None


def read_shard(path, wanted: set[str] | None = None) -> dict[str, list[str]]:
    """Read one shard into ``{ANSWER: [clue, ...]}`` (file order kept).

    Only answers in ``wanted`` are kept when it is given; every line is
    still checked.

    Raises
    ------
    InputError
        Naming the file and line: no ``|``, an answer that is not letters,
        or a clue that is empty, too long or holds control characters.
    """
    path = Path(path)
    out: dict[str, list[str]] = {}
    for answer, clue, _, lineno in _pipe_lines(path, "utf-8", None):
        problem = check_clue(clue)
        if problem:
            raise InputError(problem, path, lineno)
        if wanted is None or answer in wanted:
            out.setdefault(answer, []).append(clue)
    return out


def read_clues_for(folder, answers, clue_file=None, cache_dir=None) -> dict[str, list[str]]:
    """Clues for ``answers`` from the shard folder, opening only their shards.

    ``clue_file`` (the user's own ``ANSWER|clue`` lines), when given, is
    read too and its clues come first: an answer's first choices.  With
    ``cache_dir``, the whole folder is read through a cache (`read_shards_cached`).
    """
    folder = Path(folder)
    if not folder.is_dir():
        raise InputError("clue folder not found", folder)
    wanted = set(answers)
    clues: dict[str, list[str]] = {}
    shards = read_shards_cached(folder, cache_dir) if cache_dir is not None else {}
    for name in sorted({shard_name(a) for a in wanted}):
        if cache_dir is not None:
            clues.update((a, cs) for a, cs in shards.get(name, {}).items() if a in wanted)
        elif (folder / name).exists():
            clues.update(read_shard(folder / name, wanted))
    if clue_file is not None:
        for answer, texts in read_shard(clue_file, wanted).items():
            clues[answer] = texts + clues.get(answer, [])
    return clues


def read_shards_cached(folder, cache_dir) -> dict[str, dict[str, list[str]]]:
    """Every shard of ``folder`` as ``{shard name: {ANSWER: [clue, ...]}}``, through a cache in ``cache_dir``.

    The first read checks and parses each line (`read_shard`, which names
    a bad one) and keeps the result in ``cache_dir``, under the SHA-256 of
    the shards' names and bytes and of the code that reads them; later
    reads of the same shards load it (a tenth of the time), so the many
    fill and clue jobs of a run parse the shards once.  An entry carries
    the SHA-256 of its contents and is written whole or not at all; one that
    does not match is rebuilt, and a cache folder that cannot be written
    is passed over.  The cache changes how fast the clues are read, never
    what they are.
    """
    folder = Path(folder)
    paths = sorted(p for p in folder.iterdir() if is_shard_name(p.name))
    parts = []
    for p in paths:
        data = p.read_bytes()
        parts += [b"\0%s\0%d\0" % (p.name.encode(), len(data)), data]
    entry = Path(cache_dir) / f"clues-v2-{cache_key(parts, _CACHE_CODE)[:32]}.txt"
    try:
        cached = _parse_clue_entry(entry.read_bytes())
    except OSError:
        cached = None
    if cached is not None:
        return cached
    shards = {p.name: read_shard(p) for p in paths}
    # Clues hold no control character (check_clue), so the unit separator parts them safely.
    body = "".join(f"{name}\x1f{a}" + "".join("\x1f" + c for c in cs) + "\n"
                   for name, clues in shards.items() for a, cs in clues.items()).encode("utf-8")  # fmt: skip
    try:
        write_bytes(entry, sealed(body))
        prune_beside(entry, "clues-v*", 4)
    except OSError:
        pass
    return shards


def _parse_clue_entry(data: bytes) -> dict[str, dict[str, list[str]]] | None:
    """The shards of a cache entry's bytes if it is whole (`unsealed`), else None."""
    body = unsealed(data)
    if body is None:
        return None
    out: dict[str, dict[str, list[str]]] = {}
    for line in str(body, "utf-8").split("\n")[:-1]:
        name, answer, *texts = line.split("\x1f")
        out.setdefault(name, {})[answer] = texts
    return out


def write_shards(folder, clues: dict[str, list[str]]) -> list[Path]:
    """Write ``{ANSWER: [clue, ...]}`` as shards under ``folder``; return the paths."""
    folder = Path(folder)
    by_shard: dict[str, list[str]] = {}
    for answer in sorted(clues):
        by_shard.setdefault(shard_name(answer), []).append(answer)
    paths = []
    for name, answers in sorted(by_shard.items()):
        path = folder / name
        with atomic_write(path) as f:
            for answer in answers:
                for clue in clues[answer]:
                    f.write(f"{answer}|{clue}\n")
        paths.append(path)
    return paths


# --------------------------------------------------------------------------
# Readers of the clue files users bring

#: The input forms `read_clue_file` knows.
CLUE_FORMATS = ("pipe", "xd", "clu")
#: The header line of the xd corpus's ``clues.tsv``.
XD_HEADER = ("pubid", "year", "answer", "clue")

#: ``on_error`` callback of the readers: given each bad line's InputError.
OnError = Callable[[InputError], None]


def _raw_lines(path: Path, encoding: str, on_error: OnError | None) -> Iterator[tuple[int, str]]:
    """``(lineno, text)`` of each line, decoded one at a time (no line end, no BOM).

    A line that does not decode is an InputError naming it, raised or
    given to ``on_error`` (and the line skipped).
    """
    try:
        f = open(path, "rb")
    except FileNotFoundError:
        raise InputError("file not found", path) from None
    except IsADirectoryError:
        raise InputError("is a directory, expected a file", path) from None
    with f:
        for lineno, data in enumerate(f, start=1):
            if lineno == 1 and data.startswith(codecs.BOM_UTF8) and encoding == "utf-8":
                data = data[len(codecs.BOM_UTF8) :]
            try:
                text = data.decode(encoding)
            except UnicodeDecodeError as e:
                _report(InputError(f"not valid {encoding} (byte {e.start} of the line)", path, lineno), on_error)
                continue
            yield lineno, text.rstrip("\r\n")


def _is_utf8(path: Path) -> bool:
    """Whether the whole file decodes as UTF-8 (read in blocks, not all at once)."""
    decoder = codecs.getincrementaldecoder("utf-8")()
    try:
        with open(path, "rb") as f:
            while block := f.read(1 << 20):
                decoder.decode(block)
            decoder.decode(b"", final=True)
    except UnicodeDecodeError:
        return False
    except FileNotFoundError:
        raise InputError("file not found", path) from None
    except IsADirectoryError:
        raise InputError("is a directory, expected a file", path) from None
    return True


def _report(error: InputError, on_error: OnError | None) -> None:
    """Raise ``error``, or hand it to ``on_error`` (the caller then skips the line)."""
    if on_error is None:
        raise error
    on_error(error)


def _parse(answer_text: str, clue: str, path: Path, lineno: int) -> tuple[str, str]:
    """The normalised answer and stripped clue of one line, or an InputError."""
    try:
        answer = normalise(answer_text)
    except ValueError as e:
        raise InputError(str(e), path, lineno) from None
    if not answer:
        raise InputError(f"no letters in answer {answer_text.strip()!r}", path, lineno)
    for ch in clue:
        if ch != "\t" and unicodedata.category(ch) == "Cc":
            raise InputError(f"control character U+{ord(ch):04X} in clue", path, lineno)
    return answer, clue.strip()


def _pipe_lines(path: Path, encoding: str, on_error: OnError | None):
    for lineno, line in _raw_lines(path, encoding, on_error):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        answer_text, sep, clue = line.partition("|")
        try:
            if not sep:
                raise InputError("no '|' between answer and clue", path, lineno)
            answer, clue = _parse(answer_text, clue, path, lineno)
        except InputError as e:
            _report(e, on_error)
            continue
        yield answer, clue, path, lineno


def read_pipe_clues(path, on_error: OnError | None = None) -> Iterator[tuple[str, str, Path, int]]:
    """Stream an ``ANSWER|clue`` file (UTF-8): ``(answer, clue, path, lineno)`` per clue line.

    Parameters
    ----------
    path : str or os.PathLike
    on_error : callable, optional
        Called with the InputError of each bad line, which is then skipped;
        without it the first bad line raises.

    Returns
    -------
    iterator of (str, str, Path, int)
        The answer normalised (`normalise`), the clue stripped of the
        spaces around it, the file and the 1-based line number.  Blank
        lines and lines starting with ``#`` are skipped.

    Raises
    ------
    InputError
        Naming the file and line: no ``|``, an answer that is not letters,
        a clue holding a control character (a tab aside), a line that is
        not UTF-8.  A missing file always raises, whatever ``on_error``.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "mine.txt"
    >>> _ = p.write_text("# my clues\\nice cream| Cone filler\\n")
    >>> [(a, c, n) for a, c, _, n in read_pipe_clues(p)]
    [('ICECREAM', 'Cone filler', 2)]
    """
    return _pipe_lines(Path(path), "utf-8", on_error)


def read_clu_clues(path, on_error: OnError | None = None) -> Iterator[tuple[str, str, Path, int]]:
    """Stream an Emogic ``.clu`` file: `read_pipe_clues`, but Windows-1252 if not UTF-8.

    The file is decoded as UTF-8 when all of it is valid UTF-8, else as
    Windows-1252 (cp1252) throughout: the old files were written on Windows.

    Notes
    -----
    Two passes over the file: one to test the encoding (in 1 MB blocks),
    one to read.
    """
    path = Path(path)
    return _pipe_lines(path, "utf-8" if _is_utf8(path) else "cp1252", on_error)


def _is_xd_header(line: str) -> bool:
    return tuple(f.strip().lower() for f in line.split("\t")) == XD_HEADER


def read_xd_clues(path, on_error: OnError | None = None) -> Iterator[tuple[str, str, Path, int]]:
    """Stream an xd ``clues.tsv``: ``pubid<TAB>year<TAB>answer<TAB>clue`` lines.

    The header line ``pubid  year  answer  clue`` (tab-separated) is skipped
    when it is the first line; a tab inside the clue stays in the clue.
    Otherwise as `read_pipe_clues` (UTF-8; a line without four
    tab-separated fields is a bad line).
    """
    path = Path(path)

    def lines():
        for lineno, line in _raw_lines(path, "utf-8", on_error):
            if not line.strip() or (lineno == 1 and _is_xd_header(line)):
                continue
            fields = line.split("\t", 3)
            try:
                if len(fields) < 4:
                    raise InputError(
                        f"{len(fields)} tab-separated field(s), expected 4: pubid, year, answer, clue", path, lineno
                    )
                answer, clue = _parse(fields[2], fields[3], path, lineno)
            except InputError as e:
                _report(e, on_error)
                continue
            yield answer, clue, path, lineno

    return lines()


def clue_format(path) -> str:
    """The form of a clue file: ``clu`` (a ``.clu`` name), ``xd`` or ``pipe``.

    ``xd`` when the name ends in ``.tsv`` or the first line is the xd header
    (``pubid  year  answer  clue``); ``pipe`` otherwise.

    Examples
    --------
    >>> clue_format("_AE.clu"), clue_format("clues.tsv")
    ('clu', 'xd')
    """
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix == ".clu":
        return "clu"
    if suffix == ".tsv":
        return "xd"
    try:
        with open(path, "rb") as f:
            first = f.readline(4096)
    except FileNotFoundError:
        raise InputError("file not found", path) from None
    except IsADirectoryError:
        raise InputError("is a directory, expected a file", path) from None
    first = first.removeprefix(codecs.BOM_UTF8).decode("utf-8", "replace").rstrip("\r\n")
    return "xd" if _is_xd_header(first) else "pipe"


def read_clue_file(path, fmt: str = "auto", on_error: OnError | None = None) -> Iterator[tuple[str, str, Path, int]]:
    """Stream any clue file as ``(answer, clue, path, lineno)``.

    Parameters
    ----------
    path : str or os.PathLike
    fmt : {"auto", "pipe", "xd", "clu"}
        The file's form; ``auto`` asks `clue_format`.
    on_error : callable, optional
        As for `read_pipe_clues`.

    Returns
    -------
    iterator of (str, str, Path, int)
        See `read_pipe_clues`, `read_xd_clues`, `read_clu_clues`.
    """
    if fmt == "auto":
        fmt = clue_format(path)
    readers = {"pipe": read_pipe_clues, "xd": read_xd_clues, "clu": read_clu_clues}
    if fmt not in readers:
        raise InputError(f"unknown clue file format {fmt!r} (auto, {', '.join(CLUE_FORMATS)})", path)
    return readers[fmt](path, on_error)
