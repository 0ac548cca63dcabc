"""Stage 6, clues: give every answer of a book a clue and write ``.ipuz``.

The clue shards are opened only for the answers the book uses; the user's
own ``clue_file`` (``ANSWER|clue`` lines) is read first and its clues are
preferred.  No clue text is printed twice in one book, and synonyms often
share a gloss (NIL and ZERO are both "A quantity of no importance"), so
choosing clues is a matching between the book's entries and clue texts:
each entry first takes its best clue still free (the user's, then the
shard's order, most common sense first), then entries left without one
take a clue from another entry that can move to its next choice
(augmenting paths, as in Hopcroft-Karp).  A clue the blocklist blocks, or
one that gives its answer away (the give-away rule, applied here to the
shards and the user's ``clue_file`` alike), is skipped like a used one;
the give-aways are counted in the stage's report, and those from
``clue_file`` listed.

Clues have levels (``hard: `` before a hard one in a clue file,
`pipeline.model.cluefile.clue_level`), and a puzzle a difficulty: an easy
puzzle takes an answer's straight clues first, a hard one its hard clues,
a medium one alternates, entry by entry in clue-list order.  The user's
own clues come before all of them at every difficulty: a correction made
in ``clue_file`` is printed.

The fills are checked before anything is chosen: an answer in more
puzzles than ``max_answer_repeats`` allows, or one the blocklist blocks,
stops the stage (the fill stage never makes such a book; a user's own
fills might).

Answers left with no clue are listed in ``missing-clues.txt`` (an
``ANSWER|`` line each, ready to complete and use as ``clue_file``).  Then,
by ``missing`` mode: ``avoid`` and ``fail`` stop the stage naming them and
write no ``.ipuz``; ``leave`` writes the puzzles with those clues empty,
and the renderers refuse them until they get one.  A placeholder is never
printed.
"""

from __future__ import annotations

import math
from collections import defaultdict
from pathlib import Path

from .model.cluefile import CLUE_LEVELS, clue_key, clue_level, read_clues_for, read_shard
from .model.cluetext import clue_leaks
from .model.errors import InputError
from .model.fileio import read_text, write_all, write_text
from .model.grid import EMPTY, parse_grid
from .model.progress import Progress
from .model.puzzle import Puzzle, ipuz_text
from .model.sections import DIFFICULTIES, LEVEL_VALUE, level_name

__all__ = ["DIFFICULTIES", "MissingClues", "MISSING_MODES", "MISSING_LIST", "assign_distinct", "clue_book",
           "preferred_levels"]  # fmt: skip

#: What the stage does with answers that get no clue (config ``missing_clues``).
MISSING_MODES = ("avoid", "fail", "leave")
#: The list of unclued answers, written beside the ``.ipuz`` files by default.
MISSING_LIST = "missing-clues.txt"


class MissingClues(InputError):
    """Some answers of a book have no unused clue."""


def assign_distinct(options: list[list]) -> list:
    """Pick one option per item, no option twice, as many items as possible.

    Parameters
    ----------
    options : list of list
        ``options[i]``: the choices for item ``i``, best first.

    Returns
    -------
    list
        The choice for each item, or None where no distinct choice exists.

    Notes
    -----
    Greedy in preference order, then one augmenting-path search (Kuhn's
    algorithm, iterative) per item left out: a maximum matching, found in
    O(items * edges) at worst and in practice about one pass.  Everything
    is visited in list order, so the result is deterministic.

    Examples
    --------
    >>> assign_distinct([["a"], ["a", "b"], ["b", "c"]])
    ['a', 'b', 'c']
    >>> assign_distinct([["a"], ["a"]])
    ['a', None]
    """
    owner: dict = {}
    pick: list = [None] * len(options)
    for i, opts in enumerate(options):
        for o in opts:
            if o not in owner:
                owner[o] = i
                pick[i] = o
                break
    for start in range(len(options)):
        if pick[start] is not None or not options[start]:
            continue
        seen = set()
        # Depth-first search for an augmenting path: stack of (item, next option index).
        stack = [(start, 0)]
        parent = {}
        found = None
        while stack and found is None:
            i, j = stack.pop()
            opts = options[i]
            while j < len(opts):
                o = opts[j]
                j += 1
                if o in seen:
                    continue
                seen.add(o)
                parent[o] = i
                holder = owner.get(o)
                if holder is None:
                    found = o
                    break
                stack.append((i, j))
                stack.append((holder, 0))
                break
        if found is None:
            continue
        o = found
        while True:
            i = parent[o]
            previous = pick[i]
            pick[i] = o
            owner[o] = i
            if i == start:
                break
            o = previous
    return pick


