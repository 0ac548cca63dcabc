"""Stage 3: keep the patterns whose statistics fit the book, and tabulate them.

Constructors judge a pattern by a few numbers: how many words (slots) it
has, how many black squares, how long its entries are and how many are
3-letter fill.  American newspapers cap a 15x15 themed grid at 78 words and
about 40 blacks (one sixth of the grid), which are the defaults here.

Every input pattern gets a row in a tab-separated stats table, with
``kept`` ``yes``/``no`` and, when dropped, every reason (``words 80 > 78``).

Two further screens are optional: a *style* (``american``, ``british``)
adds each rule the pattern breaks (:func:`pipeline.model.rules.rule_violations`),
and a *word list* drops a pattern with more slots of some length than the
list has distinct words of that length (:func:`prescreen`), since no word
may appear twice in a grid.
"""

from __future__ import annotations

from collections import Counter

from .model.errors import InputError
from .model.fileio import atomic_write
from .model.grid import Grid, grid_lines
from .model.hexcodec import encode_grid, read_pattern_file
from .model.rules import STYLES, rule_violations, rules_by_size
from .model.wordlist import read_wordlist

__all__ = [
    "STATS_COLUMNS",
    "BOUNDABLE",
    "pattern_stats",
    "check_pattern",
    "prescreen",
    "filter_patterns",
    "parse_bound",
]

#: Columns of the stats table, in order.
STATS_COLUMNS = (
    "line",
    "hex",
    "rows",
    "cols",
    "words",
    "across",
    "down",
    "blacks",
    "whites",
    "black_pct",
    "min_len",
    "max_len",
    "mean_len",
    "three_letter",
    "unchecked",
    "cheaters",
    "max_black_run",
    "checked_min",
    "open_square",
    "lengths",
    "kept",
    "reason",
)


#: The numeric statistics a filter may bound (``--bound STAT=MIN:MAX``).
BOUNDABLE = (
    "words", "across", "down", "blacks", "whites", "black_pct", "min_len", "max_len", "mean_len",
    "three_letter", "unchecked", "cheaters", "max_black_run", "checked_min", "open_square",
)

# A pattern that breaks a style's rules can break them hundreds of times; list this many.
_MAX_RULE_REASONS = 5


def _runs(cells: list[bool]) -> list[int]:
    """Lengths of the runs of True in ``cells``."""
    out, n = [], 0
    for c in cells:
        if c:
            n += 1
        elif n:
            out.append(n)
            n = 0
    if n:
        out.append(n)
    return out


def _white_run(grid: Grid, r: int, c: int, dr: int, dc: int) -> int:
    """White cells from (r, c) stepping (dr, dc), up to the first black or the edge."""
    n = 0
    r, c = r + dr, c + dc
    while 0 <= r < grid.rows and 0 <= c < grid.cols and not grid.is_black(r * grid.cols + c):
        n += 1
        r, c = r + dr, c + dc
    return n


def _cheaters(grid: Grid) -> int:
    """Black squares that add no word: whitening one would leave the word
    count as it is and give a checked cell (white neighbours across and
    down), the L and T corners constructors call cheaters."""
    count = 0
    for i in range(grid.rows * grid.cols):
        if not grid.is_black(i):
            continue
        r, c = divmod(i, grid.cols)
        left, right = _white_run(grid, r, c, 0, -1), _white_run(grid, r, c, 0, 1)
        up, down = _white_run(grid, r, c, -1, 0), _white_run(grid, r, c, 1, 0)
        if not (left or right) or not (up or down):
            continue
        before = (left >= 2) + (right >= 2) + (up >= 2) + (down >= 2)
        if before == 2:  # after whitening: one across word and one down word
            count += 1
    return count


def _open_square(grid: Grid) -> int:
    """Side of the largest all-white square block of cells."""
    # side[c]: the largest white square whose bottom-right corner is (row, c),
    # one row at a time: the classic O(rows * cols) recurrence on the cells to
    # the left, above and above-left.
    best = 0
    above = [0] * (grid.cols + 1)
    for r in range(grid.rows):
        side = [0] * (grid.cols + 1)
        for c in range(grid.cols):
            if not grid.is_black(r * grid.cols + c):
                side[c + 1] = 1 + min(side[c], above[c], above[c + 1])
                best = max(best, side[c + 1])
        above = side
    return best


