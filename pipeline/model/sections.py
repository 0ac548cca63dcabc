"""A book's sections: runs of puzzles of one size, style and difficulty.

Books on the shelf are "Easy to Hard": they open with minis, close with
Sunday-size 21x21s and sell on themed puzzles.  A section is one such run:
a title, a count, a grid size, a style and a difficulty, which may be graded
from one level to another through the section (the first puzzle at the
first level, the last at the second).  The config's ``sections`` list gives
them; without it, the older one-size keys (``puzzles_per_book``,
``grid_size`` or ``grid_rows``/``grid_cols``, ``pattern_style``,
``difficulty``) make a single untitled section, so a config written before
sections still makes its book.

Difficulty is a number from 0 (easy) to 1 (hard), medium 0.5: a graded
section's puzzles take evenly spaced values between its two ends, and each
puzzle's named level (what the clue stage chooses by) is the nearest of the
three.

Examples
--------
>>> s = section_from({"title": "Daily", "count": 5, "size": 15, "difficulty": ["easy", "hard"]})
>>> s.rows, s.cols, s.style, s.graded
(15, 15, 'american', True)
>>> s.levels()
[0.0, 0.25, 0.5, 0.75, 1.0]
>>> s.difficulties()
['easy', 'easy', 'medium', 'medium', 'hard']
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import InputError
from .rules import style_rules

#: A puzzle's difficulty, easiest first (a section's ``difficulty``, the config's
#: ``difficulty``), and where each sits on the 0-1 scale.
DIFFICULTIES = ("easy", "medium", "hard")
LEVEL_VALUE = {"easy": 0.0, "medium": 0.5, "hard": 1.0}

#: Grid styles a section may ask for: the pattern styles, and ``open`` for
#: word squares with no black squares (every row and column a word).
SECTION_STYLES = ("american", "british", "open")

#: The open style's largest square: 5x5 and 6x6 squares fill from a good
#: list, 7x7 rarely, larger ones not at all.
MAX_OPEN_SIZE = 7

#: A themed grid needs room for three to five long entries in symmetric slots.
MIN_THEME_SIZE = 11

#: Pattern rules that count squares or words: tuned for one size, they do not carry to another.
COUNT_RULES = ("min_blacks", "max_blacks", "min_words", "max_words")

#: How many points above ``min_score`` an easy puzzle's weakest word must score (a hard puzzle's floor is
#: ``min_score``; a medium one's half this above it): easy puzzles are filled with familiar words.
EASY_LIFT = 10.0


@dataclass(frozen=True)
class Section:
    """One section of a book.

    Attributes
    ----------
    title : str
        Its heading in the contents and above its puzzles ("" for the
        single section of a config without ``sections``: no heading).
    count : int
        Its puzzles.
    rows, cols : int
        Its grids' size.
    style : str
        One of :data:`SECTION_STYLES`.
    difficulty : tuple of (str, str)
        The first and the last puzzle's level; the same twice when the
        section is not graded.
    theme : bool
        Whether its puzzles are themed.
    rules : tuple of (str, object)
        Its style's pattern rules changed (`pipeline.model.rules.style_rules`
        overrides), as ``(name, value)`` pairs.
    """

    title: str
    count: int
    rows: int
    cols: int
    style: str = "american"
    difficulty: tuple[str, str] = ("medium", "medium")
    theme: bool = False
    rules: tuple = ()

    @property
    def graded(self) -> bool:
        """Whether the difficulty changes through the section."""
        return self.difficulty[0] != self.difficulty[1]

    def levels(self) -> list[float]:
        """Each puzzle's difficulty on the 0 (easy) to 1 (hard) scale, first to last."""
        return graded_levels(self.difficulty, self.count)

    def difficulties(self) -> list[str]:
        """Each puzzle's named level: the nearest of :data:`DIFFICULTIES` (ties to the easier)."""
        return [level_name(v) for v in self.levels()]

    @property
    def difficulty_spec(self) -> str:
        """The difficulty as the stages' ``--difficulty`` takes it: ``easy``, or ``easy-hard`` when graded."""
        return "-".join(dict.fromkeys(self.difficulty))

    def pattern_rules(self) -> tuple[str, dict]:
        """The pattern generator's style and rule overrides for this section: an open square is an
        American grid with no black squares (and so no symmetry to keep).

        >>> Section("Squares", 4, 5, 5, "open").pattern_rules()
        ('american', {'max_blacks': 0, 'symmetry': 'none'})
        """
        if self.style == "open":
            return "american", {"max_blacks": 0, "symmetry": "none"}
        return self.style, dict(self.rules)

    @property
    def few_patterns(self) -> bool:
        """Whether the grid is too small to have many patterns (under 11x11: a 5x5 has a handful), so
        the generator makes as many as there are rather than the number asked for."""
        return self.rows * self.cols < MIN_THEME_SIZE * MIN_THEME_SIZE


