"""The pipeline's fill stage: fill a book's puzzles from its candidate patterns.

Book ``n`` of ``N`` takes every ``N``-th candidate pattern (its pool).  Its
puzzles are filled in batches of consecutive puzzles that can run at once,
one job each (`fill_batch`), and then merged in book order (`merge_batches`):

* Batch ``j`` of ``B`` takes every ``B``-th pattern of the pool from the
  ``j``-th, fills its puzzles in order, and keeps to its share of the
  book's answer allowance and clue texts (`pipeline.fill.reuse`).  A pattern
  that cannot be filled within the budget is reported and the next is tried.
* The merge walks the book in order with the whole book's policy.  A batch's
  puzzle that breaks it (an answer back within ``gap`` puzzles of its last
  use, across a batch boundary) is repaired: those answers and the entries
  crossing them are emptied and filled again around the rest, with those
  answers banned; failing that, it is filled again on its own pattern, or
  on a pattern no batch tried.

Every step is decided by the seed and the node budgets, never by which job
ran first or on how many cores, so a book comes out byte for byte the
same locally, on a cluster and in one process (`fill_book`, which runs the
batches one after the other and merges them).  Outputs are written only
when whole (`pipeline.model.fileio.write_all`), so a failed or killed job
leaves no grid behind.

Given the clue shards, the stage keeps the book cluable: a word with no
clue is never used, each filled puzzle reserves a distinct clue text for
each of its answers, and a word whose every clue is already reserved is not
used again.  The clue stage then always finds a clue for every entry.
Without the shards (``missing_clues`` fail or leave) any word of the list
may be used, and the clue stage reports the answers left without a clue.
"""

from __future__ import annotations

import math
import statistics
import time
from collections import Counter

from ..model.errors import InputError
from ..model.fileio import read_text, write_all, write_text
from ..model.grid import BLACK, EMPTY, Grid, parse_grid
from ..model.hexcodec import encode_grid, read_pattern_file
from ..model.progress import Progress
from ..model.sections import level_floor
from ..model.seeds import derive_seed
from .index import WordIndex, load_index
from .quality import fill_best
from .reuse import DEFAULT_GAP, ClueBook, ReusePolicy, Uses
from .search import FILLED, UNFILLABLE, Filler

__all__ = ["DEFAULT_BATCH_SIZE", "FillShortfall", "FillClockLimit", "batch_count", "book_batches", "fill_batch",
           "fill_book", "merge_batches", "read_candidates"]  # fmt: skip

#: Puzzles one fill job fills, at most.
DEFAULT_BATCH_SIZE = 50
#: The file name ending of themed candidates (`pipeline.model.themes`); other candidate files are hex patterns.
THEMES_SUFFIX = ".themes.tsv"
#: The grid the node budgets (``fill_max_nodes``, ``fill_improve_nodes``) are given for: a 15x15.
BUDGET_CELLS = 225
#: A section with fewer patterns than puzzles goes through them until it has tried this many a puzzle.
REUSE_ROUNDS = 3
_COLUMNS = ["candidate", "pattern", "status", "seconds", "nodes", "score", "weakest", "puzzle"]
_BATCH_HEADER = "\t".join([*_COLUMNS, "grid"]) + "\n"
_REPORT_HEADER = "\t".join([*_COLUMNS, "batch", "note"]) + "\n"


class FillShortfall(Exception):
    """Too few candidate patterns could be filled for a book."""


class FillClockLimit(FillShortfall):
    """The wall-clock safety limit ended a search before its node budget did.

    What such a search finds depends on the machine's speed and load, so
    the book is not written rather than written differently from run to run.
    """


def read_candidates(path) -> list:
    """The candidates of ``path`` as Grids: hex patterns, one a line (blank lines skipped), or
    themed candidates (``.themes.tsv``, `pipeline.model.themes`), their theme entries in place."""
    if str(path).endswith(THEMES_SUFFIX):
        from ..model.themes import read_themes

        return [c.grid for c in read_themes(path)]
    return [grid for _, _, grid in read_pattern_file(path)]


