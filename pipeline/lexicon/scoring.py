"""The word list's score: what an entry is worth as fill, 0-100.

=========  ==========================================================
score      meaning
=========  ==========================================================
50-100     fine in a daily paper; the higher, the more familiar
30-49      use when a corner needs it
0-29       avoid: a fill takes it only when nothing else fits
=========  ==========================================================

An entry is scored by how well solvers know it in the sense its clue
uses: an answer is worth what its best *clued* reading is worth (the build
keeps a reading's score only if one of its clues survives), so IRINA, whose
frequency comes from the first name, is not scored as the mushroom epithet
WordNet has, and YAY is not scored as the Tai language.  Each reading gets
a score from the signals of its kind:

* ``house``: an entry of the hand-written house list: its hand-set score.
* ``word``: a lower-case WordNet lemma.  Its familiarity is the mean of its
  wordfreq Zipf frequency and the Zipf value SCOWL's level stands for
  (`SCOWL_ZIPF`: level 10, the most everyday words, as Zipf 5; level 50,
  the words most dictionaries have, as 3; absent as 0.3).
* ``name``: a capitalised lemma (a place, a person, a language): the
  *lower* of its Zipf frequency and SCOWL's ``upper``/``proper-names``
  level, since wordfreq cannot tell Yay the language from yay the cheer.
* ``abbreviation``: an all-capital lemma (DNA), as a word with SCOWL's
  abbreviation level, capped at `ABBREVIATION_CAP`: the abbreviations a
  daily paper prints are the house list's.
* ``phrase``: a multi-word lemma.  wordfreq has no phrase counts, so a
  phrase is as familiar as its least familiar word, less half a Zipf point
  per extra word, and capped: at `PHRASE_CAP` (38; `VERB_PHRASE_CAP` for
  verb phrases) without a use in WordNet's sense-tagged corpus, at
  `TAGGED_PHRASE_CAP` with one.  Multi-word names and species' common names
  have caps of their own.  The lively phrases a grid wants are the house
  list's.
* ``inflection``: a plural, verb form or comparative, scored from its own
  frequency and SCOWL level, or up to `BASE_LIFT` points more from its
  base's when short (a solver who knows PORE knows PORED), less
  `INFLECTION_PENALTIES` (a plural 3, an -ING form 8: constructors rate a
  base form above a form made to fit).
* ``blank``: a word WordNet uses only in examples and names (THE, DONT,
  the ALAN of "Alan Turing"), from its frequency and best SCOWL level.

Familiarity ``F`` (on the Zipf scale) becomes points as ``50 + 14 * (F -
2.9)``, so a word as familiar as Zipf 2.9 (about one use in a million words)
at SCOWL level 50 scores 50.  Then penalties (each named in ``grades.tsv``):

* a long word loses `LONG_PENALTY` points a letter from `LONG_FROM` on (a
  long slot has many candidates: only the lively ones are fine there), and
  a long word made from another with a productive prefix or suffix
  (REASSERT, LAWLESSNESS) `DERIVED_PENALTY`;
* `FLAG_PENALTIES`, for what most of a word's senses are: in a technical
  field's jargon (WordNet's topic domains, `TECHNICAL_DOMAINS`), failing
  the breakfast-table test (WordNet's hyponyms of disease, sex, bodily
  waste, drugs and violence, and the hand-written list of grim, crude and
  unkind words in ``pipeline/data/unpleasant.txt``), labelled archaic; and
  any offensive sense.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..model.wordlist import normalise
from .normalise import FUNCTION_WORDS

__all__ = [
    "ABBREVIATION_CAP",
    "BASE_LIFT",
    "BASE_LIFT_UP_TO",
    "BREAKFAST_CAP",
    "INFLECTION_PENALTIES",
    "NAME_PHRASE_CAP",
    "OFFENSIVE_PENALTY",
    "PHRASE_CAP",
    "SCOWL_ZIPF",
    "SPECIES_CAP",
    "TAGGED_PHRASE_CAP",
    "TECHNICAL_DOMAINS",
    "FLAG_PENALTIES",
    "Reading",
    "Scorer",
    "band",
    "familiarity",
    "points",
]

#: The Zipf frequency each SCOWL level stands for.
SCOWL_ZIPF = {10: 5.0, 20: 4.4, 35: 3.7, 40: 3.4, 50: 3.0, 55: 2.6, 60: 2.3, 70: 1.8, 80: 1.2, 95: 0.6}
NOT_IN_SCOWL = 0.3
#: Points an inflected form loses, by form: a constructor rates the base form
#: above a form made to fit, and an -ING or -ER form least.
INFLECTION_PENALTIES = {
    "pl": (3, "a plural"),
    "s": (4, "a verb's -s form"),
    "past": (5, "a past tense"),
    "part": (5, "a past participle"),
    "ing": (8, "an -ing form"),
    "er": (6, "a comparative"),
    "est": (6, "a superlative"),
}
#: An inflection of up to BASE_LIFT_UP_TO letters may gain up to BASE_LIFT
#: points from its base's familiarity: the judges of
#: ``pipeline/data/calibration.tsv`` call PORED, TINES, ALOES fine
#: (``bench/calibrate.py``); longer plurals of abstract nouns (CRUELTIES)
#: are poor fill however well their base is known.
BASE_LIFT = 7
BASE_LIFT_UP_TO = 8
PHRASE_CAP = 38
VERB_PHRASE_CAP = 32
TAGGED_PHRASE_CAP = 45
ABBREVIATION_CAP = 45
NAME_PHRASE_CAP = 35
TAGGED_NAME_PHRASE_CAP = 45
SPECIES_CAP = 25
OFFENSIVE_PENALTY = 25
#: A word on the breakfast-table list is corner fill however common it is
#: (MORON, ABUSE): it scores at most this, after its penalty.
BREAKFAST_CAP = 45
TECHNICAL_PENALTY = 6
DERIVED_PENALTY = 5
LONG_PENALTY = 2  # points a word loses per letter over LONG_FROM - 1: a long slot has many candidates
LONG_FROM = 8
#: Topic domains whose words are jargon to most solvers (WordNet's ``;c`` pointers).
TECHNICAL_DOMAINS = frozenset(
    "medicine pathology anatomy biology biochemistry chemistry physics genetics zoology botany physiology "
    "pharmacology geology mineralogy astronomy mathematics statistics electronics microbiology immunology "
    "neurology psychiatry embryology histology cytology endocrinology ophthalmology dermatology oncology "
    "cardiology urology gynecology obstetrics radiology biophysics crystallography thermodynamics mechanics "
    "electromagnetism nuclear_physics organic_chemistry meteorology geometry algebra trigonometry calculus "
    "topology logic linguistics phonetics phonology grammar computer_science".replace("_", " ").split(" ")
) | {"nuclear physics", "organic chemistry", "computer science"}
#: What a word's senses can earn it, in points off: most of its senses
#: offensive, in a technical field's jargon (WordNet's topic domains), failing
#: the breakfast-table test (disease, sex, bodily waste, drugs, violence:
#: WordNet's hyponyms of those), or labelled archaic; or the word being on the
#: hand-written breakfast-table list.
FLAG_PENALTIES = {
    "offensive": (OFFENSIVE_PENALTY, "an offensive sense"),
    "technical": (TECHNICAL_PENALTY, "jargon of a technical field"),
    "unpleasant": (10, "the breakfast-table test (disease, sex, bodily waste, drugs, violence)"),
    "breakfast": (15, "the breakfast-table list (grim, crude or unkind)"),
    "archaic": (8, "archaic"),
}
_DERIVED_LENGTH = 8  # a derived word this long or longer loses DERIVED_PENALTY
_PREFIXES = ("counter", "under", "inter", "super", "multi", "anti", "semi", "over", "non", "dis", "mis", "pre", "out",
             "re", "un")  # fmt: skip
_SUFFIXES = (("ization", ("ize",)), ("ness", ("", "y")), ("ily", ("y",)), ("ly", ("", "le", "e")),
             ("ity", ("", "e")), ("ment", ("",)), ("ism", ("", "e")), ("ist", ("", "e", "y")),
             ("ize", ("", "e")), ("ise", ("", "e")), ("able", ("", "e")), ("ish", ("", "e")), ("like", ("",)),
             ("wise", ("",)), ("ship", ("",)), ("hood", ("",)), ("less", ("",)), ("ful", ("",)))  # fmt: skip
_PER_EXTRA_WORD = 0.5  # Zipf a phrase loses per word after the first
_WORDS = ("words", "contractions")
_NAMES = ("upper", "proper-names")
_ABBREVIATIONS = ("abbreviations",)


def familiarity(zipf: float, level: int | None) -> float:
    """The mean of a Zipf frequency and the Zipf value of a SCOWL level (`SCOWL_ZIPF`).

    Examples
    --------
    >>> familiarity(5.46, 10), familiarity(1.54, 50), familiarity(3.1, None)
    (5.23, 2.27, 1.7)
    """
    return round((zipf + SCOWL_ZIPF.get(level, NOT_IN_SCOWL)) / 2, 2)


def points(f: float) -> int:
    """Familiarity on the Zipf scale as score points, clamped to 0..100.

    Examples
    --------
    >>> points(2.9), points(5.23), points(1.7)
    (50, 83, 33)
    """
    return max(0, min(100, round(50 + 14 * (f - 2.9))))


def band(score: float) -> str:
    """The score band's name: ``fine`` (50+), ``corner`` (30-49), ``avoid`` (under 30)."""
    return "fine" if score >= 50 else "corner" if score >= 30 else "avoid"


