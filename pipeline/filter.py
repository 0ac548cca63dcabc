"""Stage 3: keep the patterns whose statistics fit the book, and tabulate them.

Constructors judge a pattern by a few numbers: how many words (slots) it
has, how many black squares, how long its entries are and how many are
3-letter fill.  American newspapers cap a 15x15 themed grid at 78 words and
about 40 blacks (one sixth of the grid), which are the defaults here.

Every input pattern gets a row in a tab-separated stats table, with
``kept`` ``yes``/``no`` and, when dropped, every reason (``words 80 > 78``).
"""

from __future__ import annotations

from collections import Counter

from .model.fileio import atomic_write
from .model.grid import Grid
from .model.hexcodec import encode_grid, read_pattern_file

__all__ = ["STATS_COLUMNS", "pattern_stats", "check_pattern", "filter_patterns"]

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
    "lengths",
    "kept",
    "reason",
)


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
        (white cells in fewer than two slots); ``lengths``, the slot length
        histogram ``"3:12,4:20,..."`` in length order.

    Notes
    -----
    One pass over the slots, O(rows * cols).

    Examples
    --------
    >>> from pipeline.model.grid import parse_grid
    >>> s = pattern_stats(parse_grid("...\\n...\\n..."))
    >>> s["words"], s["blacks"], s["lengths"]
    (6, 0, '3:6')
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
        "lengths": ",".join(f"{k}:{hist[k]}" for k in sorted(hist)),
    }


def check_pattern(
    stats: dict,
    max_words: int | None = 78,
    max_blacks: int | None = 40,
    min_words: int = 0,
    min_blacks: int = 0,
    max_three_letter: int | None = None,
    min_mean_length: float | None = None,
    max_unchecked: int | None = None,
) -> list[str]:
    """Why a pattern with these stats fails the limits (empty when it passes).

    Parameters
    ----------
    stats : dict
        From :func:`pattern_stats`.
    max_words, max_blacks, min_words, min_blacks, max_three_letter,
    min_mean_length, max_unchecked
        The limits; ``None`` means no limit.

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
    return reasons


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
        ``kept`` (``yes``/``no``) and ``reason`` (the broken limits joined
        by ``"; "``, empty when kept).
    max_words, max_blacks, min_words, min_blacks, max_three_letter, min_mean_length, max_unchecked
        Limits, as in :func:`check_pattern`.

    Returns
    -------
    (kept, dropped) : tuple of int

    Raises
    ------
    InputError
        On a missing file or a bad hex line, naming file and line; nothing
        is written then.

    Notes
    -----
    Both outputs are written atomically, O(patterns * rows * cols).
    """
    limits = dict(
        max_words=max_words,
        max_blacks=max_blacks,
        min_words=min_words,
        min_blacks=min_blacks,
        max_three_letter=max_three_letter,
        min_mean_length=min_mean_length,
        max_unchecked=max_unchecked,
    )
    rows = []
    kept = []
    for lineno, line, grid in read_pattern_file(in_path):
        hexline = encode_grid(grid)
        stats = pattern_stats(grid)
        reasons = check_pattern(stats, **limits)
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