def given_words(grid) -> set[str]:
    """The entries ``grid`` gives whole before it is filled (a themed candidate's theme entries).

    >>> from pipeline.model.grid import parse_grid
    >>> sorted(given_words(parse_grid("CAT\\n...\\n...")))
    ['CAT']
    """
    if all(c in (EMPTY, BLACK) for c in grid.cells):
        return set()
    return {w for w in (grid.word(s) for s in grid.slots()) if EMPTY not in w}


def scaled_budget(nodes, grid):
    """A node budget given for a 15x15 (`BUDGET_CELLS`), for ``grid``: larger with the square of its
    cells (a 21x21's nearly four times: twice the entries, each with more ways to go wrong), never
    smaller (None: no budget).

    >>> from pipeline.model.grid import Grid
    >>> scaled_budget(1000, Grid(21, 21, ["."] * 441)), scaled_budget(1000, Grid(5, 5, ["."] * 25))
    (3842, 1000)
    """
    if nodes is None:
        return None
    return max(nodes, round(nodes * (grid.rows * grid.cols / BUDGET_CELLS) ** 2))


def batch_count(puzzles: int, batch_size: int = DEFAULT_BATCH_SIZE, max_uses: int = 1) -> int:
    """How many batches fill a book: one per ``batch_size`` puzzles, but no more than
    ``max_uses`` (each batch may then use every answer at least once).

    >>> batch_count(12), batch_count(150, 50, 5), batch_count(150, 50, 1), batch_count(100, 30, 3)
    (1, 3, 1, 3)
    """
    if batch_size < 1:
        raise InputError(f"fill_batch_size is {batch_size}: give 1 or more puzzles")
    return max(1, min(math.ceil(puzzles / batch_size), max_uses))


def _batch_count(puzzles: int, options: dict) -> int:
    """`batch_count` from `fill_book`'s ``options``, taking ``batch_size`` out of them (the stage has no use for it)."""
    return batch_count(puzzles, options.pop("batch_size", DEFAULT_BATCH_SIZE), options.get("max_answer_repeats", 1))


