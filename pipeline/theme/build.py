"""The theme stage: theme sets, a pattern locked around each, a fill check; themed candidates out.

For a grid size, :func:`make_themes`:

1. finds every theme group: the hand-written sets first
   (:mod:`pipeline.theme.handwritten`), in a seeded shuffle, then the
   WordNet-derived ones (:class:`pipeline.theme.source.ThemeSource`) in a
   seeded shuffle weighted to the better groups;
2. takes from each group, in that order, its best set that fits the grid
   (:func:`pipeline.theme.sets.choose_set`) and shares no entry with an
   earlier set: this is the run's *enumeration*, the same for every part, so
   set ``i`` going to part ``i % parts`` gives two parts of one run neither
   the same set nor the same entry;
3. for each of its part's sets in turn, tries a few layouts
   (:func:`pipeline.theme.place.layouts`) and a few patterns a layout
   (:func:`pipeline.patterns.generate_patterns` with the theme slots
   locked and ``max_slot_length`` one under the shortest theme entry), and
   keeps the first pattern the filler fills, theme letters given, within a
   node budget (:func:`pipeline.fill.quality.fill_best`): a themed candidate
   known to fill.  The candidate holds only the theme letters; the fill
   stage fills the rest.

Everything random is seeded from the run's seed with
:func:`pipeline.model.seeds.derive_seed`, and the filler's budget is
counted in words tried, so the same arguments give the same file.
"""

from __future__ import annotations

import dataclasses
import random
import time
from dataclasses import dataclass, field

from ..model.errors import InputError
from ..model.progress import Progress
from ..model.rules import Rules, style_rules
from ..model.seeds import derive_seed
from ..model.themes import ThemedCandidate, theme_slots
from ..patterns import iter_patterns
from .place import layouts, theme_grid, theme_problems
from .sets import ThemeGroup, ThemeSet, choose_set, theme_lengths

__all__ = ["Attempt", "enumerate_sets", "themed_rules", "attempt_set", "make_themes", "DEFAULT_MAX_NODES"]

#: Words the filler may try on one pattern before the next pattern is tried.
DEFAULT_MAX_NODES = 3000
#: Layouts tried per set, and patterns per layout.
LAYOUTS_PER_SET = 8
PATTERNS_PER_LAYOUT = 2


@dataclass
class Attempt:
    """One theme set's attempt: the candidate made (or None) and what it cost.

    Attributes
    ----------
    tset : ThemeSet
    candidate : ThemedCandidate or None
    seconds : float
        Wall clock of the whole attempt (patterns and fills).
    patterns, nodes : int
        Patterns generated, and words the filler tried over all of them.
    fill : Grid or None
        The fill that proved the candidate fills.
    """

    tset: ThemeSet
    candidate: ThemedCandidate | None = None
    seconds: float = 0.0
    patterns: int = 0
    nodes: int = 0
    fill: object = None
    notes: list = field(default_factory=list)


def _weight(group: ThemeGroup) -> float:
    """A group's pull in the shuffle: the mean quality of its best three entries over 40."""
    best = [q for _, q in group.pool[:3]]
    return max(1.0, sum(best) / len(best) - 40.0)


def enumerate_sets(groups, rows: int, cols: int, seed: int, first=()) -> list[ThemeSet]:
    """The run's theme sets, in order: one per group at most, no entry in two sets, no title twice.

    The ``first`` groups (the hand-written ones) come first, in a seeded
    shuffle; then ``groups``, ordered by a seeded shuffle weighted by
    :func:`_weight` (key ``u ** (1 / w)``, Efraimidis and Spirakis), so better
    groups tend to come first and every seed gives another order.  A group
    whose title an earlier set has (a WordNet "___ Store" after the
    hand-written one) is left out.
    """
    hand = sorted(first, key=lambda g: g.key)
    random.Random(derive_seed(seed, "theme-hand-sets", rows, cols)).shuffle(hand)
    rng = random.Random(derive_seed(seed, "theme-sets", rows, cols))
    keyed = sorted(((rng.random() ** (1.0 / _weight(g)), g.key, g) for g in sorted(groups, key=lambda g: g.key)),
                   key=lambda t: (-t[0], t[1]))  # fmt: skip
    used: set[str] = set()
    titles: set[str] = set()
    out = []
    for group in hand + [g for _, _, g in keyed]:
        if group.title in titles:
            continue
        tset = choose_set(group, rows, cols, used)
        if tset is None:
            continue
        used.update(tset.entries)
        titles.add(tset.title)
        out.append(tset)
    return out


def themed_rules(rules: Rules, tset: ThemeSet) -> Rules:
    """``rules`` with ``max_slot_length`` one under the shortest theme entry (or the rules' own, if lower)."""
    cap = min(len(e) for e in tset.entries) - 1
    if rules.max_slot_length is not None:
        cap = min(cap, rules.max_slot_length)
    return dataclasses.replace(rules, max_slot_length=cap)