def clue_book(
    fill_paths: list,
    clue_dir,
    out_paths: list,
    title: str = "Puzzle {k}",
    author: str = "",
    copyright: str = "",
    publisher: str = "",
    clue_file=None,
    blocklist=None,
    max_answer_repeats: int = 1,
    missing: str = "avoid",
    missing_path=None,
    prefer_chars: int | None = None,
    difficulty="medium",
    cache_dir=None,
    progress=None,
    sections=None,
    themes=(),
    report_path=None,
) -> dict:
    """Clue the filled grids of one book and write one ``.ipuz`` per grid.

    Parameters
    ----------
    fill_paths : list of path
        Filled grid-text files, in puzzle order.
    clue_dir : path
        The shard folder (``_xx.txt`` files of ``ANSWER|clue`` lines).
    out_paths : list of path
        ``.ipuz`` paths, one per fill.
    title : str
        Puzzle title; ``{k}`` is replaced by the puzzle's number.
    clue_file : path, optional
        The user's own ``ANSWER|clue`` file, read before the shards: its
        clues are an answer's first choices.
    blocklist : Blocklist, optional
        No clue it blocks is printed, and no answer it blocks is accepted.
    max_answer_repeats : int
        In how many puzzles of the book one answer may be (1: none twice).
    missing : str
        ``"avoid"`` or ``"fail"``: an answer with no clue left stops the
        stage; ``"leave"``: its clue is left empty in the ``.ipuz``.
    missing_path : path, optional
        Where the unclued answers are listed (default ``missing-clues.txt``
        beside the first ``.ipuz``); written only when some are, and a
        stale list there is removed when none are.
    prefer_chars : int, optional
        Prefer clues of at most this many characters: an answer's short
        clues come first, in their usual order, then its longer ones (a
        small trim prints larger type when clues are short).  ``None``:
        no preference.
    difficulty : str or list of str or list of float
        ``easy``, ``medium`` or ``hard`` (`DIFFICULTIES`), for the book or
        one a puzzle, or each puzzle's level from 0 (easy) to 1 (hard):
        which level of clue each entry takes first (`preferred_levels`); an
        answer's other clues follow.  The ``.ipuz`` says each puzzle's level.
    sections : list of str, optional
        Each puzzle's section title, written in its ``.ipuz``.
    themes : list of ThemedCandidate
        The themed candidates (`pipeline.model.themes`) the fills may have
        come from: a grid holding every entry of one takes its title and
        theme.
    report_path : path, optional
        A TSV of each puzzle: section, level, theme, entries and how many
        took a hard clue (for the book's summary).
    cache_dir : path, optional
        Where the shards are cached once read (`pipeline.model.cluefile.read_shards_cached`).
    progress : callable, optional
        Called with a line of progress (puzzles done, rate, time left) now and then.

    Returns
    -------
    dict
        ``puzzles``, ``answers``, ``shards_opened``, ``repeated`` (answers
        in more than one puzzle), ``missing`` (entries left unclued),
        ``mean_clue_chars`` (the printed clues' mean length),
        ``hard_clues`` (printed clues of level hard),
        ``giveaways_dropped`` (clue texts skipped because they give their
        answer away, `pipeline.model.cluetext.clue_leaks`) and
        ``clue_file_giveaways`` (those from ``clue_file``, as
        ``ANSWER|clue`` lines, for the user to rewrite).

    Raises
    ------
    MissingClues
        Listing each answer (puzzle, slot) that has no clue left, and the
        file that lists them (modes avoid and fail); nothing is written but that list.
    InputError
        A fill that is not complete, an answer used more often than
        ``max_answer_repeats`` allows or blocked (naming it and its
        puzzles), a bad line in ``clue_file`` or a shard (file and line).

    Examples
    --------
    >>> import pathlib, tempfile
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / "1.txt").write_text("AB\\nCD\\n"), (d / "clues").mkdir()
    >>> _ = (d / "mine.txt").write_text("AB|First\\nCD|Last\\nAC|Left\\nBD|Right\\n")
    >>> clue_book([d / "1.txt"], d / "clues", [d / "1.ipuz"], clue_file=d / "mine.txt")["missing"]
    0
    """
    if len(fill_paths) != len(out_paths):
        raise ValueError("one .ipuz path per filled grid")
    if missing not in MISSING_MODES:
        raise InputError(f"missing_clues is {missing!r}: choose one of {', '.join(MISSING_MODES)}")
    if max_answer_repeats < 1:
        raise InputError(f"max_answer_repeats is {max_answer_repeats}: give 1 (no answer twice) or more")
    if prefer_chars is not None and prefer_chars < 1:
        raise InputError(f"clue_prefer_chars is {prefer_chars}: give a length in characters, or null")
    difficulties = [difficulty] * len(fill_paths) if isinstance(difficulty, str) else list(difficulty)
    if len(difficulties) != len(fill_paths):
        raise ValueError("one difficulty per filled grid")
    for d in difficulties:
        if isinstance(d, str) and d not in DIFFICULTIES:
            raise InputError(f"difficulty is {d!r}: choose one of {', '.join(DIFFICULTIES)}")
    if sections is not None and len(sections) != len(fill_paths):
        raise ValueError("one section title per filled grid")
    missing_path = Path(missing_path) if missing_path is not None else Path(out_paths[0]).parent / MISSING_LIST
    grids = []
    for path in fill_paths:
        grid = parse_grid(read_text(path), path)
        if not grid.is_complete():
            raise InputError("grid is not completely filled", path)
        grids.append(grid)
    entries = [(k, slot, grid.word(slot)) for k, grid in enumerate(grids, start=1) for slot in grid.slots()]
    puzzles_of = _puzzles_of(entries)
    _check_answers(puzzles_of, max_answer_repeats, blocklist)
    answers = set(puzzles_of)
    mine = read_shard(clue_file, answers) if clue_file is not None else {}
    shards = read_clues_for(clue_dir, answers, cache_dir=cache_dir)
    # answer -> [(own, level, text)]: the user's clues first
    clues = {a: [(True, *clue_level(c)) for c in mine.get(a, ())] + [(False, *clue_level(c)) for c in shards.get(a, ())]
             for a in answers if a in mine or a in shards}  # fmt: skip
    prefer = [level for k, grid in enumerate(grids) for level in preferred_levels(difficulties[k], len(grid.slots()))]
    blocked: dict[str, bool] = {}
    leaks: dict[str, set[str]] = defaultdict(set)  # answer -> clue keys that give it away
    options = []
    text_of: dict[str, str] = {}
    level_of: dict[tuple[str, str], str] = {}  # (answer, clue key) -> its level
    done, current = Progress(len(grids), progress, "clues"), 1
    for (k, _, answer), wanted in zip(entries, prefer):
        if k != current:
            done.update(current, "clue texts checked")
            current = k
        keys, rank = [], {}
        for own, level, text in clues.get(answer, ()):
            key = clue_key(text)
            if key in rank or key in leaks[answer]:
                continue
            if clue_leaks(text, answer):
                leaks[answer].add(key)
                continue
            if blocklist:
                if key not in blocked:
                    blocked[key] = bool(blocklist.blocks_clue(text))
                if blocked[key]:
                    continue
            long = prefer_chars is not None and len(text) > prefer_chars  # short ones first: larger type
            rank[key] = (not own, level != wanted, long)
            keys.append(key)
            text_of.setdefault(key, text)
            level_of.setdefault((answer, key), level)
        keys.sort(key=rank.__getitem__)  # stable: in list order within a rank
        options.append(keys)
    done.update(len(grids), "clue texts checked; choosing one for each entry")
    chosen_key = assign_distinct(options)
    unclued = []
    chosen: list[dict] = [{} for _ in grids]
    source = "the shards or clue_file" if clue_file is not None else "the shards"
    for (k, slot, answer), key in zip(entries, chosen_key):
        if key is None:
            if answer not in clues:
                why = f"no clue in {source}"
            elif all(clue_key(t) in leaks[answer] for _, _, t in clues[answer]):
                why = "every clue gives the answer away"
            elif all(blocked.get(clue_key(t)) or clue_key(t) in leaks[answer] for _, _, t in clues[answer]):
                why = "every clue blocked by the blocklist" + (" or giving the answer away" if leaks[answer] else "")
            else:
                why = "every clue already used in this book"
            unclued.append((answer, f"{answer} (puzzle {k}, {slot.number}-{slot.direction.title()}: {why})"))
            chosen[k - 1][(slot.direction, slot.number)] = ""
        else:
            chosen[k - 1][(slot.direction, slot.number)] = text_of[key]
    if unclued:
        listed = list(dict.fromkeys(a for a, _ in unclued))
        write_text(missing_path, "".join(f"{a}|\n" for a in listed))
        if missing != "leave":
            shown = "; ".join(m for _, m in unclued[:20])
            more = f"; and {len(unclued) - 20} more" if len(unclued) > 20 else ""
            raise MissingClues(
                f"{len(unclued)} answers have no unused clue: {shown}{more}. They are listed in {missing_path} "
                f"as ANSWER| lines: write a clue after each '|' and set clue_file to that file (or add "
                f"'ANSWER|clue' lines to the shard files in {clue_dir}); missing_clues: leave writes the "
                "puzzles without them",
            )
    elif missing_path.is_file():
        missing_path.unlink()  # a list from an earlier run, now all clued
    printed = [text for clued in chosen for text in clued.values() if text]
    hard = sum(1 for (_, _, answer), key in zip(entries, chosen_key) if key is not None and level_of[answer, key] == "hard")
    theme_of = [_theme_of(grid, themes) for grid in grids]
    puzzles = [
        Puzzle(
            grid=grid,
            clues=clued,
            title=theme.title if theme else title.replace("{k}", str(k)),
            author=author,
            copyright=copyright,
            publisher=publisher,
            section=sections[k - 1] if sections else "",
            level=d if isinstance(d, str) else level_name(d),
            level_value=LEVEL_VALUE[d] if isinstance(d, str) else round(float(d), 4),
            theme=theme.entries if theme else (),
        )
        for k, (grid, clued, d, theme) in enumerate(zip(grids, chosen, difficulties, theme_of), start=1)
    ]
    files = [(path, ipuz_text(puzzle)) for path, puzzle in zip(out_paths, puzzles)]
    if report_path is not None:
        hard_in = defaultdict(int)
        for (k, _, answer), key in zip(entries, chosen_key):
            hard_in[k] += key is not None and level_of[answer, key] == "hard"
        files.append((report_path, _report(puzzles, hard_in)))
    # Every .ipuz staged first, then all renamed into place: a killed job leaves the old set or the new.
    write_all(files)
    return {
        "puzzles": len(grids),
        "answers": len(answers),
        "shards_opened": len({a[:2] for a in answers}),
        "repeated": sum(1 for puzzles in puzzles_of.values() if len(puzzles) > 1),
        "missing": len(unclued),
        "giveaways_dropped": sum(map(len, leaks.values())),
        "clue_file_giveaways": [f"{answer}|{text}" for answer, texts in sorted(mine.items()) for text in texts
                                if clue_key(text) in leaks[answer]],
        "hard_clues": hard,
        "mean_clue_chars": round(sum(map(len, printed)) / len(printed), 1) if printed else 0.0,
    }


