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

import Stemmer  # PyStemmer

from .cluefile import clue_level
from .errors import InputError, numbered_lines
from .fileio import read_text
from .wordlist import normalise

__all__ = ["ABBREVIATION_SIGNAL", "Blocklist", "DEFAULT_BLOCKLIST", "clue_leaks", "clue_words", "default_blocklist_path", "load_blocklists"]

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


def _fold_word(part: str) -> str:
    """A clue word in A-Z capitals ("" if nothing is left)."""
    w = part.upper() if part.isascii() else _fold_or_empty(part)
    return w if w.isalpha() else re.sub(r"[^A-Z]", "", w)


@lru_cache(maxsize=1 << 16)
def clue_words(clue: str) -> tuple[str, ...]:
    """The words of ``clue``, normalised to A-Z; a hyphenated or apostrophed word
    also gives its parts ("bright-colored": BRIGHTCOLORED, BRIGHT, COLORED)."""
    words = []
    for token in _WORD.findall(clue):
        parts = [token] + (_JOINER.split(token) if _JOINER.search(token) else [])
        words += filter(None, map(_fold_word, parts))
    return tuple(words)


@lru_cache(maxsize=1 << 16)
def _run_words(clue: str) -> tuple[str, ...]:
    """The words of ``clue`` in reading order, a hyphenated word as its parts
    ("Et alia": ET, ALIA; "Ash-grey": ASH, GREY), for the rules that read
    words in a row."""
    return tuple(w for token in _WORD.findall(clue) for w in map(_fold_word, _JOINER.split(token)) if w)


_SNOWBALL = Stemmer.Stemmer("english")


@lru_cache(maxsize=1 << 18)
def _snowball(word: str) -> str:
    """The Snowball (Porter 2) stem of ``word``, in capitals: DAMNABLY and DAMNABLE give DAMN."""
    return _SNOWBALL.stemWord(word.lower()).upper()


@lru_cache(maxsize=1 << 12)
def _targets(answer: str, related: tuple) -> tuple[frozenset[str], frozenset[str]]:
    """The words a clue of ``answer`` must not use, and their stems by spelling."""
    targets = {answer}
    for text in related:
        for w in clue_words(text):
            if len(w) >= 3:
                targets.add(w)
    target_stems: set[str] = set()
    for t in targets:
        target_stems |= _stems(t)
    return frozenset(targets), frozenset(target_stems)


@lru_cache(maxsize=1 << 12)
def _snowball_targets(targets: frozenset) -> frozenset[str]:
    """The Snowball stems (of three letters or more) of ``targets``."""
    return frozenset(x for x in map(_snowball, targets) if len(x) >= 3)


#: Words by which a clue says its answer is short for something: "Abbr.",
#: "for short", "briefly", "initially", "informally", "(abbr.)", a poet's
#: clipping ("Often, in poems" for OFT, "Over, poetically" for OER), or an
#: abbreviated word of its own ("Org. for docs", "Sch. in Cambridge").
ABBREVIATION_SIGNAL = re.compile(r"\babbr|\bfor short\b|\bbriefly\b|\binitially\b|\bin brief\b|\binformally\b|"
                                 r"\bacronym|\binitialism|\bshort for\b|\bpoetically\b|\bin (?:poems|poetry|verse)\b|"
                                 r"\bto poets\b", re.IGNORECASE)
_ABBREVIATED_WORD = re.compile(r"\b[A-Z][a-z]{0,4}\.(?=[\s,]|$)")


@lru_cache(maxsize=1 << 16)
def _signals_shortening(clue: str) -> bool:
    """Whether ``clue`` says its answer is short for something (`ABBREVIATION_SIGNAL`)."""
    return bool("." in clue and _ABBREVIATED_WORD.search(clue) or ABBREVIATION_SIGNAL.search(clue))


_ARTICLES = frozenset(("A", "AN", "THE"))
_VOWELS = frozenset("AEIOU")


def _is_subsequence(short: str, long: str) -> bool:
    it = iter(long)
    return all(ch in it for ch in short)


def _spelled_in_a_row(words: tuple[str, ...], answer: str) -> str | None:
    """Words in a row that spell ``answer`` (A NEW for ANEW) or begin with
    it past their first word (ET ALIA for ETAL), joined by spaces."""
    for i in range(len(words)):
        run = words[i]
        if not answer.startswith(run):
            continue
        for j in range(i + 1, len(words)):
            run += words[j]
            if run == answer or (run.startswith(answer) and len(answer) > len(run) - len(words[j])):
                return " ".join(words[i : j + 1])
            if len(run) > len(answer) + 10:
                break
    return None


def _initials(words: tuple[str, ...], answer: str) -> str | None:
    """Two or more words in a row whose first letters spell ``answer``."""
    for i in range(len(words) - 1):
        j = i + len(answer)
        if words[i][0] == answer[0] and j <= len(words) and "".join(w[0] for w in words[i:j]) == answer:
            return " ".join(words[i:j])
    return None


