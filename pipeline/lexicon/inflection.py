"""English inflection for the lexicon: word forms and inflected definitions.

`Morphology` makes noun plurals, verb forms (-S, -ED, -ING, irregulars) and
comparatives from WordNet's exception lists (``noun.exc``, ``verb.exc``,
``adj.exc``) and lemminflect's (its dictionary, its spelling rules for words
it lacks), wordfreq choosing among candidates.  `Deriver` turns a base sense's definition into one for the
inflected form ("small semiaquatic salamander" for NEWT gives "small
semiaquatic salamanders" for NEWTS; "hold fast or firmly" gives "held fast
or firmly").
"""

from __future__ import annotations

import re
from functools import lru_cache

from lemminflect import getAllInflections, getAllInflectionsOOV, getInflection, getLemma

__all__ = ["FORMS", "PLAIN", "SPECIAL_VERBS", "Deriver", "Morphology", "syllables"]

PLAIN = re.compile(r"^[a-z]+(?:-[a-z]+)*$")
_VOWELS = "aeiou"

# --------------------------------------------------------------------------
# English morphology


def syllables(word: str) -> int:
    """Vowel groups, a silent final e not counted: grip 1, safe 1, pale 1, happy 2, simple 2."""
    n = len(re.findall(r"[aeiouy]+", word[1:])) + (word[0] in _VOWELS)
    syllabic_le = word.endswith("le") and len(word) > 2 and word[-3] not in _VOWELS  # simple, able; not pale
    if n > 1 and word.endswith("e") and not syllabic_le and not word.endswith(("ee", "ie", "ye", "oe")):
        n -= 1
    return n


_UPOS = {"NNS": "NOUN", "VBZ": "VERB", "VBD": "VERB", "VBN": "VERB", "VBG": "VERB", "JJR": "ADJ", "JJS": "ADJ"}


@lru_cache(maxsize=None)
def _inflections_cached(word: str, tag: str) -> tuple[str, ...]:
    return tuple(_inflections_of(word, tag))


def _inflections(word: str, tag: str) -> list[str]:
    """`_inflections_of`, each word and tag looked up once a process."""
    return list(_inflections_cached(word, tag))


def _inflections_of(word: str, tag: str) -> list[str]:
    """Candidate spellings of ``word`` for a Penn Treebank ``tag`` (NNS, VBZ, VBD, VBN, VBG, JJR, JJS), by
    lemminflect, for frequency to choose among (`Morphology`): its dictionary's forms, then for a compound it
    lacks its head's (LAWMEN from MAN), then its spelling rules (DEWS beside mass-noun DEW; VAGUER where its
    dictionary says VAGUEER).  The word itself is left out but for a past (SET, CUT).

    Examples
    --------
    >>> _inflections_of("volcano", "NNS"), _inflections_of("grip", "VBG"), _inflections_of("lawman", "NNS")[0]
    (['volcanoes', 'volcanos'], ['gripping'], 'lawmen')
    """
    upos = _UPOS[tag]
    forms = list(getAllInflections(word, upos).get(tag, ()))
    if not forms:
        for i in range(1, len(word) - 2):  # the longest head lemminflect knows: law|man, yes-|man
            head = word[i:]
            head_forms = getAllInflections(head, upos).get(tag, ())
            if head_forms and len(head) >= 3:
                forms = [word[:i] + f for f in head_forms]
                break
    forms += getAllInflectionsOOV(word, upos).get(tag, ())
    if tag not in ("VBD", "VBN"):
        forms = [f for f in forms if f != word]
    return list(dict.fromkeys(forms))


def _third_person(verb: str) -> list[str]:
    """The -s forms of a verb (echoes, vetoes but solos)."""
    return _inflections(verb, "VBZ")


def _add_ed(word: str) -> list[str]:
    """The past forms, frequency to choose among several (panicked; referred, not refered)."""
    return _inflections(word, "VBD")


def _add_ing(word: str) -> list[str]:
    return _inflections(word, "VBG")


def _add_er(word: str, suffix: str) -> list[str]:
    """Comparative (``suffix="er"``) or superlative (``"est"``)."""
    return _inflections(word, "JJR" if suffix == "er" else "JJS")


def _plural_candidates(noun: str) -> list[str]:
    return _inflections(noun, "NNS")