@dataclass(frozen=True)
class Reading:
    """One way an answer is read (and clued), its score and why.

    ``kind`` is one of ``house``, ``word``, ``name``, ``abbreviation``,
    ``phrase``, ``inflection``, ``blank``; ``why`` lists the signals, as
    ``xw wordlist grade`` prints them.
    """

    kind: str
    score: int
    why: str


class Scorer:
    """Readings scored from wordfreq (``zipf``, a callable) and SCOWL (a `Scowl`).

    ``unpleasant`` (a `pipeline.model.cluetext.Blocklist`) holds the words a
    daily paper keeps to corners (``pipeline/data/unpleasant.txt``): a word
    on it earns the ``breakfast`` flag, and so do its plurals and verb forms,
    but not a word an -ER makes from one (PEER, TITTER; the agent nouns that
    belong on the list are on it by name).
    """

    def __init__(self, scowl, zipf, unpleasant=None):
        self.scowl = scowl
        self.zipf = zipf
        self.unpleasant = unpleasant

    def _one(self, kind: str, answer: str, surface: str, kinds, penalties=()) -> Reading:
        z = self.zipf(surface.replace("_", " "))
        level = self.scowl.level(answer, kinds)
        f = familiarity(z, level)
        score = max(0, points(f) - sum(p for p, _ in penalties))
        where = f"SCOWL {'/'.join(kinds)} {level}" if level is not None else f"not in SCOWL {'/'.join(kinds)}"
        why = f"zipf {z:.2f}, {where}: familiarity {f:.2f} = {points(f)}"
        for p, note in penalties:
            why += f", -{p} {note}"
        if score > BREAKFAST_CAP and any(note == FLAG_PENALTIES["breakfast"][1] for _, note in penalties):
            score = BREAKFAST_CAP
            why += f", at most {BREAKFAST_CAP} (corners only)"
        return Reading(kind, score, why)

    def _word_penalties(self, answer: str, flags=frozenset()) -> list[tuple[int, str]]:
        """Penalties of a word (or an inflection's base): its length, its
        derivation, and ``flags`` its senses earned (see `FLAG_PENALTIES`)."""
        out = []
        if self.unpleasant is not None and self.unpleasant.lists(answer):
            flags = frozenset(flags) | {"breakfast"}
        if len(answer) >= LONG_FROM:
            out.append((LONG_PENALTY * (len(answer) - LONG_FROM + 1), f"{len(answer)} letters"))
        for flag in sorted(flags):
            off, note = FLAG_PENALTIES[flag]
            if flag == "technical" and (self.scowl.level(answer, _WORDS) or 100) <= 20:
                continue  # CELL, ATOM: jargon's words that everyone uses
            out.append((off, note))
        stem = self.derived_from(answer)
        if stem:
            out.append((DERIVED_PENALTY, f"a long word derived from {stem}"))
        return out

    def derived_from(self, answer: str) -> str | None:
        """The word a long ``answer`` is made from by a productive prefix or suffix
        (REASSERT from ASSERT, LAWLESSNESS from LAWLESS), or None."""
        if len(answer) < _DERIVED_LENGTH:
            return None
        low = answer.lower()
        candidates = [low[len(p):] for p in _PREFIXES if low.startswith(p)]
        for suffix, endings in _SUFFIXES:
            if low.endswith(suffix):
                candidates += [low[: -len(suffix)] + e for e in endings]
        for stem in candidates:
            level = self.scowl.level(stem.upper(), _WORDS)
            if len(stem) >= 4 and level is not None and level <= 60:
                return stem.upper()
        return None

    def word(self, answer: str, surface: str, flags=frozenset()) -> Reading:
        """A lower-case one-word lemma (NEWT, E-MAIL); ``flags`` as `FLAG_PENALTIES`."""
        return self._one("word", answer, surface, _WORDS, self._word_penalties(answer, flags))

    def name(self, answer: str, surface: str) -> Reading:
        """A capitalised one-word lemma (OSLO, ERIE, Yay).

        wordfreq cannot tell a name from a word spelled alike (YAY, the
        interjection, and Yay, the language), so a name is as familiar as the
        lower of its frequency and its SCOWL name level says.
        """
        z = self.zipf(surface)
        level = self.scowl.level(answer, _NAMES)
        f = min(z, SCOWL_ZIPF.get(level, NOT_IN_SCOWL))
        where = f"SCOWL upper/proper-names {level}" if level is not None else "not in SCOWL upper/proper-names"
        return Reading("name", points(f), f"zipf {z:.2f}, {where}: the lower, {f:.2f} = {points(f)}")

    def abbreviation(self, answer: str, surface: str) -> Reading:
        """An all-capital lemma (DNA, TNT), capped at `ABBREVIATION_CAP`: the
        abbreviations a daily paper prints are the house list's, judged by hand."""
        r = self._one("abbreviation", answer, surface, _ABBREVIATIONS)
        if r.score <= ABBREVIATION_CAP:
            return r
        return Reading(r.kind, ABBREVIATION_CAP, r.why + f", capped at {ABBREVIATION_CAP} (not in the house list)")

    def inflection(self, answer: str, form: str, base: str, kind: str = "pl", flags=frozenset()) -> Reading:
        """A plural, verb form or comparative (NEWTS, GRIPPED, BIGGER) of ``base``;
        ``kind`` is ``pl``, ``s``, ``past``, ``part``, ``ing``, ``er`` or ``est``.

        A solver who knows a base knows its plurals and verb forms: one of up
        to `BASE_LIFT_UP_TO` letters is as familiar as the better of itself
        and its base (PORED as PORE), but at most `BASE_LIFT` points above
        itself (LOWED, of the verb "low", must not borrow the adjective's
        frequency).  Comparatives and superlatives stand on their own.
        """
        points_off, name = INFLECTION_PENALTIES[kind]
        penalties = [(points_off, name)]
        penalties += self._word_penalties(base.upper(), flags)
        own = self._one("inflection", answer, form, _WORDS, penalties)
        if len(answer) > BASE_LIFT_UP_TO or kind in ("er", "est"):
            return own  # the judges call fewer than half the comparatives fine (WEER, SORER)
        of_base = self._one("inflection", _fold(base) or answer, base, _WORDS, penalties)
        lift = min(of_base.score, own.score + BASE_LIFT)
        if lift <= own.score:
            return own
        return Reading("inflection", lift, f"{own.why}; its base {base!r}: {of_base.why}, "
                                           f"so {lift} (at most {BASE_LIFT} above the form)")  # fmt: skip

    def blank(self, answer: str, word: str) -> Reading:
        """A word WordNet uses only in examples and names (THE, ALAN)."""
        return self._one("blank", answer, word, _WORDS + _NAMES + _ABBREVIATIONS,
                         self._word_penalties(answer))  # fmt: skip

    def phrase(self, answer: str, surface: str, tagged: int, pos: str = "noun", species: bool = False) -> Reading:
        """A multi-word lemma (ICE_CREAM, polar_bear, Alan_Turing)."""
        parts = [p for p in surface.replace("-", "_").split("_") if p]
        content = [p for p in parts if p.lower() not in FUNCTION_WORDS] or parts
        weakest = None
        for p in content:
            z = self.zipf(p)
            f = familiarity(z, self.scowl.level(p.upper() if p.isalpha() else _fold(p), _WORDS + _NAMES))
            if weakest is None or f < weakest[0]:
                weakest = (f, p, z)
        f = round(weakest[0] - _PER_EXTRA_WORD * (len(parts) - 1), 2)
        if species:
            cap, note = SPECIES_CAP, "a species' common name"
        elif surface[:1].isupper():
            cap = TAGGED_NAME_PHRASE_CAP if tagged else NAME_PHRASE_CAP
            note = f"a multi-word name with {tagged} sense-tagged uses"
        elif tagged:
            cap, note = TAGGED_PHRASE_CAP, f"a phrase with {tagged} sense-tagged uses"
        elif pos == "verb":
            cap, note = VERB_PHRASE_CAP, "a verb phrase with no sense-tagged use"
        else:
            cap, note = PHRASE_CAP, "a phrase with no sense-tagged use"
        why = (f"{len(parts)} words, the least familiar {weakest[1]!r} (zipf {weakest[2]:.2f}): "
               f"familiarity {f:.2f} = {points(f)}")  # fmt: skip
        if points(f) > cap:
            why += f", capped at {cap} ({note})"
        return Reading("phrase", min(points(f), cap), why)

    @staticmethod
    def house(score: int, category: str) -> Reading:
        """An entry of the house list, with its hand-set score."""
        return Reading("house", int(score), f"house list ({category}): hand-set score {score}")


def _fold(part: str) -> str:
    try:
        return normalise(part)
    except ValueError:
        return ""
