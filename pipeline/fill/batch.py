"""The pipeline's fill stage: fill a book's puzzles from its candidate patterns.

One job fills one book, so the word index is loaded once for all its
puzzles and no answer is used in two puzzles of the same book.  Book ``n``
of ``N`` takes every ``N``-th candidate pattern; a pattern that cannot be
filled within the budget is reported and the next one is tried.  Outputs
are written only when every puzzle of the book is filled, so a failed job
leaves nothing behind.
"""

from __future__ import annotations

import time
from pathlib import Path

from ..model.errors import InputError
from ..model.fileio import atomic_write, read_text, write_text
from ..model.hexcodec import decode_pattern, encode_grid
from ..model.seeds import derive_seed
from .index import load_index
from .search import FILLED, Filler

__all__ = ["FillShortfall", "read_candidates", "fill_book"]


class FillShortfall(Exception):
    """Too few candidate patterns could be filled for a book."""


def read_candidates(path) -> list:
    """The hex patterns of ``path``, one a line, as Grids (blank lines skipped)."""
    grids = []
    for lineno, line in enumerate(read_text(path).splitlines(), start=1):
        if line.strip():
            grids.append(decode_pattern(line, path, lineno))
    return grids


def fill_book(
    candidates_path,
    wordlist_path,
    out_paths: list,
    report_path,
    book: int,
    books: int,
    seed: int,
    timeout: float = 10.0,
    min_score=None,
    cache_dir=None,
    progress=None,
) -> dict:
    """Fill ``len(out_paths)`` puzzles for ``book`` (1-based) of ``books``.

    Parameters
    ----------
    candidates_path : path
        The encoded patterns (``.hex``), shared by all books.
    wordlist_path : path
        ``WORD;score`` list.
    out_paths : list of path
        One grid-text file per puzzle, written in order.
    report_path : path
        TSV: every candidate tried, its status, time and nodes.
    book, books : int
        This book's number and how many books share the candidates.
    seed : int
        The run's seed; each attempt's seed is derived from it.
    timeout : float
        Seconds allowed per pattern.

    Returns
    -------
    dict
        ``filled``, ``tried``, ``unfillable``, ``timeout``, ``seconds``, ``load_seconds``.

    Raises
    ------
    FillShortfall
        When the candidates run out first; its message says how many filled and why.
    """
    say = progress or (lambda msg: None)
    if not 1 <= book <= books:
        raise InputError(f"book {book} is not between 1 and {books}")
    pool = read_candidates(candidates_path)[book - 1 :: books]
    t0 = time.perf_counter()
    index = load_index(wordlist_path, cache_dir=cache_dir)
    load_seconds = time.perf_counter() - t0
    used: set[str] = set()
    filled = []
    rows = []
    counts = {"filled": 0, "unfillable": 0, "timeout": 0}
    search_seconds = 0.0
    for i, grid in enumerate(pool):
        if len(filled) == len(out_paths):
            break
        attempt_seed = derive_seed(seed, "fill", book, i)
        result = Filler(grid, index, seed=attempt_seed, min_score=min_score, exclude=used).fill(timeout)
        search_seconds += result.seconds
        counts[result.status] += 1
        rows.append(
            f"{i + 1}\t{encode_grid(grid)}\t{result.status}\t{result.seconds:.3f}\t{result.nodes}\t"
            f"{'' if result.score is None else f'{result.score:.1f}'}\t"
            f"{len(filled) + 1 if result.status == FILLED else ''}\n"
        )
        if result.status == FILLED:
            filled.append(result.grid)
            used.update(result.words)
        say(
            f"book {book}: candidate {i + 1}/{len(pool)} {result.status} in {result.seconds:.2f} s "
            f"({len(filled)}/{len(out_paths)} filled)"
        )
    header = "candidate\tpattern\tstatus\tseconds\tnodes\tscore\tpuzzle\n"
    if len(filled) < len(out_paths):
        with atomic_write(report_path) as f:
            f.write(header)
            f.writelines(rows)
        raise FillShortfall(
            f"book {book}: filled {len(filled)} of {len(out_paths)} puzzles from {len(pool)} candidate "
            f"patterns ({counts['unfillable']} proven unfillable, {counts['timeout']} out of time at "
            f"{timeout:g} s each); generate more patterns (patterns_per_shard), relax the filter, "
            f"raise fill_timeout_s or use a larger word list. Attempts: {report_path}"
        )
    for path, grid in zip(out_paths, filled):
        write_text(path, grid.to_text())
    with atomic_write(report_path) as f:
        f.write(header)
        f.writelines(rows)
    return {
        "filled": len(filled),
        "tried": len(rows),
        "unfillable": counts["unfillable"],
        "timeout": counts["timeout"],
        "seconds": round(search_seconds, 3),
        "load_seconds": round(load_seconds, 3),
    }