SPECIAL_VERBS = {  # base: (-s, past, past participle, -ing)
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
FORMS = ("s", "past", "part", "ing")
_ARCHAIC_ZIPF = 2.0  # a listed irregular form rarer than this gets the regular one beside it


class Morphology:
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
                elif f in _third_person(base):
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
        if self.freq is None or len(candidates) <= 1:
            return candidates
        ranked = sorted(candidates, key=lambda c: (-self.freq(c), c))
        best = self.freq(ranked[0])
        return [c for c in ranked if self.freq(c) >= best - 1.0]

    def plurals(self, noun: str) -> list[str]:
        """The plurals in use, commonest first.  WordNet's exception list
        gives the irregular ones, all kept (NOES, IAMBI); with ``freq`` the
        regular one joins them unless far rarer than the best (AURAS beside
        AURAE, SOLOS beside SOLI, CACTUSES beside CACTI; not CHILDS, LEAFS)."""
        listed = list(self.noun_exc.get(noun) or ())
        if not listed:
            return self._rank(_plural_candidates(noun))
        if self.freq is None:
            return listed
        ranked = self._rank(listed + _plural_candidates(noun))
        return sorted(set(ranked) | set(listed), key=lambda c: (-self.freq(c), c))

    def verb_forms(self, verb: str, form: str) -> list[str]:
        """``form`` is one of "s", "past", "part", "ing"; the most common first.

        Listed (irregular) forms win over the regular one unless they are
        all rare (``addrest``): RAN, never RUNNED.
        """
        k = FORMS.index(form)
        if verb in SPECIAL_VERBS:
            return [SPECIAL_VERBS[verb][k]]
        if verb in _SAME_PAST and form in ("past", "part"):
            return [verb]
        regular = self._rank(
            _third_person(verb) if form == "s" else _add_ing(verb) if form == "ing" else _add_ed(verb)
        )
        exc = self.verbs.get(verb)
        listed = exc and (exc[k] or (form in ("past", "part") and (exc[1] or exc[2])))
        if not listed:
            return regular
        if self.freq is None:
            return list(listed)
        best = max(self.freq(f) for f in listed)
        if regular and (best < _ARCHAIC_ZIPF or self.freq(regular[0]) > best):
            # "addrest" is listed, but "addressed" is the word; "wrought" and "worked"
            listed = [regular[0]] + [f for f in listed if f != regular[0]]
        return sorted(listed, key=lambda f: (-self.freq(f), f))

    def clue_verb(self, verb: str, form: str) -> str:
        """The form to put in a clue: the commonest ("worked hard", not "wrought hard")."""
        return self.verb_forms(verb, form)[0]

    def graded(self, adj: str, suffix: str) -> list[str]:
        """Comparatives (``suffix="er"``) or superlatives; the build's attestation judges the answers."""
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


_HEAD_END = re.compile(
    r"\s(?:of|that|which|who|whom|whose|in|on|at|for|from|with|without|by|to|used|having|"
    r"consisting|containing|made|where|when|as|like|between|into|resembling|found|native|"
    r"designed|worn|within|under|over|about|against|through|after|before|during|near|than|"
    r"among|along|across|beyond|serving|producing|formerly|originally|now|esp|e\.g|i\.e)\b|[,;:(]| -"
)
_PRONOUN = re.compile(r"\b(?:it|its|itself)\b")
_DOMAIN = re.compile(r"^\([^()]*\) ")


def split_domain(definition: str) -> tuple[str, str]:
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


class Deriver:
    """Clues for inflected forms, made from the base sense's definition."""

    def __init__(self, morph: Morphology, nouns: set[str], verbs: set[str], adjs: set[str]):
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
        return any(stem in self.nouns and word in _plural_candidates(stem) for stem in (word[:-1], word[:-2], word[:-3] + "y"))

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
        if word in self.nouns and PLAIN.match(word):
            if getInflection(word, "NNS")[:1] == (word,):
                return word  # "female sheep", "morning dew": no other plural in use
            return next(iter(self.morph.plurals(word)), None)
        return None

    def _verb_base_of_s(self, word: str) -> str | None:
        """The plural-subject form of a third-person verb ("focuses" -> "focus"), by lemminflect's lemma."""
        if word in _AGREE:
            return _AGREE[word]
        if not word.endswith("s") or word.endswith("ss"):
            return None
        for stem in getLemma(word, upos="VERB"):
            if stem in self.verbs and word in _third_person(stem):
                return stem
        return None

    def plural(self, definition: str, mass: bool = False) -> str | None:
        """"small semiaquatic salamander of ..." -> "small semiaquatic salamanders of ...".

        With ``mass`` (a food or substance sense: "lean white flesh of
        cod") only a definition that is plural already is used.
        """
        prefix, text = split_domain(definition)
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
        if m and m.group(0) == "," and text[m.end():].split()[:1] and text[m.end():].split()[0].rstrip(",") in self.adjs:
            return None  # "calm, lengthy, intent consideration": adjectives in a row, the head comes later
        head_words = text[: m.start() if m else len(text)].split()
        for i in range(1, len(head_words)):
            last = i == len(head_words) - 1
            if head_words[i - 1] in _NOT_MODIFIERS:
                continue  # "engraving or carving": OR the operating room is no head noun here
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
        rest = text[len(" ".join(head_words)) :]
        conjuncts = " ".join(head_words).split(" or ")  # "engraving or carving"
        if not all(self._modifier(w) for conj in conjuncts for w in conj.split()[:-1]):
            return None  # "how a result is obtained": no noun phrase to pluralise
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
        prefix, text = split_domain(definition)
        if text.startswith("to "):
            text = text[3:]
        words = text.split(" ")
        if not words or words[0] not in self.verbs or not PLAIN.match(words[0]):
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
            if nxt not in self.verbs or not PLAIN.match(nxt):
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
        if not self.gradable(words[0]):
            return None
        words[0] = self.grade(words[0], suffix)
        if len(words) > 2 and words[1] in ("and", "or") and self.gradable(words[2]):
            words[2] = self.grade(words[2], suffix)  # "loud and firm" -> "louder and firmer"
        return " ".join(words)

    def gradable(self, word: str) -> bool:
        if word not in self.adjs or not PLAIN.match(word) or word in _NOT_GRADABLE:
            return False
        return word in self.morph.adj_exc or not word.endswith(("ed", "ing"))  # not "used", "being"

    def grade(self, word: str, suffix: str) -> str:
        graded = self.morph.graded(word, suffix)
        if self.morph.freq is not None and word not in self.morph.adj_exc:  # not lemminflect's TRUEER in a clue
            graded = [f for f in graded if self.morph.freq(f) > 0]
        if graded and (syllables(word) == 1 or (word.endswith("y") and syllables(word) == 2) or word in self.morph.adj_exc):
            return graded[0]
        return ("more " if suffix == "er" else "most ") + word

