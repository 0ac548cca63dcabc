"""The LaTeX renderer: a jinja2 template typeset by pdfLaTeX.

:func:`render_latex` fills ``templates/book.tex.j2`` and runs ``latexmk
-pdf`` in a scratch directory with shell escape off, then copies the PDF
to its destination.  The template follows the seed's dictionary template
(twoside ``book``, ``fancyhdr`` running heads from ``\\markboth``,
``multicols``) with Times and Helvetica (``mathptmx``, ``helvet``: Type 1,
embedded) and TikZ grids.

Safety: the jinja2 environment escapes every string with
:func:`~pipeline.render.texescape.tex_escape` -- explicitly through the
``tex`` filter, and again through ``finalize`` for any string printed
without it -- and refuses to print anything but strings and numbers.
TeX runs with ``-no-shell-escape`` and kpathsea's paranoid file access.

Fit: TeX cannot be asked in advance whether a page overflows, so each
puzzle's type size and grid size are first estimated from Times metrics;
after typesetting, the page on which each puzzle starts (written to the
``.aux`` file) shows whether any puzzle spilled onto a second page, and such puzzles are tightened and the
book typeset again (a few rounds at most) before giving up with
:class:`~pipeline.render.book.RenderError`.

Reproducible: ``SOURCE_DATE_EPOCH``/``FORCE_SOURCE_DATE``, no info dates,
no trailer ID and no pdfTeX info keys, so equal books give equal bytes.
"""

from __future__ import annotations

import math
import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

import jinja2
from reportlab.pdfbase import pdfmetrics

from ..model.fileio import write_bytes, write_text
from ..model.grid import BLACK
from ..model.puzzle import Puzzle
from .book import Book, RenderError, fold_text, heading_title, solution_layout
from .texescape import tex_escape

__all__ = ["render_latex", "DEFAULT_TEMPLATE_DIR", "INSTALL_HINT"]

DEFAULT_TEMPLATE_DIR = Path(__file__).resolve().parents[2] / "templates"
TEMPLATE_NAME = "book.tex.j2"
INSTALL_HINT = (
    "install TeX Live: apt-get install latexmk texlive-latex-base texlive-latex-recommended "
    "texlive-fonts-recommended texlive-pictures (or run `make book`, which installs them as root)"
)

# Clue type sizes of the 10pt book class: (name, size, baselineskip) in pt.
_SIZES = {"small": (9.0, 11.0), "footnotesize": (8.0, 9.5), "scriptsize": (7.0, 8.0)}
# (size, clue columns) to try, preferred first; three columns only on a
# text block wide enough for them.
_CHOICES_WIDE = (("small", 2), ("footnotesize", 2), ("footnotesize", 3), ("scriptsize", 3))
_CHOICES_NARROW = (("small", 2), ("footnotesize", 2), ("scriptsize", 2))
_CELL_MAX = 26.0  # grid squares, bp: largest (15x15), comfortable, smallest
_CELL_MAX_SMALL = 36.0  # largest for a small grid (a 5x5 mini)
_CELL_COMFORT = 18.0
_CELL_MIN = 14.0
_HEADING = 44.0  # the "Puzzle k" heading and its rule, bp
_GRID_GAP = 14.0  # the grid's rule width, the gap below it and multicols' space
_COL_SEP = 12.0
_SAFETY = 1.06  # estimated clue height is multiplied by this ...
_SLACK_LINES = 2.0  # ... plus this many lines for column balancing
_TIGHTEN = 24.0  # bp added to a puzzle's estimate each time it overflows
_ROUNDS = 4  # typesetting rounds before giving up
_SOL_GAP = 18.0
_SOL_CAPTION = 16.0
_SOL_CELL_MAX = 14.0
_SOL_HEADING = 40.0
_TIMEOUT = 900  # seconds for one latexmk run


class _TexSafe(str):
    """A string that is already TeX (the output of the ``tex`` filter)."""


