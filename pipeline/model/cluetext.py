"""Clue text rules shared by every stage that writes or chooses clues.

* The leak rule (`clue_leaks`): a clue never holds its answer, a word of a
  multi-word answer, or an obvious inflection of one.
* The blocklist (`Blocklist`): words no answer or clue of a book may be,
  the breakfast-table test.  The packaged default is
  ``pipeline/data/blocklist.txt``; users give their own files.
"""

from __future__ import annotations

import re
from functools import lru_cache
from importlib import resources
from pathlib import Path

from .errors import InputError, numbered_lines
from .fileio import read_text
from .wordlist import normalise

__all__ = ["Blocklist", "DEFAULT_BLOCKLIST", "clue_leaks", "clue_words", "default_blocklist_path", "load_blocklists"]

_WORD = re.compile(r"[^\W\d_]+(?:['\u2019-][^\W\d_]+)*")
_JOINER = re.compile(r"[-'\u2019]")



_STEM_SUFFIXES = (("ies", "y"), ("ied", "y"), ("ier", "y"), ("iest", "y"), ("es", ""), ("s", ""),
                  ("ed", ""), ("ing", ""), ("er", ""), ("ers", ""), ("est", ""), ("ings", ""))  # fmt: skip
_FUNCTION_WORDS = frozenset("FOR THE AND ARE BUT NOT HER HIS ITS OUR YOU ANY OFF OUT ALL WHO HOW WHY "
                            "CAN NOR YET ONE TWO HAS WAS SHE HIM THEY THEM".split())  # fmt: skip
_AFFIXES = frozenset("S ES D ED ING R ER ERS EST IER IEST LY NESS LESS FUL LIKE ISH MENT".split())


@lru_cache(maxsize=1 << 18)
def _stems(word: str) -> frozenset[str]:
    """``word`` (capitals) and what stripping one inflectional ending leaves."""
    out = {word}
    low = word.lower()
    for suffix, repl in _STEM_SUFFIXES:
        if low.endswith(suffix) and len(low) - len(suffix) >= 2:
            base = (low[: -len(suffix)] + repl).upper()
            if len(base) >= 3 and (suffix in ("s", "es") or base not in _FUNCTION_WORDS):  # not FOREST -> FOR
                out.add(base)
                if suffix not in ("s", "es") and len(base) >= 4 and base[-1] == base[-2]:
                    out.add(base[:-1])  # GRIPPED -> GRIPP -> GRIP
            if suffix in ("ed", "ing", "er", "est") and not repl and len(base) >= 2:
                out.add(base + "E")  # AGED -> AGE, TOED -> TOE, MOVING -> MOVE
    return frozenset(out)


_SIBILANT = ("S", "X", "Z", "CH", "SH", "O")


_VERB_ENDINGS = ("ED", "ING")


@lru_cache(maxsize=1 << 18)
def _bases(w: str, endings=_VERB_ENDINGS + ("ER", "ERS", "EST")) -> frozenset[str]:
    """The words ``w`` can be an inflection of, by English spelling:
    SPICES and SPICED of SPICE (never of SPIC: it would give SPICS and
    SPICKED), STOPPED of STOP, CRIES and CRIED of CRY.  Stricter than
    `_stems`, which the leak rule uses: a blocked word must not block the
    innocent words spelled near it.  ``endings`` are the endings besides
    -S that are tried (an -ER can make a new word: PEER is no form of PEE)."""
    out = set()
    if w.endswith("IES") or w.endswith("IED"):
        out.add(w[:-3] + "Y")
    if w.endswith("ES") and w[:-2].endswith(_SIBILANT):
        out.add(w[:-2])
    if w.endswith("S") and not w.endswith("SS"):
        out.add(w[:-1])
    for suffix in endings:
        if w.endswith(suffix) and len(w) - len(suffix) >= 2:
            base = w[: -len(suffix)]
            if base.endswith("CK"):
                out.add(base[:-1])  # PANICKED of PANIC
            elif not base.endswith(("C", "E")):
                out.add(base)
                if len(base) >= 3 and base[-1] == base[-2] and base[-1] not in "LS":
                    out.add(base[:-1])  # STOPPED of STOP
            out.add(base + "E")  # SPICED of SPICE, MOVING of MOVE
    if w.endswith("D") and len(w) >= 4 and w[-2] == "E":
        out.add(w[:-1])  # AGED of AGE
    out.discard(w)
    return frozenset(b for b in out if len(b) >= 2)


