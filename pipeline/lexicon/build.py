"""The lexicon build: WordNet lemmas, their inflections and fill-in-the-blank
words, scored and clued, written as the default word list and clue shards."""

from __future__ import annotations

import re
import time
from pathlib import Path

from ..model.cluefile import is_shard_name, write_shards
from ..model.cluetext import DEFAULT_BLOCKLIST, Blocklist, clue_leaks, load_blocklists
from ..model.errors import InputError
from ..model.fileio import write_bytes, write_text
from ..model.wordlist import normalise, write_wordlist
from .clues import (ABBR, MAX_CLUE_CHARS, example_blanks, finish_clue, gloss_definition, gloss_examples,
                    is_initialism, phrase_blanks)  # fmt: skip
from .inflection import FORMS, PLAIN, SPECIAL_VERBS, Deriver, Morphology, syllables
from .scoring import zipf_to_score
from .sources import MASS_LEXFILES, POS, POS_ORDER, TAXON_LEMMA, Synset, find_wordnet, license_path, read_data, read_exc, read_index, zipf_lookup

__all__ = ["DEFAULT_MIN_ZIPF", "MAX_CLUES", "build_lexicon"]

#: occurrences in 100 million words).  WordNet lemmas are real words, so the
#: floor is low; initialisms, taxa and proper nouns need half a point more.
DEFAULT_MIN_ZIPF = 0.0
#: Clue lines kept per answer, most common senses first.
MAX_CLUES = 5
#: Longest clue kept; longer glosses are cut at a clause boundary or dropped.

# Score penalties (points on the 0-100 scale) for crosswordese junk.
_INITIALISM_PENALTY = 25
_TAXON_PENALTY = 30
_PROPER_PENALTY = 15
_PROPER_FREQUENT_ZIPF = 4.0  # proper nouns at least this common keep their score
_OFFENSIVE_PENALTY = 25  # a word with a slur or obscene sense among others (ASS, COCK)
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
# The build


