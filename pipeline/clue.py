"""Stage 6, clues: give every answer of a book a clue and write ``.ipuz``.

The clue shards are opened only for the answers the book uses.  No clue
text is printed twice in one book, and synonyms often share a gloss (NIL
and ZERO are both "A quantity of no importance"), so choosing clues is a
matching between the book's entries and clue texts: each entry first takes
its best clue still free (the shard's order, most common sense first), then
entries left without one take a clue from another entry that can move to
its next choice (augmenting paths, as in Hopcroft-Karp).  An entry left
with no clue stops the stage with a list of what is missing: a placeholder
is never printed.
"""

from __future__ import annotations


from .model.cluefile import read_clues_for
from .model.errors import InputError
from .model.fileio import read_text
from .model.grid import parse_grid
from .model.puzzle import Puzzle, write_ipuz

__all__ = ["MissingClues", "clue_book"]


class MissingClues(InputError):
    """Some answers of a book have no unused clue."""


def _clue_key(text: str) -> str:
    return " ".join(text.lower().split())


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

    Returns
    -------
    dict
        ``puzzles``, ``answers``, ``shards_opened``.

    Raises
    ------
    MissingClues
        Listing each answer (puzzle, slot) that has no clue left.
    """
    if len(fill_paths) != len(out_paths):
        raise ValueError("one .ipuz path per filled grid")
    grids = []
    for path in fill_paths:
        grid = parse_grid(read_text(path), path)
        if not grid.is_complete():
            raise InputError("grid is not completely filled", path)
        grids.append(grid)
    answers = {w for g in grids for w in g.words()}
    clues = read_clues_for(clue_dir, answers)
    entries = [(k, slot, grid.word(slot)) for k, grid in enumerate(grids, start=1) for slot in grid.slots()]
    options = []
    text_of: dict[str, str] = {}
    for _, _, answer in entries:
        keys = []
        for text in clues.get(answer, ()):
            key = _clue_key(text)
            if key not in keys:
                keys.append(key)
                text_of.setdefault(key, text)
        options.append(keys)
    chosen_key = assign_distinct(options)
    missing = []
    chosen: list[dict] = [{} for _ in grids]
    for (k, slot, answer), key in zip(entries, chosen_key):
        if key is None:
            why = "no clue in the shards" if answer not in clues else "every clue already used in this book"
            missing.append(f"{answer} (puzzle {k}, {slot.number}-{slot.direction.title()}: {why})")
        else:
            chosen[k - 1][(slot.direction, slot.number)] = text_of[key]
    puzzles = []
    for k, grid in enumerate(grids, start=1):
        puzzles.append(
            Puzzle(
                grid=grid,
                clues=chosen[k - 1],
                title=title.replace("{k}", str(k)),
                author=author,
                copyright=copyright,
                publisher=publisher,
            )
        )
    if missing:
        shown = "; ".join(missing[:20]) + (f"; and {len(missing) - 20} more" if len(missing) > 20 else "")
        raise MissingClues(
            f"{len(missing)} answers have no unused clue: {shown}. Add 'ANSWER|clue' lines to the "
            f"shard files (_xx.txt) in {clue_dir}",
        )
    for path, puzzle in zip(out_paths, puzzles):
        write_ipuz(path, puzzle)
    shards = {a[:2] for a in answers}
    return {"puzzles": len(puzzles), "answers": len(answers), "shards_opened": len(shards)}