def _fold_or_empty(token: str) -> str:
    try:
        return normalise(token)
    except ValueError:
        return ""


@lru_cache(maxsize=1 << 16)
def clue_words(clue: str) -> tuple[str, ...]:
    """The words of ``clue``, normalised to A-Z; a hyphenated or apostrophed word
    also gives its parts ("bright-colored": BRIGHTCOLORED, BRIGHT, COLORED)."""
    words = []
    for token in _WORD.findall(clue):
        parts = [token] + (re.split(r"[-'\u2019]", token) if _JOINER.search(token) else [])
        for part in parts:
            try:
                norm = part.upper() if part.isascii() else normalise(part)
            except ValueError:
                continue
            norm = re.sub(r"[^A-Z]", "", norm)
            if norm:
                words.append(norm)
    return tuple(words)


@lru_cache(maxsize=1 << 12)
def _targets(answer: str, related: tuple) -> tuple[frozenset[str], frozenset[str]]:
    """The words a clue of ``answer`` must not use, and their stems."""
    targets = {answer}
    for text in related:
        for w in clue_words(text):
            if len(w) >= 3:
                targets.add(w)
    target_stems: set[str] = set()
    for t in targets:
        target_stems |= _stems(t)
    return frozenset(targets), frozenset(target_stems)


def clue_leaks(clue: str, answer: str, related=()) -> str | None:
    """The clue word that gives the answer away, or None.

    Parameters
    ----------
    clue : str
    answer : str
        The normalised answer (``CAMERALENS``).
    related : iterable of str
        Other words the clue must not use: the words of a multi-word answer
        (``camera lens``), and for an inflected form its base (``grip``).
        Any text; normalised here, and words shorter than 3 letters ignored.

    Returns
    -------
    str or None
        The offending clue word (normalised), if a clue word equals the
        answer or one of the related words, or is an obvious inflection of
        one (they share a stem after stripping -s/-es/-ed/-ing/-er/-est), or
        one is the other plus -s/-d/-ed/-ing/-r/-er/-est/-ly/-ness/-less/
        -ful/-like/-ish/-ment (PLEA for PLEAD, TIE for TIED), or the shorter,
        of five letters or more, begins the longer (ABORTION for ABORT,
        AFGHAN for AFGHANISTAN), or a clue word holds a target of five
        letters or more (DAYDREAM for DREAM), or the answer ends with a
        clue word of five letters or more (GROCERIES for GREENGROCERIES).

    Notes
    -----
    O(c * t) for c clue words and t targets, each a few set operations.

    Examples
    --------
    >>> clue_leaks("A lens that focuses the image in a camera", "CAMERALENS", ["camera lens"])
    'LENS'
    >>> clue_leaks("Held fast or firmly", "GRIPPED", ["grip"]) is None
    True
    """
    targets, target_stems = _targets(answer, tuple(related))
    for w in clue_words(clue):
        if w in targets or _stems(w) & target_stems:
            return w
        for t in targets:
            short, long = (w, t) if len(w) < len(t) else (t, w)
            if len(short) >= 3 and short not in _FUNCTION_WORDS and long.startswith(short):
                if long[len(short) :] in _AFFIXES or len(short) >= 5:
                    return w  # PLEA for PLEAD, TIE for TIED; ABORTION for ABORT, AFGHAN for AFGHANISTAN
            if len(t) >= 5 and t in w:
                return w  # DAYDREAM for DREAM, UNCERTAINTY for CERTAIN
        if len(w) >= 5 and w != answer and answer.endswith(w):
            return w  # GROCERIES for GREENGROCERIES, HORSE for SEAHORSE
    return None




# --------------------------------------------------------------------------
# The blocklist

#: The name that stands for the packaged list in ``blocklists`` settings.
DEFAULT_BLOCKLIST = "default"


