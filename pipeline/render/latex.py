"""The LaTeX renderer: a jinja2 template typeset by pdfLaTeX.

:func:`render_latex` fills ``templates/book.tex.j2`` and runs ``latexmk
-pdf`` in a scratch directory with shell escape off, then copies the PDF
to its destination.  The template follows the seed's dictionary template
(twoside ``book``, ``fancyhdr`` running heads from ``\\markboth``,
``multicols``) with Times and Helvetica (``mathptmx``, ``helvet``: Type 1,
scalable, embedded) and TikZ grids.

Pages: the book follows :func:`~pipeline.render.layout.plan_book`, the plan
the reportlab renderer follows too -- title, copyright, contents (page
numbers from the plan, with dot leaders, sections in bold), then page by
page section opening pages, puzzles, minis pages and blank pages, then the
solutions section by section.  A one-page puzzle: the grid at the top of
the page, flush right over as few clue columns as it needs, the clues down
the columns left of it and then across all the columns below it, balanced
(the template cuts one column-wide box of clues with ``\\vsplit``;
multicols cannot leave room for a grid).  A grid page (``"facing"``, or a
large grid): the grid as large as the text block allows, its clues in
multicols on the next page(s).  A minis page: each mini in its box
(:func:`~pipeline.render.layout.mini_box`), caption, grid, and its clues
beside it in columns cut with ``\\vsplit``.

Safety: the jinja2 environment escapes every string with
:func:`~pipeline.render.texescape.tex_escape` -- explicitly through the
``tex`` filter, and again through ``finalize`` for any string printed
without it -- and refuses to print anything but strings and numbers.
TeX runs with ``-no-shell-escape`` and kpathsea's paranoid file access.

Fit: TeX cannot be asked in advance whether a page overflows, so each
puzzle's clue type size (from the trim's ``font_max`` down to its
``font_floor``, in half points) and grid square are first estimated from
Times metrics (:mod:`pipeline.render.latexfit`); a mini's clue columns are
measured by TeX and written to the ``.aux`` file too.  Every part of the book writes the page it starts and ends
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
from pathlib import Path

import jinja2

from ..model.fileio import write_bytes, write_text
from ..model.grid import BLACK
from ..model.progress import Progress
from ..model.puzzle import Puzzle
from .book import Book, RenderError, Trim, fold_text
from .latexfit import (
    _LEADING,
    _Clues,
    _column_width,
    _Fit,
    _fit_facing,
    _fit_mini,
    _fit_page,
    _measure_clues,
    _running_head,
    _times_width,
    _truncate,
)
from .layout import (
    CONTENTS_COL_GAP,
    CONTENTS_LEADING,
    CONTENTS_SIZE,
    HEADING_HEIGHT,
    MINI_CAPTION,
    MINI_CAPTION_SIZE,
    MINI_CLUE_GAP,
    MINI_COL_GAP,
    MINI_GAP,
    SOLUTION_CAPTION,
    SOLUTION_CELL_MAX,
    SOLUTION_GAP,
    PageSpec,
    Plan,
    SectionLine,
    contents_label,
    mini_box,
    plan_book,
    plan_stats,
    puzzle_caption,
    section_blurb,
)
from .texescape import tex_escape

__all__ = ["render_latex", "DEFAULT_TEMPLATE_DIR", "INSTALL_HINT"]

DEFAULT_TEMPLATE_DIR = Path(__file__).resolve().parents[2] / "templates"
TEMPLATE_NAME = "book.tex.j2"
INSTALL_HINT = (
    "install TeX Live: apt-get install latexmk texlive-latex-base texlive-latex-recommended "
    "texlive-fonts-recommended texlive-pictures (or run `make book`, which installs them as root)"
)

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
    # A macro's output: TeX this template made, every string in it already escaped.
    env.filters["rendered"] = lambda value: _TexSafe(str(value))
    env.filters["pdfstring"] = _pdfstring
    return env


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


def _fit(book: Book, plan: Plan, k: int, clues: _Clues, extras: dict) -> _Fit:
    """Puzzle ``k``'s type and grid for its layout in the plan, less the room TeX found it ran over by."""
    kind = plan.kinds[k]
    if kind == "mini":
        return _fit_mini(book, k, clues, extras[(k, "clues")], _mini_box(book, plan, k))
    if kind == "page":
        return _fit_page(book, k, clues, extras[(k, "clues")])
    return _fit_facing(book, k, clues, extras[(k, "grid")], extras[(k, "clues")], len(plan.clue_pages(k)))


