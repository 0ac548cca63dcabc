"""A finished puzzle and its ``.ipuz`` form (``http://ipuz.org/v2``, crossword).

The ``.ipuz`` file is the one hand-over between the clue stage and the
renderers, so this module is the only place that reads or writes it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from .errors import InputError
from .fileio import read_text, write_text
from .grid import BLACK, Grid, Slot

__all__ = ["Puzzle", "read_ipuz", "write_ipuz", "ipuz_text", "IPUZ_VERSION", "IPUZ_KIND", "IPUZ_BOOK_KEY"]

IPUZ_VERSION = "http://ipuz.org/v2"
IPUZ_KIND = "http://ipuz.org/crossword#1"
#: The ``.ipuz`` extension key (ipuz names extensions by URI; .invalid, a domain no one owns) of a
#: puzzle's place in the book: its section, level (0-1) and theme entries.
IPUZ_BOOK_KEY = "https://xwbook.invalid/ipuz/book"


@dataclass
class Puzzle:
    """A filled, clued crossword.

    Attributes
    ----------
    grid : Grid
        The solution: every white cell holds a letter.
    clues : dict
        ``{(direction, number): clue}`` for every slot of ``grid``.  A clue
        may be empty (``""``): the clue stage leaves it so when told to
        (``missing_clues: leave``), and the renderers refuse such a puzzle.
    title, author, copyright, publisher : str
        Printed with the puzzle and stored in the ``.ipuz``.  A themed
        puzzle's title names its theme.
    section : str
        The title of the book section the puzzle belongs to ("" in a book
        of one untitled section).
    level : str
        ``easy``, ``medium`` or ``hard`` ("" when not set): printed with
        the puzzle, and the ``.ipuz`` ``difficulty``.
    level_value : float, optional
        Where the puzzle sits on the 0 (easy) to 1 (hard) scale; a graded
        section's puzzles rise through it.
    theme : tuple of str
        A themed puzzle's theme entries, in grid order (empty otherwise).
    extra : dict
        Further ``.ipuz`` keys written as they are.
    """

    grid: Grid
    clues: dict[tuple[str, int], str]
    title: str = ""
    author: str = ""
    copyright: str = ""
    publisher: str = ""
    section: str = ""
    level: str = ""
    level_value: float | None = None
    theme: tuple[str, ...] = ()
    extra: dict = field(default_factory=dict)

    def notes(self) -> str:
        """The ``.ipuz`` notes: the section, the level and the theme, as a solver would read them.

        >>> from pipeline.model.grid import parse_grid
        >>> Puzzle(parse_grid("AB\\nCD"), {}, title="Fire ___", section="Themed", level="medium",
        ...        theme=("FIREDRILL", "FIREALARM")).notes()
        'Section: Themed. Level: medium. Theme: Fire ___ (FIREDRILL, FIREALARM).'
        """
        parts = [f"Section: {self.section}." if self.section else "", f"Level: {self.level}." if self.level else ""]
        if self.theme:
            parts.append(f"Theme: {self.title} ({', '.join(self.theme)}).")
        return " ".join(p for p in parts if p)

    def entries(self, direction: str) -> list[tuple[Slot, str, str]]:
        """``(slot, answer, clue)`` for one direction, in number order."""
        out = []
        for slot in self.grid.slots():
            if slot.direction == direction:
                out.append((slot, self.grid.word(slot), self.clues[(direction, slot.number)]))
        return out

    def unclued(self) -> list[tuple[Slot, str]]:
        """``(slot, answer)`` of each entry whose clue is empty, in grid order.

        Examples
        --------
        >>> from pipeline.model.grid import parse_grid
        >>> g = parse_grid("AB\\nCD")
        >>> p = Puzzle(g, {("across", 1): "x", ("across", 3): " ", ("down", 1): "y", ("down", 2): "z"})
        >>> [(s.label, a) for s, a in p.unclued()]
        [('3A', 'CD')]
        """
        return [
            (s, self.grid.word(s)) for s in self.grid.slots() if not self.clues.get((s.direction, s.number), "").strip()
        ]

    def to_ipuz(self) -> dict:
        g = self.grid
        numbers = g.numbers()
        puzzle_rows, solution_rows = [], []
        for r in range(g.rows):
            prow, srow = [], []
            for c in range(g.cols):
                i = r * g.cols + c
                if g.cells[i] == BLACK:
                    prow.append(BLACK)
                    srow.append(BLACK)
                else:
                    prow.append(numbers.get(i, 0))
                    srow.append(g.cells[i])
            puzzle_rows.append(prow)
            solution_rows.append(srow)
        data = {
            "version": IPUZ_VERSION,
            "kind": [IPUZ_KIND],
            "title": self.title,
            "author": self.author,
            "copyright": self.copyright,
            "publisher": self.publisher,
            "dimensions": {"width": g.cols, "height": g.rows},
            "block": BLACK,
            "empty": 0,
            "puzzle": puzzle_rows,
            "solution": solution_rows,
            "clues": {
                "Across": [[s.number, clue] for s, _, clue in self.entries("across")],
                "Down": [[s.number, clue] for s, _, clue in self.entries("down")],
            },
        }
        if self.level:
            data["difficulty"] = self.level.capitalize()
        notes = self.notes()
        if notes:
            data["notes"] = notes
        book = {k: v for k, v in (("section", self.section), ("level", self.level_value),
                                  ("theme", list(self.theme))) if v not in ("", None, [])}  # fmt: skip
        if book:
            data[IPUZ_BOOK_KEY] = book
        data.update(self.extra)
        return data

    @classmethod
    def from_ipuz(cls, data: dict, path=None) -> "Puzzle":
        try:
            kinds = data["kind"]
            if not any(str(k).startswith("http://ipuz.org/crossword") for k in kinds):
                raise InputError(f"kind {kinds!r} is not a crossword", path)
            width = int(data["dimensions"]["width"])
            height = int(data["dimensions"]["height"])
            block = data.get("block", BLACK)
            cells = []
            for row in data["solution"]:
                for v in row:
                    if isinstance(v, dict):
                        v = v.get("value")
                    if v is None or v == block or v == BLACK:
                        cells.append(BLACK)
                    else:
                        cells.append(str(v).upper())
            grid = Grid(height, width, cells)
            clues: dict[tuple[str, int], str] = {}
            for key, direction in (("Across", "across"), ("Down", "down")):
                for item in data["clues"].get(key, []):
                    if isinstance(item, dict):
                        number, text = item["number"], item.get("clue")
                    else:
                        number, text = item
                    # An empty clue (or none) is kept as "": the renderers say which is missing.
                    clues[(direction, int(number))] = "" if text is None else str(text)
        except InputError:
            raise
        except (KeyError, TypeError, ValueError) as e:
            raise InputError(f"not a crossword .ipuz ({type(e).__name__}: {e})", path) from None
        missing = [s.label for s in grid.slots() if (s.direction, s.number) not in clues]
        if missing:
            raise InputError(f"no clue for {', '.join(missing[:5])}", path)
        known = {k: data.get(k, "") for k in ("title", "author", "copyright", "publisher")}
        book = data.get(IPUZ_BOOK_KEY) or {}
        level = str(data.get("difficulty") or "").lower()
        try:
            value = None if book.get("level") is None else float(book["level"])
            theme = tuple(str(w).upper() for w in book.get("theme") or ())
        except (AttributeError, TypeError, ValueError) as e:
            raise InputError(f"{IPUZ_BOOK_KEY}: {e}", path) from None
        return cls(grid=grid, clues=clues, **known, section=str(book.get("section", "")),
                   level=level if level in ("easy", "medium", "hard") else "", level_value=value, theme=theme)  # fmt: skip


def ipuz_text(puzzle: Puzzle) -> str:
    """``puzzle`` as the text of an ``.ipuz`` file (JSON, stable key order)."""
    return json.dumps(puzzle.to_ipuz(), ensure_ascii=False, indent=1) + "\n"


def write_ipuz(path, puzzle: Puzzle) -> None:
    """Write ``puzzle`` as ``.ipuz`` JSON (atomically, stable key order)."""
    write_text(path, ipuz_text(puzzle))


def read_ipuz(path) -> Puzzle:
    """Read a crossword ``.ipuz`` file."""
    path = Path(path)
    try:
        data = json.loads(read_text(path))
    except json.JSONDecodeError as e:
        raise InputError(f"not JSON: {e.msg}", path, e.lineno) from None
    if not isinstance(data, dict):
        raise InputError("not a crossword .ipuz (top level is not an object)", path)
    return Puzzle.from_ipuz(data, path)
