"""Clue text made from WordNet: definitions cut for print, fill-in-the-blanks.

`gloss_definition` takes a gloss's definition, `finish_clue` cuts it to
`MAX_CLUE_CHARS` at a clause and capitalises it; `example_blanks` and
`phrase_blanks` make fill-in-the-blank clues from usage examples ("He ___
the steering wheel") and multi-word lemmas ("Uric ___", "___ Turing").
"""

from __future__ import annotations

import re

from ..model.cluefile import check_clue
from .facts import takes_the

__all__ = ["ABBR", "BLANK", "KIND_OF_MIN_DEPTH", "MAX_CLUE_CHARS", "VAGUE_KINDS", "capitalise", "crossword_wording",
           "example_blanks", "finish_clue", "gloss_definition",
           "gloss_examples", "is_initialism", "phrase_blanks"]  # fmt: skip

#: Longest clue kept (the house style's limit too); longer glosses are cut at a clause boundary or dropped.
MAX_CLUE_CHARS = 60
_QUOTED = re.compile(r'"([^"]*)"')  # a usage example in a gloss

# --------------------------------------------------------------------------
# Clue text


_TEX_QUOTE = re.compile(r"`+([^`']*)'+")


def gloss_definition(gloss: str) -> str:
    """The gloss before its first ';', without quoted usage examples.

    WordNet quotes words TeX-style (```sure'``); a clue uses plain quotes.
    """
    text = gloss.split(";", 1)[0]
    text = _QUOTED.sub("", text) if '"' in text else text
    text = _TEX_QUOTE.sub(r"'\1'", text)
    return " ".join(text.split()).strip(" .,:")


# Where a long definition may be cut: best before a comma, a parenthesis or
# a relative or participle clause; failing that, before a preposition.
_STRONG_CUT = re.compile(r",\s|\s\(|\s(?=(?:that|which|who|whose|where|when|especially|usually|consisting|"
                         r"comprising|containing|having|used|found|made|known|located|typically|often|but)\s)")
_WEAK_CUT = re.compile(r"\s(?=(?:with|in|on|at|for|from|by|and|or|of)\s)")
_MIN_CUT = 30


def finish_clue(text: str, limit: int = MAX_CLUE_CHARS) -> str | None:
    """Cut to ``limit`` characters, capitalise, drop the trailing period; None if unusable."""
    text = " ".join(text.split()).strip(" .,:;")
    if len(text) > limit:
        for pattern in (_STRONG_CUT, _WEAK_CUT):
            cuts = [m.start() for m in pattern.finditer(text, 0, limit + 1) if m.start() >= _MIN_CUT]
            if cuts:
                break
        else:
            return None
        text = text[: cuts[-1]].rstrip(" .,:;")
        while text.endswith((" and", " or", " a", " an", " the", " of", " to", " from", " with", " in", " on",
                             " by", " for", " at", " through", " into", " onto", " over", " under", " about",
                             " between", " across", " toward", " towards", " upon", " within", " without", " which",
                             " that", " who", " whose", " where", " when", " as", " than")):  # fmt: skip
            text = text.rsplit(" ", 1)[0]
    if not text or text.count("(") != text.count(")") or '"' in text:
        return None
    text = capitalise(text)
    return None if text is None or check_clue(text) else text


# --------------------------------------------------------------------------
# Fill-in-the-blank clues

_TOKEN = re.compile(r"[A-Za-z]+(?:['\u2019][A-Za-z]+)*")
BLANK = "___"
ABBR = " (abbr.)"
_S_CONTRACTIONS = frozenset("it's he's she's that's there's here's what's who's where's let's".split())


def gloss_examples(gloss: str) -> list[str]:
    """The quoted usage examples of a gloss: 'hold firmly; "he gripped the rope"' -> ['he gripped the rope']."""
    return [" ".join(m.group(1).split()) for m in _QUOTED.finditer(gloss)] if '"' in gloss else []


# Words that narrow a blank down no more than the blank itself: a fair blank has other words.
_NO_HELP = frozenset("a an the of to in on at by for with from and or but no not nor so as is was be been are were "
                     "it its he she they we you i me my him her them his their our your this that these those there "
                     "here what which who whom when where why how all any some each every one do does did has have "
                     "had will would can could shall should may might must very too also just than then if up down "
                     "out off over under again more most such only own same into about get got".split())  # fmt: skip
