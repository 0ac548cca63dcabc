"""Bring your own clues and words: build clue shards, check them, merge word lists.

* `build_shards` turns big clue files (``ANSWER|clue`` lines, the xd
  corpus's ``clues.tsv``, Emogic's ``.clu`` files) into the clue-shard
  folder the fill and clue stages read, keeping only clues a book can
  print: no clue that gives its answer away, names a blocked word, or
  points at other entries of the puzzle it came from.
* `check_shards` runs the leak rule over every line of a shard folder and
  measures how much of a word list the folder clues.
* `merge_wordlists` combines ``WORD;score`` lists, a later list's score
  winning (or the highest).

This module depends on the model only: the command line (``xw clues
shard``, ``xw clues check``, ``xw wordlist merge``) is a thin front end.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path

from .model.cluefile import (
    check_clue,
    clue_key,
    is_shard_name,
    read_clue_file,
    read_pipe_clues,
    read_shard,
    shard_name,
)
from .model.cluetext import Blocklist, clue_leaks
from .model.errors import InputError
from .model.wordlist import read_wordlist, write_wordlist

__all__ = [
    "DROP_REASONS", "PROGRESS_EVERY", "build_shards", "check_shards", "merge_wordlists", "refers_elsewhere",
]  # fmt: skip

#: Lines between two progress messages.
PROGRESS_EVERY = 100_000
#: Why a clue line is not kept, the keys of ``build_shards(...)["dropped"]``.
DROP_REASONS = (
    "short_answer", "not_in_wordlist", "blocked_answer", "unprintable", "cross_reference", "leak",
    "blocked_clue", "over_max_clues",
)  # fmt: skip

# Clues that only mean something beside the other entries of their own puzzle.
_ELSEWHERE = re.compile(
    r"""\b\d+\s*-?\s*(?:across|down)\b            # See 17-Across, With 23-Down, 17-Across's partner
      | \b(?:this|today'?s|the\ day'?s)\ puzzle\b  # Theme of this puzzle, this puzzle's theme
      | \bpuzzle'?s\ theme\b | \btoday'?s\ theme\b | \bto\ the\ theme\b | \btheme\ (?:entry|entries|answers?|clues?)\b
      | \b(?:starred|asterisked|circled|shaded|highlighted|italicized)\ (?:clues?|answers?|entries|entry|words?
                                                                          |letters?|squares?|cells?)\b
    """,
    re.IGNORECASE | re.VERBOSE,
)


def refers_elsewhere(clue: str) -> str | None:
    """The words by which ``clue`` points at other entries of its own puzzle, or None.

    Such clues mean nothing alone: "See 17-Across", "With 23-Down",
    "17-Across's partner", "Theme of this puzzle", "...the starred clues",
    "Hint to the circled letters".

    Examples
    --------
    >>> refers_elsewhere("With 23-Down, a summer treat")
    '23-Down'
    >>> refers_elsewhere("Starred in a film") is None
    True
    """
    m = _ELSEWHERE.search(clue.replace("\u2019", "'"))
    return m.group(0) if m else None


# --------------------------------------------------------------------------
# Building shards


class _Spill:
    """Clean clue lines spilled into one temporary file per shard, in input order.

    Lines wait in memory until ``limit`` characters are held, then every
    shard's lines are appended to its file: memory stays bounded whatever
    the input size, and only one file is open at a time.
    """

    def __init__(self, folder: Path, limit: int = 8 << 20):
        self.folder = folder
        self.limit = limit
        self.held: dict[str, list[str]] = {}
        self.size = 0
        self.names: set[str] = set()

    def add(self, answer: str, clue: str) -> None:
        line = f"{answer}|{clue}\n"
        self.held.setdefault(shard_name(answer), []).append(line)
        self.size += len(line)
        if self.size >= self.limit:
            self.flush()

    def flush(self) -> None:
        for name, lines in self.held.items():
            with open(self.folder / name, "a", encoding="utf-8", newline="\n") as f:
                f.writelines(lines)
            self.names.add(name)
        self.held.clear()
        self.size = 0

    def lines(self, name: str):
        """``(answer, clue)`` of the lines spilled into shard ``name``, in input order."""
        path = self.folder / name
        if name not in self.names:
            return
        with open(path, encoding="utf-8", newline="\n") as f:
            for line in f:
                answer, _, clue = line.rstrip("\n").partition("|")
                yield answer, clue


def _check_out_folder(out: Path) -> None:
    """Refuse to replace anything but a folder of clue shards."""
    if not out.exists():
        return
    if not out.is_dir():
        raise InputError("exists and is not a folder; give a folder for the clue shards", out)
    strangers = sorted(p.name for p in out.iterdir() if not (is_shard_name(p.name) and p.is_file()))
    if strangers:
        shown = ", ".join(strangers[:3]) + (", ..." if len(strangers) > 3 else "")
        raise InputError(f"holds files that are not clue shards ({shown}); not replacing it", out)


def _rank(texts: dict[str, list]) -> list[list]:
    """An answer's ``[text, count, first]`` entries, most-used first, ties by first appearance."""
    return sorted(texts.values(), key=lambda e: (-e[1], e[2]))