def book_page(plan: Plan, page: int) -> PageSpec:
    """The plan's spec of 1-based ``page``."""
    return plan.pages[page - 1]


def _mini_box(book: Book, plan: Plan, k: int):
    """Mini ``k``'s box on its page (:func:`~pipeline.render.layout.mini_box`)."""
    spec = book_page(plan, plan.puzzle_pages[k])
    trim, g = book.page_trim, book.puzzles[k].grid
    return mini_box(trim.text_width * 72, trim.text_height * 72, g.rows, g.cols, spec.rows, spec.puzzles.index(k))


def _mini_room(book: Book, plan: Plan, k: int) -> float:
    """The height mini ``k``'s clue columns may take (bp): its box below the caption, less a point for rounding."""
    return math.floor(_mini_box(book, plan, k).clue_height * 100) / 100


def _clue_context(book: Book, k: int, fit: _Fit, clues: _Clues, column: float) -> dict:
    """What the template needs to set puzzle ``k``'s clues: type, numbers' box, columns, the clues."""
    puzzle = book.puzzles[k]
    return {
        "size": fit.size,
        "leading": round(fit.size * _LEADING, 2),
        "ncols": fit.ncols,
        "numbox": clues.number,
        "hang": clues.hang,
        "column": math.floor(column * 100) / 100,
        "across": [(s.number, clue) for s, _a, clue in puzzle.entries("across")],
        "down": [(s.number, clue) for s, _a, clue in puzzle.entries("down")],
    }


def _puzzle_context(book: Book, plan: Plan, k: int, fit: _Fit, clues: _Clues) -> dict:
    puzzle, trim = book.puzzles[k], book.page_trim
    tw = trim.text_width * 72
    ctx = _grid_context(puzzle)
    clue_pages = plan.clue_pages(k) if plan.kinds[k] in ("facing", "split") else []
    ctx.update(
        kind="puzzle",
        k=k + 1,
        title=puzzle_caption(puzzle, k + 1),
        head=_running_head(contents_label(puzzle, k + 1), tw),
        heading=round(fit.head, 2),
        cell=fit.cell,
        numsize=_number_size(fit.cell, trim),
        numpad=round(fit.cell * _NUMBER_PAD, 2),
        free=fit.free,
        band=round(fit.band, 2),
        # a grid page and its clue page(s) (the facing layout, or a large grid), or all on one page
        facing=bool(clue_pages),
        last_page=clue_pages[-1] if clue_pages else plan.puzzle_pages[k],
        **_clue_context(book, k, fit, clues, _column_width(tw, fit.ncols)),
    )
    return ctx


def _minis_context(book: Book, plan: Plan, spec: PageSpec, page: int, fits: list[_Fit], clues: list[_Clues]) -> dict:
    """A minis page: each mini's box, caption, grid and clues beside it, as :func:`~pipeline.render.layout.mini_box` places them."""
    trim = book.page_trim
    tw, th = trim.text_width * 72, trim.text_height * 72
    minis = []
    for slot, k in enumerate(spec.puzzles):
        puzzle = book.puzzles[k]
        box = mini_box(tw, th, puzzle.grid.rows, puzzle.grid.cols, spec.rows, slot)
        fit = fits[k]
        ctx = _grid_context(puzzle)
        ctx.update(
            k=k + 1,
            title=puzzle_caption(puzzle, k + 1),
            height=math.floor(box.height * 100) / 100,
            cell=fit.cell,
            numsize=_number_size(fit.cell, trim),
            numpad=round(fit.cell * _NUMBER_PAD, 2),
            gap=round(MINI_CLUE_GAP - 1.1, 2),  # the grid's frame sticks out 0.55bp each side
            body=math.floor(box.clue_height * 100) / 100,
            **_clue_context(book, k, fit, clues[k], box.column_width),
        )
        minis.append(ctx)
    head = _running_head(plan.running_head(book.puzzles, spec), tw)
    return {"kind": "minis", "page": page, "head": head, "minis": minis, "caption": MINI_CAPTION,
            "caption_size": MINI_CAPTION_SIZE, "gap": MINI_GAP, "colsep": MINI_COL_GAP}  # fmt: skip