def pattern_stats(grid: Grid) -> dict:
    """The numbers a constructor looks at.

    Parameters
    ----------
    grid : Grid
        A pattern (letters, if any, are ignored).

    Returns
    -------
    dict
        ``rows``, ``cols``; ``words`` (slots), ``across``, ``down``;
        ``blacks``, ``whites``, ``black_pct`` (percent of cells, 1
        decimal); ``min_len``, ``max_len``, ``mean_len`` (2 decimals; all 0
        without slots); ``three_letter`` (3-letter slots); ``unchecked``
        (white cells in fewer than two slots); ``cheaters`` (black squares
        that add no word: whitening one keeps the word count and makes a
        checked cell); ``max_black_run`` (the longest run of blacks in a row
        or column); ``checked_min``, the lowest share of checked letters
        (in an across and a down word) of any word (2 decimals; 1.0 when
        every letter is checked, 0.0 without words); ``open_square``, the
        side of the largest all-white square block (hard to fill from 4
        up); ``lengths``, the slot length histogram ``"3:12,4:20,..."`` in
        length order.

    Notes
    -----
    One pass over the slots, O(rows * cols); ``open_square`` by dynamic
    programming over the cells, O(rows * cols).

    Examples
    --------
    >>> from pipeline.model.grid import parse_grid
    >>> s = pattern_stats(parse_grid("...\\n...\\n..."))
    >>> s["words"], s["blacks"], s["lengths"]
    (6, 0, '3:6')
    >>> pattern_stats(parse_grid("#...\\n....\\n....\\n...#"))["cheaters"]  # corner blocks add no word
    2
    >>> s = pattern_stats(parse_grid("..#..\\n.....\\n.....\\n.....\\n..#.."))
    >>> s["cheaters"], s["max_black_run"], s["checked_min"], s["open_square"]
    (0, 1, 1.0, 3)
    >>> s = pattern_stats(parse_grid(".....\\n.#.#.\\n.....\\n.#.#.\\n....."))  # every other letter checked
    >>> s["checked_min"], s["open_square"]
    (0.6, 1)
    """
    slots = grid.slots()
    lengths = [s.length for s in slots]
    n = grid.rows * grid.cols
    blacks = grid.black_count()
    hist = Counter(lengths)
    per_cell = Counter(c for s in slots for c in s.cells)
    whites = n - blacks
    unchecked = sum(1 for i in range(n) if not grid.is_black(i) and per_cell[i] < 2)
    across = sum(1 for s in slots if s.direction == "across")
    return {
        "rows": grid.rows,
        "cols": grid.cols,
        "words": len(slots),
        "across": across,
        "down": len(slots) - across,
        "blacks": blacks,
        "whites": whites,
        "black_pct": round(100.0 * blacks / n, 1) if n else 0.0,
        "min_len": min(lengths, default=0),
        "max_len": max(lengths, default=0),
        "mean_len": round(sum(lengths) / len(lengths), 2) if lengths else 0.0,
        "three_letter": hist.get(3, 0),
        "unchecked": unchecked,
        "cheaters": _cheaters(grid),
        "max_black_run": max(
            (n for line in grid_lines(grid.rows, grid.cols) for n in _runs([grid.is_black(i) for i in line])),
            default=0,
        ),
        "checked_min": round(
            min((sum(per_cell[c] >= 2 for c in s.cells) / s.length for s in slots), default=0.0), 2
        ),
        "open_square": _open_square(grid),
        "lengths": ",".join(f"{k}:{hist[k]}" for k in sorted(hist)),
    }


