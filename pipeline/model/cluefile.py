"""Clue shards: a folder of ``_xx.txt`` files, ``ANSWER|clue`` a line.

A shard holds the answers that begin with its two letters (the seed's
Emogic layout), so a book opens only the few dozen shards its answers
need.  An answer may have many lines, one per clue.
"""

from __future__ import annotations

from pathlib import Path

from .errors import InputError
from .fileio import atomic_write, read_text
from .wordlist import normalise

__all__ = ["MAX_CLUE_LENGTH", "shard_name", "read_shard", "read_clues_for", "write_shards", "check_clue"]

MAX_CLUE_LENGTH = 300


def shard_name(answer: str) -> str:
    """The shard file an answer lives in.

    Examples
    --------
    >>> shard_name("AEACUS")
    '_ae.txt'
    """
    return "_" + answer[:2].lower() + ".txt"


def check_clue(clue: str) -> str | None:
    """Why ``clue`` cannot be printed, or None if it can."""
    if not clue.strip():
        return "empty clue"
    if "\x00" in clue:
        return "NUL byte in clue"
    if any(ord(ch) < 32 and ch != "\t" for ch in clue):
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
    for lineno, raw in enumerate(read_text(path).splitlines(), start=1):
        if not raw.strip():
            continue
        answer_text, sep, clue = raw.partition("|")
        if not sep:
            raise InputError("no '|' between answer and clue", path, lineno)
        try:
            answer = normalise(answer_text)
        except ValueError as e:
            raise InputError(str(e), path, lineno) from None
        if not answer:
            raise InputError("empty answer before '|'", path, lineno)
        clue = clue.strip()
        problem = check_clue(clue)
        if problem:
            raise InputError(problem, path, lineno)
        if wanted is None or answer in wanted:
            out.setdefault(answer, []).append(clue)
    return out


def read_clues_for(folder, answers) -> dict[str, list[str]]:
    """Clues for ``answers`` from the shard folder, opening only their shards."""
    folder = Path(folder)
    if not folder.is_dir():
        raise InputError("clue folder not found", folder)
    wanted = set(answers)
    clues: dict[str, list[str]] = {}
    for name in sorted({shard_name(a) for a in wanted}):
        path = folder / name
        if path.exists():
            clues.update(read_shard(path, wanted))
    return clues


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
