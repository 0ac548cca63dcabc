"""The pipeline's fill stage: fill a book's puzzles from its candidate patterns.

One job fills one book, so the word index is loaded once for all its
puzzles.  Book ``n`` of ``N`` takes every ``N``-th candidate pattern; a
pattern that cannot be filled within the budget is reported and the next
one is tried.  Outputs are written only when every puzzle of the book is
filled, all at once (:func:`~pipeline.model.fileio.write_all`), so a failed
or killed job leaves no grid behind, or only whole ones.

Variety across the book: an answer is used in at most
``max_answer_repeats`` puzzles (1: never twice in a book), and while it may
still be used again its score is lowered by ``repeat_penalty`` points, so
the filler takes a fresh word wherever one fits about as well (the
crosswordese of one puzzle need not be the next one's too).  Blocked
answers (the blocklist) are never used.

Given the clue shards, the stage also keeps the book cluable: a word with
no clue is never used, each filled puzzle reserves a distinct clue text for
each of its answers, and a word whose every clue is already reserved (NADA
after ZILCH, both "A quantity of no importance") is not used again in the
book.  The clue stage then always finds a clue for every entry.  Without
the shards (``missing_clues`` fail or leave) any word of the list may be
used, and the clue stage reports the answers left without a clue.
"""

from __future__ import annotations

import time
from collections import Counter

from ..model.cluefile import clue_key, read_clues_for
from ..model.cluetext import clue_leaks
from ..model.errors import InputError
from ..model.fileio import write_all, write_text
from ..model.hexcodec import encode_grid, read_pattern_file
from ..model.seeds import derive_seed
from .index import load_index
from .quality import fill_best
from .search import FILLED, Filler

__all__ = ["FillShortfall", "FillClockLimit", "read_candidates", "fill_book"]


class FillShortfall(Exception):
    """Too few candidate patterns could be filled for a book."""


