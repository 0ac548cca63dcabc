"""The pipeline's fill stage: fill a book's puzzles from its candidate patterns.

One job fills one book, so the word index is loaded once for all its
puzzles and no answer is used in two puzzles of the same book.  Book ``n``
of ``N`` takes every ``N``-th candidate pattern; a pattern that cannot be
filled within the budget is reported and the next one is tried.  Outputs
are written only when every puzzle of the book is filled, so a failed job
leaves nothing behind.

Given the clue shards, the stage also keeps the book cluable: a word with
no clue is never used, each filled puzzle reserves a distinct clue text for
each of its answers, and a word whose every clue is already reserved (NADA
after ZILCH, both "A quantity of no importance") is not used again in the
book.  The clue stage then always finds a clue for every entry.
"""

from __future__ import annotations

import time

from ..model.cluefile import read_clues_for
from ..model.errors import InputError
from ..model.fileio import atomic_write, write_text
from ..model.hexcodec import encode_grid, read_pattern_file
from ..model.seeds import derive_seed
from .index import load_index
from .quality import fill_best
from .search import FILLED, Filler

__all__ = ["FillShortfall", "read_candidates", "fill_book"]


class FillShortfall(Exception):
    """Too few candidate patterns could be filled for a book."""


def read_candidates(path) -> list:
    """The hex patterns of ``path``, one a line, as Grids (blank lines skipped)."""
    return [grid for _, _, grid in read_pattern_file(path)]


def fill_book(
    candidates_path,
    wordlist_path,
    out_paths: list,
    report_path,
    book: int,
    books: int,
    seed: int,
    timeout: float = 10.0,
    max_nodes: int | None = None,
    improve_nodes: int = 0,
    min_score=None,
    cache_dir=None,
    clue_dir=None,
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
        Seconds allowed per pattern (a safety limit).
    max_nodes : int, optional
        Words tried per pattern before moving on.  Unlike seconds, this
        budget does not depend on the machine, so a run is reproducible.
    improve_nodes : int
        After a pattern fills, words tried in search of a better fill (one
        whose weakest entry scores higher); 0 keeps the first fill.
    clue_dir : path, optional
        The clue shards; when given, only words that can still get a clue
        of their own in this book are used.

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
    clues = _ClueBook(clue_dir, index) if clue_dir is not None else None
    filled = []
    rows = []
    counts = {"filled": 0, "unfillable": 0, "timeout": 0}
    search_seconds = 0.0
    for i, grid in enumerate(pool):
        if len(filled) == len(out_paths):
            break
        attempt_seed = derive_seed(seed, "fill", book, i)
        banned = used if clues is None else used | clues.unusable

        def attempt(banned):
            if improve_nodes:
                return fill_best(grid, index, attempt_seed, timeout, max_nodes, improve_nodes, min_score, banned)
            return Filler(grid, index, seed=attempt_seed, min_score=min_score, exclude=banned).fill(timeout, max_nodes)

        result = attempt(banned)
        # Two answers of one fill may share their only clue; ban the later one and fill again.
        while clues is not None and result.status == FILLED:
            clash = clues.clash(result.words)
            if clash is None:
                break
            banned = banned | {clash}
            result = attempt(banned)
        search_seconds += result.seconds
        counts[result.status] += 1
        rows.append(
            f"{i + 1}\t{encode_grid(grid)}\t{result.status}\t{result.seconds:.3f}\t{result.nodes}\t"
            f"{'' if result.score is None else f'{result.score:.1f}'}\t"
            f"{'' if result.min_entry_score is None else f'{result.min_entry_score:g}'}\t"
            f"{len(filled) + 1 if result.status == FILLED else ''}\n"
        )
        if result.status == FILLED:
            filled.append(result.grid)
            used.update(result.words)
            if clues is not None:
                clues.reserve(result.words)
        say(
            f"book {book}: candidate {i + 1}/{len(pool)} {result.status} in {result.seconds:.2f} s "
            f"({len(filled)}/{len(out_paths)} filled)"
        )
    header = "candidate\tpattern\tstatus\tseconds\tnodes\tscore\tweakest\tpuzzle\n"
    if len(filled) < len(out_paths):
        with atomic_write(report_path) as f:
            f.write(header)
            f.writelines(rows)
        raise FillShortfall(
            f"book {book}: filled {len(filled)} of {len(out_paths)} puzzles from {len(pool)} candidate "
            f"patterns ({counts['unfillable']} proven unfillable, {counts['timeout']} out of budget at "
            f"{timeout:g} s or {max_nodes or 'unlimited'} nodes each); generate more patterns "
            f"(patterns_per_shard), relax the filter, raise fill_timeout_s and fill_max_nodes, "
            f"or use a larger word list. Attempts: {report_path}"
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


class _ClueBook:
    """Which clue texts a book has reserved, and which words that rules out."""

    def __init__(self, clue_dir, index):
        words = [w for li in index.lengths.values() for w in li.words]
        raw = read_clues_for(clue_dir, words)
        self.keys = {w: list(dict.fromkeys(" ".join(c.lower().split()) for c in cs)) for w, cs in raw.items()}
        self.words_of: dict[str, list[str]] = {}
        for w, ks in self.keys.items():
            for k in ks:
                self.words_of.setdefault(k, []).append(w)
        self.reserved: set[str] = set()
        self.unusable = {w for w in words if not self.keys.get(w)}

    def _assign(self, answers):
        taken, out = set(), []
        for a in answers:
            k = next((k for k in self.keys.get(a, ()) if k not in self.reserved and k not in taken), None)
            out.append(k)
            if k is not None:
                taken.add(k)
        return out

    def clash(self, answers):
        """The first answer that gets no clue of its own, or None."""
        for a, k in zip(answers, self._assign(answers)):
            if k is None:
                return a
        return None

    def reserve(self, answers) -> None:
        for k in self._assign(answers):
            self.reserved.add(k)
            for w in self.words_of[k]:
                if all(x in self.reserved for x in self.keys[w]):
                    self.unusable.add(w)
