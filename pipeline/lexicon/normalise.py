"""From WordNet's spellings to grid answers, and the junk that never becomes one.

An answer is a surface form folded to A-Z (`pipeline.model.wordlist.normalise`:
``ice_cream`` is ICECREAM).  Some surfaces fold to something no solver
would accept, and are left out of the word list, each with its reason
(`JUNK`), rather than scored down:

* taxonomic names (``genus_Rissa``, RISSA) and the epithets of binomials
  (``Otis_tarda`` gives no TARDA, ``Clitocybe_irina`` no IRINA);
* glued definitions: a multi-word noun that merely describes a thing the
  synset names in one word (``capital_of_Alaska`` beside ``Juneau``,
  ``honorary_society`` beside ``academy``);
* possessives, and variants of a lemma with a possessive or plural s
  (``boilers_suit`` beside ``boilersuit``: BOILERSSUIT);
* abbreviations of a synonym (``stat_mi`` beside ``statute_mile``: STATMI)
  and inflections of abbreviations (DGS from ``dg``);
* inflected forms no dictionary lists (KINS, AALIIS: `attested`), and
  words met only inside a name or example that are no English word (NAU
  from "Umma Tameer-e-Nau", SGA from "SGA infant": `known_word`).
"""

from __future__ import annotations

import re

from ..model.wordlist import normalise as fold
from .sources import Synset

__all__ = ["FUNCTION_WORDS", "JUNK", "Normaliser", "attested", "is_binomial", "known_word", "lemma_junk", "tokens"]

#: Why a candidate is left out; the build's ``rejected`` counts and
#: ``xw wordlist grade`` use these words.
JUNK = {
    "taxon": "a taxonomic name (genus, family, ...)",
    "epithet": "the epithet of a taxonomic binomial",
    "glued": "a glued definition: the synset names the thing in one word",
    "possessive": "a possessive",
    "variant": "a possessive or plural variant of another lemma of its synset",
    "abbreviation": "an abbreviation of a synonym, or an inflected abbreviation",
    "unattested": "an inflected form no dictionary lists",
    "unknown-word": "not an English word (only inside a name or example)",
    "offensive": "a slur or obscenity",
    "blocked": "on the blocklist",
    "no-clue": "no clue passes the leak and blocklist checks",
}
#: Words that glue a definition together ("capital of Alaska").
FUNCTION_WORDS = frozenset("of the a an for and by from to at in on with or".split())
# An inflected form needs SCOWL to list it at this level or below (70: the
# big dictionaries), or this Zipf frequency (a word newer than SCOWL).
_ATTESTED_LEVEL = 70
_ATTESTED_ZIPF = 3.0
# A word met only in a fill-in-the-blank needs SCOWL to list it (any kind)
# at this level or below, or this Zipf frequency.
_KNOWN_LEVEL = 60
_KNOWN_ZIPF = 3.0


class Normaliser:
    """``norm(surface)``: the answer a WordNet surface spells, or None.

    None when it cannot be folded to A-Z (digits, other scripts) or its
    length is outside ``min_length..max_length``.  Cached: the build asks
    for the same surfaces many times.

    Examples
    --------
    >>> n = Normaliser(3, 15)
    >>> n("ice_cream"), n("crème_brûlée"), n("ox"), n("B-52")
    ('ICECREAM', 'CREMEBRULEE', None, None)
    """

    def __init__(self, min_length: int, max_length: int):
        self.min_length = min_length
        self.max_length = max_length
        self._cache: dict[str, str | None] = {}

    def __call__(self, surface: str) -> str | None:
        answer = self._cache.get(surface, "")
        if answer == "":
            try:
                answer = fold(surface.replace("_", " "))
            except ValueError:
                answer = None
            if not answer or not self.min_length <= len(answer) <= self.max_length:
                answer = None
            self._cache[surface] = answer
        return answer


def tokens(surface: str) -> list[str]:
    """The words of a WordNet surface: ``capital_of_Alaska`` -> capital, of, Alaska."""
    return [t for t in re.split(r"[_\s]+", surface) if t]


def is_binomial(surface: str, genera: set[str]) -> bool:
    """A Latin name of a species: a genus WordNet names (``genus_Otis``) and
    lower-case epithets (``Otis_tarda``, ``Clitocybe_irina``; not
    ``European_lemming``)."""
    parts = tokens(surface)
    return len(parts) in (2, 3) and parts[0] in genera and all(p.isalpha() and p.islower() for p in parts[1:])


def lemma_junk(surface: str, syn: Synset, tagged: int, norm: Normaliser, genera: set[str]) -> str | None:
    """Why the lemma ``surface`` of ``syn`` makes no answer (a `JUNK` key), or None.

    ``tagged`` is the lemma's count of sense-tagged uses (WordNet's
    ``index`` files): a glued-looking noun that people do use (``board of
    directors``) stays.
    """
    if syn.taxon:
        return "taxon"
    if is_binomial(surface, genera):
        return "taxon"
    if "'s" in surface or "s'" in surface:
        return "possessive"
    parts = tokens(surface)
    answer = norm(surface)
    for other in syn.words:
        if other == surface:
            continue
        if answer and norm(other) and len(norm(other)) == len(answer) - 1 and _possessive_remnant(surface, other):
            return "variant"  # boilers_suit beside boilersuit, flowers-of-an-hour beside flower-of-an-hour
        other_parts = tokens(other)
        if (
            len(parts) > 1
            and len(other_parts) == len(parts)
            and other_parts != parts
            and all(o.lower().startswith(p.lower()) for p, o in zip(parts, other_parts))
        ):
            return "abbreviation"  # stat_mi beside statute_mile
    if syn.pos == "noun" and len(parts) > 1 and tagged == 0 and syn.words[0] != surface:
        earlier = syn.words[: syn.words.index(surface)]
        if any(p.lower() in FUNCTION_WORDS for p in parts) or any("_" not in w and "-" not in w for w in earlier):
            return "glued"  # capital_of_Alaska beside Juneau, Father_of_Radio beside de_Forest
    return None


def _possessive_remnant(surface: str, other: str) -> bool:
    """``boilers_suit`` is ``boilersuit`` with a possessive s (an s before a
    word break), ``flowers-of-an-hour`` is ``flower-of-an-hour`` with a plural one."""
    s, o = surface.lower(), other.lower().replace("_", "").replace("-", "")
    for m in re.finditer(r"s[_-]", s):
        if (s[: m.start()] + s[m.start() + 1 :]).replace("_", "").replace("-", "") == o:
            return True
    return False


def attested(answer: str, scowl, zipf: float) -> bool:
    """Whether an inflected form is English: listed by SCOWL (level 70 or below) or common.

    KINS (SCOWL 80 only, Zipf 2.1) and AALIIS (absent) are not; TREES and
    GRIPPED are.
    """
    level = scowl.level(answer, ("words",))
    return (level is not None and level <= _ATTESTED_LEVEL) or zipf >= _ATTESTED_ZIPF


def known_word(answer: str, scowl, zipf: float) -> bool:
    """Whether a word seen only in a fill-in-the-blank is one solvers know:
    in a SCOWL list of any kind at level 60 or below, or common."""
    level = scowl.level(answer)
    return (level is not None and level <= _KNOWN_LEVEL) or zipf >= _KNOWN_ZIPF