class _Entry:
    """One answer: its score and its clue candidates with sort keys."""

    __slots__ = ("score", "clues", "related")

    def __init__(self):
        self.score = -1
        self.clues: list[tuple[tuple, str, tuple[str, ...]]] = []
        self.related: set[str] = set()


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

    synsets: dict[str, dict[int, Synset]] = {}
    index: dict[str, list[tuple[str, int, list[int]]]] = {}
    for pos in POS:
        say(f"reading data.{pos}")
        synsets[pos] = read_data(folder / f"data.{pos}", pos)
        index[pos] = read_index(folder / f"index.{pos}")
    zipf, zcache = zipf_lookup()
    morph = Morphology(read_exc(folder / "noun.exc"), read_exc(folder / "verb.exc"), read_exc(folder / "adj.exc"),
                        freq=zipf)  # fmt: skip
    lemma_sets = {pos: {lemma for lemma, _, _ in index[pos]} for pos in POS}
    all_lemmas = set().union(*lemma_sets.values())
    deriver = Deriver(morph, lemma_sets["noun"], lemma_sets["verb"], lemma_sets["adj"])

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

    def hypernym_words(syn: Synset) -> tuple[str, ...]:
        """The words of a noun synset's first hypernym (salamander for newt), or none."""
        hyper = synsets["noun"].get(syn.hypernyms[0]) if syn.pos == "noun" and syn.hypernyms else None
        return hyper.words if hyper else ()

    def synonym_clue(syn: Synset, surface: str, answer: str) -> str | None:
        """The commonest other word of the synset as a clue: TRITON for NEWT, "Deoxyribonucleic acid, for short" for DNA."""
        best = commonest(syn.words, lambda w: w.lower() != surface.lower() and norm(w) != answer
                         and not TAXON_LEMMA.match(w) and len(w) <= 40)  # fmt: skip
        if best is None:
            return None
        text = best.replace("_", " ")
        if is_initialism(surface) and not is_initialism(text):
            text += ", for short"
        return finish_clue(text)

    def hypernym_clue(syn: Synset) -> str | None:
        """NEWT: "Kind of salamander", from the first common word of a noun's hypernym."""
        if syn.taxon:
            return None
        for w in hypernym_words(syn):
            if zipf(w.replace("_", " ")) >= _SYNONYM_ZIPF and not TAXON_LEMMA.match(w):
                return finish_clue("Kind of " + w.replace("_", " "))
        return None

    senses: dict[str, list[tuple[tuple, str, Synset]]] = {}
    for pos in POS:
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
                key = (rank, -tagged, POS_ORDER[pos], offset)
                senses.setdefault(norm(surface), []).append((key, surface, syn))

    say(f"scoring {len(senses)} lemma answers")
    entries: dict[str, _Entry] = {}
    for answer in sorted(senses):
        items = sorted(senses[answer], key=lambda item: (item[2].taxon, item[0], item[1]))
        surfaces = sorted({s for _, s, _ in items})
        z = max(zipf(s.replace("_", " ")) for s in surfaces)
        if all(is_initialism(s) for s in surfaces):
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
            definition = gloss_definition(syn.gloss)
            if syn.pos == "verb" and definition.startswith("to "):
                definition = definition[3:]
            clue = finish_clue(definition)
            if clue and is_initialism(surface):  # the abbreviation is signalled, as crosswords do
                clue = clue + ABBR if len(clue) + len(ABBR) <= MAX_CLUE_CHARS else None
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
                clue = finish_clue(text) if text else None
                if clue and not clue_leaks(clue, answer, (base, form)):
                    bucket.append(((1, False, rank, kind) + key_tail + (base, syn.offset), clue, (base, form)))
                    good += 1
            if good >= 3:
                break
        if good:
            derived_penalty[answer] = min(derived_penalty.get(answer, penalty), penalty)

    def inflect(word: str, pos: str, form: str) -> str | None:
        """``word`` (a plain lemma of ``pos``) in the inflection ``form``, or None."""
        if not PLAIN.match(word) or word not in lemma_sets[pos]:
            return None
        if form == "pl":
            return morph.plurals(word)[0]
        if form in FORMS:
            return morph.clue_verb(word, form)
        return deriver._grade(word, form) if deriver._gradable(word) else None

    def related_form(syn: Synset, base: str, form: str) -> str | None:
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

    def plural_clue(syn: Synset) -> str | None:
        return deriver.plural(gloss_definition(syn.gloss), mass=syn.lexnum in MASS_LEXFILES)

    for pos in ("noun", "verb", "adj"):
        for lemma, _, offsets in index[pos]:
            if not PLAIN.match(lemma):
                continue
            own = [synsets[pos][o] for o in offsets if lemma in synsets[pos][o].words]
            n_offensive = sum(syn.offensive for syn in own)
            plain = [syn for syn in own if not syn.taxon and not syn.offensive]
            if not plain or 2 * n_offensive >= len(own):
                continue
            penalty = _OFFENSIVE_PENALTY if n_offensive else 0
            tail = (POS_ORDER[pos],)
            if pos == "noun":
                regular = lemma not in morph.noun_exc
                for form in morph.plurals(lemma):
                    # ADS from "ad", but not HAS from "ha", HIS from "hi": far commoner than their base
                    if len(lemma) >= 3 or not regular or zipf(form) <= zipf(lemma) + 0.5:
                        add_form(form, lemma, plain, plural_clue, tail + ("pl",), penalty, regular)
            elif pos == "verb":
                if len(lemma) < 3 and lemma not in SPECIAL_VERBS and lemma not in morph.verbs:
                    continue
                past = morph.verb_forms(lemma, "past")
                for name in FORMS:
                    make = lambda syn, f=name: deriver.verb(gloss_definition(syn.gloss), f)  # noqa: E731
                    for form in morph.verb_forms(lemma, name):
                        if name == "part" and form in past:
                            continue  # both past and participle (GRIPPED): clued as the past
                        add_form(form, lemma, plain, make, tail + (name,), penalty, False)
            else:
                regular = lemma not in morph.adj_exc
                short = syllables(lemma) == 1 or (lemma.endswith("y") and syllables(lemma) == 2)
                if regular and (len(lemma) < 3 or not short):
                    continue
                for suffix in ("er", "est"):
                    make = lambda syn, s=suffix: deriver.graded(gloss_definition(syn.gloss), s)  # noqa: E731
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
    for pos in POS:
        for offset in sorted(synsets[pos]):
            syn = synsets[pos][offset]
            if syn.offensive:
                continue
            for k, example in enumerate(gloss_examples(syn.gloss)):
                for answer, clue in example_blanks(example, norm):
                    blanks.setdefault(answer, []).append(((1, len(clue), POS_ORDER[pos], offset, k), clue))
    for pos in POS:
        for lemma, tagged, offsets in index[pos]:
            if "_" not in lemma:
                continue
            syn = synsets[pos][offsets[0]]
            surface = next((w for w in syn.words if w.lower() == lemma), None)
            if surface is None or syn.offensive or syn.taxon:
                continue
            z = zipf(surface.replace("_", " "))
            for answer, clue in phrase_blanks(surface, norm):
                blanks.setdefault(answer, []).append(((0, -z, -tagged, POS_ORDER[pos], lemma), clue))
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
    write_bytes(out_dir / "LICENSE-WordNet.txt", license_path(folder).read_bytes())
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