def build_shards(
    inputs,
    out,
    *,
    fmt: str = "auto",
    min_length: int = 3,
    max_clues: int = 20,
    wordlist=None,
    blocklist: Blocklist | None = None,
    add: bool = False,
    skip_bad: bool = False,
    progress: Callable[[str], None] | None = None,
) -> dict:
    """Build a clue-shard folder from big clue files.

    Parameters
    ----------
    inputs : list of path
        Clue files, read in this order (it decides ties; see Notes).
    out : path
        The shard folder to write.  An existing one is replaced (it must
        hold nothing but ``_xx.txt`` shards), or merged with under ``add``.
    fmt : {"auto", "pipe", "xd", "clu"}
        The form of every input; ``auto`` decides per file
        (`pipeline.model.cluefile.clue_format`).
    min_length : int
        Answers shorter than this are dropped.
    max_clues : int
        At most this many clues kept per answer.
    wordlist : path, optional
        A ``WORD;score`` list: only its answers are kept.
    blocklist : Blocklist, optional
        Answers and clues it blocks are dropped.
    add : bool
        Keep the shards already in ``out``: an answer's clues there stay
        first, in their order, and new clue texts follow while the answer
        has fewer than ``max_clues``.
    skip_bad : bool
        Count and skip malformed lines instead of stopping at the first.
    progress : callable, optional
        Given a message every `PROGRESS_EVERY` lines and per phase.

    Returns
    -------
    dict
        ``lines`` (clue lines read), ``bad_lines`` (skipped malformed
        lines), ``bad`` (the first ten of them, ``path:line: problem``),
        ``merged`` (lines repeating a kept clue text), ``answers`` and
        ``clues`` (written, the kept ones of ``out`` included under
        ``add``), ``existing_clues`` (those kept from ``out``),
        ``shards``, ``dropped`` (lines per reason of `DROP_REASONS`).

    Raises
    ------
    InputError
        Naming file and line: a line without ``|`` (pipe, clu) or four
        tab-separated fields (xd), an answer that is not letters, a clue
        with a control character, a line that does not decode (unless
        ``skip_bad``); a missing input; an ``out`` that is not a shard folder.
        ``out`` is then left as it was.

    Notes
    -----
    Every clue is stripped and its spaces collapsed.  Lines are dropped, in
    this order, for an answer shorter than ``min_length`` or not in the word
    list, a blocked answer, a clue `check_clue` refuses (empty or too long),
    a clue that `refers_elsewhere`.  The rest of an answer's lines are merged
    by ``clue_key`` (the first spelling kept) and ranked: most lines first,
    ties by first appearance.  Clue texts are then examined in that order
    until ``max_clues`` are kept: one that leaks its answer
    (`clue_leaks`) or holds a blocked word is dropped, and the lines of
    texts never examined count as ``over_max_clues``.

    Memory is bounded by the largest shard, not the input: the inputs are
    streamed once into per-shard spill files (8 MB held at most), then each
    shard is ranked and written on its own.  O(n) for n lines plus the leak
    checks of the examined texts.  The folder is built beside ``out`` and
    swapped in by two renames once all of it is written; same inputs,
    same bytes.
    """
    say = progress or (lambda message: None)
    if min_length < 1 or max_clues < 1:
        raise InputError(f"--min-length {min_length}, --max-clues {max_clues}: give numbers of 1 or more")
    out = Path(os.path.abspath(out))
    _check_out_folder(out)
    words = set(read_wordlist(wordlist)) if wordlist is not None else None
    blocklist = blocklist or Blocklist()
    stats = {"lines": 0, "bad_lines": 0, "bad": [], "merged": 0, "answers": 0, "clues": 0, "existing_clues": 0,
             "shards": 0}
    dropped = dict.fromkeys(DROP_REASONS, 0)

    def bad(e: InputError) -> None:
        stats["bad_lines"] += 1
        if len(stats["bad"]) < 10:
            stats["bad"].append(str(e))

    out.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="." + out.name + ".", suffix=".tmp", dir=out.parent))
    try:
        (work / "spill").mkdir()
        spill = _Spill(work / "spill")
        for path in inputs:
            for answer, clue, _, _ in read_clue_file(path, fmt, on_error=bad if skip_bad else None):
                stats["lines"] += 1
                if stats["lines"] % PROGRESS_EVERY == 0:
                    say(f"clues shard: {stats['lines']:,} lines read ({path})")
                clue = " ".join(clue.split())
                if len(answer) < min_length:
                    dropped["short_answer"] += 1
                elif words is not None and answer not in words:
                    dropped["not_in_wordlist"] += 1
                elif blocklist and blocklist.blocks_answer(answer):
                    dropped["blocked_answer"] += 1
                elif check_clue(clue):
                    dropped["unprintable"] += 1
                elif refers_elsewhere(clue):
                    dropped["cross_reference"] += 1
                else:
                    spill.add(answer, clue)
        spill.flush()
        say(f"clues shard: {stats['lines']:,} lines read; ranking {len(spill.names)} shards")

        built = work / "shards"
        built.mkdir()
        names = set(spill.names)
        if add and out.is_dir():
            names |= {p.name for p in out.iterdir()}
        for k, name in enumerate(sorted(names), start=1):
            if k % 100 == 0:
                say(f"clues shard: {k} of {len(names)} shards written")
            existing = read_shard(out / name) if add and (out / name).is_file() else {}
            clues = _shard_clues(spill.lines(name), existing, max_clues, blocklist, stats, dropped)
            if not clues:
                continue
            stats["shards"] += 1
            with open(built / name, "w", encoding="utf-8", newline="\n") as f:
                for answer in sorted(clues):
                    f.writelines(f"{answer}|{clue}\n" for clue in clues[answer])
        built.chmod(0o755)
        _swap_in(built, out, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    stats["dropped"] = dropped
    say(f"clues shard: wrote {stats['clues']:,} clues for {stats['answers']:,} answers to {out}")
    return stats


def _shard_clues(lines, existing, max_clues, blocklist, stats, dropped) -> dict[str, list[str]]:
    """One shard's ``{ANSWER: [clue, ...]}``: existing clues, then the new ones ranked and checked."""
    texts: dict[str, dict[str, list]] = {}
    for i, (answer, clue) in enumerate(lines):
        entry = texts.setdefault(answer, {}).setdefault(clue_key(clue), [clue, 0, i])
        entry[1] += 1
    out: dict[str, list[str]] = {}
    for answer, clues in existing.items():
        kept, seen = [], set()
        for clue in clues:
            if clue_leaks(clue, answer):
                dropped["leak"] += 1  # kept under an older give-away rule
            elif clue_key(clue) not in seen:
                seen.add(clue_key(clue))
                kept.append(clue)
        out[answer] = kept
        stats["existing_clues"] += len(kept)
    for answer, by_key in texts.items():
        kept = out.setdefault(answer, [])
        seen = {clue_key(c) for c in kept}
        for text, count, _ in _rank(by_key):
            key = clue_key(text)
            if key in seen:
                stats["merged"] += count
            elif len(kept) >= max_clues:
                dropped["over_max_clues"] += count
            elif clue_leaks(text, answer):
                dropped["leak"] += count
            elif blocklist and blocklist.blocks_clue(text):
                dropped["blocked_clue"] += count
            else:
                kept.append(text)
                seen.add(key)
                stats["merged"] += count - 1
    out = {a: c for a, c in out.items() if c}
    stats["answers"] += len(out)
    stats["clues"] += sum(map(len, out.values()))
    return out


def _swap_in(built: Path, out: Path, work: Path) -> None:
    """Put the finished folder ``built`` at ``out``; the old one, if any, goes to ``work``."""
    if out.exists():
        os.replace(out, work / "old")
    try:
        os.replace(built, out)
    except BaseException:
        if (work / "old").exists() and not out.exists():
            os.replace(work / "old", out)
        raise


# --------------------------------------------------------------------------
# Checking shards


def check_shards(folder, wordlist=None, on_leak: Callable[[str], None] | None = None) -> dict:
    """Run the leak rule over every line of a clue-shard folder.

    Parameters
    ----------
    folder : path
        A folder of ``_xx.txt`` shards.
    wordlist : path, optional
        A ``WORD;score`` list: also count its entries with no clue line.
    on_leak : callable, optional
        Given ``path:line: ANSWER|clue (gives away WORD)`` for each leak,
        as found.

    Returns
    -------
    dict
        ``shards``, ``lines`` (clue lines), ``answers``, ``leaks``; with a
        word list also ``wordlist_entries``, ``unclued`` (entries with no
        clue line), ``unclued_by_length`` (``{length: count}``) and
        ``clued_share`` (share of entries with a clue, 4 decimals).

    Raises
    ------
    InputError
        Naming the file and line of a malformed line (no ``|``, an answer
        that is not letters, a clue that is empty, too long or holds a
        control character) or of an answer in the wrong shard (the clue
        stage would never find it); a folder that does not exist.

    Notes
    -----
    One shard in memory at a time.  O(n) clue-leak checks for n lines.
    """
    folder = Path(folder)
    if not folder.is_dir():
        raise InputError("clue folder not found", folder)
    words = read_wordlist(wordlist) if wordlist is not None else None
    clued: set[str] = set()
    stats = {"shards": 0, "lines": 0, "answers": 0, "leaks": 0}
    for path in sorted(p for p in folder.iterdir() if is_shard_name(p.name) and p.is_file()):
        stats["shards"] += 1
        answers: set[str] = set()
        for answer, clue, _, lineno in read_pipe_clues(path):
            problem = check_clue(clue)
            if problem:
                raise InputError(problem, path, lineno)
            if shard_name(answer) != path.name:
                raise InputError(f"{answer} belongs in {shard_name(answer)}, not here", path, lineno)
            stats["lines"] += 1
            answers.add(answer)
            leak = clue_leaks(clue, answer)
            if leak:
                stats["leaks"] += 1
                if on_leak:
                    on_leak(f"{path}:{lineno}: {answer}|{clue} (gives away {leak})")
        stats["answers"] += len(answers)
        if words is not None:
            clued |= answers & words.keys()
    if words is not None:
        unclued = [w for w in words if w not in clued]
        by_length: dict[int, int] = {}
        for w in unclued:
            by_length[len(w)] = by_length.get(len(w), 0) + 1
        stats["wordlist_entries"] = len(words)
        stats["unclued"] = len(unclued)
        stats["unclued_by_length"] = dict(sorted(by_length.items()))
        stats["clued_share"] = round(len(clued) / len(words), 4) if words else 0.0
    return stats


# --------------------------------------------------------------------------
# Merging word lists


def merge_wordlists(paths, out, prefer: str = "last", blocklist: Blocklist | None = None) -> dict:
    """Combine ``WORD;score`` lists into one.

    Parameters
    ----------
    paths : list of path
        The lists, in order.
    out : path
        The merged list, written atomically, sorted by word.
    prefer : {"last", "max"}
        An entry in several lists takes its score from the last list that
        has it (a theme list given after the default list wins), or the
        highest score.
    blocklist : Blocklist, optional
        Entries it blocks are left out.

    Returns
    -------
    dict
        ``lists``, ``read`` (entries read over all lists), ``entries``
        (written), ``shared`` (entries in more than one list), ``rescored``
        (of those, the ones whose lists disagree on the score), ``blocked``.

    Raises
    ------
    InputError
        Naming the file and line of a bad entry (`read_wordlist`).

    Notes
    -----
    O(n) for n entries over all lists, all held in memory (a word list is
    at most a few hundred thousand entries).
    """
    if prefer not in ("last", "max"):
        raise InputError(f"--prefer {prefer!r}: give last or max")
    merged: dict[str, float] = {}
    seen_in: dict[str, int] = {}
    rescored: set[str] = set()
    read = 0
    for path in paths:
        for word, score in read_wordlist(path).items():
            read += 1
            if word in merged:
                seen_in[word] += 1
                if score != merged[word]:
                    rescored.add(word)
                if prefer == "last" or score > merged[word]:
                    merged[word] = score
            else:
                merged[word] = score
                seen_in[word] = 1
    blocked = 0
    if blocklist:
        for word in [w for w in merged if blocklist.blocks_answer(w)]:
            del merged[word]
            blocked += 1
    write_wordlist(out, merged)
    return {
        "lists": len(paths),
        "read": read,
        "entries": len(merged),
        "shared": sum(1 for n in seen_in.values() if n > 1),
        "rescored": len(rescored),
        "blocked": blocked,
    }