def parse_bound(text: str) -> tuple[str, float | None, float | None]:
    """``"STAT=MIN:MAX"`` (either side may be empty) as ``(stat, min, max)``.

    Raises
    ------
    InputError
        On an unknown statistic or a bound that is not a number.

    Examples
    --------
    >>> parse_bound("three_letter=:16")
    ('three_letter', None, 16.0)
    >>> parse_bound("mean_len=4.8:")
    ('mean_len', 4.8, None)
    """
    stat, eq, rng = text.partition("=")
    lo, colon, hi = rng.partition(":")
    if not eq or not colon:
        raise InputError(f"bound {text!r}: write STAT=MIN:MAX, e.g. three_letter=:16")
    if stat not in BOUNDABLE:
        raise InputError(f"bound {text!r}: no statistic {stat!r}; one of {', '.join(BOUNDABLE)}")
    try:
        lo_v = float(lo) if lo.strip() else None
        hi_v = float(hi) if hi.strip() else None
    except ValueError:
        raise InputError(f"bound {text!r}: MIN and MAX must be numbers") from None
    return stat, lo_v, hi_v


def check_pattern(
    stats: dict,
    max_words: int | None = 78,
    max_blacks: int | None = 40,
    min_words: int = 0,
    min_blacks: int = 0,
    max_three_letter: int | None = None,
    min_mean_length: float | None = None,
    max_unchecked: int | None = None,
    bounds=(),
) -> list[str]:
    """Why a pattern with these stats fails the limits (empty when it passes).

    Parameters
    ----------
    stats : dict
        From :func:`pattern_stats`.
    max_words, max_blacks, min_words, min_blacks, max_three_letter,
    min_mean_length, max_unchecked
        The limits; ``None`` means no limit.
    bounds : iterable of (stat, min, max)
        Further limits on any statistic of :data:`BOUNDABLE`, as made by
        :func:`parse_bound`; ``None`` for an open side.

    Returns
    -------
    list of str
        One reason per limit broken, e.g. ``"words 80 > 78"``.
    """
    reasons = []

    def above(key, limit):
        if limit is not None and stats[key] > limit:
            reasons.append(f"{key} {stats[key]} > {limit}")

    def below(key, limit):
        if limit is not None and stats[key] < limit:
            reasons.append(f"{key} {stats[key]} < {limit}")

    above("words", max_words)
    below("words", min_words)
    above("blacks", max_blacks)
    below("blacks", min_blacks)
    above("three_letter", max_three_letter)
    below("mean_len", min_mean_length)
    above("unchecked", max_unchecked)
    for stat, lo, hi in bounds:
        below(stat, _number(lo))
        above(stat, _number(hi))
    return reasons


def prescreen(slot_lengths: Counter, word_lengths: Counter) -> list[str]:
    """Slot lengths a word list cannot supply without repeating a word.

    A grid uses a word once at most, so a pattern with more slots of length
    ``L`` than the list has distinct words of length ``L`` cannot be
    filled from it, whatever the crossings.

    Parameters
    ----------
    slot_lengths : Counter
        Length -> the pattern's slots of that length.
    word_lengths : Counter
        Length -> the list's words of that length.

    Returns
    -------
    list of str
        One reason per short length, in length order, e.g.
        ``"prescreen: 12 3-letter slots, the list has 10 3-letter words"``.

    Examples
    --------
    >>> prescreen(Counter({3: 12, 5: 4}), Counter({3: 10, 5: 40}))
    ['prescreen: 12 3-letter slots, the list has 10 3-letter words']
    >>> prescreen(Counter({3: 12}), Counter({3: 12}))
    []

    Notes
    -----
    O(distinct slot lengths).  A necessary condition only: a pattern it
    passes may still have no fill.
    """
    return [
        f"prescreen: {k} {n}-letter slots, the list has {word_lengths[n]} {n}-letter words"
        for n, k in sorted(slot_lengths.items())
        if k > word_lengths[n]
    ]


def _number(v):
    """A whole-number bound as an int, so reasons read ``3 > 2``, not ``3 > 2.0``."""
    return int(v) if isinstance(v, float) and v.is_integer() else v


def _cell(value) -> str:
    return str(value).replace("\t", " ")