_BLANK_CONTENT = 2  # other words of a usage example that must help ("He ___ the steering wheel")


def _content_words(words) -> int:
    """How many of ``words`` narrow a blank down (not a function word, not a letter)."""
    return sum(1 for w in words if len(w) > 1 and w.lower() not in _NO_HELP)


def example_blanks(example: str, norm) -> list[tuple[str, str]]:
    """``(answer, clue, word)`` for each word of a usage example: the word blanked out.

    "he gripped the steering wheel" gives GRIPPED: "He ___ the steering
    wheel".  Examples with another quotation or too few other words give
    none, and no word is blanked where fewer than two of the others narrow
    it down ("The animal was ___").
    """
    tokens = list(_TOKEN.finditer(example))
    if len(tokens) < 3 or len(example) > MAX_CLUE_CHARS - 5:
        return []
    out = []
    for m in tokens:
        if _content_words(t.group(0) for t in tokens if t is not m) < _BLANK_CONTENT:
            continue  # "The animal was ___": too many words fit
        token = m.group(0).lower().replace("\u2019", "'")
        if token.endswith("'s") and token not in _S_CONTRACTIONS:
            continue  # the child's toy: CHILDS is no word
        answer = norm(m.group(0))
        if answer is None:
            continue
        text = _TEX_QUOTE.sub(r"'\1'", example[: m.start()] + BLANK + example[m.end() :])
        clue = capitalise(text.strip(" .,;:"))
        if clue and not check_clue(clue):
            out.append((answer, clue, m.group(0)))
    return out


def phrase_blanks(surface: str, norm) -> list[tuple[str, str]]:
    """``(answer, clue, word)`` for each word of a multi-word lemma: "uric_acid" gives
    ACID: "Uric ___" and URIC: "___ acid"; "Alan_Turing" gives ALAN: "___ Turing"."""
    pieces = re.split(r"([_-])", surface)  # words and the joiners between them
    if not 3 <= len(pieces) <= 11:
        return []
    out = []
    for i in range(0, len(pieces), 2):
        part = pieces[i]
        answer = norm(part)
        if answer is None or not part.isalpha():
            continue
        if not _content_words(pieces[j] for j in range(0, len(pieces), 2) if j != i):
            continue  # "No ___" for MORE: the other word is no help
        words = [" " if p == "_" else p for p in pieces]
        clue = capitalise("".join(words[:i] + [BLANK] + words[i + 1 :]))
        if clue:
            out.append((answer, clue, part))
    return out


_LEADING_ARTICLE = re.compile(r"^(?:a|an|the) (?=[a-z])")
_UNITED_STATES = re.compile(r"^United States (?=[a-z])")
_OF_OR_RELATING = re.compile(r"^of,? or (?:relating|pertaining) to\b")


_DOMAIN_LABEL = re.compile(r"^\((?:[a-z]+ ?){1,3}\) ")  # "(botany) outer tissue of bark"
_ACT_OF = re.compile(r"^(?:the |an? )?(?:act|process) of (?=\w+ing\b)", re.I)  # "the act of gripping"
_PERSON_WHO = re.compile(r"^(?:an? )?(?:person|someone) who ", re.I)
_SOMETHING_THAT_IS = re.compile(r"^something that is (?=an? )", re.I)


def crossword_wording(definition: str) -> str:
    """A dictionary definition in a clue's words: no leading article ("A
    small piece of cloth" is "Small piece of cloth"), "Of or relating to"
    as "Relating to", "United States sculptor" as "American sculptor"
    (CLUE_STYLE.md: short beats long).

    "The act of approving" is "Approving", "a person who bakes" "One who
    bakes", "something that is a source of danger" "Source of danger".

    >>> crossword_wording("a small piece of cloth or paper"), crossword_wording("United States sculptor")
    ('small piece of cloth or paper', 'American sculptor')
    >>> crossword_wording("the act of gripping firmly"), crossword_wording("(botany) outer tissue of bark")
    ('gripping firmly', 'outer tissue of bark')
    """
    text = _DOMAIN_LABEL.sub("", definition)
    text = _OF_OR_RELATING.sub("relating to", text)
    text = _ACT_OF.sub("", text)
    text = _PERSON_WHO.sub("one who ", text)
    text = _SOMETHING_THAT_IS.sub("", text)
    text = _LEADING_ARTICLE.sub("", text)
    return _UNITED_STATES.sub("American ", text)