def _section_context(book: Book, plan: Plan, spec: PageSpec) -> dict:
    section = plan.sections[spec.index]
    return {"kind": "section", "index": spec.index + 1, "title": section.title, "range": section.puzzle_range,
            "blurb": section_blurb(book.puzzles, section.first, section.last)}  # fmt: skip


def _solutions_context(book: Book, plan: Plan, spec: PageSpec) -> dict:
    """A solutions page: rows of filled grids, as the plan arranges them, under its section's title."""
    trim = book.page_trim
    ncol, nrow = spec.columns, spec.rows
    tw, th = trim.text_width * 72, trim.text_height * 72 - HEADING_HEIGHT
    sw = math.floor((tw - (ncol - 1) * SOLUTION_GAP) / ncol) - 1
    sh = math.floor((th - (nrow - 1) * SOLUTION_GAP) / nrow) - 1
    grids = []
    for k in spec.puzzles:
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
    # The section's title beside the heading, cut to its line (\LARGE "Solutions" is about 100bp).
    title = _truncate(plan.sections[spec.section].title, 12 * 0.92, tw - 130, "Helvetica")
    return {
        "kind": "solutions",
        "index": spec.index + 1,
        "head": _running_head(plan.solution_label(spec.index), tw),
        "title": title,
        "rows": [grids[j : j + ncol] for j in range(0, len(grids), ncol)],
        "width": float(sw),
        "height": float(sh),
        "gap": SOLUTION_GAP,
    }


def _contents_context(book: Book, plan: Plan) -> tuple[list, dict]:
    """The contents pages: columns of ``(label, page, bold)`` lines, labels cut to their column."""
    tw = book.page_trim.text_width * 72
    ncol, nrow = plan.contents_columns, plan.contents_rows
    col = math.floor((tw - (ncol - 1) * CONTENTS_COL_GAP) / ncol) - 1
    pages = []
    for i, lines in enumerate(plan.contents):
        # Room for the label: the column less the page number, two spaces and 1.5em of dots.
        cut = []
        for line in lines:
            label, page = line
            bold = isinstance(line, SectionLine)
            room = col - _times_width(f"  {page}", CONTENTS_SIZE) - 1.5 * CONTENTS_SIZE
            cut.append((_truncate(label, CONTENTS_SIZE, room, "Times-Bold" if bold else "Times-Roman"), page, bold))
        pages.append({"index": i + 1, "columns": [cut[j : j + nrow] for j in range(0, len(cut), nrow)]})
    return pages, {"width": float(col), "gap": CONTENTS_COL_GAP, "size": CONTENTS_SIZE, "leading": CONTENTS_LEADING}


def _parts(book: Book, plan: Plan, fits: list[_Fit], clues: list[_Clues]) -> list[dict]:
    """Every page after the contents, in order: blank, section, puzzle (and its clue pages), minis, solutions."""
    parts = []
    for page, spec in enumerate(plan.pages, start=1):
        if spec.kind == "blank":
            parts.append({"kind": "blank", "page": page})
        elif spec.kind == "section":
            parts.append(_section_context(book, plan, spec))
        elif spec.kind in ("puzzle", "grid"):
            k = spec.puzzles[0]
            parts.append(_puzzle_context(book, plan, k, fits[k], clues[k]))
        elif spec.kind == "minis":
            parts.append(_minis_context(book, plan, spec, page, fits, clues))
        elif spec.kind == "solutions":
            parts.append(_solutions_context(book, plan, spec))
    return parts