def attempt_set(tset: ThemeSet, rows: int, cols: int, rules: Rules, index, seed: int, *, style: str = "american",
                fill_min_score: float | None = 35.0, max_nodes: int = DEFAULT_MAX_NODES, timeout: float = 30.0,
                layouts_per_set: int = LAYOUTS_PER_SET, patterns_per_layout: int = PATTERNS_PER_LAYOUT) -> Attempt:  # fmt: skip
    """Try to make a themed candidate of ``tset``: layouts, patterns, a fill check each.

    Parameters
    ----------
    rules : Rules
        The style's rules; ``max_slot_length`` is lowered for the set (:func:`themed_rules`).
    index : pipeline.fill.index.WordIndex
        The words the fill stage may use (theme entries included).
    timeout : float
        Wall-clock safety limit of each fill; the node budget ends them first.

    Returns
    -------
    Attempt
        With the candidate of the first pattern that filled, or None.
    """
    from ..fill.quality import fill_best

    t0 = time.perf_counter()
    out = Attempt(tset)
    rules = themed_rules(rules, tset)
    for k, placed in enumerate(layouts(tset, rows, cols, derive_seed(seed, "layouts"), layouts_per_set)):
        locked = [p.slot for p in placed]
        try:
            stream = iter_patterns(rows, cols, derive_seed(seed, "patterns", k), rules, style=style, locked=locked)
            patterns = [next(stream) for _ in range(patterns_per_layout)]
        except InputError as e:  # the layout leaves no pattern: try the next
            out.notes.append(f"layout {k}: {e}")
            continue
        for j, pattern in enumerate(patterns):
            out.patterns += 1
            grid = theme_grid(pattern, placed)
            result = fill_best(grid, index, seed=derive_seed(seed, "fill", k, j), timeout=timeout, max_nodes=max_nodes,
                               improve_nodes=0, min_score=fill_min_score)  # fmt: skip
            out.nodes += result.nodes
            if result.status != "filled":
                continue
            problems = theme_problems(grid, tset.entries)
            if problems:  # the generator's locks guarantee it; a broken one is a bug, not a candidate
                raise AssertionError(f"themed grid breaks its theme: {'; '.join(problems)}")
            entries = tuple(grid.word(s) for s in theme_slots(grid, tset.entries))
            out.candidate = ThemedCandidate(grid, tset.title, tset.kind, entries)
            out.fill = result.grid
            out.seconds = time.perf_counter() - t0
            return out
    out.seconds = time.perf_counter() - t0
    return out


def make_themes(source, index, rows: int, cols: int, count: int, seed: int, *, style: str = "american",
                overrides: dict | None = None, part: int = 0, parts: int = 1, progress=None,
                fill_min_score: float | None = 35.0, max_nodes: int = DEFAULT_MAX_NODES, timeout: float = 30.0,
                attempts: list | None = None) -> list[ThemedCandidate]:  # fmt: skip
    """``count`` themed candidates for a ``rows x cols`` grid: distinct sets, no entry in two.

    Parameters
    ----------
    source : ThemeSource
        Where the theme groups come from.
    index : WordIndex
        What the fill check fills with.
    part, parts : int
        This run's section: it takes the sets ``i`` with ``i % parts == part``.
    progress : callable, optional
        Takes one-line status messages.
    attempts : list, optional
        Every :class:`Attempt` made is appended (for the bench).

    Raises
    ------
    InputError
        On a bad size, count or part, or when the sets run out before ``count`` candidates.
    """
    for name, value, low in (("rows", rows, 11), ("cols", cols, 11), ("count", count, 0), ("parts", parts, 1)):
        if not isinstance(value, int) or isinstance(value, bool) or value < low:
            raise InputError(f"{name} must be a whole number >= {low} (themed grids are 11x11 or larger), got {value!r}")
    if not 0 <= part < parts:
        raise InputError(f"part {part} is not between 0 and parts - 1 ({parts - 1})")
    if max(rows, cols) > 25:
        raise InputError(f"a {rows}x{cols} grid is too big for a themed puzzle (25 a side at most)")
    if style != "american":
        raise InputError(f"style {style!r}: themed grids are American (180-degree symmetry, across theme entries)")
    rules = style_rules(style, rows, cols, overrides or {}, where="--rule")
    if rules.symmetry != "rotational":
        raise InputError("themed grids need rotational (180-degree) symmetry")
    say = progress or (lambda line: None)
    low, high = theme_lengths(rows, cols)
    say(f"theme: finding theme sets for {rows}x{cols} (entries of {low}-{high} letters)")
    hand = source.hand_groups() if hasattr(source, "hand_groups") else []
    sets = enumerate_sets(source.groups(), rows, cols, seed, first=hand)
    mine = sets[part::parts]
    n_hand = sum(s.key.startswith("hand:") for s in sets)
    say(f"theme: {len(sets)} theme sets ({n_hand} hand-written first), {len(mine)} in part {part + 1} of {parts}")
    out: list[ThemedCandidate] = []
    if count == 0:
        return out
    done = Progress(count, progress, f"theme {rows}x{cols}")
    tried = 0
    for tset in mine:
        tried += 1
        attempt = attempt_set(tset, rows, cols, rules, index, derive_seed(seed, "theme", tset.key), style=style,
                              fill_min_score=fill_min_score, max_nodes=max_nodes, timeout=timeout)  # fmt: skip
        if attempts is not None:
            attempts.append(attempt)
        if attempt.candidate is None:
            continue
        out.append(attempt.candidate)
        done.update(len(out), f"{tset.title}: {', '.join(attempt.candidate.entries)} ({tried} sets tried)")
        if len(out) == count:
            return out
    raise InputError(
        f"only {len(out)} themed {rows}x{cols} candidates from the {len(mine)} theme sets of this part "
        f"(of {len(sets)} in all; {tried} tried); ask for fewer, use fewer parts, or lower --min-score"
    )
