"""The publisher's review of a book's clues: each printed clue with its source, level and flags.

``xw clues review BOOK_OR_FOLDER`` reads the ``.ipuz`` files of a book (a
folder such as ``outputs/puzzles/book-1``, or the files themselves) and
prints one tab-separated line a clue::

    puzzle  slot  ANSWER|clue  source  level  flags

``ANSWER|clue`` is the ``clue_file`` form: copy a line into your
``clue_file``, rewrite the clue, and the next run prints yours (the clue
stage puts the user's clues first at every difficulty).  The source is
``yours`` (in ``clue_file``), ``house`` (the house list and house clues,
written by people), ``generated`` (made from WordNet by the lexicon build)
or ``shards`` (a clue folder of your own); the level is ``easy`` or
``hard`` as the shards tag it (`pipeline.model.cluefile.clue_level`).

Flags, for the eye to go to first:

* ``long``: over ``long_chars`` characters (40 by default; the house
  style is one to five words);
* ``dictionary``: a generated clue in dictionary wording ("Any of
  various...", "Relating to...", a definition of eight words or more);
* ``kind-of``: "Kind of X" or "Some Xs", often vaguer than an editor
  prints;
* ``blank``: a fill-in-the-blank, to check it has one natural answer;
* ``generated``: made by a program, not written by a person;
* ``empty``: no clue (``missing_clues: leave``).
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from pathlib import Path

from .model.cluefile import clue_key, clue_level, read_clues_for, read_shard
from .model.errors import InputError
from .model.puzzle import read_ipuz

__all__ = ["FLAGS", "ReviewLine", "house_clue_keys", "review_clues"]

FLAGS = ("long", "dictionary", "kind-of", "blank", "generated", "empty")
_DICTIONARY = re.compile(
    r"^(?:\(|Any of |Any one of |One of |Either of |Relating to |Of or |Someone who |Something |Person who |"
    r"Act of |Process of |State of |Quality of |Used |Being |Having )|\b(?:especially|usually|typically|"
    r"characterized|consisting|esp)\b"
)
_KIND_OF = re.compile(r"^(?:Kind of |Some [a-z])")
_DICTIONARY_WORDS = 8


@dataclass(frozen=True)
class ReviewLine:
    """One printed clue: where it is, what it says, where it comes from and what to look at."""

    puzzle: str
    slot: str  # "12-Across"
    answer: str
    clue: str
    source: str
    level: str
    flags: tuple[str, ...]

    def __str__(self) -> str:
        return "\t".join((self.puzzle, self.slot, f"{self.answer}|{self.clue}", self.source, self.level,
                          ",".join(self.flags)))  # fmt: skip


def house_clue_keys(house_dir=None) -> dict[str, set[str]]:
    """``{ANSWER: {clue key}}`` of the house list and house clues (`pipeline.lexicon.house`)."""
    from .lexicon.house import read_house, read_house_clues

    out: dict[str, set[str]] = {}
    for entries in (read_house(house_dir), read_house_clues(house_dir)):
        for answer, e in entries.items():
            out.setdefault(answer, set()).update(clue_key(c) for c in e.clues)
    return out


def _ipuz_paths(targets) -> list[Path]:
    paths: list[Path] = []
    for target in map(Path, targets):
        if target.is_dir():
            found = sorted(target.glob("*.ipuz"), key=lambda p: (len(p.stem), p.stem))
            if not found:
                raise InputError("no .ipuz files in this folder (give a book's puzzle folder, such as "
                                 "outputs/puzzles/book-1)", target)  # fmt: skip
            paths += found
        elif target.is_file():
            paths.append(target)
        else:
            raise InputError("no such file or folder", target)
    return paths


def review_clues(targets, clue_dir=None, clue_file=None, house_dir=None, sample: int | None = None, seed: int = 0,
                 long_chars: int = 40) -> list[ReviewLine]:  # fmt: skip
    """The printed clues of ``.ipuz`` files (or folders of them), with source, level and flags.

    Parameters
    ----------
    targets : list of path
        ``.ipuz`` files or folders holding them, read in name order.
    clue_dir : path, optional
        The shard folder the book was clued from: gives each clue's level,
        and tells generated clues (a lexicon build's ``clues``) from your
        own shards.
    clue_file : path, optional
        Your ``clue_file``: its clues are marked ``yours``.
    house_dir : path, optional
        The house list (default: the packaged one).
    sample : int, optional
        A random sample of this many clues (``seed``), in book order.
    long_chars : int
        Clues longer than this are flagged ``long``.

    Raises
    ------
    InputError
        A missing file or folder, a folder with no ``.ipuz``, an ``.ipuz``
        that cannot be read.
    """
    rows = []
    for path in _ipuz_paths(targets):
        puzzle = read_ipuz(path)
        name = f"{path.parent.name}/{path.name}"
        for direction in ("across", "down"):
            for slot, answer, clue in puzzle.entries(direction):
                rows.append((name, f"{slot.number}-{direction.title()}", answer, clue))
    answers = {answer for _, _, answer, _ in rows}
    mine = {a: {clue_key(c) for c in cs} for a, cs in read_shard(clue_file, answers).items()} if clue_file else {}
    house = house_clue_keys(house_dir)
    levels: dict[tuple[str, str], str] = {}
    generated = clue_dir is not None and (Path(clue_dir).parent / "grades.tsv").is_file()
    if clue_dir is not None:
        for answer, clues in read_clues_for(clue_dir, answers).items():
            for c in clues:
                level, text = clue_level(c)
                levels.setdefault((answer, clue_key(text)), level)
    if sample is not None and sample < len(rows):
        keep = sorted(random.Random(seed).sample(range(len(rows)), sample))
        rows = [rows[k] for k in keep]
    out = []
    for name, slot, answer, clue in rows:
        key = clue_key(clue)
        if key in mine.get(answer, ()):
            source = "yours"
        elif key in house.get(answer, ()):
            source = "house"
        else:
            source = "generated" if generated or clue_dir is None else "shards"
        level = levels.get((answer, key), "-")
        out.append(ReviewLine(name, slot, answer, clue, source, level, _flags(clue, source, long_chars)))
    return out


def _flags(clue: str, source: str, long_chars: int) -> tuple[str, ...]:
    if not clue:
        return ("empty",)
    flags = []
    if len(clue) > long_chars:
        flags.append("long")
    if source == "generated" and (_DICTIONARY.search(clue) or len(clue.split()) >= _DICTIONARY_WORDS):
        flags.append("dictionary")
    if _KIND_OF.match(clue):
        flags.append("kind-of")
    if "___" in clue:
        flags.append("blank")
    if source == "generated":
        flags.append("generated")
    return tuple(flags)