def _context(book: Book, plan: Plan, fits: list[_Fit], clues: list[_Clues]) -> dict:
    trim = book.page_trim
    contents, contents_layout = _contents_context(book, plan)
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
        "parts": _parts(book, plan, fits, clues),
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
        if plan.kinds[k - 1] in ("facing", "split"):
            clue_pages = plan.clue_pages(k - 1)
            want[("clues", k)] = clue_pages[0]
            want[("cluesend", k)] = clue_pages[-1]  # at most: clues over several pages may end sooner
    for section in plan.sections:
        if section.page is not None:
            i = plan.pages[section.page - 1].index + 1
            want[("section", i)] = want[("sectionend", i)] = section.page
    for page, spec in plan.solution_pages():
        want[("solutions", spec.index + 1)] = want[("solutionsend", spec.index + 1)] = page
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
    "section": "section {}'s opening page",
    "sectionend": "the end of section {}'s opening page",
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
    for kind in ("contents", "solutions", "section"):
        for (mk, i), page in sorted(marks.items()):
            if mk == kind and marks[(kind + "end", i)] != page:
                raise RenderError(f"{_PARTS[kind].format(i)} ran onto a second page (template out of date?)")
    top = (book.page_trim.height - book.page_trim.top) * 72  # the text block's top above the paper's edge
    spilled = {}
    for k in range(1, len(book.puzzles) + 1):
        kind = plan.kinds[k - 1]
        if kind == "mini":  # a mini's box cannot run over its page; its measured clue columns say if it ran over the box
            continue
        two = kind in ("facing", "split")
        parts = [("grid", "puzzle", "puzzleend"), ("clues", "clues", "cluesend")] if two else [("clues", "puzzle", "puzzleend")]
        for part, start, end in parts:
            first, last = marks[(start, k)], marks[(end, k)]
            planned = plan.clue_pages(k - 1)[-1] if part == "clues" and two else first
            if last > planned:
                spilled[(k - 1, part)] = max(0.0, top - heights[(end, k)])
            elif any(p in overfull for p in range(first, last + 1)):
                spilled[(k - 1, part)] = max(overfull.get(p, 0.0) for p in range(first, last + 1))
    return spilled


def _check_plan(plan: Plan, n: int, marks: dict, pages, workdir: Path) -> None:
    """Every part on the page the plan says, and the book as long as planned."""
    for (kind, k), page in _expected_marks(plan, n).items():
        early = kind == "cluesend" and marks[("clues", k)] <= marks[(kind, k)] <= page  # ended before its last page
        if marks[(kind, k)] != page and not early:
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
        ``pages``; the plan's figures
        (:func:`~pipeline.render.layout.plan_stats`: ``puzzle_pages``,
        ``contents_pages``, ``solution_pages``, ``solutions_per_page``,
        ``minis_pages``, ``layout``, ``sections``); ``rounds`` (times the book was
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
        return _fit(book, plan, k, clues[k], extras)

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
            for k, f in enumerate(fits):
                if plan.kinds[k] == "page":
                    # Columns balanced a fraction of a point past the page: TeX moves the whole
                    # puzzle onto the next page, both its marks with it, so nothing says it spilled.
                    moved = marks.get(("puzzle", k + 1)) != plan.puzzle_pages[k]
                    if moved and k + 1 in columns and f.head + f.band + columns[k + 1] > trim.text_height * 72:
                        spilled.setdefault((k, "clues"), 0.0)
                elif plan.kinds[k] == "mini" and columns.get(k + 1, 0.0) > _mini_room(book, plan, k):
                    spilled[(k, "clues")] = columns[k + 1] - _mini_room(book, plan, k)
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
                if plan.kinds[k] == "page" and k + 1 in columns:
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
        **plan_stats(plan),
        "rounds": rounds,
        "clue_sizes": [f.size for f in fits],
        "below_floor": below,
        "trim": book.trim,
        "page_size": [round(trim.width * 72, 2), round(trim.height * 72, 2)],
        "path": str(out_path),
    }
