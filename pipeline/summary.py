"""A book's statistics in one table: its patterns, its fill and its rendering.

After stage 7, the pipeline gathers what three stages reported about a book
into ``outputs/reports/book-{n}/summary.tsv`` (and an HTML copy of the same
table for the Snakemake report):

* the pattern statistics (``outputs/patterns/stats.tsv``, the filter's
  columns, matched to each puzzle by its pattern's hex code);
* the fill report (``outputs/fills/book-{n}/report.tsv``: score, weakest
  entry, seconds and words tried per puzzle);
* each renderer's statistics (``xw render --stats``: pages, clue type size,
  puzzles set below the trim's type floor);
* the clue report (``outputs/reports/book-{n}/clues.tsv``: each puzzle's
  section, level, theme and hard clues).

Each puzzle gets a **difficulty index**, 0 (easiest) to 10 (hardest): half
from its clues (the share that took a hard clue) and half from its entries'
rarity (their mean score, 80 and up counted as wholly familiar and 50 and
down as wholly rare: the list's score is how well solvers know a word).

One row per puzzle, then a row ``all`` for the book: totals of the counts,
the mean word length and fill score, the weakest entry, the smallest clue
type, the pages of each PDF.
"""

from __future__ import annotations

import csv
import html
import json

from .model.errors import InputError
from .model.fileio import read_text, write_all

__all__ = ["summarize_book", "difficulty_index", "PATTERN_COLUMNS", "FILL_COLUMNS", "CLUE_COLUMNS"]

#: Pattern statistics kept, as the filter names them.
PATTERN_COLUMNS = ("rows", "cols", "words", "blacks", "three_letter", "cheaters", "mean_len", "max_len")
#: Fill report columns kept, and their names in the summary.
FILL_COLUMNS = {"score": "fill_score", "weakest": "weakest", "seconds": "fill_seconds", "nodes": "fill_nodes"}
#: Clue report columns kept (``xw clue --report``).
CLUE_COLUMNS = ("section", "level", "theme", "hard_clues")
#: The mean entry score counted as wholly familiar, and as wholly rare, in the difficulty index.
FAMILIAR, RARE = 80.0, 50.0


def difficulty_index(hard_share: float, mean_score: float) -> float:
    """A puzzle's difficulty, 0 to 10: half its share of hard clues, half its entries' rarity.

    >>> difficulty_index(0.0, 80), difficulty_index(1.0, 50), difficulty_index(0.5, 65)
    (0.0, 10.0, 5.0)
    """
    rarity = min(1.0, max(0.0, (FAMILIAR - mean_score) / (FAMILIAR - RARE)))
    return round(10 * (0.5 * hard_share + 0.5 * rarity), 2)
# How the "all" row combines a column over the puzzles.
_TOTAL = {"words", "blacks", "three_letter", "cheaters", "fill_seconds", "fill_nodes", "hard_clues"}
_MEAN = {"mean_len", "fill_score", "difficulty"}
_MIN = {"weakest"}
_MAX = {"max_len"}


def _read_tsv(path, needed) -> list[dict]:
    text = read_text(path)
    rows = list(csv.DictReader(text.splitlines(), delimiter="\t"))
    header = text.split("\n", 1)[0].split("\t")
    missing = [c for c in needed if c not in header]
    if missing:
        raise InputError(f"no column {', '.join(missing)} in the header (is this the right file?)", path)
    return rows


def _number(text: str, path, line: int):
    try:
        value = float(text)
    except ValueError:
        raise InputError(f"not a number: {text!r}", path, line) from None
    return int(value) if value.is_integer() and "." not in text else value


