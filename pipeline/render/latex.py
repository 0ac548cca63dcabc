"""The LaTeX renderer: a jinja2 template typeset by pdfLaTeX.

:func:`render_latex` fills ``templates/book.tex.j2`` and runs ``latexmk
-pdf`` in a scratch directory with shell escape off, then copies the PDF
to its destination.  The template follows the seed's dictionary template
(twoside ``book``, ``fancyhdr`` running heads from ``\\markboth``,
``multicols``) with Times and Helvetica (``mathptmx``, ``helvet``: Type 1,
scalable, embedded) and TikZ grids.

Pages: the book follows :func:`~pipeline.render.book.plan_book`, the plan
the reportlab renderer follows too -- title, copyright, contents (page
numbers from the plan, with dot leaders), any blank page, the puzzles,
then the solutions.  ``"page"`` layout: the grid at the top of the page,
flush right over as few clue columns as it needs, the clues down the
columns left of it and then across all the columns below it, balanced (the
template cuts one column-wide box of clues with ``\\vsplit``; multicols
cannot leave room for a grid).  ``"facing"``: the grid on the left-hand
page, as large as the text block allows, its clues in multicols on the
right-hand page.

Safety: the jinja2 environment escapes every string with
:func:`~pipeline.render.texescape.tex_escape` -- explicitly through the
``tex`` filter, and again through ``finalize`` for any string printed
without it -- and refuses to print anything but strings and numbers.
TeX runs with ``-no-shell-escape`` and kpathsea's paranoid file access.

Fit: TeX cannot be asked in advance whether a page overflows, so each
puzzle's clue type size (from the trim's ``font_max`` down to its
``font_floor``, in half points) and grid square are first estimated from
Times metrics.  Every part of the book writes the page it starts and ends
on, and how far down, to the ``.aux`` file, and the log names any page TeX
shipped overfull; a puzzle whose clues ran onto another page or into the
bottom margin is given that much less room (smaller type, or a smaller
grid) and the book typeset again (a few rounds at most).  In the end every
part must be on the page the plan gives it.  Type that fits only under the
trim's ``font_floor`` is used down to
:data:`~pipeline.render.book.FONT_HARD_MIN` and reported.

Speed: the plan knows every page number, so each round is one pdfLaTeX run
(latexmk ignores the ``.aux`` file's changes; nothing is cross-referenced);
grid numbers and solution letters are set as rows of fixed-width boxes, one
``\\pgftext`` per grid, instead of one ``\\pgftext`` per square.

Reproducible: ``SOURCE_DATE_EPOCH``/``FORCE_SOURCE_DATE``, no info dates,
no trailer ID and no pdfTeX info keys, so equal books give equal bytes.
"""

from __future__ import annotations

import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import jinja2
from reportlab.pdfbase import pdfmetrics

from ..model.fileio import write_bytes, write_text
from ..model.grid import BLACK
from ..model.progress import Progress
from ..model.puzzle import Puzzle
from .book import (
    CONTENTS_COL_GAP,
    CONTENTS_LEADING,
    CONTENTS_SIZE,
    FONT_HARD_MIN,
    HEADING_HEIGHT,
    SOLUTION_CAPTION,
    SOLUTION_CELL_MAX,
    SOLUTION_GAP,
    Book,
    Plan,
    RenderError,
    Trim,
    clip_text,
    contents_label,
    fold_text,
    heading_title,
    plan_book,
    type_sizes,
)
from .texescape import tex_escape

__all__ = ["render_latex", "DEFAULT_TEMPLATE_DIR", "INSTALL_HINT"]

DEFAULT_TEMPLATE_DIR = Path(__file__).resolve().parents[2] / "templates"
TEMPLATE_NAME = "book.tex.j2"
INSTALL_HINT = (
    "install TeX Live: apt-get install latexmk texlive-latex-base texlive-latex-recommended "
    "texlive-fonts-recommended texlive-pictures (or run `make book`, which installs them as root)"
)

_LEADING = 1.2  # clue baselineskip / clue type size
_SIZE_STEP = 0.5  # clue sizes tried, points apart
_COL_MEASURE = 11.0  # a third clue column only if it is at least this many ems wide
_CELL_MAX = 26.0  # grid squares, bp: largest (15x15), comfortable, smallest
_CELL_MAX_SMALL = 36.0  # largest for a small grid (a 5x5 mini), and on a facing grid page
_CELL_COMFORT = 18.0
_CELL_MIN = 14.0
_TITLE_LINE = 16.0  # each extra line of a long puzzle title, bp
_GRID_GAP = 14.0  # the gap below the grid and multicols' space
_COL_SEP = 12.0
_DIGIT = 0.5  # a clue's number is set flush right in a box as wide as its digits in bold (ems) ...
_CLUE_GAP = 0.5  # ... plus this, where the clue's text starts on every line
_SAFETY = 1.0  # estimated clue height is multiplied by this ...
_SLACK_LINES = 1.0  # ... plus this many lines for column balancing (TeX's page marks catch the rest)
_TIGHTEN = 12.0  # bp taken from a spilled puzzle's room beyond what ran over (times the round)
_ROUNDS = 4  # typesetting rounds before giving up
_TIMEOUT = 900  # seconds for one latexmk run
_NUMBER_PAD = 0.07  # grid numbers: inset from the square's top-left corner, in squares