def filter_patterns(
    in_path,
    out_path,
    stats_path,
    max_words: int | None = 78,
    max_blacks: int | None = 40,
    min_words: int = 0,
    min_blacks: int = 0,
    max_three_letter: int | None = None,
    min_mean_length: float | None = None,
    max_unchecked: int | None = None,
    bounds=(),
    style: str | None = None,
    overrides: dict | None = None,
    wordlist=None,
    where: str = "pattern_rules",
) -> tuple[int, int]:
    """Keep the patterns within the limits; write them and a stats table.

    Parameters
    ----------
    in_path : path
        Hex patterns, one a line (blank lines skipped).
    out_path : path
        The kept patterns, in input order, canonical hex.
    stats_path : path
        Tab-separated table with a header line (:data:`STATS_COLUMNS`) and
        one row per input pattern: its input line number, hex, stats,
        ``kept`` (``yes``/``no``) and ``reason`` (the broken limits, rules
        and pre-screen joined by ``"; "``, each once; empty when kept).
    max_words, max_blacks, min_words, min_blacks, max_three_letter, min_mean_length, max_unchecked, bounds
        Limits, as in :func:`check_pattern`.
    style : str, optional
        A rule preset (``american``, ``british``) applied at each pattern's
        size (:func:`pipeline.model.rules.style_rules`): the first five
        rules a pattern breaks (:func:`pipeline.model.rules.rule_violations`)
        are among its reasons.  ``None`` (default): no rules.
    overrides : dict, optional
        Rule name -> value for ``style``; needs a style.
    wordlist : path, optional
        A ``WORD;score`` list (:func:`pipeline.model.wordlist.read_wordlist`),
        read once: a pattern with more slots of a length than the list has
        words of that length is dropped (:func:`prescreen`).
    where : str
        How errors name the overrides (``pattern_rules``, ``--rule``).

    Returns
    -------
    (kept, dropped) : tuple of int

    Raises
    ------
    InputError
        On a missing file or a bad hex line, naming file and line, a bad
        word list line, an unknown style or rule or a bad rule value
        (naming the rule), or rules that cannot apply to a pattern's size
        (naming file and line); nothing is written then.

    Notes
    -----
    Both outputs are written atomically, O(patterns * rows * cols) (times
    the articulation points with the british ``no_cut_cell`` rule).
    """
    limits = dict(
        max_words=max_words,
        max_blacks=max_blacks,
        min_words=min_words,
        min_blacks=min_blacks,
        max_three_letter=max_three_letter,
        min_mean_length=min_mean_length,
        max_unchecked=max_unchecked,
        bounds=list(bounds),
    )
    if style is None and overrides:
        raise InputError(f"{where}: rules need a style to apply to ({', '.join(STYLES)})")
    if style is not None:
        rules_at = rules_by_size(style, overrides, where)
    supply = None if wordlist is None else Counter(len(w) for w in read_wordlist(wordlist))
    rows = []
    kept = []
    for lineno, line, grid in read_pattern_file(in_path):
        hexline = encode_grid(grid)
        stats = pattern_stats(grid)
        reasons = check_pattern(stats, **limits)
        if style is not None:
            reasons += rule_violations(grid, rules_at(grid.rows, grid.cols, in_path, lineno), limit=_MAX_RULE_REASONS)
        if supply is not None:
            reasons += prescreen(Counter(s.length for s in grid.slots()), supply)
        reasons = list(dict.fromkeys(reasons))  # a style's word cap can repeat a limit's reason
        if not reasons:
            kept.append(hexline)
        row = {"line": lineno, "hex": hexline, **stats, "kept": "no" if reasons else "yes", "reason": "; ".join(reasons)}
        rows.append("\t".join(_cell(row[c]) for c in STATS_COLUMNS))
    with atomic_write(stats_path) as f:
        f.write("\t".join(STATS_COLUMNS) + "\n")
        for r in rows:
            f.write(r + "\n")
    with atomic_write(out_path) as f:
        for h in kept:
            f.write(h + "\n")
    return len(kept), len(rows) - len(kept)
