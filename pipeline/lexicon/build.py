"""The lexicon build: every candidate answer, its readings, scores and clues.

Candidates come from the house list, WordNet's lemmas, their inflections
and the words of WordNet's examples and names.  Junk is left out with its
reason (`pipeline.lexicon.normalise`); each remaining candidate gets a
`Reading` per way it is read, scored by `pipeline.lexicon.scoring`, and
clues from the house list and from WordNet (`pipeline.lexicon.clues`).
After the leak and blocklist checks an answer scores what its best reading
that still has a clue scores.  Its clues: the house clues (``house/clues``)
and the house list's first, whatever the readings score (the ``words``
file's, everyday words WordNet clues badly, before the other files'), then
GeoNames' facts, then WordNet's, best reading first, so a clue uses the
sense the score was given for.

Levels (`pipeline.model.cluefile.clue_level`): a house clue has the one
its file gives; a WordNet clue of a word's first sense, a blank and a
clue of an inflection's first sense are easy, those of later senses hard,
and a later sense WordNet's sense counts never saw is left out when the
answer has another clue.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

from ..model.cluefile import clue_key, clue_level, is_shard_name, tag_level, write_shards
from ..model.cluetext import DEFAULT_BLOCKLIST, Blocklist, clue_leaks, default_blocklist_path, load_blocklists
from ..model.fileio import atomic_write, write_bytes, write_text
from ..model.wordlist import write_wordlist
from .clues import SenseClues, example_blanks, finish_clue, gloss_examples, is_initialism, phrase_blanks
from .facts import ATTRIBUTION as FACTS_ATTRIBUTION
from .facts import place_facts
from .house import default_house_dir, read_house, read_house_clues
from .inflection import FORMS, PLAIN, SPECIAL_VERBS, Deriver, Morphology, syllables
from .normalise import JUNK, Normaliser, attested, is_binomial, known_word, lemma_junk, tokens
from .scoring import TECHNICAL_DOMAINS, Reading, Scorer, band
from .sources import POS, POS_ORDER, Scowl, WordNet, find_scowl, find_wordnet, license_path, zipf_lookup

__all__ = ["DEFAULT_MIN_ZIPF", "MAX_CLUES", "build_lexicon"]

#: wordfreq Zipf frequency below which a WordNet candidate is left out.
#: WordNet lemmas are real words and SCOWL and the score judge them, so
#: nothing is left out for rarity alone by default.
DEFAULT_MIN_ZIPF = 0.0
#: Clue lines kept per answer, the best reading's first.
MAX_CLUES = 5
#: The house list's category whose clues come before the other categories':
#: everyday words WordNet lacks or clues badly (TILL, DIES).
LEADING_CATEGORY = "words"
_MAX_BLANKS = 1  # fill-in-the-blank clues kept beside an answer's other clues
_MAX_BLANKS_NEW = 3  # and for an answer that has no other kind
_ROMAN = re.compile(r"^M{0,3}(?:CM|CD|D?C{0,3})(?:XC|XL|L?X{0,3})(?:IX|IV|V?I{0,3})$")
_ANIMAL, _PLANT = 5, 20
_LATIN = re.compile(r"^[A-Z][a-z]+_[a-z]+(?:_[a-z]+)?$")  # Lemmus_lemmus: a species' Latin name
# The breakfast-table test's subjects, as WordNet roots (lemma, lexicographer
# file): their hyponyms are disease, sex, bodily waste, drugs and violence.
_UNPLEASANT = frozenset({
    ("ill_health", 26), ("symptom", 26), ("injury", 26), ("sexual_activity", 4), ("reproductive_organ", 8),
    ("body_waste", 27), ("elimination", 22), ("drug_of_abuse", 6), ("killing", 4), ("killing", 11),
    ("torture", 4),
})  # fmt: skip


class _Entry:
    """One answer: its readings, its clue candidates (sort key, text, extra
    words the clue must not use, reading index) and the words of its forms."""

    __slots__ = ("readings", "clues", "related")

    def __init__(self):
        self.readings: list[Reading] = []
        self.clues: list[tuple[tuple, str, tuple[str, ...], int]] = []
        self.related: set[str] = set()

    def reading(self, reading: Reading) -> int:
        """The index of ``reading`` among the entry's readings (added if new)."""
        if reading not in self.readings:
            self.readings.append(reading)
        return self.readings.index(reading)