def graded_levels(ends, count: int) -> list[float]:
    """``count`` evenly spaced values from level ``ends[0]`` to ``ends[1]`` on the 0-1 scale.

    >>> graded_levels(("easy", "hard"), 3), graded_levels(("medium", "medium"), 2), graded_levels(("easy", "hard"), 1)
    ([0.0, 0.5, 1.0], [0.5, 0.5], [0.5])
    """
    lo, hi = (LEVEL_VALUE[d] for d in ends)
    if count == 1:
        return [(lo + hi) / 2]
    return [lo + (hi - lo) * k / (count - 1) for k in range(count)]


def book_levels(difficulties, counts, where: str = "--difficulty") -> list[float]:
    """Each puzzle's level, in book order, from the sections' ``--difficulty`` specs (`parse_difficulty`;
    one spec for every section, or one for all) and their puzzle ``counts``.

    >>> book_levels(["easy", "easy-hard"], [1, 3]), book_levels(["hard"], [1, 1])
    ([0.0, 0.0, 0.5, 1.0], [1.0, 1.0])
    """
    ends = [parse_difficulty(d, where) for d in difficulties]
    ends = ends * len(counts) if len(ends) == 1 else ends
    if len(ends) != len(counts):
        raise InputError(f"{where}: give one level for each of the {len(counts)} sections, or one for all")
    return [v for e, c in zip(ends, counts) for v in graded_levels(e, c)]


def level_name(value: float) -> str:
    """The nearest named level to ``value`` (ties to the easier).

    >>> level_name(0.25), level_name(0.8)
    ('easy', 'hard')
    """
    return min(DIFFICULTIES, key=lambda d: (abs(LEVEL_VALUE[d] - value), LEVEL_VALUE[d]))


def parse_difficulty(text: str, where: str = "--difficulty") -> tuple[str, str]:
    """``easy`` or ``easy-hard`` (a stage's ``--difficulty``) as ``(first, last)``.

    >>> parse_difficulty("easy-hard"), parse_difficulty("medium")
    (('easy', 'hard'), ('medium', 'medium'))
    """
    ends = tuple(text.split("-"))
    ends = ends * 2 if len(ends) == 1 else ends
    if len(ends) != 2 or any(d not in DIFFICULTIES for d in ends):
        raise InputError(f"{where}: {text!r}: give a level ({', '.join(DIFFICULTIES)}) or FIRST-LAST, e.g. easy-hard")
    return ends


