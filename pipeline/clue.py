"""Stage 6, clues: give every answer of a book a clue and write ``.ipuz``.

The clue shards are opened only for the answers the book uses.  Clues are
taken in the order the shard lists them (the lexicon writes the most common
sense first); a clue text already printed in this book is skipped, so no
clue appears twice in one book.  An answer left with no clue stops the
stage with a list of what is missing: a placeholder is never printed.
"""

from __future__ import annotations

from pathlib import Path

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
    used: set[str] = set()
    missing = []
    puzzles = []
    for k, grid in enumerate(grids, start=1):
        chosen = {}
        for slot in grid.slots():
            answer = grid.word(slot)
            for text in clues.get(answer, ()):
                key = _clue_key(text)
                if key not in used:
                    used.add(key)
                    chosen[(slot.direction, slot.number)] = text
                    break
            else:
                why = "no clue in the shards" if answer not in clues else "every clue already used in this book"
                missing.append(f"{answer} (puzzle {k}, {slot.number}-{slot.direction.title()}: {why})")
        puzzles.append(
            Puzzle(
                grid=grid,
                clues=chosen,
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