def _tex_filter(value) -> _TexSafe:
    if isinstance(value, _TexSafe):
        return value
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
    """Applied to every ``((( ))) `` expression: escape strings, format numbers."""
    if isinstance(value, _TexSafe):
        return value
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
def _times_lines(text: str, size: float, width: float) -> int:
    """Lines ``text`` takes in Times at ``size`` set ragged-right in ``width`` bp."""
    text = fold_text(text, lambda ch: ord(ch) < 256)
    lines, line = 1, 0.0
    space = pdfmetrics.stringWidth(" ", "Times-Roman", size)
    for word in text.split():
        w = pdfmetrics.stringWidth(word, "Times-Roman", size)
        if line and line + space + w > width:
            lines += 1
            line = 0.0
        if w > width:  # a long word overflows; TeX may hyphenate, count it whole
            lines += int(w // width)
            w = w % width
        line += (space if line else 0.0) + w
    return lines


def _clue_height(puzzle: Puzzle, size_name: str, ncols: int, text_width: float) -> float:
    """Estimated height (bp) of the tallest clue column."""
    size, skip = _SIZES[size_name]
    col = (text_width - (ncols - 1) * _COL_SEP) / ncols
    hang = 2.1 * size
    lines = 0
    for direction in ("across", "down"):
        for _slot, _answer, clue in puzzle.entries(direction):
            lines += _times_lines(clue, size, col - hang)
    total = lines * skip + 2 * skip * 1.7  # the two direction headings
    return total * _SAFETY / ncols + _SLACK_LINES * skip


def _title_lines(title: str, text_width: float) -> int:
    w = pdfmetrics.stringWidth(fold_text(title, lambda ch: ord(ch) < 256), "Helvetica", 12) + 110
    return max(1, math.ceil(w / text_width))


@dataclass
class _Fit:
    size: str
    ncols: int
    cell: float


def _fit_puzzle(book: Book, k: int, extra: float) -> _Fit:
    """Type size, clue columns and grid square for puzzle ``k``; raise if none fits."""
    puzzle = book.puzzles[k]
    trim = book.page_trim
    tw, th = trim.text_width * 72, trim.text_height * 72
    rows, cols = puzzle.grid.rows, puzzle.grid.cols
    head = _HEADING + (_title_lines(puzzle.title, tw) - 1) * 16
    choices = _CHOICES_WIDE if tw >= 430 else _CHOICES_NARROW
    for floor in (_CELL_COMFORT, _CELL_MIN):
        for size_name, ncols in choices:
            room = th - head - _GRID_GAP - extra - _clue_height(puzzle, size_name, ncols, tw)
            biggest = max(_CELL_MAX, min(_CELL_MAX_SMALL, 390.0 / cols))
            cell = math.floor(min(biggest, tw / cols, room / rows) * 2) / 2
            if cell >= floor:
                return _Fit(size_name, ncols, cell)
    raise RenderError(
        f"puzzle {k + 1} ({puzzle.title or 'untitled'}): its {len(puzzle.grid.slots())} clues do not fit "
        f"on one {book.trim} page even in 7pt type with {_CELL_MIN:g}bp squares; "
        "shorten the clues or choose a larger trim",
        book.source(k),
    )


def _grid_context(puzzle: Puzzle) -> dict:
    g = puzzle.grid
    blacks, numbers = [], []
    nums = g.numbers()
    for i, ch in enumerate(g.cells):
        r, c = divmod(i, g.cols)
        y = g.rows - 1 - r  # TikZ's y axis points up
        if ch == BLACK:
            blacks.append((c, y))
        elif i in nums:
            numbers.append((c + 0.07, y + 0.93, nums[i]))
    return {"rows": g.rows, "cols": g.cols, "blacks": blacks, "numbers": numbers}


def _context(book: Book, extras: list[float]) -> tuple[dict, int]:
    trim = book.page_trim
    puzzles = []
    for k, puzzle in enumerate(book.puzzles):
        fit = _fit_puzzle(book, k, extras[k])
        ctx = _grid_context(puzzle)
        ctx.update(
            k=k + 1,
            title=heading_title(puzzle, k + 1),
            cell=fit.cell,
            numsize=round(max(5.0, min(8.0, fit.cell * 0.28)), 2),
            size=fit.size,
            ncols=fit.ncols,
            across=[(s.number, clue) for s, _a, clue in puzzle.entries("across")],
            down=[(s.number, clue) for s, _a, clue in puzzle.entries("down")],
        )
        puzzles.append(ctx)

    tw, th = trim.text_width * 72, trim.text_height * 72 - _SOL_HEADING
    max_rows = max(p.grid.rows for p in book.puzzles)
    max_cols = max(p.grid.cols for p in book.puzzles)
    ncol, nrow = solution_layout(tw, th, max_rows, max_cols, _SOL_GAP, _SOL_CAPTION)
    sw = math.floor((tw - (ncol - 1) * _SOL_GAP) / ncol) - 1
    sh = math.floor((th - (nrow - 1) * _SOL_GAP) / nrow) - 1
    pages, per_page = [], ncol * nrow
    for start in range(0, len(book.puzzles), per_page):
        chunk = []
        for k in range(start, min(start + per_page, len(book.puzzles))):
            g = book.puzzles[k].grid
            cell = math.floor(min(_SOL_CELL_MAX, sw / g.cols, (sh - _SOL_CAPTION - 4) / g.rows) * 4) / 4
            font = round(cell * 0.6, 2)
            base = 0.5 - 0.36 * font / cell  # puts the capitals' middle mid-square
            letters = []
            for i, ch in enumerate(g.cells):
                if ch != BLACK:
                    r, c = divmod(i, g.cols)
                    letters.append((c + 0.5, g.rows - 1 - r + base, ch))
            sol = _grid_context(book.puzzles[k])
            sol.update(k=k + 1, cell=cell, font=font, letters=letters)
            chunk.append(sol)
        pages.append([chunk[i : i + ncol] for i in range(0, len(chunk), ncol)])
    context = {
        "book": {
            "title": book.title,
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
        "puzzles": puzzles,
        "solution_pages": pages,
        "solutions": {"width": float(sw), "height": float(sh), "gap": _SOL_GAP},
    }
    return context, len(pages)


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


_MARK = re.compile(r"\\xwpage\{(\w+)\}\{(\d+)\}\{(\d+)\}")
_PAGES = re.compile(r"Output written on .*?\((\d+) pages?")


def _marks(workdir: Path) -> dict[tuple[str, int], int]:
    aux = (workdir / "book.aux").read_text(errors="replace")
    return {(kind, int(k)): int(page) for kind, k, page in _MARK.findall(aux)}


def render_latex(book: Book, out_path, template_dir=None, workdir=None, source_date_epoch: int = 0) -> dict:
    """Render ``book`` to PDF through LaTeX.

    Parameters
    ----------
    book : Book
        The puzzles and front matter; ``book.trim`` sets the page size.
    out_path : str or os.PathLike
        Where to write the PDF (atomically).
    template_dir : path, optional
        Folder holding ``book.tex.j2`` (default: the project's ``templates/``).
    workdir : path, optional
        Where to write ``book.tex`` and run TeX; kept afterwards for
        inspection.  Default: a temporary folder, removed afterwards.
    source_date_epoch : int
        The date TeX believes it is (``SOURCE_DATE_EPOCH``), for
        reproducible output.

    Returns
    -------
    dict
        ``pages``, ``puzzle_pages``, ``solution_pages``, ``rounds`` (times the
        book was typeset), ``clue_sizes`` (LaTeX size per puzzle), ``trim``,
        ``path``.

    Raises
    ------
    RenderError
        If latexmk or pdflatex is missing (the message says what to install),
        if TeX fails (with the log's error lines), or if a puzzle does not fit
        on its page.

    Examples
    --------
    >>> render_latex(book, "book.pdf")["pages"]  # doctest: +SKIP
    17

    Notes
    -----
    latexmk usually runs pdflatex twice per round and one round is usually
    enough; a 12-puzzle 15x15 book takes about 3 seconds.
    """
    book.validate()
    latexmk = _check_tools()
    template = _environment(template_dir or DEFAULT_TEMPLATE_DIR).get_template(TEMPLATE_NAME)
    n = len(book.puzzles)
    tmp = None
    if workdir is None:
        tmp = tempfile.TemporaryDirectory(prefix="xwbook-latex-")
        work = Path(tmp.name)
    else:
        work = Path(workdir)
        work.mkdir(parents=True, exist_ok=True)
    try:
        extras = [0.0] * n
        for rounds in range(1, _ROUNDS + 1):
            context, n_solution_pages = _context(book, extras)
            write_text(work / "book.tex", template.render(context))
            _run_latex(latexmk, work, source_date_epoch)
            marks = _marks(work)
            # Page 2 is the copyright page, puzzle k starts on page 2 + k and
            # the solutions on page 3 + n; a part that spills onto another
            # page pushes every later start back.
            starts = [marks.get(("copyright", 0))] + [marks.get(("start", k)) for k in range(1, n + 1)]
            starts.append(marks.get(("solutions", 1)))
            if None in starts:
                raise RenderError("TeX did not record where each puzzle starts (template out of date?)", work / "book.aux")
            if starts[1] != 3:
                raise RenderError(
                    f"the copyright page's {len(book.copyright_lines)} paragraphs do not fit on one page; "
                    "shorten the notices"
                )
            spilled = [k for k in range(1, n + 1) if starts[k + 1] - starts[k] != 1]
            if not spilled:
                break
            for k in spilled:
                extras[k - 1] += _TIGHTEN * rounds  # 24, 72, 144 bp: grow until it fits
        else:
            raise RenderError(
                f"puzzle(s) {', '.join(map(str, spilled))} still run onto a second page after "
                f"{_ROUNDS} rounds of tightening; shorten their clues",
                book.source(spilled[0] - 1),
            )
        log = (work / "book.log").read_text(errors="replace")
        m = _PAGES.search(log)
        pages = int(m.group(1)) if m else None
        expected = 2 + n + n_solution_pages
        if pages != expected:
            raise RenderError(
                f"the typeset book has {pages} pages, expected {expected} "
                "(title, copyright, one per puzzle, solutions); see the log",
                work / "book.log",
            )
        data = (work / "book.pdf").read_bytes()
        write_bytes(out_path, data)
    finally:
        if tmp is not None:
            tmp.cleanup()
    return {
        "pages": pages,
        "puzzle_pages": n,
        "solution_pages": n_solution_pages,
        "rounds": rounds,
        "clue_sizes": [p["size"] for p in context["puzzles"]],
        "trim": book.trim,
        "path": str(out_path),
    }
