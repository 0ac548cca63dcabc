"""What theme sets are found in: WordNet's phrases and categories, filtered by the word list, clues and blocklist.

:class:`ThemeSource` reads WordNet once (:class:`pipeline.lexicon.sources.WordNet`)
and judges each candidate entry:

* *usable*: in the word list at or above ``min_score``, with a clue in the
  clue shards, not blocked (:class:`pipeline.model.cluetext.Blocklist`);
* *fit for a theme*: from a WordNet sense that is no jargon (no topic
  domain: physics, statistics), not unkind or grim (WordNet's offensive
  senses, the lexicon's breakfast-table subjects and unpleasant words), not
  a taxon.

Its :meth:`ThemeSource.groups` are every group of :mod:`pipeline.theme.sets`.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path

from ..model.cluetext import Blocklist
from .sets import (CATEGORIES, ThemeGroup, category_groups, hidden_word_groups, shared_word_groups,
                   tokens_of)  # fmt: skip

__all__ = ["ThemeSource", "DEFAULT_MIN_SCORE"]

#: The theme floor: the word list caps a phrase at 45 (45 when WordNet's
#: sense-tagged corpus uses it, 38 when not), and the fill floor is 35.
DEFAULT_MIN_SCORE = 45.0

_ANIMAL, _PLANT = 5, 20


class ThemeSource:
    """Candidate theme entries and their groups.

    Parameters
    ----------
    wordnet : pipeline.lexicon.sources.WordNet
    words : dict
        The word list, ``{ENTRY: score}``.
    clued : callable
        ``clued(entry)``: whether the clue shards clue it.
    blocklist : Blocklist, optional
    min_score : float
        The theme floor (:data:`DEFAULT_MIN_SCORE`).
    familiarity : callable, optional
        A lower-case word's Zipf frequency (default: wordfreq's, as the lexicon reads it).
    unpleasant : Blocklist, optional
        Words kept out of themes (default: the lexicon's breakfast-table list).
    sets_path : path, optional
        The hand-written theme sets (default: the project's,
        :func:`pipeline.theme.handwritten.default_sets_path`); False for none.
    """

    def __init__(self, wordnet, words: dict[str, float], clued: Callable[[str], bool], blocklist: Blocklist | None = None,
                 min_score: float = DEFAULT_MIN_SCORE, familiarity=None, unpleasant: Blocklist | None = None,
                 sets_path=None):  # fmt: skip
        self.wordnet = wordnet
        self.sets_path = sets_path
        self.words = words
        self.clued = clued
        self.blocklist = blocklist
        self.min_score = min_score
        if familiarity is None:
            from ..lexicon.sources import zipf_lookup

            familiarity = zipf_lookup()[0]
        self.familiarity = familiarity
        if unpleasant is None:
            from ..lexicon.build import default_unpleasant_path

            unpleasant = Blocklist.read(default_unpleasant_path())
        self.unpleasant_words = unpleasant
        from ..lexicon.build import _UNPLEASANT

        self.grim = wordnet.hyponyms_of(_UNPLEASANT)
        self._usable: dict[str, bool] = {}
        self.uses = _sense_counts(wordnet.folder)
        self.first_sense = {lemma: offsets[0] for lemma, _, offsets in wordnet.index["noun"] if offsets}

    def usable(self, entry: str) -> bool:
        """In the list at or above the floor, clued, not blocked."""
        ok = self._usable.get(entry)
        if ok is None:
            ok = (self.words.get(entry, -1.0) >= self.min_score and self.clued(entry)
                  and not (self.blocklist and self.blocklist.blocks_answer(entry))
                  and not self.unpleasant_words.blocks_answer(entry))  # fmt: skip
            self._usable[entry] = ok
        return ok

    def hand_usable(self, entry: str) -> bool:
        """A hand-written entry's test: in the list (at any score: the editor judged it), clued, not blocked."""
        return (entry in self.words and self.clued(entry)
                and not (self.blocklist and self.blocklist.blocks_answer(entry))
                and not self.unpleasant_words.blocks_answer(entry))  # fmt: skip

    def hand_groups(self) -> list[ThemeGroup]:
        """The hand-written sets as theme groups (:mod:`pipeline.theme.handwritten`), file order; [] with none."""
        from .handwritten import hand_groups, read_sets

        if self.sets_path is False:
            return []
        return hand_groups(read_sets(self.sets_path), self.hand_usable, lambda e: self.words[e])

    def fit(self, syn) -> bool:
        """A sense fit for a theme: no jargon, nothing unkind or grim, no taxon."""
        return not (syn.offensive or syn.domains or syn.usages or syn.taxon or syn.offset in self.grim)

    def quality(self, entry: str, toks: tuple[str, ...], lemma: str = "") -> float:
        """The list's score, 5 points per Zipf of the phrase's least familiar word, 4 per doubling of its uses
        in WordNet's sense-tagged corpus."""
        uses = self.uses.get(lemma.lower(), 0)
        return self.words[entry] + 5.0 * min(self.familiarity(t.lower()) for t in toks) + 4.0 * math.log2(1 + uses)

    def _entry(self, lemma: str):
        toks = tokens_of(lemma)
        if toks is None:
            return None
        entry = "".join(toks)
        if not self.usable(entry) or any(self.unpleasant_words.blocks_answer(t) for t in toks):
            return None
        return entry, toks, self.quality(entry, toks, lemma)

    def phrases(self, max_length: int = 99) -> list[tuple[str, tuple[str, ...], float]]:
        """Usable noun phrases of two or more words from fit senses: ``(entry, words, quality)``, entry order."""
        out: dict[str, tuple[str, tuple[str, ...], float]] = {}
        for syn in self.wordnet.synsets["noun"].values():
            if not self.fit(syn):
                continue
            for lemma in syn.words:
                if "_" not in lemma and "-" not in lemma:
                    continue
                found = self._entry(lemma)
                if found is not None and len(found[0]) <= max_length and len(found[1]) >= 2:
                    out.setdefault(found[0], found)
        return [out[e] for e in sorted(out)]

    def categories(self) -> list[tuple[str, str, str, list]]:
        """For each of :data:`CATEGORIES` in WordNet: ``(root, title, head word, members)``.

        The members are the usable lemmas of every fit synset under the
        root's commonest sense (kinds and named instances, at any depth)
        whose own commonest sense it is: SNOWFLAKE is a bird (the snow
        bunting) only by its second sense, and stays out of Birds.
        """
        nouns = self.wordnet.synsets["noun"]
        senses = {lemma: offsets for lemma, _, offsets in self.wordnet.index["noun"]}
        children: dict[int, list[int]] = {}
        for syn in nouns.values():
            for h in syn.hypernyms:
                children.setdefault(h, []).append(syn.offset)
        out = []
        for root, title in CATEGORIES:
            offsets = senses.get(root.lower())
            if not offsets:
                continue
            todo, seen, found, named = list(children.get(offsets[0], ())), set(), [], []
            while todo:
                o = todo.pop()
                if o in seen:
                    continue
                seen.add(o)
                syn = nouns[o]
                todo.extend(children.get(o, ()))
                if not self.fit(syn):
                    continue
                for lemma in syn.words:
                    if self.first_sense.get(lemma.lower()) != o:  # a member by its commonest sense only
                        continue
                    got = self._entry(lemma)
                    if got is not None:
                        (named if syn.instance else found).append(got)
            head = tokens_of(root)[-1]
            # Named ones (Beethoven) or kinds (songwriter), never both in one theme.
            out.append((root, title, head, sorted(named if len(named) >= 3 else found)))
        return out

    def groups(self, kinds=("shared-first-word", "shared-last-word", "category", "hidden-word")) -> list[ThemeGroup]:
        """Every theme group of the ``kinds``, in key order."""
        out: list[ThemeGroup] = []
        phrases = None
        if any(k.startswith("shared") or k == "hidden-word" for k in kinds):
            phrases = self.phrases()
        if any(k.startswith("shared") for k in kinds):
            out += [g for g in shared_word_groups(phrases, self.familiarity) if g.kind in kinds]
        if "category" in kinds:
            out += category_groups(self.categories())
        if "hidden-word" in kinds:
            out += hidden_word_groups(phrases)
        return sorted(out, key=lambda g: g.key)


def _sense_counts(folder) -> dict[str, int]:
    """``{lemma: uses}``: how often WordNet's sense-tagged corpus uses each noun lemma (``cntlist.rev``; {} without it)."""
    path = Path(folder) / "cntlist.rev"
    out: dict[str, int] = {}
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return out
    for line in text.splitlines():
        key, _, rest = line.partition(" ")
        lemma, _, sense = key.partition("%")
        if not sense.startswith("1:"):
            continue
        try:
            count = int(rest.split()[-1])
        except (ValueError, IndexError):
            continue
        out[lemma] = out.get(lemma, 0) + count
    return out
