"""Pattern rules: the American and British presets, and the one checker of them.

A *style* is a preset of rules; every rule can be switched off (``None`` or
``False``) or bounded from the config (``pattern_rules:``) or the command
line.  The generator compiles the rules into constraints, the filter and
the tests check patterns against them with :func:`rule_violations`, so this
module is the single statement of what each rule means.

``american`` (newspaper daily grids)
    180-degree symmetry; every letter checked (in an across *and* a down
    word); no entry under 3 letters; all-over interlock (one region); at
    most 78 words and about 40 blacks in a 15x15, scaled by area for other
    sizes (:func:`style_rules`).

``british`` (seed ``000``'s eight rules plus The Times's)
    4-fold (90-degree) symmetry, no 2x2 block of whites nor of blacks, no
    white square outside a word, no 2-letter word, no word longer than
    ``max_slot_length``, no run of more than 3 blacks, one region (the seed's
    rules); at least half of each word's letters checked, no two unchecked
    letters in a row, no single square whose filling cuts off part of the
    grid (The Times's).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from .errors import InputError
from .graph import components, cut_cells
from .grid import Grid

__all__ = [
    "Rules",
    "STYLES",
    "RULE_NAMES",
    "style_rules",
    "parse_rule_option",
    "rule_violations",
    "graph_violations",
    "rules_by_size",
    "region_problem",
    "cut_cell_problem",
    "cell_name",
]

# A grid can hang on dozens of cells (a long corridor); messages name this many.
_MAX_CUT_CELLS_NAMED = 5

_SYMMETRIES = ("rotational", "quarter", "mirror", "none")


@dataclass(frozen=True)
class Rules:
    """What makes a pattern valid.  ``None``/``False`` switches a rule off.

    Attributes
    ----------
    symmetry : str
        ``rotational`` (180 degrees), ``quarter`` (90 degrees, square grids),
        ``mirror`` (left-right) or ``none``.
    min_slot_length, max_slot_length : int or None
        Bounds on every word (run of two or more white cells).
    all_checked : bool
        Every white cell lies in an across and a down word (American).
    min_checked_share : float or None
        At least this share of each word's letters checked (British 0.5).
    no_adjacent_unchecked : bool
        No two unchecked letters next to each other in a word (British).
    no_white_2x2, no_black_2x2 : bool
        No 2x2 block of white, of black cells (seed 000).
    max_black_run : int or None
        No more than this many blacks in a row or column (seed 000: 3).
    connected : bool
        The white cells form one region.
    no_cut_cell : bool
        Filling one white cell cuts off no part of ``min_slot_length`` cells
        or more (:func:`pipeline.model.graph.cut_cells`).
    min_blacks, max_blacks, min_words, max_words : int or None
        Bounds on the black squares and the words.
    """

    symmetry: str = "rotational"
    min_slot_length: int = 3
    max_slot_length: int | None = None
    all_checked: bool = True
    min_checked_share: float | None = None
    no_adjacent_unchecked: bool = False
    no_white_2x2: bool = False
    no_black_2x2: bool = False
    max_black_run: int | None = None
    connected: bool = True
    no_cut_cell: bool = False
    min_blacks: int | None = None
    max_blacks: int | None = None
    min_words: int | None = None
    max_words: int | None = None

    def as_dict(self) -> dict:
        return dataclasses.asdict(self)


#: Every rule's name (the keys of ``pattern_rules:`` and ``--rule``).
RULE_NAMES = tuple(f.name for f in dataclasses.fields(Rules))

_BOOL = {"all_checked", "no_adjacent_unchecked", "no_white_2x2", "no_black_2x2", "connected", "no_cut_cell"}
_INT = {"min_slot_length", "max_slot_length", "max_black_run", "min_blacks", "max_blacks", "min_words", "max_words"}


def _american(rows: int, cols: int) -> dict:
    cells = rows * cols
    return dict(
        symmetry="rotational",
        min_slot_length=3,
        all_checked=True,
        connected=True,
        # 78 words and 40 blacks in a 15x15 (a Sunday 21x21 allows ~140 words, ~76 blacks);
        # below 11x11 (minis, midis) no word cap.
        max_words=round(cells * 78 / 225) if cells >= 121 else None,
        max_blacks=round(cells / 6) + 2,
    )


def _british(rows: int, cols: int) -> dict:
    return dict(
        symmetry="quarter" if rows == cols else "rotational",
        min_slot_length=3,
        all_checked=False,
        min_checked_share=0.5,
        no_adjacent_unchecked=True,
        no_white_2x2=True,
        no_black_2x2=True,
        max_black_run=3,
        connected=True,
        no_cut_cell=True,
    )


#: The presets: style name -> function of (rows, cols) giving its rules.
STYLES = {"american": _american, "british": _british}


def style_rules(style: str, rows: int, cols: int, overrides: dict | None = None, where: str = "pattern_rules") -> Rules:
    """The rules of ``style`` for a ``rows x cols`` grid, with ``overrides`` applied.

    Parameters
    ----------
    style : str
        A key of :data:`STYLES`.
    overrides : dict, optional
        Rule name -> value; ``None`` switches a bound off.
    where : str
        How to name the overrides in an error (a config key, an option).

    Raises
    ------
    InputError
        On an unknown style or rule, a value of the wrong type or out of
        range, or bounds that contradict each other, naming the rule.

    Examples
    --------
    >>> r = style_rules("american", 15, 15)
    >>> r.max_words, r.max_blacks, r.all_checked
    (78, 40, True)
    >>> style_rules("british", 15, 15, {"max_slot_length": 13}).symmetry
    'quarter'
    """
    if style not in STYLES:
        raise InputError(f"style {style!r}: one of {', '.join(STYLES)}")
    values = STYLES[style](rows, cols)
    for key, value in (overrides or {}).items():
        if key not in RULE_NAMES:
            raise InputError(f"{where}: no rule {key!r}; the rules are {', '.join(RULE_NAMES)}")
        values[key] = _checked_value(key, value, where)
    rules = Rules(**values)
    _check_consistent(rules, rows, cols, where)
    return rules


def parse_rule_option(text: str) -> tuple[str, object]:
    """``"NAME=VALUE"`` (the command line's ``--rule``) as ``(name, value)``.

    ``VALUE`` is ``null`` (rule off; ``none`` too, but for ``symmetry``,
    where ``none`` is a symmetry), ``true``/``false``, a whole number, a
    decimal, or a word (a symmetry).  The value is checked by
    :func:`style_rules`.

    Examples
    --------
    >>> parse_rule_option("max_words=72"), parse_rule_option("max_slot_length=null")
    (('max_words', 72), ('max_slot_length', None))
    >>> parse_rule_option("no_cut_cell=false"), parse_rule_option("min_checked_share=0.5")
    (('no_cut_cell', False), ('min_checked_share', 0.5))
    >>> parse_rule_option("symmetry=none")
    ('symmetry', 'none')
    """
    name, eq, raw = text.partition("=")
    name, raw = name.strip(), raw.strip()
    if not eq or not name or not raw:
        raise InputError(f"rule {text!r}: write NAME=VALUE, e.g. max_words=72 or max_slot_length=null")
    low = raw.lower()
    if low == "null" or (low == "none" and name != "symmetry"):
        return name, None
    if low in ("true", "false"):
        return name, low == "true"
    for kind in (int, float):
        try:
            return name, kind(raw)
        except ValueError:
            pass
    return name, raw


def _checked_value(key, value, where):
    bad = f"{where}.{key}: "
    if key == "symmetry":
        if value not in _SYMMETRIES:
            raise InputError(bad + f"{value!r} is not one of {', '.join(_SYMMETRIES)}")
    elif key in _BOOL:
        if not isinstance(value, bool):
            raise InputError(bad + f"{value!r} is not true or false")
    elif key in _INT:
        if value is None and key != "min_slot_length":
            return None
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise InputError(bad + f"{value!r} is not a whole number >= 0" + ("" if key == "min_slot_length" else " or null"))
    elif key == "min_checked_share":
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1:
            raise InputError(bad + f"{value!r} is not a share between 0 and 1, or null")
    return value


def _check_consistent(r: Rules, rows: int, cols: int, where: str) -> None:
    if r.symmetry == "quarter" and rows != cols:
        raise InputError(f"{where}.symmetry: quarter-turn symmetry needs a square grid, not {rows}x{cols}")
    if r.min_slot_length < 2:
        raise InputError(f"{where}.min_slot_length: {r.min_slot_length} < 2 (a word has two letters or more)")
    for lo, hi in (("min_slot_length", "max_slot_length"), ("min_blacks", "max_blacks"), ("min_words", "max_words")):
        a, b = getattr(r, lo), getattr(r, hi)
        if a is not None and b is not None and a > b:
            raise InputError(f"{where}: {lo} {a} > {hi} {b}")
    if r.all_checked and min(rows, cols) < r.min_slot_length:
        raise InputError(
            f"{where}: a {rows}x{cols} grid has no room for a checked white cell: every one needs an across "
            f"and a down word of at least min_slot_length {r.min_slot_length}"
        )


def cell_name(cell: int, cols: int) -> str:
    """``r3c5``: a flat index as 1-based row and column, as messages print it."""
    r, c = divmod(cell, cols)
    return f"r{r + 1}c{c + 1}"


def region_problem(grid: Grid) -> str | None:
    """``"white squares in 2 regions (9 from r1c1, 9 from r1c5)"``, or None when one region.

    Examples
    --------
    >>> from pipeline.model.grid import parse_grid
    >>> region_problem(parse_grid("...#...\\n...#..."))
    'white squares in 2 regions (6 from r1c1, 6 from r1c5)'
    """
    parts = components(grid)
    if len(parts) == 1:
        return None
    if not parts:
        return "no white square"
    sizes = ", ".join(f"{len(p)} from {cell_name(min(p), grid.cols)}" for p in parts)
    return f"white squares in {len(parts)} regions ({sizes})"


def cut_cell_problem(grid: Grid, min_part: int) -> str | None:
    """``"cut cells: r2c4 (parts 10, 8), ..."`` (the first five named), or None.

    See :func:`pipeline.model.graph.cut_cells`.

    Examples
    --------
    >>> from pipeline.model.grid import parse_grid
    >>> cut_cell_problem(parse_grid("...#...\\n.......\\n...#..."), 3)
    'cut cells: r2c3 (parts 10, 8), r2c4 (parts 9, 9), r2c5 (parts 10, 8)'
    """
    cuts = cut_cells(grid, min_part)
    if not cuts:
        return None
    named = [f"{cell_name(c, grid.cols)} (parts {', '.join(map(str, cuts[c]))})" for c in sorted(cuts)]
    more = len(named) - _MAX_CUT_CELLS_NAMED
    return "cut cells: " + ", ".join(named[:_MAX_CUT_CELLS_NAMED]) + (f" and {more} more" if more > 0 else "")


def graph_violations(grid: Grid, rules: Rules) -> list[str]:
    """The rules on the white cells' graph that ``grid`` breaks: one region, no cut cell.

    At most two messages: :func:`region_problem` when ``rules.connected``,
    :func:`cut_cell_problem` (parts of ``min_slot_length`` cells) when
    ``rules.no_cut_cell``.  The connectivity stage applies these alone.
    """
    out = []
    if rules.connected and (problem := region_problem(grid)):
        out.append(problem)
    if rules.no_cut_cell and (problem := cut_cell_problem(grid, rules.min_slot_length)):
        out.append(problem)
    return out


def rules_by_size(style: str, overrides: dict | None = None, where: str = "pattern_rules"):
    """``rules_at(rows, cols, path=None, line=None) -> Rules``: ``style``'s rules for each size met, cached.

    A stage reading patterns of any size calls this once: a bad style,
    rule name or value raises :class:`InputError` here, before any pattern
    is read; rules that cannot apply to a pattern's size (quarter-turn
    symmetry on a rectangle) raise from ``rules_at``, naming ``path`` and
    ``line``.

    Examples
    --------
    >>> rules_at = rules_by_size("american", {"max_words": 72})
    >>> rules_at(15, 15).max_words, rules_at(21, 21).max_blacks
    (72, 76)
    """
    # At a large square size only the checks that do not depend on the size can fail.
    style_rules(style, 99, 99, overrides, where)
    cache: dict[tuple[int, int], Rules] = {}

    def rules_at(rows: int, cols: int, path=None, line: int | None = None) -> Rules:
        if (rows, cols) not in cache:
            try:
                cache[rows, cols] = style_rules(style, rows, cols, overrides, where)
            except InputError as e:
                raise InputError(e.message, path, line) from None
        return cache[rows, cols]

    return rules_at


def _image(i: int, rows: int, cols: int, symmetry: str) -> list[int]:
    r, c = divmod(i, cols)
    n = rows * cols
    if symmetry == "rotational":
        return [n - 1 - i]
    if symmetry == "quarter":
        return [c * cols + (cols - 1 - r), n - 1 - i]
    if symmetry == "mirror":
        return [r * cols + (cols - 1 - c)]
    return []


def rule_violations(grid: Grid, rules: Rules, limit: int = 20) -> list[str]:
    """Every rule ``grid`` breaks, one message each (empty when valid).

    Parameters
    ----------
    grid : Grid
        A pattern; letters count as white.
    rules : Rules
    limit : int
        Stop after this many messages (a bad grid can break a rule hundreds
        of times).

    Examples
    --------
    >>> from pipeline.model.grid import parse_grid
    >>> am = style_rules("american", 5, 5)
    >>> rule_violations(parse_grid("#....\\n.....\\n.....\\n.....\\n....#"), am)
    []
    >>> rule_violations(parse_grid(".#...\\n.....\\n.....\\n.....\\n...#."), am)
    ['r1c1: in a 5-letter down word but no across word (unchecked)', 'r5c5: in a 5-letter down word but no across word (unchecked)']

    Notes
    -----
    O(rows * cols) but for ``no_cut_cell``, O(A * rows * cols) for A
    articulation points (:func:`pipeline.model.graph.cut_cells`).
    """
    rows, cols, n = grid.rows, grid.cols, grid.rows * grid.cols
    black = [grid.is_black(i) for i in range(n)]
    out: list[str] = []
    name = lambda i: cell_name(i, cols)  # noqa: E731

    if rules.symmetry != "none":
        for i in range(n):
            if any(black[j] != black[i] for j in _image(i, rows, cols, rules.symmetry)):
                out.append(f"{name(i)}: not {rules.symmetry}-symmetric")
                break
    slots = grid.slots()
    across = [None] * n
    down = [None] * n
    for s in slots:
        for i in s.cells:
            (across if s.direction == "across" else down)[i] = s
    for s in slots:
        if s.length < rules.min_slot_length:
            out.append(f"{s.label} ({name(s.cells[0])}): {s.length} letters < min_slot_length {rules.min_slot_length}")
        if rules.max_slot_length is not None and s.length > rules.max_slot_length:
            out.append(f"{s.label} ({name(s.cells[0])}): {s.length} letters > max_slot_length {rules.max_slot_length}")
    for i in range(n):
        if black[i]:
            continue
        if across[i] is None and down[i] is None:
            out.append(f"{name(i)}: a white square in no word")
        elif rules.all_checked and (across[i] is None or down[i] is None):
            s = across[i] or down[i]
            out.append(f"{name(i)}: in a {s.length}-letter {s.direction} word but no {'down' if across[i] else 'across'} word (unchecked)")
    checked = [not black[i] and across[i] is not None and down[i] is not None for i in range(n)]
    for s in slots:
        k = sum(checked[i] for i in s.cells)
        if rules.min_checked_share is not None and k < rules.min_checked_share * s.length:
            out.append(f"{s.label}: {k} of {s.length} letters checked < {rules.min_checked_share:g}")
        if rules.no_adjacent_unchecked:
            for a, b in zip(s.cells, s.cells[1:]):
                if not checked[a] and not checked[b]:
                    out.append(f"{s.label}: unchecked {name(a)} and {name(b)} side by side")
                    break
    for colour, on in (("white", rules.no_white_2x2), ("black", rules.no_black_2x2)):
        if not on:
            continue
        want = colour == "black"
        for r in range(rows - 1):
            for c in range(cols - 1):
                i = r * cols + c
                if black[i] == black[i + 1] == black[i + cols] == black[i + cols + 1] == want:
                    out.append(f"{name(i)}: a 2x2 block of {colour} squares")
    if rules.max_black_run is not None:
        for step, count, length in ((1, rows, cols), (cols, cols, rows)):
            for k in range(count):
                start = k * cols if step == 1 else k
                run = 0
                for j in range(length):
                    run = run + 1 if black[start + j * step] else 0
                    if run == rules.max_black_run + 1:
                        out.append(f"{name(start + j * step)}: {run} black squares in a row > max_black_run {rules.max_black_run}")
    blacks = sum(black)
    for label, value, lo, hi in (
        ("blacks", blacks, rules.min_blacks, rules.max_blacks),
        ("words", len(slots), rules.min_words, rules.max_words),
    ):
        if lo is not None and value < lo:
            out.append(f"{label} {value} < {lo}")
        if hi is not None and value > hi:
            out.append(f"{label} {value} > {hi}")
    out += graph_violations(grid, rules)
    return out[:limit]