def clue_leaks(clue: str, answer: str, related=()) -> str | None:
    """The clue word (or words) that give the answer away, or None.

    The one give-away rule of every clue from every source (the house list,
    the clues made from WordNet, clue shards, the user's ``clue_file``).

    Parameters
    ----------
    clue : str
        The clue, with or without its level tag (``hard: ``).
    answer : str
        The normalised answer (``CAMERALENS``).
    related : iterable of str
        Other words the clue must not use: the words of a multi-word answer
        (``camera lens``), for an inflected form its base (``grip``), a
        WordNet word's derivational relatives (``dosage`` for DOSE).  Any
        text; normalised here, and words shorter than 3 letters ignored.

    Returns
    -------
    str or None
        What gives the answer away (normalised), by the first rule that holds:

        * a clue word is the answer or a related word, or shares its stem:
          the same Snowball stem (DAMNABLE for DAMNABLY), one inflectional
          ending apart (GRIPPING for GRIPPED), or one is the other plus
          -s/-d/-ed/-ing/-r/-er/-est/-ly/-ness/-less/-ful/-like/-ish/-ment
          (PLEA for PLEAD, TEE for TEED), or one of six letters or more less
          its last letter begins one two letters longer or more (BALLET for
          BALLERINA);
        * a clue word ends with the answer (NECKTIE for TIE, CARTOON for
          TOON), or begins with it (THAILAND for THAI, NARCOTICS for NARC),
          unless the clue signals a shortening ("Fraternity, for short" for
          FRAT; see `ABBREVIATION_SIGNAL`);
        * the answer begins or ends with a clue word of four letters or more
          (RACKS for HAYRACKS, REPORTED for UNREPORTED), or a clue word holds
          a target of five letters or more (DAYDREAM for DREAM);
        * clue words in a row spell the answer (A NEW for ANEW, ET ALIA for ETAL);
        * with no shortening signalled, the clue spells out what the answer
          abbreviates: the initials of words in a row (MILES PER HOUR for
          MPH), or, in a clue of one or two words, one word that holds the
          answer's letters in order from its first letter to its last, where
          the answer has no vowel after its first letter (HOURS for HRS,
          "Limited company" for LTD) or is the clue's only word and begins
          with the same two letters (DOSAGE for DOSE, GYMNASIUMS for GYMS).

    Notes
    -----
    O(c * t) for c clue words and t targets, each a few set operations.

    Examples
    --------
    >>> clue_leaks("A lens that focuses the image in a camera", "CAMERALENS", ["camera lens"])
    'LENS'
    >>> clue_leaks("Held fast or firmly", "GRIPPED", ["grip"]) is None
    True
    >>> clue_leaks("Necktie", "TIE"), clue_leaks("Et alia", "ETAL"), clue_leaks("Hours", "HRS")
    ('NECKTIE', 'ET ALIA', 'HOURS')
    >>> clue_leaks("Fraternity, for short", "FRAT") is None
    True
    """
    targets, target_stems = _targets(answer, tuple(related))
    heads = {t[:2] for t in targets}
    clue = clue_level(clue)[1]
    words = clue_words(clue)
    for w in words:
        if w in targets or _stems(w) & target_stems:
            return w
        if w[:2] in heads and len(w) >= 3 and _snowball(w) in _snowball_targets(targets):
            return w  # a stem keeps its word's first letters: only words that begin alike are stemmed
        for t in targets:
            short, long = (w, t) if len(w) < len(t) else (t, w)
            if len(short) >= 3 and long.startswith(short) and short not in _FUNCTION_WORDS:
                if long[len(short) :] in _AFFIXES:
                    return w  # PLEA for PLEAD, TIE for TIED
                if len(short) >= 5 and long != w:
                    return w  # AFGHAN for AFGHANISTAN
            if len(short) >= 6 and len(long) >= len(short) + 2 and long.startswith(short[:-1]):
                return w  # BALLET for BALLERINA: all but its last letter begins the longer word
            if len(t) >= 5 and t in w and not (w.startswith(t) and _signals_shortening(clue)):
                return w  # ABORTION for ABORT, DAYDREAM for DREAM, UNCERTAINTY for CERTAIN
        if len(answer) >= 3 and w != answer:
            if w.endswith(answer):
                return w  # NECKTIE for TIE
            if w.startswith(answer) and not _signals_shortening(clue):
                return w  # THAILAND for THAI
        if len(w) >= 4 and w != answer and (answer.startswith(w) or answer.endswith(w)):
            return w  # RACKS for HAYRACKS, GROCERIES for GREENGROCERIES, SEMI for SEMIFINAL
    n = len(answer)
    if not any(len(w) < n and answer.startswith(w) for w in words) and 4 < len(words) < n:
        return None  # no words in a row can spell the answer or its initials, nor one word expand it
    run = _run_words(clue)
    spelled = _spelled_in_a_row(run, answer)
    if spelled:
        return spelled
    if n >= 2 and not _signals_shortening(clue):
        initials = _initials(run, answer)
        if initials:
            return initials
        content = [w for w in run if w not in _ARTICLES]
        if len(content) <= 2:
            for w in content:
                if len(w) >= n + 2 and w[0] == answer[0] and w[-1] == answer[-1] and _is_subsequence(answer, w):
                    if not _VOWELS & set(answer[1:]) or len(content) == 1 and w[:2] == answer[:2]:
                        return w  # HOURS for HRS, "Limited company" for LTD; "Dosage" for DOSE
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
