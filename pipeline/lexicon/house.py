"""The house list: entries and clues written by the project's people.

WordNet has few of the short entries American grids are built from: first
names, famous people, abbreviations, interjections, foreign words,
partials and short phrases, brands, places.  The house list has them, each
judged fill-worthy by a person, with a hand-set score (the word list's
scale, `pipeline.lexicon.scoring`) and clues written for it to
``CLUE_STYLE.md``, from a straight clue to harder ones.

The files live in ``pipeline/data/house/`` (``LICENSE``: CC0 1.0), one
per category (``names.txt``, ``abbreviations.txt``, ...); a line is::

    surface;score|clue|clue|hard: clue

``surface`` is the entry as written (``am too``, ``EMT``, ``Tina``),
folded to the answer like a word-list entry (AMTOO).  A clue is a
straight one, for easy puzzles, unless it starts with ``hard:`` (a
secondary sense, misdirection: `pipeline.model.cluefile.clue_level`).
Blank lines and ``#`` comments are skipped.  An answer may appear in
several categories (ERA, the word and the Equal Rights Amendment): its
clues are joined in file order and its score is the highest.

The house clues, ``pipeline/data/house/clues/*.txt``, are clues for
answers the list scores by itself (everyday words WordNet clues in
dictionary wording: ATE, ERR, ODE), with no ``;score``::

    surface|clue|hard: clue
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from ..model.cluefile import CLUE_LEVELS, check_clue, clue_level
from ..model.cluetext import clue_leaks
from ..model.errors import InputError, numbered_lines
from ..model.fileio import read_text
from ..model.wordlist import normalise

__all__ = ["HouseEntry", "MAX_HOUSE_CLUE", "default_house_dir", "read_house", "read_house_clues", "read_house_file"]

#: A house clue is at most this long: short clues are the house style.
MAX_HOUSE_CLUE = 60
#: Every house entry has a clue at each of these levels: a straight one and a hard one.
REQUIRE_LEVELS = CLUE_LEVELS
_SCORE = re.compile(r"[0-9]{1,3}")
# A clue may end with a full stop only as an abbreviation does ("Abbr.", "Corp.", "St.", "etc.", "a.m.").
_ABBREVIATION_END = re.compile(r"(?:\b[A-Z][a-z]{0,4}|\betc|\b[a-z])\.$")


@dataclass(frozen=True)
class HouseEntry:
    """One answer of the house list: its written forms, score, clues and where they come from."""

    answer: str
    surfaces: tuple[str, ...]
    score: int | None  # None: a house clue line, which leaves the score to the list
    clues: tuple[str, ...]  # as a clue file writes them: "hard: " before a hard one
    categories: tuple[str, ...]
    where: str  # "names.txt:12", the first line that lists it


def default_house_dir() -> Path:
    """The packaged house list, ``pipeline/data/house``."""
    return Path(str(resources.files("pipeline") / "data" / "house"))


def read_house_file(path, scored: bool = True) -> list[HouseEntry]:
    """The entries of one house-list file (``scored``) or house clue file, in file order.

    Raises
    ------
    InputError
        Naming the file and line: no ``;score`` (a ``;score`` in a house
        clue file), a score that is not a
        whole number 0-100, an entry that does not fold to 3-15 letters, an
        answer listed twice, no clue, no straight clue or no hard one
        (`REQUIRE_LEVELS`), or a clue that is empty, over
        `MAX_HOUSE_CLUE` characters, ends with a full stop, starts in lower
        case, holds control characters or gives its answer away
        (`pipeline.model.cluetext.clue_leaks`).
    """
    path = Path(path)
    category = path.stem
    out: list[HouseEntry] = []
    seen: dict[str, int] = {}
    for lineno, raw in numbered_lines(read_text(path)):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        head, *clues = [f.strip() for f in line.split("|")]
        surface, sep, score = head.rpartition(";")
        if not scored:
            if sep:
                raise InputError(f"a house clue line has no score: write {surface}|clue|hard: clue", path, lineno)
            surface, score = head, None
        elif not sep:
            raise InputError(f"no ';score' after {head!r} (write surface;score|clue|hard: clue)", path, lineno)
        elif not _SCORE.fullmatch(score) or int(score) > 100:
            raise InputError(f"score {score!r} is not a whole number from 0 to 100", path, lineno)
        try:
            answer = normalise(surface)
        except ValueError as e:
            raise InputError(str(e), path, lineno) from None
        if not 3 <= len(answer) <= 15:
            raise InputError(f"{answer or surface!r} has {len(answer)} letters: house entries have 3 to 15", path, lineno)
        if answer in seen:
            raise InputError(f"{answer} is listed twice (first on line {seen[answer]})", path, lineno)
        seen[answer] = lineno
        if not clues:
            raise InputError(f"{answer} has no clue", path, lineno)
        levels = set()
        for clue in clues:
            level, text = clue_level(clue)
            levels.add(level)
            problem = _clue_problem(text, answer, surface)
            if problem:
                raise InputError(f"{answer}: {problem}", path, lineno)
        lacking = [level for level in REQUIRE_LEVELS if level not in levels]
        if lacking:
            raise InputError(f"{answer} has no {' or '.join(lacking)} clue (a straight clue, and one after "
                             "'hard:')", path, lineno)  # fmt: skip
        out.append(HouseEntry(answer, (surface,), None if score is None else int(score), tuple(clues), (category,),
                              f"{path.name}:{lineno}"))  # fmt: skip
    return out


def _clue_problem(clue: str, answer: str, surface: str) -> str | None:
    problem = check_clue(clue)
    if problem:
        return problem
    if len(clue) > MAX_HOUSE_CLUE:
        return f"clue {clue!r} has {len(clue)} characters (at most {MAX_HOUSE_CLUE})"
    first = next((ch for ch in clue if ch.isalnum()), "")
    if first.islower() and not clue.lstrip("\"'(").startswith("___"):
        return f"clue {clue!r} starts in lower case"  # after any quotes or dots too
    if clue.endswith(".") and not _ABBREVIATION_END.search(clue):
        return f"clue {clue!r} ends with a full stop"
    leak = clue_leaks(clue, answer, [surface])
    if leak:
        return f"clue {clue!r} gives the answer away ({leak})"
    return None


def read_house(folder=None) -> dict[str, HouseEntry]:
    """Every entry of the house list, by answer.

    Parameters
    ----------
    folder : str or os.PathLike, optional
        A folder of ``*.txt`` house files (default: `default_house_dir`).
        Files are read in name order.

    Returns
    -------
    dict
        ``{ANSWER: HouseEntry}``; an answer in several files has their
        clues in file order and the highest score.

    Raises
    ------
    InputError
        From `read_house_file`, or when the folder is missing.
    """
    folder = Path(folder) if folder is not None else default_house_dir()
    if not folder.is_dir():
        raise InputError("house list folder not found", folder)
    return _merged(sorted(folder.glob("*.txt")), scored=True)


def read_house_clues(folder=None) -> dict[str, HouseEntry]:
    """The house clues (``clues/*.txt`` of the house folder), by answer; their ``score`` is None.

    Raises
    ------
    InputError
        From `read_house_file`.  A house folder with no ``clues`` folder
        has no house clues.
    """
    folder = (Path(folder) if folder is not None else default_house_dir()) / "clues"
    return _merged(sorted(folder.glob("*.txt")), scored=False)


def _merged(paths, scored: bool) -> dict[str, HouseEntry]:
    """The entries of ``paths`` by answer: an answer in several has their clues in file order, the highest score."""
    merged: dict[str, HouseEntry] = {}
    for path in paths:
        for e in read_house_file(path, scored):
            old = merged.get(e.answer)
            if old is not None:
                clues = old.clues + tuple(c for c in e.clues if c not in old.clues)
                score = max(old.score, e.score) if scored else None
                e = HouseEntry(e.answer, old.surfaces + e.surfaces, score, clues, old.categories + e.categories,
                               old.where)  # fmt: skip
            merged[e.answer] = e
    return merged