def section_from(item: dict, where: str = "section", rules: dict | None = None) -> Section:
    """A :class:`Section` from one item of the config's ``sections`` list.

    The schema has checked each key's type and range; this checks what it
    cannot: ``size`` or ``rows`` and ``cols`` (not both), and what the style
    and a theme need of the size.  ``rules`` are the style's rules changed
    for every section (the config's ``pattern_rules``), the item's own
    ``rules`` laid over them.

    Raises
    ------
    InputError
        Naming ``where`` and the key.
    """
    size, rows, cols = item.get("size"), item.get("rows"), item.get("cols")
    if size is not None and (rows is not None or cols is not None):
        raise InputError(f"{where}: give size or rows and cols, not both")
    if size is None and (rows is None or cols is None):
        missing = "size" if rows is None and cols is None else ("cols" if cols is None else "rows")
        raise InputError(f"{where}: {missing}: missing (a section gives size, or rows and cols)")
    rows, cols = (size, size) if size is not None else (rows, cols)
    style = item.get("style", "american")
    if style == "open" and (rows != cols or rows > MAX_OPEN_SIZE):
        raise InputError(f"{where}: style open (a word square) needs a square grid of at most "
                         f"{MAX_OPEN_SIZE}x{MAX_OPEN_SIZE}, not {rows}x{cols}")  # fmt: skip
    overrides = {**(rules or {}), **(item.get("rules") or {})} if style != "open" else {}
    if style != "open":
        style_rules(style, rows, cols, overrides, where=f"{where}: rules")  # the preset, changed, holds on this size
    theme = bool(item.get("theme", False))
    if theme and style != "american":
        raise InputError(f"{where}: theme: themed grids are style american (180-degree symmetry, across theme "
                         f"entries), not {style}")  # fmt: skip
    if theme and min(rows, cols) < MIN_THEME_SIZE:
        raise InputError(f"{where}: theme: a themed grid needs at least {MIN_THEME_SIZE}x{MIN_THEME_SIZE}, "
                         f"not {rows}x{cols}")  # fmt: skip
    difficulty = item.get("difficulty", "medium")
    ends = (difficulty, difficulty) if isinstance(difficulty, str) else tuple(difficulty)
    for d in ends:
        if d not in DIFFICULTIES:
            raise InputError(f"{where}: difficulty: {d!r} is not one of {', '.join(DIFFICULTIES)}")
    if len(ends) != 2:
        raise InputError(f"{where}: difficulty: give one level or [first, last], not {len(ends)}")
    return Section(str(item["title"]), int(item["count"]), rows, cols, style, ends, theme, tuple(overrides.items()))


def sections_of(config: dict) -> list[Section]:
    """The book's sections: the config's ``sections``, or one made of the one-size keys.

    The config's ``pattern_rules`` are tuned for its ``grid_size`` grid
    (74-78 words in a 15x15): they apply to the sections of that size; a
    section of another size takes its style's preset for that size with
    the tuned rules that are not counts (`COUNT_RULES`: ``max_slot_length``
    11 is the word list's, whatever the size), and any section may change
    its rules with its own ``rules``.

    Raises
    ------
    InputError
        On a bad section, naming it by position and title
        (``sections[2] (Themed): theme: ...``); on two sections of one title.

    Examples
    --------
    >>> old = {"puzzles_per_book": 12, "grid_size": 15, "grid_rows": None, "grid_cols": None,
    ...        "pattern_style": "american", "difficulty": "easy"}
    >>> sections_of(old)
    [Section(title='', count=12, rows=15, cols=15, style='american', difficulty=('easy', 'easy'), theme=False, rules=())]
    """
    items = config.get("sections")
    size = config["grid_size"]
    rows, cols = config["grid_rows"] or size, config["grid_cols"] or size
    tuned = config.get("pattern_rules") or {}
    if not items:
        style = config["pattern_style"]
        return [Section("", config["puzzles_per_book"], rows, cols, style, (config["difficulty"],) * 2,
                        rules=tuple((tuned.get(style) or {}).items()))]  # fmt: skip
    sections, seen = [], {}
    for i, item in enumerate(items):
        where = f"sections[{i}]" + (f" ({item['title']})" if item.get("title") else "")
        # pattern_rules are tuned for the grid_size grid: their counts go to the sections of that size,
        # their other rules (the longest slot the list fills well) to every section of the style.
        size_of = (item.get("size"), item.get("size")) if item.get("size") else (item.get("rows"), item.get("cols"))
        rules = tuned.get(item.get("style", "american")) or {}
        if size_of != (rows, cols):
            rules = {k: v for k, v in rules.items() if k not in COUNT_RULES}
        section = section_from(item, where, rules)
        if section.title in seen:
            raise InputError(f"{where}: title: the same as sections[{seen[section.title]}]'s; give each its own")
        seen[section.title] = i
        sections.append(section)
    return sections


def level_floor(min_score, level: float | None):
    """The lowest word score a puzzle at ``level`` takes: ``min_score`` for a hard puzzle, `EASY_LIFT`
    points more for an easy one, in between for the levels between (None: ``min_score``).

    >>> level_floor(35, 0.0), level_floor(35, 0.5), level_floor(35, 1.0), level_floor(None, 0.0)
    (45.0, 40.0, 35.0, None)
    """
    if min_score is None or level is None:
        return min_score
    return float(min_score) + EASY_LIFT * (1.0 - level)