class _Build:
    def __init__(self, wordnet, scowl, zipf, house, house_clues, facts, blocklist, unpleasant, norm, min_zipf, say):
        self.wn = wordnet
        self.scowl = scowl
        self.zipf = zipf
        self.house = house
        self.house_clues = house_clues
        self.facts = facts
        self.blocklist = blocklist
        self.norm = norm
        self.min_zipf = min_zipf
        self.say = say
        self.scorer = Scorer(scowl, zipf, unpleasant)
        self.morph = Morphology(wordnet.exc["noun"], wordnet.exc["verb"], wordnet.exc["adj"], freq=zipf)
        self.deriver = Deriver(self.morph, wordnet.lemmas["noun"], wordnet.lemmas["verb"], wordnet.lemmas["adj"])
        self.clue = SenseClues(wordnet, zipf, norm, self.morph, self.deriver)
        self.all_lemmas = set().union(*wordnet.lemmas.values())
        self.unpleasant = wordnet.hyponyms_of(_UNPLEASANT)
        self.genera = wordnet.genera()
        self.entries: dict[str, _Entry] = {}
        self.rejected: dict[str, str] = {}  # answer: reason (a JUNK key), for answers with no entry
        self.lemma_answers: set[str] = set()
        self.derived_answers: set[str] = set()

    def entry(self, answer: str) -> _Entry:
        self.rejected.pop(answer, None)
        entry = self.entries.get(answer)
        if entry is None:
            entry = self.entries[answer] = _Entry()
        return entry

    def reject(self, answer: str, reason: str) -> None:
        if answer not in self.entries:
            self.rejected.setdefault(answer, reason)

    # -- 0. the house list --------------------------------------------------
    def house_entries(self) -> None:
        for answer in sorted(self.house):
            h = self.house[answer]
            if not self.norm.min_length <= len(answer) <= self.norm.max_length:
                continue
            if self.blocklist.blocks_answer(answer, h.surfaces):
                self.reject(answer, "blocked")
                continue
            entry = self.entry(answer)
            r = entry.reading(Scorer.house(h.score, "/".join(h.categories)))
            entry.related.update(h.surfaces)
            lead = LEADING_CATEGORY in h.categories
            for k, clue in enumerate(h.clues):
                entry.clues.append(((-2 if lead else -1, k), clue, (), r))

    # -- 1. WordNet lemmas ---------------------------------------------------
    def lemmas(self) -> None:
        self.say("collecting lemmas")
        senses: dict[str, list[tuple[tuple, str, object, int]]] = {}
        for pos in POS:
            for lemma, tagged, offsets in self.wn.index[pos]:
                for rank, offset in enumerate(offsets):
                    syn = self.wn.synsets[pos][offset]
                    surface = next((w for w in syn.words if w.lower() == lemma), None)
                    answer = self.norm(surface) if surface is not None else None
                    if answer is None:
                        continue
                    if _ROMAN.match(surface.upper()) and any(w.isdigit() for w in syn.words):
                        continue  # XCII, "being two more than ninety"
                    key = (rank, -tagged, POS_ORDER[pos], offset)
                    senses.setdefault(answer, []).append((key, surface, syn, tagged))
        self.lemma_answers = set(senses)
        self.say(f"scoring {len(senses)} lemma answers")
        for answer in sorted(senses):
            self.lemma(answer, sorted(senses[answer], key=lambda item: (item[0], item[1])))

    def lemma(self, answer: str, items) -> None:
        kept = []
        for key, surface, syn, tagged in items:
            junk = lemma_junk(surface, syn, tagged, self.norm, self.genera)
            if junk:
                self.reject(answer, junk)
            elif self.zipf(surface.replace("_", " ")) >= self.min_zipf:
                kept.append((key, surface, syn, tagged))
        if not kept:
            return
        n_offensive = sum(syn.offensive for _, _, syn, _ in kept)
        if 2 * n_offensive >= len(kept):
            self.reject(answer, "offensive")  # mostly a slur or an obscenity
            return
        surfaces = sorted({s.replace("_", " ") for _, s, _, _ in kept})
        if self.blocklist.blocks_answer(answer, surfaces):
            self.reject(answer, "blocked")
            return
        entry = self.entry(answer)
        entry.related.update(surfaces)
        entry.related.update(s.replace("_", " ") for _, s, _, _ in items)  # junk spellings too: AIR CREW
        for _, surface, syn, _ in kept:  # DOSAGE for DOSE, URINE for URIC: no clue may use them
            entry.related.update(self.wn.relatives(syn, surface))
        flags = self.flags([syn for _, _, syn, _ in kept])
        for key, surface, syn, tagged in kept:
            if syn.offensive:
                continue
            r = entry.reading(self.lemma_reading(answer, surface, syn, tagged, flags))
            # a common synonym first (NEWT "Triton"), then the definition, then "Kind of X" (CLUE_STYLE: short beats long)
            # (a synonym of the common sense only: TORNADOES is no "Cracks")
            synonym = self.clue.synonym(syn, surface, answer) if key[0] == 0 else None
            clues = (synonym, self.clue.definition(syn, surface), self.clue.kind_of(syn))
            for kind, clue in enumerate(clues):
                if clue:
                    entry.clues.append(((0,) + key + (kind,), clue, (), r))

    def flags(self, senses) -> frozenset[str]:
        """What the senses earn their word (`pipeline.lexicon.scoring.FLAG_PENALTIES`):
        ``offensive`` if any is, the others if most senses are."""
        tests = {
            "technical": lambda syn: any(d in TECHNICAL_DOMAINS for d in self.wn.domain_names(syn)),
            "unpleasant": lambda syn: syn.offset in self.unpleasant and syn.pos == "noun",
            "archaic": lambda syn: "archaism" in self.wn.usage_names(syn),
        }
        out = {flag for flag, test in tests.items() if 2 * sum(map(test, senses)) > len(senses)}
        if any(syn.offensive for syn in senses):
            out.add("offensive")
        return frozenset(out)

    def lemma_reading(self, answer: str, surface: str, syn, tagged: int, flags) -> Reading:
        if is_initialism(surface):
            return self.scorer.abbreviation(answer, surface)
        if len(tokens(surface)) > 1:
            species = syn.lexnum in (_ANIMAL, _PLANT) and any(_LATIN.match(w) for w in syn.words)
            return self.scorer.phrase(answer, surface, tagged, syn.pos, species=species)
        if surface[:1].isupper():
            return self.scorer.name(answer, surface)
        return self.scorer.word(answer, surface, flags)

    # -- 2. inflections ------------------------------------------------------
    def inflections(self) -> None:
        """Plurals, verb forms and comparatives of plain lemmas, clued from the base."""
        self.say("inflecting nouns, verbs and adjectives")
        for pos in ("noun", "verb", "adj"):
            for lemma, _, offsets in self.wn.index[pos]:
                if not PLAIN.match(lemma):
                    continue
                own = [self.wn.synsets[pos][o] for o in offsets if lemma in self.wn.synsets[pos][o].words]
                n_offensive = sum(syn.offensive for syn in own)
                plain = [syn for syn in own if not syn.taxon and not syn.offensive]
                if not plain or 2 * n_offensive >= len(own):
                    continue
                flags = self.flags(own)
                for form, form_name, regular in self.forms(lemma, pos):
                    self.add_form(form, lemma, plain, (POS_ORDER[pos], form_name), flags, regular)

    def forms(self, lemma: str, pos: str):
        """``(form, form name, regular)`` for each inflection of a plain lemma."""
        m = self.morph
        if pos == "noun":
            regular = lemma not in m.noun_exc
            for form in m.plurals(lemma):
                # ADS from "ad", but not HAS from "ha", HIS from "hi": far commoner than their base
                if len(lemma) >= 3 or not regular or self.zipf(form) <= self.zipf(lemma) + 0.5:
                    yield form, "pl", regular
        elif pos == "verb":
            if len(lemma) < 3 and lemma not in SPECIAL_VERBS and lemma not in m.verbs:
                return
            past = m.verb_forms(lemma, "past")
            for name in FORMS:
                for form in m.verb_forms(lemma, name):
                    if not (name == "part" and form in past):  # both past and participle: clued as the past
                        yield form, name, False
        else:
            regular = lemma not in m.adj_exc
            short = syllables(lemma) == 1 or (lemma.endswith("y") and syllables(lemma) == 2)
            if regular and (len(lemma) < 3 or not short):
                return
            for suffix in ("er", "est"):
                for form in m.graded(lemma, suffix):
                    yield form, suffix, regular

    def add_form(self, form: str, base: str, base_senses, key_tail: tuple, flags, regular: bool) -> None:
        """Clue ``form`` (an inflection of ``base``) from up to 3 of the base's senses."""
        answer = self.norm(form)
        if answer is None or answer == self.norm(base):
            return
        if regular and key_tail[-1] in ("er", "est") and form in self.all_lemmas:
            return  # LIVER, MATTER are not "more live", "more mat": their own senses clue them
        z = self.zipf(form)
        if not attested(answer, self.scowl, z):
            self.reject(answer, "unattested")  # KINS, AALIIS, INFORMATIONS
            return
        if z < self.min_zipf:
            return
        clues = []
        for rank, syn in enumerate(base_senses):
            made = self.clue.form_definition(syn, key_tail[-1])
            for kind, text in enumerate((made, self.clue.related_form(syn, base, key_tail[-1]))):
                clue = finish_clue(text) if text else None
                if clue and not clue_leaks(clue, answer, (base, form)):
                    clues.append(((1, rank, kind) + key_tail + (base, syn.offset), clue, (base, form)))
            if len(clues) >= 3:
                break
        if not clues:
            return
        if answer not in self.entries and self.blocklist.blocks_answer(answer):
            self.reject(answer, "blocked")
            return
        self.derived_answers.add(answer)
        entry = self.entry(answer)
        r = entry.reading(self.scorer.inflection(answer, form, base, key_tail[-1], flags))
        entry.clues.extend((key, clue, extra, r) for key, clue, extra in clues)

    # -- 3. fill-in-the-blanks -----------------------------------------------
    def blanks(self) -> None:
        """Clues from WordNet's usage examples ("He ___ the steering wheel") and
        multi-word lemmas ("Uric ___", "___ Turing"); they clue answers made
        above and bring in new ones: function words, contractions, name parts."""
        self.say("making fill-in-the-blank clues")
        blanks: dict[str, list[tuple[tuple, str, str]]] = {}
        epithets: set[str] = set()
        for pos in POS:
            for offset in sorted(self.wn.synsets[pos]):
                syn = self.wn.synsets[pos][offset]
                if syn.offensive:
                    continue
                for k, example in enumerate(gloss_examples(syn.gloss)):
                    for answer, clue, word in example_blanks(example, self.norm):
                        blanks.setdefault(answer, []).append(((1, len(clue), POS_ORDER[pos], offset, k), clue, word))
        for pos in POS:
            for lemma, tagged, offsets in self.wn.index[pos]:
                if "_" not in lemma:
                    continue
                syn = self.wn.synsets[pos][offsets[0]]
                surface = next((w for w in syn.words if w.lower() == lemma), None)
                if surface is None or syn.offensive:
                    continue
                if syn.lexnum in (_ANIMAL, _PLANT) and surface[:1].isupper():
                    if is_binomial(surface, self.genera):  # Otis tarda: no TARDA, and say why
                        epithets.update(answer for answer, _, _ in phrase_blanks(surface, self.norm))
                    continue  # nor LEMMING from "European ___"
                if lemma_junk(surface, syn, tagged, self.norm, self.genera):
                    continue
                z = self.zipf(surface.replace("_", " "))
                for answer, clue, word in phrase_blanks(surface, self.norm):
                    blanks.setdefault(answer, []).append(((0, -z, -tagged, POS_ORDER[pos], lemma), clue, word))
        for answer in sorted(epithets - set(blanks)):
            if answer not in self.entries and answer not in self.lemma_answers:
                self.reject(answer, "epithet")
        for answer in sorted(blanks):
            options = sorted(blanks[answer])
            entry = self.entries.get(answer)
            if entry is None:
                if answer in self.lemma_answers or answer in self.derived_answers:
                    continue  # a lemma or inflection left out above (a slur, junk) stays out
                word = options[0][2]
                z = self.zipf(word)
                if z < self.min_zipf or not known_word(answer, self.scowl, z):
                    self.reject(answer, "unknown-word")  # NAU, SGA, LLEW
                    continue
                if self.blocklist.blocks_answer(answer):
                    self.reject(answer, "blocked")
                    continue
                entry = self.entry(answer)
                keep = _MAX_BLANKS_NEW
                r = entry.reading(self.scorer.blank(answer, options[0][2]))
            else:  # the blanks clue an entry already read another way: its best reading
                keep = _MAX_BLANKS
                r = max(range(len(entry.readings)), key=lambda i: (entry.readings[i].score, -i))
            for key, clue, _ in options[:keep]:
                entry.clues.append(((2,) + key, clue, (), r))

    # -- 4. clues checked, scores given --------------------------------------
    def finish(self):
        """``(words, clues, grades)``: scores, kept clue lines and the grade lines."""
        self.say(f"checking clues of {len(self.entries)} answers")
        words: dict[str, int] = {}
        clues: dict[str, list[str]] = {}
        grades: dict[str, str] = {}
        self.leaks = self.blocked_clues = self.fact_clued = 0
        for answer in sorted(self.entries):
            entry = self.entries[answer]
            ranked = sorted(entry.clues, key=lambda c: (c[0][0] >= 0, -entry.readings[c[3]].score, c[0]))
            own, facts = self.house_clues.get(answer), self.facts.get(answer, ())
            top = max(range(len(entry.readings)), key=lambda i: (entry.readings[i].score, -i))
            # the house clues, the house list's, GeoNames' facts, then WordNet's; the house clues and facts
            # count for the reading the list scores highest
            own_lines = [((-3, k), clue, own.surfaces, top) for k, clue in enumerate(own.clues)] if own else []
            name = entry.readings[top].kind in ("name", "house")  # a place's name: a straight fact; MOBILE: hard
            fact_lines = [((-3, 100 + k), tag_level(clue, "easy" if name and kind == "place" else "hard"), (), top)
                          for k, (kind, clue) in enumerate(facts)]  # fmt: skip
            self.fact_clued += bool(facts)
            house_list = [c for c in ranked if c[0][0] < 0]
            ranked = own_lines + house_list + fact_lines + ranked[len(house_list) :]
            limit = MAX_CLUES + len(own_lines) + len(fact_lines) + (len(house_list) if facts else 0)
            kept: list[str] = []
            clued: set[int] = set()
            seen: set[str] = set()
            related = sorted(entry.related)
            clean = []  # (rare, text, level, r): the clues that pass the leak and blocklist checks
            for key, clue, extra, r in ranked:
                level, text = clue_level(clue) if key[0] < 0 else (_generated_level(key), clue)
                if clue_key(text) in seen:
                    continue
                if clue_leaks(text, answer, related + list(extra)):
                    self.leaks += 1
                    continue
                if self.blocklist.blocks_clue(text):
                    self.blocked_clues += 1
                    continue
                seen.add(clue_key(text))
                clean.append((_rare(key), text, level, r))
                if sum(not c[0] for c in clean) == limit:
                    break
            keep_rare = all(rare for rare, _, _, _ in clean)  # a sense no one tagged, after the first: if nothing else
            for rare, text, level, r in clean:
                if rare and not keep_rare:
                    continue
                kept.append(tag_level(text, level))
                clued.add(r)
                if len(kept) == limit:
                    break
            if not kept:
                self.rejected[answer] = "no-clue"
                continue
            best = max(clued, key=lambda r: (entry.readings[r].score, -r))
            words[answer] = entry.readings[best].score
            clues[answer] = kept
            grades[answer] = _grade_line(answer, words[answer], entry.readings, best)
        for answer, reason in self.rejected.items():
            grades[answer] = f"{answer}\t-\trejected\t{reason}: {JUNK[reason]}"
        return words, clues, grades


