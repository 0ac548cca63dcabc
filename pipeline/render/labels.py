"""What the pages say about each puzzle and section: headings, captions, contents lines, section blurbs.

Both renderers print these strings as they are (each in its own fonts),
so a puzzle is announced the same way in either PDF: "Puzzle 14", then its
level and title ("Easy · Fire ___"; a themed puzzle's title names the
theme, and the theme entries are never printed).
"""

from __future__ import annotations

__all__ = ["heading_title", "puzzle_caption", "contents_label", "puzzle_range", "section_blurb"]


def heading_title(puzzle, k: int) -> str:
    """The title printed beside the "Puzzle k" heading: none when it says only that.

    Examples
    --------
    >>> from types import SimpleNamespace as P
    >>> heading_title(P(title="Puzzle 3"), 3), heading_title(P(title="Sea Life"), 3)
    ('', 'Sea Life')
    """
    title = (puzzle.title or "").strip()
    return "" if title.lower() == f"puzzle {k}" else title


def puzzle_caption(puzzle, k: int) -> str:
    """What follows "Puzzle k" above its grid: its level, then its title (a themed puzzle's names the theme).

    The theme entries are never printed: they would give the theme away.

    Examples
    --------
    >>> from types import SimpleNamespace as P
    >>> puzzle_caption(P(title="Fire ___", level="easy"), 14), puzzle_caption(P(title="Puzzle 2", level=""), 2)
    ('Easy · Fire ___', '')
    """
    level = (getattr(puzzle, "level", "") or "").strip()
    parts = [level.capitalize()] if level else []
    title = heading_title(puzzle, k)
    if title:
        parts.append(title)
    return " · ".join(parts)


def contents_label(puzzle, k: int) -> str:
    """A puzzle's line in the contents: ``"Puzzle k"`` and its title, if it has its own."""
    title = heading_title(puzzle, k)
    return f"Puzzle {k}" + (f": {title}" if title else "")


def puzzle_range(first: int, last: int) -> str:
    """``"Puzzles 1-12"``, or ``"Puzzle 5"`` (0-based arguments).

    Examples
    --------
    >>> puzzle_range(0, 11), puzzle_range(4, 4)
    ('Puzzles 1-12', 'Puzzle 5')
    """
    return f"Puzzle {first + 1}" if first == last else f"Puzzles {first + 1}-{last + 1}"


def section_blurb(puzzles, first: int, last: int) -> str:
    """The line under a section's title on its opening page: sizes, levels, themes.

    Examples
    --------
    >>> from types import SimpleNamespace as P, SimpleNamespace as G
    >>> ps = [P(grid=G(rows=15, cols=15), level=lv, theme=()) for lv in ("easy", "medium", "hard")]
    >>> section_blurb(ps, 0, 2), section_blurb(ps, 1, 1)
    ('15x15 · Easy to hard', '15x15 · Medium')
    """
    run = puzzles[first : last + 1]
    sizes = list(dict.fromkeys(f"{p.grid.rows}x{p.grid.cols}" for p in run))
    levels = [p.level for p in run if getattr(p, "level", "")]
    parts = [", ".join(sizes)]
    if levels:
        parts.append(levels[0].capitalize() if len(set(levels)) == 1 else f"{levels[0].capitalize()} to {levels[-1]}")
    if all(getattr(p, "theme", ()) for p in run):
        parts.append("Themed")
    elif any(getattr(p, "theme", ()) for p in run):
        parts.append("Some themed")
    return " · ".join(parts)