class _TexSafe(str):
    """A string that is already TeX (the output of the ``tex`` filter)."""


def _tex_filter(value) -> _TexSafe:
    if isinstance(value, _TexSafe):
        return value
    if isinstance(value, jinja2.Undefined):
        return _TexSafe(str(value))  # StrictUndefined: raises, naming what the template asked for
    if isinstance(value, bool) or value is None:
        raise TypeError(f"refusing to print {value!r} into TeX")
    if isinstance(value, (int, float)):
        return _TexSafe(_finalize(value))
    return _TexSafe(tex_escape(str(value)))


def _pdfstring(value) -> _TexSafe:
    """``value`` as a PDF string literal safe in both TeX and PDF: ``(Title)``."""
    text = fold_text(str(value), lambda ch: ch.isascii() and (ch.isalnum() or ch in " .,:;'!?-+/=*@"))
    return _TexSafe("(" + text.replace("?", "") + ")")


def _finalize(value):
    """Applied to every ``((( )))`` expression: escape strings, format numbers."""
    if isinstance(value, _TexSafe):
        return value
    if isinstance(value, jinja2.Undefined):
        return str(value)  # StrictUndefined: raises, naming what the template asked for
    if isinstance(value, str):
        return tex_escape(value)
    if isinstance(value, bool) or value is None:
        raise TypeError(f"refusing to print {value!r} into TeX")
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return f"{value:.4f}".rstrip("0").rstrip(".")
    raise TypeError(f"refusing to print a {type(value).__name__} into TeX")


def _environment(template_dir) -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(template_dir)),
        block_start_string="((*",
        block_end_string="*))",
        variable_start_string="(((",
        variable_end_string=")))",
        comment_start_string="((=",
        comment_end_string="=))",
        autoescape=False,
        undefined=jinja2.StrictUndefined,
        finalize=_finalize,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters["tex"] = _tex_filter
    env.filters["pdfstring"] = _pdfstring
    return env


# -- layout estimates ---------------------------------------------------------
def _latin1(text: str) -> str:
    return fold_text(text, lambda ch: ord(ch) < 256)


@dataclass(frozen=True)
class _Clues:
    """A puzzle's clues as the estimates need them."""

    words: list  # each clue's word widths in Times at 1pt (widths scale with the size)
    number: float  # the clue numbers' box, ems
    hang: float  # where each clue's text starts, ems


def _measure_clues(puzzle: Puzzle) -> _Clues:
    entries = [e for direction in ("across", "down") for e in puzzle.entries(direction)]
    words = [[pdfmetrics.stringWidth(w, "Times-Roman", 1.0) for w in _latin1(clue).split()] for _s, _a, clue in entries]
    number = _DIGIT * max(len(str(slot.number)) for slot, _a, _c in entries)
    return _Clues(words, number, number + _CLUE_GAP)


_SPACE = pdfmetrics.stringWidth(" ", "Times-Roman", 1.0)