def _rare(key: tuple) -> bool:
    """A WordNet lemma clue of a later sense that SemCor never tagged (WordNet's sense count 0): TILL
    "Glacial soil" is for no puzzle when the word has a commoner sense to clue."""
    return key[0] == 0 and key[1] > 0 and key[2] == 0


def _generated_level(key: tuple) -> str:
    """A WordNet clue's level from its sort key: a later sense (rank > 0) of a lemma or an inflection is hard."""
    return "hard" if key[0] in (0, 1) and key[1] > 0 else "easy"


def default_unpleasant_path() -> Path:
    """The packaged breakfast-table list, ``pipeline/data/unpleasant.txt``."""
    return default_blocklist_path().with_name("unpleasant.txt")


def _grade_line(answer: str, score: int, readings: list[Reading], best: int) -> str:
    """``ANSWER  score  reading  why`` (tab-separated), the best reading first."""
    order = [best] + [i for i in range(len(readings)) if i != best]
    why = "; ".join(f"{readings[i].kind} {readings[i].score}: {readings[i].why}" for i in order)
    return f"{answer}\t{score}\t{readings[best].kind}\t{why}"


def build_lexicon(
    out_dir,
    wordnet_dir=None,
    scowl_dir=None,
    house_dir=None,
    min_length=3,
    max_length=15,
    min_zipf=DEFAULT_MIN_ZIPF,
    blocklist: Blocklist | None = None,
    unpleasant=None,
    progress=None,
) -> dict:
    """Build the default word list and clue shards from the house list, WordNet, SCOWL and wordfreq.

    Parameters
    ----------
    out_dir : str or os.PathLike
        Written, each atomically (the folder is created): ``wordlist.txt``,
        ``clues/_xx.txt``, ``grades.tsv`` (every candidate's score and
        signals, or why it was left out: what ``xw wordlist grade``
        prints), ``LICENSE-WordNet.txt``, ``LICENSE-SCOWL.txt``,
        ``LICENSE-house.txt`` and ``NOTICE.txt``.
    wordnet_dir, scowl_dir, house_dir : str or os.PathLike, optional
        The WordNet 3.0 database, SCOWL's lists and the house list; found
        by `find_wordnet`, `find_scowl` and `default_house_dir` if not given.
    min_length, max_length : int
        Answer lengths kept (after normalising to A-Z).
    min_zipf : float
        wordfreq Zipf frequency a WordNet candidate needs (`DEFAULT_MIN_ZIPF`).
    blocklist : Blocklist, optional
        Words no answer or clue may be (default: the packaged list).
    unpleasant : str or os.PathLike, optional
        Words a daily paper keeps to corners, scored down (default: the
        packaged ``pipeline/data/unpleasant.txt``).
    progress : callable, optional
        Called with a short message at each step.

    Returns
    -------
    dict
        ``entries``, ``by_length`` ({length: count}), ``by_band`` (entries
        scoring 50+, 30-49, under 30), ``fine_by_length`` (50+ by length),
        ``house_entries``, ``house_clue_answers`` (answers the house clues
        clue), ``house_clues_unused`` (their answers the build does not
        have), ``clue_lines``, ``rejected`` ({reason: count}),
        ``leaks_dropped``, ``blocked_clues``, ``lookups`` (wordfreq
        calls) and ``seconds``.

    Raises
    ------
    InputError
        A source is missing or incomplete (with an install hint), or one of
        its files is malformed (naming the file and line).

    Notes
    -----
    One pass over each WordNet file and SCOWL list, one cached wordfreq
    lookup per distinct candidate, one leak check per clue: about 40 s on
    one core.  The output depends only on the inputs: every collection is
    sorted before writing.  Scores: `pipeline.lexicon.scoring`; what is
    left out: `pipeline.lexicon.normalise`.
    """
    started = time.perf_counter()
    say = progress or (lambda message: None)
    out_dir = Path(out_dir)
    wordnet = WordNet(find_wordnet(wordnet_dir), progress=say)
    say("reading SCOWL")
    scowl = Scowl(find_scowl(scowl_dir))
    house_dir = Path(house_dir) if house_dir is not None else default_house_dir()
    say("reading the house list")
    house = read_house(house_dir)
    house_clues = read_house_clues(house_dir)
    zipf, zcache = zipf_lookup()
    blocklist = blocklist if blocklist is not None else load_blocklists([DEFAULT_BLOCKLIST])
    unpleasant = Blocklist.read(unpleasant if unpleasant is not None else default_unpleasant_path())
    norm = Normaliser(min_length, max_length)
    say("reading GeoNames' places")
    facts = place_facts(norm)
    build = _Build(wordnet, scowl, zipf, house, house_clues, facts, blocklist, unpleasant, norm, min_zipf, say)
    build.house_entries()
    build.lemmas()
    build.inflections()
    build.blanks()
    words, clues, grades = build.finish()

    say(f"writing {len(words)} entries")
    write_wordlist(out_dir / "wordlist.txt", words)
    paths = write_shards(out_dir / "clues", clues)
    for stale in sorted(set((out_dir / "clues").glob("_*.txt")) - set(paths)):
        if is_shard_name(stale.name):
            stale.unlink()  # left by an earlier build with other answers
    with atomic_write(out_dir / "grades.tsv") as f:
        f.write("# answer\tscore\treading\tsignals (the scored reading first), or why it was left out\n")
        for answer in sorted(grades):
            f.write(grades[answer] + "\n")
    write_bytes(out_dir / "LICENSE-WordNet.txt", license_path(wordnet.folder).read_bytes())
    write_bytes(out_dir / "LICENSE-SCOWL.txt", scowl.license_text())
    write_bytes(out_dir / "LICENSE-house.txt", (house_dir / "LICENSE").read_bytes())
    write_text(out_dir / "NOTICE.txt", _notice())

    by_length: dict[int, int] = {}
    fine_by_length: dict[int, int] = {}
    by_band = {"fine": 0, "corner": 0, "avoid": 0}
    for w, s in words.items():
        by_length[len(w)] = by_length.get(len(w), 0) + 1
        by_band[band(s)] += 1
        if s >= 50:
            fine_by_length[len(w)] = fine_by_length.get(len(w), 0) + 1
    rejected: dict[str, int] = {}
    for reason in build.rejected.values():
        rejected[reason] = rejected.get(reason, 0) + 1
    return {
        "entries": len(words),
        "by_length": dict(sorted(by_length.items())),
        "by_band": by_band,
        "fine_by_length": dict(sorted(fine_by_length.items())),
        "house_entries": sum(1 for a in house if a in words),
        "house_clue_answers": sum(1 for a in house_clues if a in words),
        "house_clues_unused": sorted(a for a in house_clues if a not in build.entries),
        "fact_answers": build.fact_clued,
        "clue_lines": sum(len(c) for c in clues.values()),
        "rejected": dict(sorted(rejected.items())),
        "leaks_dropped": build.leaks,
        "blocked_clues": build.blocked_clues,
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
        "House list: entries, scores and clues written by the xwbook authors,\n"
        "dedicated to the public domain under CC0 1.0 (LICENSE-house.txt).\n"
        "\n"
        "Answers and clues: WordNet 3.0, Copyright 2006 by Princeton University.\n"
        "All rights reserved. Used under the WordNet 3.0 licence, reproduced in\n"
        "LICENSE-WordNet.txt beside this file, which must accompany any copy.\n"
        "Clues are WordNet glosses, shortened and in places inflected.\n"
        "\n"
        f"Scores: computed at build time from wordfreq{wf} by Robyn Speer\n"
        "(https://github.com/rspeer/wordfreq); wordfreq's data is licensed\n"
        "CC BY-SA 4.0 (https://creativecommons.org/licenses/by-sa/4.0/),\n"
        "and from SCOWL (Spell Checker Oriented Word Lists), Copyright 2000-2011\n"
        "by Kevin Atkinson, used under its permission notice, reproduced with\n"
        "its sources' notices in LICENSE-SCOWL.txt.\n"
        "No scores are stored in the project's source; they are built at run time.\n"
        "\n"
        f"{FACTS_ATTRIBUTION}\n"
    )