def book_batches(puzzles: int, batches: int) -> list[range]:
    """The book's positions (0-based) cut into ``batches`` runs of consecutive puzzles, as even as can be.

    >>> book_batches(10, 3)
    [range(0, 3), range(3, 6), range(6, 10)]
    """
    cuts = [puzzles * j // batches for j in range(batches + 1)]
    return [range(cuts[j], cuts[j + 1]) for j in range(batches)]


class _Stage:
    """What one fill job knows: the book's pool, the index, the policy, and what it has used."""

    def __init__(self, sections, wordlist_path, book: int, books: int, seed: int, *, batch=0, batches=1,
                 timeout=10.0, max_nodes=None, improve_nodes=0, min_score=None, cache_dir=None, clue_dir=None,
                 clue_file=None, blocklist=None, progress=None, max_answer_repeats=1, answer_gap=DEFAULT_GAP,
                 repeat_penalty=10.0, merging=False, shared=None, levels=None):  # fmt: skip
        if not 1 <= book <= books:
            raise InputError(f"book {book} is not between 1 and {books}")
        # sections: [(candidates path, puzzles)]; the book's puzzles are theirs in order.
        self.section_at = [j for j, (_, count) in enumerate(sections) for _ in range(count)]
        self.levels = levels
        self.policy = ReusePolicy(max_answer_repeats, answer_gap, repeat_penalty)
        self.book, self.seed = book, seed
        self.batch, self.batches = batch, batches
        self.timeout, self.max_nodes, self.improve_nodes, self.min_score = timeout, max_nodes, improve_nodes, min_score
        self.say = progress or (lambda msg: None)
        shared = {} if shared is None else shared  # what fill_book's batches load once
        if "pool" not in shared:
            # One pool for the book: each section's candidates (every books-th from the book-th) in turn.
            pools = [read_candidates(path)[book - 1 :: books] for path, _ in sections]
            shared["pool"] = [g for pool in pools for g in pool]
            cuts = [sum(map(len, pools[:j])) for j in range(len(pools) + 1)]
            shared["ranges"] = [range(cuts[j], cuts[j + 1]) for j in range(len(pools))]
            t0 = time.perf_counter()
            shared["index"] = load_index(wordlist_path, cache_dir=cache_dir)
            shared["load_seconds"] = time.perf_counter() - t0
            words = [w for li in shared["index"].lengths.values() for w in li.words]
            shared["blocked"] = {w for w in words if blocklist.blocks_answer(w)} if blocklist else set()
            shared["words"] = words
        self.pool, self.index, self.load_seconds = shared["pool"], shared["index"], shared["load_seconds"]
        self.ranges = shared["ranges"]
        self.section_of = {ci: j for j, r in enumerate(self.ranges) for ci in r}
        self.blocked = shared["blocked"]
        self.clues = None
        if clue_dir is not None:
            self.clues = ClueBook(clue_dir, shared["words"], clue_file, blocklist, batch, batches, raw=shared.get("raw"),
                                  deal=not merging, cache_dir=cache_dir)  # fmt: skip
            shared["raw"] = self.clues.raw
        if merging or batches == 1:
            self.uses = Uses(self.policy)
        else:
            self.uses = Uses(self.policy, batch, batches, None if self.clues is None else self.clues.counts)
        # The words this job may never use (blocked, or with no clue of its own) leave its index, so
        # each search neither skips them nor carries them in its list of excluded words.
        # Theme entries (the words themed candidates give whole) are their puzzles' alone: no other
        # puzzle of the book uses them, and each is in one puzzle, so it needs no dealt clue text.
        if "locked" not in shared:
            shared["locked"] = {w for g in self.pool for w in given_words(g)}
        self.locked = shared["locked"]
        never = self.never = self.blocked | (set(self.clues.unusable) if self.clues is not None else set())
        if batches > 1 and not merging:  # the words whose share of the book's uses fell to other batches
            never |= {w for w in shared["words"] if self.uses.limit(w) == 0}
        never -= self.locked - self.blocked
        if never:
            self.index = WordIndex({w: s for li in self.index.lengths.values()
                                    for w, s in zip(li.words, li.scores) if w not in never})  # fmt: skip
        self.search_seconds = 0.0
        self.counts = {"filled": 0, "unfillable": 0, "timeout": 0}

    def banned(self, position: int) -> set[str]:
        """The words of this job's index the puzzle at ``position`` may not use."""
        out = self.uses.banned(position) | self.locked
        return out | (self.clues.unusable - self.never) if self.clues is not None else out

    def candidates(self, section: int) -> list[tuple[int, int]]:
        """This batch's candidates of ``section``, as ``(pool index, turn)``: the section's pool dealt
        in turn to the batches that fill its puzzles (all of them for a section the batches cut
        through), this one's share.

        A section with fewer patterns than puzzles (a 5x5 has five, an open square one) goes
        through its pool `REUSE_ROUNDS` times its puzzles over, each turn a pattern filled again
        with a seed of its own, and the book's answers already used kept out.
        """
        holders = sorted({j for j, r in enumerate(book_batches(len(self.section_at), self.batches))
                          if any(self.section_at[p] == section for p in r)})  # fmt: skip
        if self.batch not in holders:
            return []
        pool, count = self.ranges[section], self.section_at.count(section)
        turns = 1 if len(pool) >= count else math.ceil(REUSE_ROUNDS * count / len(pool))
        dealt = [(ci, turn) for turn in range(turns) for ci in pool]
        return dealt[holders.index(self.batch) :: len(holders)]

    def floor(self, position: int):
        """The lowest word score the puzzle at ``position`` takes (`level_floor`)."""
        return level_floor(self.min_score, None if self.levels is None else self.levels[position])

    def _search(self, grid, seed, banned, penalty, where: str, position: int):
        floor = self.floor(position)
        max_nodes, improve_nodes = (scaled_budget(n, grid) for n in (self.max_nodes, self.improve_nodes))
        if self.improve_nodes:
            result = fill_best(grid, self.index, seed, self.timeout, max_nodes, improve_nodes,
                               floor, banned, penalty=penalty)  # fmt: skip
        else:
            filler = Filler(grid, self.index, seed=seed, min_score=floor, exclude=banned, penalty=penalty)
            result = filler.fill(self.timeout, max_nodes)
        self._check_clock(result, where)
        return result

    def fill_at(self, grid, position: int, seed: int, where: str, ahead=frozenset()):
        """Fill ``grid`` as the book's puzzle at ``position``, without the words of ``ahead``; two
        answers sharing their only clue ban the later one and fill again.  The result's scores
        are the list's (the search judged fills on the scores less the repeat penalty).  Entries
        ``grid`` gives whole stay whatever they score (`fill_best`)."""
        banned = (self.banned(position) | ahead) - (given_words(grid) & self.locked)
        penalty = self.uses.penalty(banned)
        result = self._search(grid, seed, banned, penalty, where, position)
        while self.clues is not None and result.status == FILLED:
            clash = self.clues.clash([w for w in result.words if w not in self.locked])
            if clash is None:
                break
            banned = banned | {clash}
            result = self._search(grid, seed, banned, penalty, where, position)
        if result.status == FILLED and penalty:
            result.add_fill(result.grid, self.index)
        self.search_seconds += result.seconds
        self.counts[result.status] += 1
        return result

    def refusal(self, words, position: int) -> tuple[str, set[str]] | None:
        """Why the book may not take a fill of ``words`` at ``position``, and the answers at fault (None: it may)."""
        early = {w for w in words if w in self.blocked or not self.uses.allows(w, position)}
        if early:
            return "answers used too often or too recently: " + ", ".join(sorted(early)[:5]), early
        if self.clues is not None:
            clash = self.clues.clash([w for w in words if w not in self.locked])
            if clash is not None:
                return f"no clue text left for {clash}", {clash}
        return None

    def record(self, words, position: int) -> None:
        self.uses.record(words, position)
        if self.clues is not None:
            self.clues.reserve([w for w in words if w not in self.locked])

    def _check_clock(self, result, where: str) -> None:
        """Raise FillClockLimit if the clock, not the node budget, decided ``result`` (when there is a node budget)."""
        if self.max_nodes is None or not result.wall_clock:
            return
        budget = f"{self.max_nodes} words" + (
            f", then {self.improve_nodes} more to improve the fill" if self.improve_nodes else ""
        )
        raise FillClockLimit(
            f"book {self.book}: {where} reached the wall-clock safety limit of {self.timeout:g} s (fill_timeout_s) "
            f"after {result.nodes} words tried, before its node budget ({budget}) ran out. What a search cut "
            "short by the clock finds depends on the machine's speed and load, so no fill is written: raise "
            "fill_timeout_s, or lower fill_max_nodes and fill_improve_nodes, and run again."
        )

    def shortfall(self, filled: int, wanted: int, what: str, where) -> FillShortfall:
        used_up = sum(1 for w, used in self.uses.where.items() if len(used) >= self.uses.limit(w))
        spent = (
            f" The earlier puzzles used up {used_up} answers (max_answer_repeats {self.policy.max_uses}):"
            " a longer book's allowance is larger (max_answer_repeats auto)."
            if used_up and self.policy.max_uses == 1
            else ""
        )
        return FillShortfall(
            f"book {self.book}: {what} filled {filled} of {wanted} puzzles from {sum(self.counts.values())} candidate "
            f"patterns ({self.counts['unfillable']} proven unfillable, {self.counts['timeout']} out of budget at "
            f"{self.timeout:g} s or {self.max_nodes or 'unlimited'} nodes each); generate more patterns "
            f"(patterns_per_shard), relax the filter, raise fill_timeout_s and fill_max_nodes, "
            f"or use a larger word list.{spent} Attempts: {where}"
        )


def _row(candidate: int, grid, result, puzzle: int | None) -> list[str]:
    """A report row (the `_COLUMNS`) for one attempt; ``puzzle`` is 1-based."""
    return [
        str(candidate + 1),
        encode_grid(grid),
        result.status,
        f"{result.seconds:.3f}",
        str(result.nodes),
        "" if result.score is None else f"{result.score:.1f}",
        "" if result.min_entry_score is None else f"{result.min_entry_score:g}",
        "" if puzzle is None else str(puzzle),
    ]


def _opened(grid, answers):
    """``grid`` with its entries ``answers``, and the entries crossing them, emptied.

    The crossing entries go too: kept, each would leave only the letter it
    had where it crosses, and the answer would come back.
    """
    slots = grid.slots()
    at_fault = {cell for slot in slots if grid.word(slot) in answers for cell in slot.cells}
    cells = list(grid.cells)
    for slot in slots:
        if at_fault.intersection(slot.cells):
            for cell in slot.cells:
                cells[cell] = EMPTY
    return Grid(grid.rows, grid.cols, cells)


def _run_batch(stage: _Stage, positions: range, report_path=None) -> list[str]:
    """Fill ``positions`` from the batch's share of the pool: its lines (the batch file's, header aside).

    Raises `FillShortfall` when the share runs out first, after writing the
    lines to ``report_path`` when given.
    """
    progress = Progress(len(positions), stage.say, f"book {stage.book} batch {stage.batch + 1}")
    lines, grids = [], []
    left = {}  # each section's candidates this batch has yet to try
    proven = set()
    for position in positions:
        section = stage.section_at[position]
        queue = left.setdefault(section, iter(stage.candidates(section)))
        for ci, turn in queue:
            if turn and ci in proven:  # a pattern proven unfillable is not tried again with more words banned
                continue
            grid = stage.pool[ci]
            seed = derive_seed(stage.seed, "fill", stage.book, ci, *([turn] if turn else []))
            result = stage.fill_at(grid, position, seed, f"candidate {ci + 1}")
            filled = result.status == FILLED
            if result.status == UNFILLABLE:
                proven.add(ci)
            text = result.grid.to_text().rstrip("\n").replace("\n", "/") if filled else ""
            lines.append("\t".join([*_row(ci, grid, result, position + 1 if filled else None), text]) + "\n")
            if filled:
                stage.record(result.words, position)
                grids.append(text)
            progress.update(len(grids), f"candidate {ci + 1} {result.status} in {result.seconds:.2f} s")
            if filled:
                break
        else:
            break
    if len(grids) < len(positions):
        if report_path is not None:
            write_text(report_path, _BATCH_HEADER + "".join(lines))
        where = report_path or "the log above"
        raise stage.shortfall(len(grids), len(positions), f"batch {stage.batch + 1} of {stage.batches}", where)
    return lines


def _sections(candidates, puzzles: int) -> list:
    """``candidates`` as ``[(path, puzzles)]``: a path is one section of every puzzle."""
    if isinstance(candidates, (list, tuple)):
        sections = [(path, int(count)) for path, count in candidates]
        if sum(c for _, c in sections) != puzzles:
            raise InputError(f"the sections' puzzles add up to {sum(c for _, c in sections)}, not the book's {puzzles}")
        return sections
    return [(candidates, puzzles)]


def fill_batch(candidates_path, wordlist_path, out_path, book: int, books: int, seed: int, puzzles: int,
               batch: int, **options) -> dict:  # fmt: skip
    """Fill batch ``batch`` (0-based) of ``book``'s ``puzzles`` puzzles into ``out_path``.

    ``out_path`` is a TSV of every attempt (the report's columns and the
    filled grid's rows joined by ``/``), for `merge_batches`.  ``options``
    are `fill_book`'s.  Raises `FillShortfall` (nothing written) when the
    batch's patterns run out first.
    """
    batches = _batch_count(puzzles, options)
    if not 0 <= batch < batches:
        raise InputError(f"batch {batch} is not between 0 and {batches - 1} ({puzzles} puzzles in {batches} batches)")
    stage = _Stage(_sections(candidates_path, puzzles), wordlist_path, book, books, seed, batch=batch, batches=batches,
                   **options)  # fmt: skip
    positions = book_batches(puzzles, batches)[batch]
    lines = _run_batch(stage, positions)
    write_text(out_path, _BATCH_HEADER + "".join(lines))
    return {"filled": len(positions), "tried": len(lines), "seconds": round(stage.search_seconds, 3),
            "load_seconds": round(stage.load_seconds, 3)}  # fmt: skip


def _read_batch(path, stage: _Stage, positions: range) -> tuple[list[list[str]], dict[int, tuple[int, str]]]:
    """A batch file's rows and ``{position: (candidate, grid text)}``, checked against the book's pool."""
    lines = read_text(path).splitlines()
    if not lines or lines[0] + "\n" != _BATCH_HEADER:
        raise InputError("not a fill batch (its first line is not the batch header)", path, 1)
    return _batch_rows(lines[1:], stage, positions, path)


def _batch_rows(lines, stage: _Stage, positions: range, path=None):
    """`_read_batch` of a batch's lines (no header; line numbers as in its file)."""
    rows, filled = [], {}
    for lineno, line in enumerate(lines, start=2):
        line = line.rstrip("\n")
        row = line.split("\t")
        if len(row) != len(_COLUMNS) + 1 or not row[0].isdigit():
            raise InputError(f"expected {len(_COLUMNS) + 1} tab-separated fields", path, lineno)
        ci = int(row[0]) - 1
        if not 0 <= ci < len(stage.pool) or encode_grid(stage.pool[ci]) != row[1]:
            raise InputError(f"candidate {row[0]} is not pattern {row[1]} of book {stage.book}'s pool", path, lineno)
        if row[7]:
            position = int(row[7]) - 1
            if position not in positions or position in filled:
                raise InputError(f"puzzle {row[7]} is not this batch's or is listed twice", path, lineno)
            if stage.section_of[ci] != stage.section_at[position]:
                raise InputError(f"candidate {row[0]} is not a pattern of puzzle {row[7]}'s section", path, lineno)
            filled[position] = (ci, row[8])
        rows.append(row[:-1])
    missing = [p + 1 for p in positions if p not in filled]
    if missing:
        raise InputError(f"puzzles {missing[0]}-{missing[-1]} are missing (a batch that did not finish)", path)
    return rows, filled


def merge_batches(candidates_path, wordlist_path, batch_paths: list, out_paths: list, report_path, book: int,
                  books: int, seed: int, **options) -> dict:  # fmt: skip
    """The book from its batches (`fill_batch`), in order, each puzzle checked against the whole book's policy.

    Writes one grid file per puzzle (``out_paths``) and the report (every
    attempt of every batch and of the merge, with its batch and a note on
    each puzzle filled again).  Returns `fill_book`'s figures.
    """
    puzzles = len(out_paths)
    batches = _batch_count(puzzles, options)
    if len(batch_paths) != batches:
        raise InputError(f"{len(batch_paths)} batch files given for {puzzles} puzzles in {batches} batches")
    stage = _Stage(_sections(candidates_path, puzzles), wordlist_path, book, books, seed, batches=batches,
                   merging=True, **options)  # fmt: skip
    return _merge(stage, [_read_batch(p, stage, r) for p, r in zip(batch_paths, book_batches(puzzles, batches))],
                  out_paths, report_path)  # fmt: skip


def _merge(stage: _Stage, read: list, out_paths: list, report_path) -> dict:
    rows = [[*row, str(j + 1), ""] for j, (batch_rows, _) in enumerate(read) for row in batch_rows]
    chosen = {p: got for _, filled in read for p, got in filled.items()}
    tried = {int(row[0]) - 1 for row in rows}
    spares = [ci for ci in range(len(stage.pool)) if ci not in tried]
    stage.counts = {s: sum(1 for r in rows if r[2] == s) for s in ("filled", "unfillable", "timeout")}
    stage.search_seconds = sum(float(r[3]) for r in rows)
    grids, refilled = [], 0
    progress = Progress(len(out_paths), stage.say, f"book {stage.book} merge")
    homes = {p: j for j, (_, filled) in enumerate(read) for p in filled}
    pending = {p: parse_grid(text.replace("/", "\n") + "\n") for p, (_, text) in chosen.items()}
    later = Counter(w for grid in pending.values() for w in grid.words())  # uses still to come
    for position in range(len(out_paths)):
        ci = chosen[position][0]
        grid = pending.pop(position)
        words = grid.words()
        later.subtract(words)
        if stage.clues is not None:
            stage.clues.home = homes[position]  # the clue texts dealt to the position's batch first
        refused = stage.refusal(words, position)
        if refused is None:
            stage.record(words, position)
            grids.append(grid)
            continue
        why, at_fault = refused
        refilled += 1
        row = next(r for r in rows if r[7] == str(position + 1))
        row[7], row[-1] = "", f"refilled: {why}"
        # Keep clear of the batches' puzzles still to come: their answers within the gap, and answers
        # whose uses to come would spend the book's allowance.
        near = range(position + 1, position + stage.policy.gap + 1)
        ahead = {w for p in near if p in pending for w in pending[p].words()}
        ahead |= {w for w, n in later.items() if n > 0 and len(stage.uses.where.get(w, ())) + n >= stage.policy.max_uses}
        if stage.clues is not None:  # and answers whose clue texts left are all wanted later
            ahead |= {w for w, n in later.items() if n > 0 and stage.clues.left(w) <= n}
        # First the batch's fill with the answers at fault (and those ahead) and the entries crossing
        # them filled again around the rest; then the whole pattern, then the spare patterns.
        opened = _opened(grid, at_fault | ahead)
        kept = sum(1 for w in opened.words() if EMPTY not in w)
        section = stage.section_at[position]
        own = [cj for cj in spares if stage.section_of[cj] == section]
        if len(stage.ranges[section]) < stage.section_at.count(section):  # a section that reuses its patterns
            own += [cj for cj in stage.ranges[section] if cj != ci and cj not in own]
        attempts = [("repair", ci, opened), *(("refill", cj, stage.pool[cj]) for cj in [ci, *own])]
        for kind, cj, start in attempts:
            result = stage.fill_at(start, position, derive_seed(stage.seed, kind, stage.book, position, cj),
                                   f"puzzle {position + 1}", ahead)  # fmt: skip
            filled = result.status == FILLED
            note = f"repair: kept {kept} of its {len(words)} entries" if kind == "repair" else ""
            rows.append([*_row(cj, stage.pool[cj], result, position + 1 if filled else None), "merge", note])
            if cj in spares:
                spares.remove(cj)
            if filled:
                stage.record(result.words, position)
                grids.append(result.grid)
                break
        else:
            write_text(report_path, _REPORT_HEADER + "".join("\t".join(r) + "\n" for r in rows))
            raise stage.shortfall(position, len(out_paths), "the merge", report_path)
        progress.update(position + 1, f"puzzle {position + 1} filled again ({why})")
    progress.update(len(out_paths), f"{refilled} filled again")
    report = _REPORT_HEADER + "".join("\t".join(r) + "\n" for r in rows)
    # Every grid and the report staged first, then renamed into place together.
    write_all([*((path, grid.to_text()) for path, grid in zip(out_paths, grids)), (report_path, report)])
    weakest = [float(r[6]) for r in rows if r[7]]
    means = [float(r[5]) for r in rows if r[7]]
    repeated = stage.uses.repeated()
    return {
        "filled": len(grids),
        "tried": len(rows),
        "refilled": refilled,
        "unfillable": stage.counts["unfillable"],
        "timeout": stage.counts["timeout"],
        "seconds": round(stage.search_seconds, 3),
        "load_seconds": round(stage.load_seconds, 3),
        "blocked": len(stage.blocked),
        "repeated": len(repeated),
        "most_uses": max(repeated.values(), default=1),
        "mean_score": round(statistics.fmean(means), 2),
        "mean_weakest": round(statistics.fmean(weakest), 2),
    }


def fill_book(candidates_path, wordlist_path, out_paths: list, report_path, book: int, books: int, seed: int,
              **options) -> dict:  # fmt: skip
    """Fill ``len(out_paths)`` puzzles for ``book`` (1-based) of ``books`` in this process.

    The same batches as the pipeline's parallel jobs, run one after the
    other and merged, so the same bytes.

    Parameters
    ----------
    candidates_path : path or list of (path, int)
        The encoded patterns (``.hex``) or themed candidates
        (``.themes.tsv``), shared by all books; or the book's sections, each
        its candidates and its puzzles (adding up to ``len(out_paths)``),
        in book order: each puzzle is filled from its section's.
    wordlist_path : path
        ``WORD;score`` list.
    out_paths : list of path
        One grid-text file per puzzle, written in order.
    report_path : path
        TSV: every candidate tried, its status, time and nodes, its batch.
    book, books : int
        This book's number and how many books share the candidates.
    seed : int
        The run's seed; each attempt's seed is derived from it.
    **options
        timeout : float
            Seconds allowed per pattern: a safety limit when ``max_nodes`` is
            given (reaching it first raises :class:`FillClockLimit`), the
            budget itself when it is not.
        max_nodes : int, optional
            Words tried per pattern before moving on (reproducible, unlike seconds).
        improve_nodes : int
            After a pattern fills, words tried in search of a better fill (one
            whose weakest entry scores higher); 0 keeps the first fill.
        min_score : float, optional
            No word scoring under it.
        levels : list of float, optional
            Each puzzle's difficulty, 0 (easy) to 1 (hard)
            (`pipeline.model.sections.book_levels`): its floor is
            ``min_score`` raised by `pipeline.model.sections.level_floor`.
        cache_dir : path, optional
            Where the word index and the clue shards are cached once read.
        clue_dir : path, optional
            The clue shards; when given, only words that can still get a clue
            of their own in this book are used.
        clue_file : path, optional
            The user's own ``ANSWER|clue`` file, read before the shards.
        blocklist : Blocklist, optional
            No answer it blocks is used, and no clue text it blocks counts.
        max_answer_repeats, answer_gap, repeat_penalty
            The `pipeline.fill.reuse.ReusePolicy`.
        batch_size : int
            Puzzles per batch (`batch_count`).
        progress : callable, optional
            Called with a line of progress now and then.

    Returns
    -------
    dict
        ``filled``, ``tried``, ``refilled`` (batch puzzles the merge filled
        again), ``unfillable``, ``timeout``, ``seconds``, ``load_seconds``,
        ``blocked`` (words of the list never used), ``repeated`` (answers
        in more than one puzzle), ``most_uses``, ``mean_score`` and
        ``mean_weakest`` (each puzzle's mean and weakest entry, averaged).

    Raises
    ------
    FillShortfall
        When the candidates run out first; its message says how many filled and why.
    FillClockLimit
        When ``max_nodes`` is given and ``timeout`` ends a search first (nothing is written).
    InputError
        Bad arguments, or a bad line in ``clue_file`` or the shards (file and line named).
    """
    puzzles = len(out_paths)
    batches = _batch_count(puzzles, options)
    sections = _sections(candidates_path, puzzles)
    shared: dict = {}
    read = []
    for batch, positions in enumerate(book_batches(puzzles, batches)):
        stage = _Stage(sections, wordlist_path, book, books, seed, batch=batch, batches=batches,
                       shared=shared, **options)  # fmt: skip
        read.append(_batch_rows(_run_batch(stage, positions, report_path), stage, positions))
    stage = _Stage(sections, wordlist_path, book, books, seed, batches=batches, merging=True, shared=shared,
                   **options)  # fmt: skip
    return _merge(stage, read, out_paths, report_path)