def _lines(words: list[float], width: float) -> int:
    """Lines a clue of ``words`` (widths in ems) takes set ragged-right ``width`` ems wide."""
    lines, line = 1, 0.0
    for w in words:
        if line and line + _SPACE + w > width:
            lines += 1
            line = 0.0
        if w > width:  # a long word overflows; TeX may hyphenate, count it whole
            lines += int(w // width)
            w = w % width
        line += (_SPACE if line else 0.0) + w
    return lines


def _column_width(text_width: float, ncols: int) -> float:
    return (text_width - (ncols - 1) * _COL_SEP) / ncols


def _clue_lines(clues: _Clues, size: float, column: float) -> float:
    """Lines the clues take in a ``column`` bp wide at ``size`` points, the two direction headings included."""
    width = column / size - clues.hang  # in ems
    if width <= 1:
        return math.inf
    return sum(_lines(ws, width) for ws in clues.words) + 2 * 1.7


def _clue_height(clues: _Clues, size: float, ncols: int, text_width: float) -> float:
    """Estimated height (bp) of the tallest of ``ncols`` balanced clue columns at ``size`` points."""
    lines = _clue_lines(clues, size, _column_width(text_width, ncols))
    return (lines * _SAFETY / ncols + _SLACK_LINES) * size * _LEADING


def _column_choices(size: float, text_width: float) -> tuple[int, ...]:
    """Clue columns to try at ``size``: two, or three when each is still a fair measure."""
    third = (text_width - 2 * _COL_SEP) / 3
    return (2, 3) if third >= _COL_MEASURE * size else (2,)


def _heading_height(title: str, text_width: float) -> float:
    """Height (bp) of a "Puzzle k" heading with ``title`` beside it."""
    w = pdfmetrics.stringWidth(_latin1(title), "Helvetica", 12) + 110
    return HEADING_HEIGHT + (max(1, math.ceil(w / text_width)) - 1) * _TITLE_LINE


def _times_width(text: str, size: float, font: str = "Times-Roman") -> float:
    return pdfmetrics.stringWidth(_latin1(text), font, size)


def _truncate(label: str, size: float, width: float, font: str = "Times-Roman") -> str:
    """``label``, cut short with an ellipsis to be at most ``width`` bp in ``font`` at ``size``."""
    return clip_text(label, width, lambda t: _times_width(t, size, font), "\u2026")


_HEAD_SIZE = 8.0 * 0.92  # running heads: \footnotesize Helvetica, scaled as helvet is loaded


def _running_head(text: str, text_width: float) -> str:
    """A running head's text, cut to half the text block (each side of the head has half)."""
    return _truncate(text, _HEAD_SIZE, text_width * 0.48, "Helvetica")


@dataclass(frozen=True)
class _Fit:
    size: float  # clue type, points
    ncols: int  # clue columns
    cell: float  # grid square, bp
    head: float  # heading height, bp
    free: int = 0  # "page" layout: clue columns beside the grid (0: the grid is centred over them all)
    band: float = 0.0  # "page" layout: height of the grid and the gap below it, bp


def _grid_too_large(book: Book, k: int, cell: float) -> RenderError:
    puzzle = book.puzzles[k]
    return RenderError(
        f"puzzle {k + 1} ({puzzle.title or 'untitled'}): its {puzzle.grid.rows}x{puzzle.grid.cols} grid needs "
        f"squares of at least {_CELL_MIN:g}bp, and a {book.trim} page leaves room for {math.floor(cell * 2) / 2:g}bp; "
        "choose a larger trim",
        book.source(k),
    )


def _grid_band(rows: int, cols: int, cell: float, ncols: int, column: float) -> tuple[int, float]:
    """Clue columns left free beside a grid of ``cell`` squares set flush right, and the band's height."""
    width = cols * cell + 1.1  # the frame's line sticks out by half its width on each side
    spanned = 1
    while spanned * column + (spanned - 1) * _COL_SEP < width:
        spanned += 1
    return ncols - spanned, rows * cell + _GRID_GAP


def _fit_page(book: Book, k: int, clues: _Clues, extra: float) -> _Fit:
    """Puzzle ``k`` on one page: the largest clue type, then the largest grid, that fit.

    The grid sits at the top, flush right over as few clue columns as it
    needs; the clues run down the columns left of it, then on across all the
    columns below it, balanced.
    """
    puzzle, trim = book.puzzles[k], book.page_trim
    tw, th = trim.text_width * 72, trim.text_height * 72
    rows, cols = puzzle.grid.rows, puzzle.grid.cols
    head = _heading_height(heading_title(puzzle, k + 1), tw)
    biggest = math.floor(min(max(_CELL_MAX, min(_CELL_MAX_SMALL, 390.0 / cols)), (tw - 1.1) / cols) * 2) / 2
    if min(biggest, (th - head - _GRID_GAP) / rows) < _CELL_MIN:
        raise _grid_too_large(book, k, min(biggest, (th - head - _GRID_GAP) / rows))
    passes = ((_CELL_COMFORT, trim.font_floor), (_CELL_MIN, trim.font_floor), (_CELL_MIN, FONT_HARD_MIN))
    for cell_floor, size_floor in passes:
        for size in type_sizes(trim.font_max, size_floor, _SIZE_STEP):
            skip = size * _LEADING
            best = None  # at this size, the columns that leave the grid the most room (fewer on a tie)
            for ncols in _column_choices(size, tw):
                column = _column_width(tw, ncols)
                lines = _clue_lines(clues, size, column) * _SAFETY
                cell = biggest
                while cell >= cell_floor:  # the largest square that leaves the clues room
                    free, band = _grid_band(rows, cols, cell, ncols, column)
                    rest = max(0.0, lines - free * math.floor(band / skip))
                    below = (math.ceil(rest / ncols) + _SLACK_LINES) * skip if rest else 0.0
                    if head + band + below + extra <= th:
                        if best is None or cell > best.cell:
                            best = _Fit(size, ncols, cell, head, free, band)
                        break
                    cell -= 0.5
            if best is not None:
                return best
    raise book.clues_do_not_fit(k, f" beside a grid of {_CELL_MIN:g}bp squares")


def _fit_facing(book: Book, k: int, clues: _Clues, extra_grid: float, extra_clues: float) -> _Fit:
    """Puzzle ``k`` on facing pages: the grid as large as its page allows, the clues as large as theirs."""
    puzzle, trim = book.puzzles[k], book.page_trim
    tw, th = trim.text_width * 72, trim.text_height * 72
    rows, cols = puzzle.grid.rows, puzzle.grid.cols
    head = _heading_height(heading_title(puzzle, k + 1), tw)
    cell = math.floor(min(_CELL_MAX_SMALL, (tw - 1.1) / cols, (th - head - extra_grid) / rows) * 2) / 2
    if cell < _CELL_MIN:
        raise _grid_too_large(book, k, cell)
    room = th - HEADING_HEIGHT - extra_clues
    for size in type_sizes(trim.font_max, FONT_HARD_MIN, _SIZE_STEP):
        for ncols in _column_choices(size, tw):
            if _clue_height(clues, size, ncols, tw) <= room:
                return _Fit(size, ncols, cell, head)
    raise book.clues_do_not_fit(k, " on their own page")


def _number_size(cell: float, trim: Trim) -> float:
    """Grid numbers: 0.28 of the square, 5pt at least, 8pt at most (large print: 10pt)."""
    return round(max(5.0, min(max(8.0, trim.font_floor - 1), cell * 0.28)), 2)


def _grid_context(puzzle: Puzzle) -> dict:
    """The grid's black squares (TikZ coordinates) and its numbers, row by row."""
    g = puzzle.grid
    nums = g.numbers()
    blacks = []
    numbers = [[0] * g.cols for _ in range(g.rows)]
    for i, ch in enumerate(g.cells):
        r, c = divmod(i, g.cols)
        if ch == BLACK:
            blacks.append((c, g.rows - 1 - r))  # TikZ's y axis points up
        elif i in nums:
            numbers[r][c] = nums[i]
    return {"rows": g.rows, "cols": g.cols, "blacks": blacks, "numbers": numbers}


def _puzzle_context(book: Book, k: int, fit: _Fit, clues: _Clues, layout: str) -> dict:
    puzzle, trim = book.puzzles[k], book.page_trim
    numsize = _number_size(fit.cell, trim)
    ctx = _grid_context(puzzle)
    ctx.update(
        k=k + 1,
        title=heading_title(puzzle, k + 1),
        head=_running_head(contents_label(puzzle, k + 1), trim.text_width * 72),
        heading=round(fit.head, 2),
        cell=fit.cell,
        numsize=numsize,
        numpad=round(fit.cell * _NUMBER_PAD, 2),
        size=fit.size,
        leading=round(fit.size * _LEADING, 2),
        ncols=fit.ncols,
        numbox=clues.number,
        hang=clues.hang,
        column=math.floor(_column_width(book.page_trim.text_width * 72, fit.ncols) * 100) / 100,
        free=fit.free,
        band=round(fit.band, 2),
        facing=layout == "facing",
        across=[(s.number, clue) for s, _a, clue in puzzle.entries("across")],
        down=[(s.number, clue) for s, _a, clue in puzzle.entries("down")],
    )
    return ctx


def _solutions_context(book: Book, plan: Plan) -> tuple[list, dict]:
    """The solutions pages: rows of filled grids, as the plan arranges them."""
    trim = book.page_trim
    ncol, nrow = plan.solution_columns, plan.solution_rows
    tw, th = trim.text_width * 72, trim.text_height * 72 - HEADING_HEIGHT
    sw = math.floor((tw - (ncol - 1) * SOLUTION_GAP) / ncol) - 1
    sh = math.floor((th - (nrow - 1) * SOLUTION_GAP) / nrow) - 1
    pages = []
    for i, ks in enumerate(plan.solutions):
        grids = []
        for k in ks:
            g = book.puzzles[k].grid
            cell = math.floor(min(SOLUTION_CELL_MAX, sw / g.cols, (sh - SOLUTION_CAPTION - 4) / g.rows) * 4) / 4
            font = round(cell * 0.6, 2)
            sol = _grid_context(book.puzzles[k])
            sol.update(
                k=k + 1,
                cell=cell,
                font=font,
                base=round(0.5 * cell - 0.36 * font, 2),  # puts the capitals' middle mid-square
                letters=[[None if ch == BLACK else ch for ch in g.cells[r * g.cols : (r + 1) * g.cols]] for r in range(g.rows)],
            )
            grids.append(sol)
        rows = [grids[j : j + ncol] for j in range(0, len(grids), ncol)]
        pages.append({"index": i + 1, "head": _running_head(plan.solution_label(i), tw), "rows": rows})
    return pages, {"width": float(sw), "height": float(sh), "gap": SOLUTION_GAP}


def _contents_context(book: Book, plan: Plan) -> tuple[list, dict]:
    """The contents pages: columns of ``(label, page)`` lines, labels cut to their column."""
    tw = book.page_trim.text_width * 72
    ncol, nrow = plan.contents_columns, plan.contents_rows
    col = math.floor((tw - (ncol - 1) * CONTENTS_COL_GAP) / ncol) - 1
    pages = []
    for i, lines in enumerate(plan.contents):
        # Room for the label: the column less the page number, two spaces and 1.5em of dots.
        lines = [
            (_truncate(label, CONTENTS_SIZE, col - _times_width(f"  {page}", CONTENTS_SIZE) - 1.5 * CONTENTS_SIZE), page)
            for label, page in lines
        ]
        pages.append({"index": i + 1, "columns": [lines[j : j + nrow] for j in range(0, len(lines), nrow)]})
    return pages, {"width": float(col), "gap": CONTENTS_COL_GAP, "size": CONTENTS_SIZE, "leading": CONTENTS_LEADING}


def _context(book: Book, plan: Plan, fits: list[_Fit], clues: list[_Clues]) -> dict:
    trim = book.page_trim
    contents, contents_layout = _contents_context(book, plan)
    solutions, solutions_layout = _solutions_context(book, plan)
    return {
        "book": {
            "title": book.title,
            "head": _running_head(book.title, trim.text_width * 72),
            "subtitle": book.subtitle,
            "author": book.author,
            "copyright": [line for line in book.copyright_lines if line.strip()],
        },
        "trim": {
            "width": round(trim.width, 4),
            "height": round(trim.height, 4),
            "inner": trim.inner,
            "outer": trim.outer,
            "binding": trim.binding,
            "top": trim.top,
            "bottom": trim.bottom,
        },
        "heading": HEADING_HEIGHT,
        "contents": contents,
        "contents_layout": contents_layout,
        "blank_pages": plan.blank_pages,
        "puzzles": [_puzzle_context(book, k, fit, clues[k], plan.layout) for k, fit in enumerate(fits)],
        "solution_pages": solutions,
        "solutions": solutions_layout,
    }


# -- running TeX --------------------------------------------------------------
def _check_tools() -> str:
    latexmk = shutil.which("latexmk")
    missing = [name for name in ("latexmk", "pdflatex") if shutil.which(name) is None]
    if missing:
        raise RenderError(f"{' and '.join(missing)} not found on PATH; {INSTALL_HINT}")
    return latexmk


def _log_excerpt(log: str, limit: int = 30) -> str:
    """The error lines of a TeX log (``!`` lines and the few after each)."""
    lines = log.splitlines()
    out: list[str] = []
    for i, line in enumerate(lines):
        if line.startswith("!") or "Fatal error" in line or "Emergency stop" in line:
            out.extend(lines[i : i + 6])
            if len(out) >= limit:
                break
    return "\n".join(out[:limit]) if out else "\n".join(lines[-limit:])


def _run_latex(latexmk: str, workdir: Path, source_date_epoch: int) -> None:
    """One pdfLaTeX run, driven by latexmk.

    ``-g`` makes latexmk run even when it thinks the PDF is up to date (a
    round may change nothing latexmk watches); ``$max_repeat=1`` and an
    ``.aux`` hash that ignores every line keep it to that one run: the page
    marks change the ``.aux`` file but nothing reads them back.
    """
    env = dict(os.environ)
    env.update(
        SOURCE_DATE_EPOCH=str(int(source_date_epoch)),
        FORCE_SOURCE_DATE="1",
        shell_escape="f",  # kpathsea: no \write18, whatever texmf.cnf says
        openin_any="p",  # paranoid: read only below the working directory
        openout_any="p",
        TZ="UTC",
    )
    cmd = [
        latexmk,
        "-norc",
        "-pdf",
        "-g",
        "-e",
        "$max_repeat=1; $hash_calc_ignore_pattern{'aux'}='.';",
        "-interaction=nonstopmode",
        "-halt-on-error",
        "-no-shell-escape",
        "book.tex",
    ]
    try:
        proc = subprocess.run(
            cmd,
            cwd=workdir,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            timeout=_TIMEOUT,
            check=False,
        )
    except subprocess.TimeoutExpired:
        raise RenderError(f"latexmk did not finish within {_TIMEOUT}s", workdir / "book.tex") from None
    if proc.returncode != 0 or not (workdir / "book.pdf").is_file():
        log_path = workdir / "book.log"
        log = log_path.read_text(errors="replace") if log_path.is_file() else proc.stdout.decode(errors="replace")
        raise RenderError(f"pdflatex failed (exit {proc.returncode}):\n{_log_excerpt(log)}", log_path)


_OVERFULL = re.compile(r"^Overfull \\vbox \(([\d.]+)pt too high\) has occurred while \\output is active|^xwshipped=(\d+)$", re.M)


def _overfull_pages(log: str) -> dict[int, float]:
    """Pages TeX shipped overfull (text running into the bottom margin), and by how much (bp)."""
    pages, pending = {}, 0.0
    for m in _OVERFULL.finditer(log):
        if m.group(1) is not None:
            pending = max(pending, float(m.group(1)) * 72 / 72.27)
        else:
            if pending > 0.5:
                pages[int(m.group(2))] = pending
            pending = 0.0
    return pages


_MARK = re.compile(r"\\xwpage\{(\w+)\}\{(\d+)\}\{(\d+)\}\{(-?\d+)\}")
_SP_PER_BP = 65536 * 72.27 / 72
_PAGES = re.compile(r"Output written on .*?\((\d+) pages?")


_COLUMNS = re.compile(r"\\xwcolumnsheight\{(\d+)\}\{([\d.]+)pt\}")


def _marks(workdir: Path) -> tuple[dict, dict, dict]:
    """What TeX wrote to the ``.aux`` file.

    Returns
    -------
    tuple of dict
        ``(part, number) -> page`` and ``(part, number) -> height`` of each
        mark (its distance from the bottom of the paper, bp); and for each
        ``"page"``-layout puzzle (1-based) the height of its balanced clue
        columns below the grid (bp).
    """
    aux = (workdir / "book.aux").read_text(errors="replace")
    found = _MARK.findall(aux)
    pages = {(kind, int(k)): int(page) for kind, k, page, _y in found}
    heights = {(kind, int(k)): int(y) / _SP_PER_BP for kind, k, _page, y in found}
    columns = {int(k): float(h) * 72 / 72.27 for k, h in _COLUMNS.findall(aux)}
    return pages, heights, columns


def _expected_marks(plan: Plan, n: int) -> dict[tuple[str, int], int]:
    """Where the plan puts each part: every mark the template writes and its page."""
    want = {("titleend", 0): 1, ("copyright", 0): 2, ("copyrightend", 0): 2}
    for i in range(1, len(plan.contents) + 1):
        want[("contents", i)] = want[("contentsend", i)] = 2 + i
    for page in plan.blank_pages:
        want[("blank", page)] = page
    for k in range(1, n + 1):
        page = plan.puzzle_pages[k - 1]
        want[("puzzle", k)] = want[("puzzleend", k)] = page
        if plan.layout == "facing":
            want[("clues", k)] = want[("cluesend", k)] = page + 1
    for i in range(1, len(plan.solutions) + 1):
        want[("solutions", i)] = want[("solutionsend", i)] = plan.solution_first + i - 1
    return want


_PARTS = {
    "titleend": "the title page",
    "copyright": "the copyright page",
    "copyrightend": "the end of the copyright page",
    "contents": "contents page {}",
    "contentsend": "the end of contents page {}",
    "blank": "the blank page {}",
    "puzzle": "puzzle {}",
    "puzzleend": "the end of puzzle {}'s page",
    "clues": "puzzle {}'s clues",
    "cluesend": "the end of puzzle {}'s clues",
    "solutions": "solutions page {}",
    "solutionsend": "the end of solutions page {}",
}


def _overflows(book: Book, plan: Plan, marks: dict, heights: dict, overfull: dict, workdir: Path) -> dict:
    """Puzzle parts that ran over their page, and by how much (bp).

    Returns
    -------
    dict
        ``(k, part) -> bp`` with 0-based ``k`` and ``part`` ``"grid"`` or
        ``"clues"`` (in ``"page"`` layout a puzzle is all ``"clues"``): a
        part that ended on a later page than it started (by how far down
        that page it ran), or whose page TeX shipped overfull.

    Raises
    ------
    RenderError
        If a mark is missing, or the title, copyright, contents or a
        solutions page ran over (the front matter is the user's to shorten;
        the other two are laid out exactly and should never run over).
    """
    want = _expected_marks(plan, len(book.puzzles))
    missing = [key for key in want if key not in marks]
    if missing:
        kind, k = missing[0]
        raise RenderError(
            f"TeX did not record where {_PARTS[kind].format(k)} is (template out of date?)", workdir / "book.aux"
        )
    if marks[("titleend", 0)] != 1:
        raise RenderError("the title page runs onto a second page; shorten the title, subtitle or author")
    if marks[("copyrightend", 0)] != marks[("copyright", 0)]:
        raise RenderError(
            f"the copyright page's {len(book.copyright_lines)} paragraphs do not fit on one page; shorten the notices"
        )
    for kind in ("contents", "solutions"):
        for (mk, i), page in sorted(marks.items()):
            if mk == kind and marks[(kind + "end", i)] != page:
                raise RenderError(f"{_PARTS[kind].format(i)} ran onto a second page (template out of date?)")
    top = (book.page_trim.height - book.page_trim.top) * 72  # the text block's top above the paper's edge
    spilled = {}
    facing = plan.layout == "facing"
    for k in range(1, len(book.puzzles) + 1):
        parts = [("grid", "puzzle", "puzzleend"), ("clues", "clues", "cluesend")] if facing else [("clues", "puzzle", "puzzleend")]
        for part, start, end in parts:
            first, last = marks[(start, k)], marks[(end, k)]
            if last != first:
                spilled[(k - 1, part)] = max(0.0, top - heights[(end, k)])
            elif first in overfull:
                spilled[(k - 1, part)] = overfull[first]
    return spilled


def _check_plan(plan: Plan, n: int, marks: dict, pages, workdir: Path) -> None:
    """Every part on the page the plan says, and the book as long as planned."""
    for (kind, k), page in _expected_marks(plan, n).items():
        if marks[(kind, k)] != page:
            raise RenderError(
                f"TeX put {_PARTS[kind].format(k)} on page {marks[(kind, k)]}, the page plan says page {page}",
                workdir / "book.log",
            )
    if pages != plan.total:
        raise RenderError(f"the typeset book has {pages} pages, the page plan {plan.total}", workdir / "book.log")


def render_latex(book: Book, out_path, template_dir=None, workdir=None, source_date_epoch: int = 0,
                 progress=None) -> dict:  # fmt: skip
    """Render ``book`` to PDF through LaTeX, page for page as :func:`~pipeline.render.book.plan_book` plans it.

    Parameters
    ----------
    book : Book
        The puzzles and front matter; ``book.trim`` and ``book.margins`` set
        the page, ``book.layout`` the puzzles' layout.
    out_path : str or os.PathLike
        Where to write the PDF (atomically; nothing is written on failure).
    template_dir : path, optional
        Folder holding ``book.tex.j2`` (default: the project's ``templates/``).
    workdir : path, optional
        Where to write ``book.tex`` and run TeX; kept afterwards for
        inspection.  Default: a temporary folder, removed afterwards.
    source_date_epoch : int
        The date TeX believes it is (``SOURCE_DATE_EPOCH``), for
        reproducible output.
    progress : callable, optional
        Called with a line of progress (puzzles fitted, each typesetting
        round and its time) now and then.

    Returns
    -------
    dict
        ``pages``; ``contents_pages``, ``puzzle_pages`` (pages holding
        puzzles: one per puzzle, two with ``"facing"``) and
        ``solution_pages``; ``layout``; ``rounds`` (times the book was
        typeset); ``clue_sizes`` (clue type per puzzle, points);
        ``below_floor`` (``{"puzzle": k, "size": s}`` for each puzzle set
        under the trim's ``font_floor``, 1-based ``k``); ``trim``;
        ``page_size`` (``[width, height]`` in bp); ``path``.

    Raises
    ------
    RenderError
        If latexmk or pdflatex is missing (the message says what to install),
        if TeX fails (with the log's error lines), if a puzzle does not fit
        its page even in :data:`~pipeline.render.book.FONT_HARD_MIN` type,
        or if the typeset book departs from the page plan.

    Examples
    --------
    >>> render_latex(book, "book.pdf")["pages"]  # doctest: +SKIP
    21

    Notes
    -----
    One pdfLaTeX run per round, and one round unless a puzzle's clues
    overflow their estimate; a 100-puzzle 15x15 book takes a few seconds.
    Each puzzle below the type floor is also reported on stderr.
    """
    book.validate()
    latexmk = _check_tools()
    try:
        template = _environment(template_dir or DEFAULT_TEMPLATE_DIR).get_template(TEMPLATE_NAME)
    except jinja2.TemplateError as e:
        raise RenderError(f"cannot read the LaTeX template {TEMPLATE_NAME}: {e}", template_dir) from None
    plan = plan_book(book)
    trim = book.page_trim
    n = len(book.puzzles)
    say = progress or (lambda line: None)
    clues = [_measure_clues(p) for p in book.puzzles]
    extras = {(k, part): 0.0 for k in range(n) for part in ("grid", "clues")}

    def fit(k: int) -> _Fit:
        if plan.layout == "facing":
            return _fit_facing(book, k, clues[k], extras[(k, "grid")], extras[(k, "clues")])
        return _fit_page(book, k, clues[k], extras[(k, "clues")])

    fitted = Progress(n, say, "puzzles fitted")
    fits = []
    for k in range(n):
        fits.append(fit(k))
        fitted.update(k + 1)
    tmp = None
    if workdir is None:
        tmp = tempfile.TemporaryDirectory(prefix="xwbook-latex-")
        work = Path(tmp.name)
    else:
        work = Path(workdir)
        work.mkdir(parents=True, exist_ok=True)
    try:
        for rounds in range(1, _ROUNDS + 1):
            try:
                source = template.render(_context(book, plan, fits, clues))
            except (jinja2.TemplateError, TypeError) as e:  # a template of the user's (--templates)
                raise RenderError(f"cannot fill the LaTeX template {TEMPLATE_NAME}: {e}", template_dir) from None
            write_text(work / "book.tex", source)
            (work / "book.aux").unlink(missing_ok=True)  # marks of an earlier run (or template) must not count
            say(f"typesetting {plan.total} pages (round {rounds} of at most {_ROUNDS})")
            began = time.perf_counter()
            _run_latex(latexmk, work, source_date_epoch)
            say(f"typeset round {rounds} in {time.perf_counter() - began:.1f} s")
            marks, heights, columns = _marks(work)
            log = (work / "book.log").read_text(errors="replace")
            spilled = _overflows(book, plan, marks, heights, _overfull_pages(log), work)
            if plan.layout == "page":
                # Columns balanced a fraction of a point past the page: TeX moves the whole
                # puzzle onto the next page, both its marks with it, so nothing says it spilled.
                for k, f in enumerate(fits):
                    moved = marks.get(("puzzle", k + 1)) != plan.puzzle_pages[k]
                    if moved and k + 1 in columns and f.head + f.band + columns[k + 1] > trim.text_height * 72:
                        spilled.setdefault((k, "clues"), 0.0)
            if not spilled:
                break
            if rounds == _ROUNDS:
                listed = ", ".join(str(k + 1) for k in sorted({k for k, _part in spilled}))
                raise RenderError(
                    f"puzzle(s) {listed} still run onto another page after {_ROUNDS} rounds of tightening; "
                    "shorten their clues",
                    book.source(min(spilled)[0]),
                )
            for (k, part), over in sorted(spilled.items()):
                # Take from the room what ran over and a little more each round, until the
                # fit changes.  On one page, that is heading, grid and the balanced columns
                # below it, less the page; on a clue page, how far down the next page the
                # columns ran (multicols balances what runs over across them all).
                if plan.layout == "page" and k + 1 in columns:
                    f = fits[k]
                    measured = f.head + f.band + columns[k + 1] - trim.text_height * 72
                    over = measured if measured > 0 else over
                extras[(k, part)] += over
                while True:
                    extras[(k, part)] += _TIGHTEN * rounds
                    new = fit(k)  # raises once nothing fits
                    if new != fits[k]:
                        fits[k] = new
                        break
        m = _PAGES.search(log)
        pages = int(m.group(1)) if m else None
        _check_plan(plan, n, marks, pages, work)
        write_bytes(out_path, (work / "book.pdf").read_bytes())
    finally:
        if tmp is not None:
            tmp.cleanup()
    below = [{"puzzle": k + 1, "size": f.size} for k, f in enumerate(fits) if f.size < trim.font_floor]
    for b in below:
        print(
            f"warning: puzzle {b['puzzle']}: clues set in {b['size']:g}pt, under the {trim.font_floor:g}pt "
            f"floor of the {book.trim} trim (shorten its clues to set them larger)",
            file=sys.stderr,
        )
    return {
        "pages": pages,
        "contents_pages": len(plan.contents),
        "puzzle_pages": n * plan.pages_per_puzzle,
        "solution_pages": len(plan.solutions),
        "layout": plan.layout,
        "rounds": rounds,
        "clue_sizes": [f.size for f in fits],
        "below_floor": below,
        "trim": book.trim,
        "page_size": [round(trim.width * 72, 2), round(trim.height * 72, 2)],
        "path": str(out_path),
    }