def preferred_levels(difficulty, n: int) -> list[str]:
    """The clue level each of a puzzle's ``n`` entries (in clue-list order) takes first.

    ``difficulty`` is a level's name or a value from 0 (easy) to 1 (hard):
    that share of the entries, spread evenly through the list, take a hard
    clue first (medium, 0.5: every other entry).

    Examples
    --------
    >>> preferred_levels("easy", 3), preferred_levels("medium", 3), preferred_levels(0.25, 8).count("hard")
    (['easy', 'easy', 'easy'], ['easy', 'hard', 'easy'], 2)
    """
    share = LEVEL_VALUE[difficulty] if isinstance(difficulty, str) else float(difficulty)
    return [CLUE_LEVELS[math.floor((k + 1) * share + 1e-9) > math.floor(k * share + 1e-9)] for k in range(n)]


#: The clue report's columns (``clue_book(report_path=...)``).
REPORT_COLUMNS = ("puzzle", "section", "level", "level_value", "theme", "entries", "hard_clues")


def _report(puzzles: list, hard_in: dict) -> str:
    """The clue report: one row a puzzle (`REPORT_COLUMNS`)."""
    rows = ["\t".join(REPORT_COLUMNS)]
    for k, p in enumerate(puzzles, start=1):
        theme = p.title if p.theme else ""
        rows.append("\t".join([str(k), p.section, p.level, f"{p.level_value:g}", theme, str(len(p.clues)),
                               str(hard_in[k])]))  # fmt: skip
    return "\n".join(rows) + "\n"