class FillClockLimit(FillShortfall):
    """The wall-clock safety limit ended a search before its node budget did.

    What such a search finds depends on the machine's speed and load, so
    the book is not written rather than written differently from run to run.
    """


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
    max_answer_repeats: int = 1,
    repeat_penalty: float = 30.0,
    clue_file=None,
    blocklist=None,
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
        Seconds allowed per pattern: a safety limit when ``max_nodes`` is
        given (reaching it first raises :class:`FillClockLimit`), the
        budget itself when it is not.
    max_nodes : int, optional
        Words tried per pattern before moving on.  Unlike seconds, this
        budget does not depend on the machine, so a run is reproducible.
    improve_nodes : int
        After a pattern fills, words tried in search of a better fill (one
        whose weakest entry scores higher); 0 keeps the first fill.
    clue_dir : path, optional
        The clue shards; when given, only words that can still get a clue
        of their own in this book are used.
    max_answer_repeats : int
        In how many puzzles of the book one answer may be used (1: none twice).
    repeat_penalty : float
        Score points (the list's 0-100 scale) taken off an answer already
        used in the book while it may still be used again; 0 for none.
    clue_file : path, optional
        The user's own ``ANSWER|clue`` file, read before the shards (its
        clues are preferred): with ``clue_dir``, its answers are cluable too.
    blocklist : Blocklist, optional
        No answer it blocks is used, and no clue text it blocks counts as a
        clue.

    Returns
    -------
    dict
        ``filled``, ``tried``, ``unfillable``, ``timeout``, ``seconds``,
        ``load_seconds``, ``blocked`` (words of the list never used) and
        ``repeated`` (answers used in more than one puzzle).

    Raises
    ------
    FillShortfall
        When the candidates run out first; its message says how many filled and why.
    FillClockLimit
        When ``max_nodes`` is given and ``timeout`` ends a search first (nothing is written).
    InputError
        Bad arguments, or a bad line in ``clue_file`` or the shards (file and line named).
    """
    say = progress or (lambda msg: None)
    if not 1 <= book <= books:
        raise InputError(f"book {book} is not between 1 and {books}")
    if max_answer_repeats < 1:
        raise InputError(f"max_answer_repeats is {max_answer_repeats}: give 1 (no answer twice) or more")
    if not 0 <= repeat_penalty <= 100:
        raise InputError(f"repeat_penalty is {repeat_penalty:g}: give 0-100 score points")
    pool = read_candidates(candidates_path)[book - 1 :: books]
    t0 = time.perf_counter()
    index = load_index(wordlist_path, cache_dir=cache_dir)
    load_seconds = time.perf_counter() - t0
    uses: Counter = Counter()
    blocked = set()
    if blocklist:
        blocked = {w for li in index.lengths.values() for w in li.words if blocklist.blocks_answer(w)}
    clues = _ClueBook(clue_dir, index, clue_file, blocklist) if clue_dir is not None else None
    filled = []
    rows = []
    counts = {"filled": 0, "unfillable": 0, "timeout": 0}
    search_seconds = 0.0
    for i, grid in enumerate(pool):
        if len(filled) == len(out_paths):
            break
        attempt_seed = derive_seed(seed, "fill", book, i)
        banned = blocked | {w for w, n in uses.items() if n >= max_answer_repeats}
        if clues is not None:
            banned |= clues.unusable
        penalty = {w: repeat_penalty for w in uses if w not in banned} if repeat_penalty else None

        def attempt(banned):
            if improve_nodes:
                return fill_best(
                    grid, index, attempt_seed, timeout, max_nodes, improve_nodes, min_score, banned, penalty=penalty
                )
            filler = Filler(grid, index, seed=attempt_seed, min_score=min_score, exclude=banned, penalty=penalty)
            return filler.fill(timeout, max_nodes)

        result = attempt(banned)
        _check_clock(result, book, i, timeout, max_nodes, improve_nodes)
        # Two answers of one fill may share their only clue; ban the later one and fill again.
        while clues is not None and result.status == FILLED:
            clash = clues.clash(result.words)
            if clash is None:
                break
            banned = banned | {clash}
            result = attempt(banned)
            _check_clock(result, book, i, timeout, max_nodes, improve_nodes)
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
            uses.update(result.words)
            if clues is not None:
                clues.reserve(result.words)
        say(
            f"book {book}: candidate {i + 1}/{len(pool)} {result.status} in {result.seconds:.2f} s "
            f"({len(filled)}/{len(out_paths)} filled)"
        )
    header = "candidate\tpattern\tstatus\tseconds\tnodes\tscore\tweakest\tpuzzle\n"
    if len(filled) < len(out_paths):
        # Answers the book may not use again: with no repeats allowed, a long
        # book runs out of short words long before it runs out of patterns.
        used_up = sum(1 for n in uses.values() if n >= max_answer_repeats)
        spent = (
            f" The earlier puzzles used up {used_up} answers (max_answer_repeats {max_answer_repeats}):"
            " a long book fills from the same list when max_answer_repeats allows 2 or 3."
            if used_up
            else ""
        )
        write_text(report_path, header + "".join(rows))
        raise FillShortfall(
            f"book {book}: filled {len(filled)} of {len(out_paths)} puzzles from {len(pool)} candidate "
            f"patterns ({counts['unfillable']} proven unfillable, {counts['timeout']} out of budget at "
            f"{timeout:g} s or {max_nodes or 'unlimited'} nodes each); generate more patterns "
            f"(patterns_per_shard), relax the filter, raise fill_timeout_s and fill_max_nodes, "
            f"or use a larger word list.{spent} Attempts: {report_path}"
        )
    # Every grid and the report staged first, then renamed into place together.
    write_all([*((path, grid.to_text()) for path, grid in zip(out_paths, filled)), (report_path, header + "".join(rows))])
    return {
        "filled": len(filled),
        "tried": len(rows),
        "unfillable": counts["unfillable"],
        "timeout": counts["timeout"],
        "seconds": round(search_seconds, 3),
        "load_seconds": round(load_seconds, 3),
        "blocked": len(blocked),
        "repeated": sum(1 for n in uses.values() if n > 1),
    }


def _check_clock(result, book: int, i: int, timeout: float, max_nodes, improve_nodes: int) -> None:
    """Raise FillClockLimit if the clock, not the node budget, decided ``result`` (when there is a node budget)."""
    if max_nodes is None or not result.wall_clock:
        return
    budget = f"{max_nodes} words" + (f", then {improve_nodes} more to improve the fill" if improve_nodes else "")
    raise FillClockLimit(
        f"book {book}: candidate {i + 1} reached the wall-clock safety limit of {timeout:g} s (fill_timeout_s) "
        f"after {result.nodes} words tried, before its node budget ({budget}) ran out. What a search cut "
        "short by the clock finds depends on the machine's speed and load, so no fill is written: raise "
        "fill_timeout_s, or lower fill_max_nodes and fill_improve_nodes, and run again."
    )


class _ClueBook:
    """Which clue texts a book has reserved, and which words that rules out.

    A word's clues are the user's ``clue_file`` lines first, then the
    shards', as the clue stage reads them.  Blocked clue texts count as
    reserved, and a clue that gives its word away is none of its clues
    (`pipeline.model.cluetext.clue_leaks`); both are looked for only in the
    clues of answers a fill actually uses (checking every clue of the list
    would cost seconds a book).
    """

    def __init__(self, clue_dir, index, clue_file=None, blocklist=None):
        words = [w for li in index.lengths.values() for w in li.words]
        self.raw = read_clues_for(clue_dir, words, clue_file)
        self.keys = {w: list(dict.fromkeys(clue_key(c) for c in cs)) for w, cs in self.raw.items()}
        self.checked: set[str] = set()
        self.words_of: dict[str, list[str]] = {}
        for w, ks in self.keys.items():
            for k in ks:
                self.words_of.setdefault(k, []).append(w)
        self.reserved: set[str] = set()
        self.blocklist = blocklist
        self.unusable = {w for w in words if not self.keys.get(w)}

    def _free(self, key) -> bool:
        if key in self.reserved:
            return False
        if self.blocklist and self.blocklist.blocks_clue(key):
            self.reserved.add(key)  # never printed: as good as used
            return False
        return True

    def _keys(self, word) -> list[str]:
        """The clue keys of ``word`` that do not give it away (checked on first use, as the clue stage checks)."""
        if word not in self.checked:
            self.checked.add(word)
            if word in self.raw:
                self.keys[word] = list(dict.fromkeys(clue_key(c) for c in self.raw[word] if not clue_leaks(c, word)))
        return self.keys.get(word, [])

    def _assign(self, answers):
        taken, out = set(), []
        for a in answers:
            k = next((k for k in self._keys(a) if k not in taken and self._free(k)), None)
            out.append(k)
            if k is not None:
                taken.add(k)
        return out

    def clash(self, answers):
        """The first answer that gets no clue of its own, or None."""
        for a, k in zip(answers, self._assign(answers)):
            if k is None:
                if not any(self._free(x) for x in self._keys(a)):
                    self.unusable.add(a)  # every clue it had is blocked or gives it away
                return a
        return None

    def reserve(self, answers) -> None:
        for k in self._assign(answers):
            self.reserved.add(k)
            for w in self.words_of[k]:
                if not any(self._free(x) for x in self._keys(w)):
                    self.unusable.add(w)