def _render_stats(name: str, path, n: int) -> tuple[dict, list[dict]]:
    """A renderer's book-level figures, and per puzzle its clue size and whether it is below the floor.

    ``clue_sizes`` (one per puzzle) gives the sizes when the renderer lists
    them; ``below_floor`` lists the puzzles set below the trim's floor, as
    numbers or as ``{"puzzle": k, "size": pt}``.
    """
    try:
        stats = json.loads(read_text(path))
    except json.JSONDecodeError as e:
        raise InputError(f"not JSON ({e.msg})", path, e.lineno) from None
    if not isinstance(stats, dict) or not isinstance(stats.get("pages"), int):
        raise InputError("not the statistics of xw render --stats (no page count)", path)
    sizes = stats.get("clue_sizes")
    sizes = list(sizes) if isinstance(sizes, list) and len(sizes) == n else [""] * n
    below = stats.get("below_floor", [])
    below = below if isinstance(below, list) else []
    per_puzzle = [{f"{name}_clue_size": size, f"{name}_below_floor": ""} for size in sizes]
    for item in below:
        k, size = (item.get("puzzle"), item.get("size", "")) if isinstance(item, dict) else (item, "")
        if not isinstance(k, int) or not 1 <= k <= n:
            raise InputError(f"below_floor names puzzle {k!r}, not one of the book's {n}", path)
        per_puzzle[k - 1][f"{name}_below_floor"] = "yes"
        if per_puzzle[k - 1][f"{name}_clue_size"] == "":
            per_puzzle[k - 1][f"{name}_clue_size"] = size
    points = [s for s in sizes if isinstance(s, (int, float))]
    book = {
        f"{name}_pages": stats["pages"],
        f"{name}_clue_size": stats.get("min_font_size", min(points) if points else ""),
        f"{name}_below_floor": len(below) if "below_floor" in stats else "",
    }
    return book, per_puzzle


def _fmt(value) -> str:
    if isinstance(value, float):
        return f"{value:.2f}".rstrip("0").rstrip(".")
    return str(value)