class Blocklist:
    """Words that no answer and no clue of a book may be (the breakfast-table test).

    Parameters
    ----------
    words : iterable of str
        Blocked words; an answer or clue word is blocked when it is one of
        them or an obvious inflection of one (FUCKING for FUCK).
    inside : iterable of str
        Blocked also inside longer words (MOTHERFUCKER).

    Notes
    -----
    Entries are normalised to A-Z, so ``blow job`` blocks BLOWJOB and the
    clue words "blow job".  Checks are O(w) set lookups for w words.

    Examples
    --------
    >>> b = Blocklist(["damn"], inside=["crap"])
    >>> b.blocks_answer("DAMNED"), b.blocks_answer("CRAPSHOOT"), b.blocks_answer("DAME")
    ('DAMNED', 'CRAPSHOOT', None)
    >>> b.blocks_clue("Well, damn it")
    'DAMN'
    """

    def __init__(self, words=(), inside=()):
        self.words = frozenset(normalise(w) for w in words) - {""}
        self.inside = frozenset(normalise(w) for w in inside) - {""}
        self._seen: dict[str, bool] = {}

    def __bool__(self) -> bool:
        return bool(self.words or self.inside)

    def _blocked(self, word: str) -> bool:
        hit = self._seen.get(word)
        if hit is None:
            hit = bool(word in self.words or _bases(word) & self.words or any(bad in word for bad in self.inside))
            self._seen[word] = hit
        return hit

    def lists(self, word: str) -> bool:
        """Whether ``word`` is on the list, a plural or verb form of a word on
        it, or holds a word blocked inside longer ones; unlike `blocks_answer`
        an -ER or -EST word is not read as a form of a listed word (PEER is
        no form of PEE, TITTER none of TIT)."""
        return bool(word in self.words or _bases(word, _VERB_ENDINGS) & self.words
                    or any(bad in word for bad in self.inside))

    def blocks_answer(self, answer: str, surfaces=()) -> str | None:
        """The blocked word in ``answer`` (or in one of its written forms), or None."""
        if self._blocked(answer):
            return answer
        for text in surfaces:
            for w in clue_words(text):
                if self._blocked(w):
                    return w
        return None

    def blocks_clue(self, clue: str) -> str | None:
        """The blocked word of ``clue`` (a word, or two adjacent words run together), or None.

        Only whole words are run together: the S of "Gershwin's" and "hit"
        are no blocked word.
        """
        for w in clue_words(clue):
            if self._blocked(w):
                return w
        whole = [_fold_or_empty(t) for t in _WORD.findall(clue)]
        for a, b in zip(whole, whole[1:]):
            if a and b and a + b in self.words:
                return a + b
        return None

    @classmethod
    def read(cls, path) -> Blocklist:
        """Read a blocklist file: one word or phrase a line, ``#`` comments,
        ``*word`` for a word also blocked inside longer ones.

        Raises
        ------
        InputError
            Naming the file and line of an entry that is not letters.
        """
        words, inside = [], []
        for lineno, raw in numbered_lines(read_text(path)):
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            target = inside if line.startswith("*") else words
            try:
                norm = normalise(line.lstrip("*"))
            except ValueError as e:
                raise InputError(str(e), path, lineno) from None
            if not norm:
                raise InputError(f"no letters in blocklist entry {line!r}", path, lineno)
            target.append(norm)
        return cls(words, inside)


def default_blocklist_path() -> Path:
    """The packaged blocklist, ``pipeline/data/blocklist.txt``."""
    return Path(str(resources.files("pipeline") / "data" / "blocklist.txt"))


def load_blocklists(names) -> Blocklist:
    """One Blocklist from several files; ``"default"`` names the packaged list.

    An empty list gives an empty Blocklist (nothing blocked).
    """
    words: set[str] = set()
    inside: set[str] = set()
    for name in names:
        path = default_blocklist_path() if name == DEFAULT_BLOCKLIST else Path(name)
        if not path.is_file():
            raise InputError("blocklist file not found", path)
        b = Blocklist.read(path)
        words |= b.words
        inside |= b.inside
    return Blocklist(words, inside)