def is_initialism(surface: str) -> bool:
    """DNA, AT&T, U.S.A: letters all capitals (two or more)."""
    letters = [ch for ch in surface if ch.isalpha()]
    return len(letters) >= 2 and all(ch.isupper() for ch in letters)


def capitalise(text: str) -> str | None:
    """The first letter in capitals ("___ acid" stays as it is); None without letters."""
    if text.startswith(BLANK):
        return text if any(ch.isalpha() for ch in text) else None
    for i, ch in enumerate(text):
        if ch.isalpha():
            return text[:i] + ch.upper() + text[i + 1 :]
    return None



# --------------------------------------------------------------------------
# Clues for WordNet senses and their inflected forms

#: A synonym used as a clue must be this common ("Eft" for NEWT is not).
SYNONYM_ZIPF = 2.5
#: "Kind of X" only where X lies at least this deep below WordNet's root
#: (person, quality, state, act and region lie shallower: too vague to clue by).
KIND_OF_MIN_DEPTH = 5
#: Hypernyms deep enough but still too vague for "Kind of X".
VAGUE_KINDS = frozenset("activity structure class line area word sound covering man woman device position state "
                        "support motion agency law form thing object unit change action process group "
                        "organization property feature situation concept idea act deed person individual someone "
                        "people event happening matter quality attribute condition kind type sort material "
                        "substance subunit temper mood feeling entity abstraction".split())  # fmt: skip


def _spelling_variant(a: str, b: str) -> bool:
    """Whether one word is the other with a letter left out: THERESA and TERESA, a name spelled two ways
    (a synonym that is no clue)."""
    long, short = (a, b) if len(a) > len(b) else (b, a)
    if len(long) != len(short) + 1:
        return False
    i = next((k for k in range(len(short)) if long[k] != short[k]), len(short))
    return long[i + 1 :] == short[i:]


_PLACE_LEXFILES = (15, 17)  # noun.location, noun.object (rivers, mountains, islands)