def summarize_book(fill_report, pattern_stats, render_stats, out_path, html_path=None, book: int | None = None,
                   clue_report=None) -> dict:  # fmt: skip
    """Write a book's summary table from its stages' reports.

    Parameters
    ----------
    fill_report : path
        The fill stage's ``report.tsv`` for the book.
    pattern_stats : path or list of path
        The pattern statistics (``outputs/patterns/section-{s}/stats.tsv``),
        one file or one a section.  A themed puzzle's pattern (made by the
        theme stage, which writes none) leaves its columns empty.
    render_stats : dict of str to path
        Renderer name (``reportlab``, ``latex``) to the JSON ``xw render
        --stats`` wrote, in the order their columns should take; may be empty.
    out_path : path
        The TSV to write (atomically).
    html_path : path, optional
        Also the same table as an HTML page (for the Snakemake report).
    book : int, optional
        The book's number, for the HTML page's heading.
    clue_report : path, optional
        The clue stage's report (``xw clue --report``): adds each puzzle's
        section, level, theme, hard clues and `difficulty_index`.

    Returns
    -------
    dict
        The ``all`` row: the book's figures, by column name, plus
        ``puzzles``.

    Raises
    ------
    InputError
        If a file is missing or malformed, or a puzzle's pattern is not in
        the pattern statistics.

    Examples
    --------
    >>> summarize_book("outputs/fills/book-1/report.tsv", "outputs/patterns/stats.tsv",
    ...                {"reportlab": "outputs/reports/book-1/render.json"},
    ...                "outputs/reports/book-1/summary.tsv")["puzzles"]  # doctest: +SKIP
    12

    Notes
    -----
    One pass over each file; the pattern statistics are indexed by hex code
    (a dict), so time is linear in their size.
    """
    fills = [r for r in _read_tsv(fill_report, ["pattern", "puzzle", *FILL_COLUMNS]) if r["puzzle"]]
    if not fills:
        raise InputError("no filled puzzle listed", fill_report)
    patterns = {}
    stats_paths = list(pattern_stats) if isinstance(pattern_stats, (list, tuple)) else [pattern_stats]
    for path in stats_paths:
        for lineno, r in enumerate(_read_tsv(path, ["hex", *PATTERN_COLUMNS]), start=2):
            patterns.setdefault(r["hex"], (path, lineno, r))
    n = len(fills)
    clued = []
    if clue_report is not None:
        clued = _read_tsv(clue_report, ["puzzle", "entries", *CLUE_COLUMNS])
        if len(clued) != n:
            raise InputError(f"{len(clued)} puzzles listed, the fill report {n}", clue_report)
    renders = [(name, *_render_stats(name, path, n)) for name, path in render_stats.items()]
    rows = []
    for lineno, f in sorted(enumerate(fills, start=2), key=lambda x: _number(x[1]["puzzle"], fill_report, x[0])):
        k = _number(f["puzzle"], fill_report, lineno)
        clue = clued[k - 1] if clued else {}
        row = {"puzzle": k}
        if f["pattern"] in patterns:
            ppath, pline, p = patterns[f["pattern"]]
            row.update({c: _number(p[c], ppath, pline) for c in PATTERN_COLUMNS})
        elif clue.get("theme"):
            row.update({c: "" for c in PATTERN_COLUMNS})
        else:
            where = ", ".join(map(str, stats_paths))
            raise InputError(f"puzzle {k}'s pattern {f['pattern']} is not in {where}", fill_report, lineno)
        row.update({new: _number(f[old], fill_report, lineno) for old, new in FILL_COLUMNS.items()})
        if clued:
            row.update({c: clue[c] for c in ("section", "level", "theme")})
            hard = _number(clue["hard_clues"], clue_report, k + 1)
            row["hard_clues"] = hard
            share = hard / max(1, _number(clue["entries"], clue_report, k + 1))
            row["difficulty"] = difficulty_index(share, row["fill_score"])
        for _, figures, per_puzzle in renders:
            row.update({c: "" for c in figures})
            row.update(per_puzzle[len(rows)])
        rows.append(row)
    columns = list(rows[0])
    total = {"puzzle": "all"}
    for c in columns[1:]:
        values = [r[c] for r in rows if isinstance(r[c], (int, float)) and not isinstance(r[c], bool)]
        if not values:
            total[c] = ""
        elif c in _TOTAL:
            total[c] = round(sum(values), 3)
        elif c in _MEAN:
            total[c] = round(sum(values) / len(values), 3)
        elif c in _MIN:
            total[c] = min(values)
        elif c in _MAX:
            total[c] = max(values)
        else:
            total[c] = values[0] if len(set(values)) == 1 else ""  # rows, cols: the same for every puzzle
    for _, figures, _ in renders:
        total.update(figures)
    table = [columns] + [[_fmt(r[c]) for c in columns] for r in rows + [total]]
    files = [(out_path, "".join("\t".join(cells) + "\n" for cells in table))]
    if html_path is not None:
        files.append((html_path, _html(table, book)))
    write_all(files)  # both written, then both renamed into place
    return {**{c: total[c] for c in columns[1:]}, "puzzles": n}


def _html(table: list[list[str]], book: int | None) -> str:
    title = "Book statistics" if book is None else f"Book {book}: statistics"
    head = "".join(f"<th>{html.escape(c)}</th>" for c in table[0])
    body = "\n".join(
        "<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in cells) + "</tr>" for cells in table[1:]
    )
    return (
        "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>" + html.escape(title) + "</title>\n"
        "<style>body{font-family:sans-serif}table{border-collapse:collapse}"
        "td,th{border:1px solid #bbb;padding:2px 6px;text-align:right}"
        "tr:last-child td{font-weight:bold}</style></head>\n<body>\n"
        f"<h1>{html.escape(title)}</h1>\n<p>One row per puzzle; the last row, <b>all</b>, is the book: "
        "totals, the mean word length and fill score, the weakest entry, the smallest clue type, "
        "each PDF's pages and the puzzles set below the trim's type floor.</p>\n"
        f"<table>\n<tr>{head}</tr>\n{body}\n</table>\n</body></html>\n"
    )