def _theme_of(grid, themes):
    """The themed candidate whose theme entries the filled ``grid`` holds, in its cells (None: none)."""
    for theme in themes:
        if theme.grid.rows == grid.rows and theme.grid.cols == grid.cols and all(
            given in (EMPTY, cell) for given, cell in zip(theme.grid.cells, grid.cells)
        ):
            return theme
    return None


def _puzzles_of(entries) -> dict[str, list[int]]:
    """``{answer: [puzzle number of each use]}`` of a book's ``(puzzle, slot, answer)`` entries."""
    where: dict[str, list[int]] = defaultdict(list)
    for k, _, answer in entries:
        where[answer].append(k)
    return where


def _check_answers(where: dict[str, list[int]], max_answer_repeats: int, blocklist) -> None:
    """Raise InputError for an answer used too often, or blocked, naming its puzzles."""
    problems = []
    for answer, puzzles in where.items():
        if len(puzzles) > max_answer_repeats:
            problems.append(
                f"{answer} is used {len(puzzles)} times (puzzles {', '.join(map(str, puzzles))}), "
                f"more than max_answer_repeats {max_answer_repeats} allows"
            )
        if blocklist:
            bad = blocklist.blocks_answer(answer)
            if bad:
                problems.append(f"{answer} (puzzles {', '.join(map(str, puzzles))}) is blocked by the blocklist ({bad})")
    if problems:
        shown = "; ".join(problems[:20]) + (f"; and {len(problems) - 20} more" if len(problems) > 20 else "")
        raise InputError(f"the fills break the book's rules: {shown}")