class SenseClues:
    """Clue text for a WordNet sense (definition, synonym, "Kind of" hypernym)
    and for the inflected forms of a lemma (from the base's definition, or a
    synonym in the same form).

    Parameters
    ----------
    wordnet : pipeline.lexicon.sources.WordNet
    zipf : callable
        wordfreq's Zipf frequency of a phrase.
    norm : callable
        Surface to answer (`pipeline.lexicon.normalise.Normaliser`).
    morph, deriver : pipeline.lexicon.inflection.Morphology, Deriver
    """

    def __init__(self, wordnet, zipf, norm, morph, deriver):
        self.wordnet = wordnet
        self.zipf = zipf
        self.norm = norm
        self.morph = morph
        self.deriver = deriver

    def commonest(self, words, keep) -> str | None:
        """The most frequent of ``words`` that ``keep`` accepts, if at least `SYNONYM_ZIPF` (first on a tie)."""
        best = None
        for w in words:
            if keep(w):
                z = self.zipf(w.replace("_", " "))
                if z >= SYNONYM_ZIPF and (best is None or z > best[0]):
                    best = (z, w)
        return None if best is None else best[1]

    def definition(self, syn, surface: str) -> str | None:
        """The sense's definition cut for print; an abbreviation's signalled (DNA: "... (abbr.)")."""
        text = gloss_definition(syn.gloss)
        if syn.pos == "verb" and text.startswith("to "):
            text = text[3:]
        text = crossword_wording(text)
        if is_initialism(surface):
            clue = finish_clue(text, MAX_CLUE_CHARS - len(ABBR))
            return clue + ABBR if clue else None
        return finish_clue(text)

    def synonym(self, syn, surface: str, answer: str) -> str | None:
        """The commonest other word of the synset: TRITON for NEWT, "Deoxyribonucleic acid, for short" for DNA."""
        from .sources import TAXON_LEMMA

        best = self.commonest(syn.words, lambda w: w.lower() != surface.lower() and self.norm(w) != answer
                              and not TAXON_LEMMA.match(w) and len(w) <= 40
                              and not _spelling_variant(self.norm(w) or "", answer))  # fmt: skip
        if best is None:
            return None
        text = best.replace("_", " ")
        if is_initialism(surface) and not is_initialism(text):
            text += ", for short"
        return finish_clue(text)

    def kind_of(self, syn) -> str | None:
        """NEWT: "Kind of salamander", from the first common word of a noun's hypernym.

        Only for a kind of something specific: never for a named one (ASIA
        is no "Kind of continent", TESLA no "Kind of electrical engineer"),
        nor under a hypernym within `KIND_OF_MIN_DEPTH` of WordNet's root or
        in `VAGUE_KINDS` ("Kind of process", "Kind of person")."""
        from .sources import TAXON_LEMMA

        hyper = self.wordnet.hypernym(syn)
        if syn.instance:
            return self.place(syn, hyper)
        if syn.taxon or hyper is None or self.wordnet.depth(hyper) < KIND_OF_MIN_DEPTH:
            return None
        if any(w.lower() in VAGUE_KINDS for w in hyper.words):
            return None
        for w in hyper.words:
            if self.zipf(w.replace("_", " ")) >= SYNONYM_ZIPF and not TAXON_LEMMA.match(w):
                return finish_clue("Kind of " + w.replace("_", " "))
        return None

    def place(self, syn, kind) -> str | None:
        """A named place by what it is and the one whole it is part of (WordNet's instance and part-of
        links): CAM "River in England", RENO "City in Nevada", OSLO "Capital of Norway"; None for a
        place in several (the Nile) or in none, and for anything but a place."""
        if kind is None or syn.lexnum not in _PLACE_LEXFILES or len(syn.wholes) != 1:
            return None
        whole = self.wordnet.synsets["noun"].get(syn.wholes[0])
        if whole is None or not whole.words[0][:1].isupper():
            return None
        what = kind.words[0].replace("_", " ").split()[-1]
        where = whole.words[0].replace("_", " ")
        if what in ("continent", "hemisphere"):
            return None  # ASIA "Continent in Eurasia"
        whole_kind = self.wordnet.hypernym(whole)
        if takes_the(where) or (whole_kind and whole_kind.words[0] in ("ocean", "sea")):
            where = "the " + where  # the Netherlands, the United States, the Atlantic (Texas, Wales)
        if what == "capital":
            return finish_clue(f"Capital of {where}")
        return finish_clue(f"{'Region' if what == 'area' else what.capitalize()} in {where}")

    def inflect(self, word: str, pos: str, form: str) -> str | None:
        """``word`` (a plain lemma of ``pos``) in the inflection ``form``, or None."""
        from .inflection import FORMS, PLAIN

        if not PLAIN.match(word) or word not in self.wordnet.lemmas[pos]:
            return None
        if form == "pl":
            return next(iter(self.morph.plurals(word)), None)
        if form in FORMS:
            return self.morph.clue_verb(word, form)
        return self.deriver.grade(word, form) if self.deriver.gradable(word) else None

    def related_form(self, syn, base: str, form: str) -> str | None:
        """A synonym in the same inflection (GRIPPED: "Clutched"), or for a plural noun
        its hypernym's plural (BEERS: "Some brews"); None if neither is common enough."""
        best = self.commonest(syn.words, lambda w: w.lower() != base and self.inflect(w, syn.pos, form) is not None)
        if best is not None:
            return self.inflect(best, syn.pos, form)
        hyper = self.wordnet.hypernym(syn)
        if form == "pl" and hyper is not None:
            for w in hyper.words:
                parts = w.split("_")
                plural = self.inflect(parts[-1], "noun", "pl") if parts[-1] == parts[-1].lower() else None
                if plural and self.zipf(w.replace("_", " ")) >= SYNONYM_ZIPF - 0.5:
                    return "Some " + " ".join(parts[:-1] + [plural])
        return None

    def form_definition(self, syn, form: str) -> str | None:
        """The base sense's definition in the inflection ``form`` ("pl", a verb form, "er", "est")."""
        from .inflection import FORMS
        from .sources import MASS_LEXFILES

        definition = gloss_definition(syn.gloss)
        if form == "pl":
            return self.deriver.plural(definition, mass=syn.lexnum in MASS_LEXFILES)
        if form in FORMS:
            return self.deriver.verb(definition, form)
        return self.deriver.graded(definition, form)
