"""Shared pieces of the rendering tests: puzzles to print and ways to read PDFs back.

The puzzles are built here: a 5x5 and two 15x15 grids filled with
arbitrary letters (rendering does not care about real words), a clue for
every slot, some clues full of TeX specials and non-Latin text.
"""

from __future__ import annotations

import html
import random
import re
import shutil
import subprocess
import unicodedata
from dataclasses import dataclass
from pathlib import Path

import pytest

from pipeline.model.grid import BLACK, Grid
from pipeline.model.puzzle import Puzzle
from pipeline.render import Book

HAVE_POPPLER = all(shutil.which(t) for t in ("pdftotext", "pdffonts", "pdftoppm"))
HAVE_TEX = bool(shutil.which("latexmk") and shutil.which("pdflatex"))
needs_poppler = pytest.mark.skipif(not HAVE_POPPLER, reason="poppler-utils not installed")
needs_tex = pytest.mark.skipif(not HAVE_TEX, reason="latexmk/pdflatex not installed")

PATTERN_15 = [
    ".....#.....#...",
    ".....#.....#...",
    "...............",
    "...#...#.......",
    "###.....#......",
    "......#...#....",
    ".....#.....#...",
    "....#.....#....",
    "...#.....#.....",
    "....#...#......",
    "......#.....###",
    ".......#...#...",
    "...............",
    "...#.....#.....",
    "...#.....#.....",
]
PATTERN_5 = ["#....", ".....", ".....", ".....", "....#"]
WORDS = "river mountain salt harbour lantern quiet orbit ember velvet meadow cipher falcon tundra anchor".split()
NASTY = [
    r"Ten specials \ { } $ & # ^ _ % ~ in a row",
    r"\input{secrets.txt}",
    r"\write18{rm -rf /}",
    "Unbalanced {{} braces",
    "Zoë’s café — 東京",
    r"\end{document} too soon",
    r"\makeatletter\@@end",
    'He said "hi" <<now>> | [opt] ,, !`',
]


def _fill(rows: list[str], seed: int) -> Grid:
    rnd = random.Random(seed)
    return Grid.from_rows(["".join(ch if ch == BLACK else rnd.choice("ABCDEFGHIKLMNOPRSTUWY") for ch in r) for r in rows])


def _puzzle(rows: list[str], seed: int, title: str, first_clues=()) -> Puzzle:
    grid = _fill(rows, seed)
    rnd = random.Random(seed + 99)
    clues = {}
    for i, slot in enumerate(grid.slots()):
        if i < len(first_clues):
            text = first_clues[i]
        else:
            text = " ".join(rnd.choice(WORDS) for _ in range(rnd.randint(1, 6))).capitalize() + f" {slot.label}"
        clues[(slot.direction, slot.number)] = text
    return Puzzle(grid, clues, title=title, author="A. Setter")


def _book(trim: str = "letter") -> Book:
    puzzles = [
        _puzzle(PATTERN_5, 1, "Warm-up", ["Café owner’s “special” — 50% off & more"]),
        _puzzle(PATTERN_15, 2, "Rivers & Mountains"),
        _puzzle(PATTERN_15, 3, "Salt_and ~Pepper~", NASTY),
    ]
    return Book(
        title="Test Crosswords",
        subtitle="Three puzzles",
        author="A. Setter",
        copyright_lines=["Copyright 2025 A. Setter.", "WordNet 3.0 Copyright 2006 by Princeton University."],
        puzzles=puzzles,
        trim=trim,
    )


def _norm(text: str) -> str:
    """Text as pdftotext gives it back, normalised for comparison."""
    text = unicodedata.normalize("NFKC", text)
    for a, b in (("’", "'"), ("‘", "'"), ("“", '"'), ("”", '"'), ("—", "--"), ("–", "-")):
        text = text.replace(a, b)
    return " ".join(text.split())


def _pdftotext(path: Path, raw: bool = False) -> str:
    cmd = ["pdftotext"] + (["-raw"] if raw else []) + [str(path), "-"]
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


def render_hostile_latex(book: Book, tmp_path: Path, name: str) -> str:
    """Render ``book`` with LaTeX beside a planted ``secrets.txt``; the PDF's text (``pdftotext -raw``).

    Fails if the page count differs from the plan's or if any string ran as
    TeX code: read a file (``/etc/passwd``, ``secrets.txt``) or wrote one
    (``pwned``).
    """
    from pipeline.render import render_latex
    from pipeline.render.book import plan_book

    work = tmp_path / "work"
    work.mkdir()
    (work / "secrets.txt").write_text("TOPSECRET\n")
    out = tmp_path / f"{name}.pdf"
    stats = render_latex(book, out, workdir=work)
    assert stats["pages"] == plan_book(book).total
    assert not (work / "pwned").exists() and not (work / "pwned.tex").exists()
    text = _pdftotext(out, raw=True)
    assert "root:" not in text and "TOPSECRET" not in text  # /etc/passwd and secrets.txt were not read
    return text


_WORD = re.compile(r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">(.*?)</word>')


def _words(path, page: int) -> list[tuple[float, float, float, float, str]]:
    """``(x0, y0, x1, y1, word)`` of every word on ``page``, in points from the top-left corner (pdftotext -bbox)."""
    out = subprocess.run(
        ["pdftotext", "-bbox", "-f", str(page), "-l", str(page), str(path), "-"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return [(float(a), float(b), float(c), float(d), html.unescape(w)) for a, b, c, d, w in _WORD.findall(out)]


def _pdffonts(path: Path) -> list[tuple[str, str]]:
    """``(font name, emb column)`` per font in ``path``."""
    out = subprocess.run(["pdffonts", str(path)], check=True, capture_output=True, text=True).stdout
    rows = []
    for line in out.splitlines()[2:]:
        fields = line.split()
        if fields:
            rows.append((fields[0], fields[-5]))  # ... emb sub uni object-id gen
    return rows


def _solution_pages(book: Book, per_page: int) -> int:
    return -(-len(book.puzzles) // per_page)



def _solid_blobs(img, radius: int) -> int:
    w, h = img.size
    data = img.tobytes()
    dark = [[1 if data[y * w + x] < 100 else 0 for x in range(w)] for y in range(h)]
    integral = [[0] * (w + 1) for _ in range(h + 1)]
    for y in range(h):
        run = 0
        for x in range(w):
            run += dark[y][x]
            integral[y + 1][x + 1] = integral[y][x + 1] + run
    side = 2 * radius + 1
    solid = set()
    for y in range(radius, h - radius):
        for x in range(radius, w - radius):
            y0, x0, y1, x1 = y - radius, x - radius, y + radius + 1, x + radius + 1
            if integral[y1][x1] - integral[y0][x1] - integral[y1][x0] + integral[y0][x0] == side * side:
                solid.add((x, y))
    blobs = 0
    while solid:
        blobs += 1
        stack = [solid.pop()]
        while stack:
            x, y = stack.pop()
            for n in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if n in solid:
                    solid.remove(n)
                    stack.append(n)
    return blobs


def _black_groups(grid: Grid) -> int:
    blacks = {divmod(i, grid.cols) for i, ch in enumerate(grid.cells) if ch == BLACK}
    groups = 0
    while blacks:
        groups += 1
        stack = [blacks.pop()]
        while stack:
            r, c = stack.pop()
            for n in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if n in blacks:
                    blacks.remove(n)
                    stack.append(n)
    return groups


# -- reading a grid back from a page picture ---------------------------------------
INK = 160  # a pixel darker than this is ink (lines and black squares print at 0)
_INK_TABLE = bytes(1 if v < INK else 0 for v in range(256))


@dataclass(frozen=True)
class GridPicture:
    """A crossword grid as recovered from the pixels of a page.

    ``xs`` and ``ys`` are the centres of the grid's vertical and horizontal
    lines; ``blacks`` the black squares and ``numbered`` the white squares
    with ink in their top-left corner (a clue number), as ``(row, col)``.
    """

    xs: list[int]
    ys: list[int]
    blacks: set[tuple[int, int]]
    numbered: set[tuple[int, int]]

    @property
    def rows(self) -> int:
        return len(self.ys) - 1

    @property
    def cols(self) -> int:
        return len(self.xs) - 1


def _runs(positions: list[int]) -> list[tuple[int, int]]:
    """Consecutive pixel positions (one drawn line each) as ``(first, last)``."""
    runs: list[list[int]] = []
    for p in sorted(positions):
        if runs and p == runs[-1][1] + 1:
            runs[-1][1] = p
        else:
            runs.append([p, p])
    return [(a, b) for a, b in runs]


def _evenly_spaced(runs: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The longest stretch of ``runs`` whose centres are evenly spaced (to 2 px).

    A page's heading rules and running-head rule can be as wide as the grid;
    they are not one cell apart from its lines.
    """
    centres = [(a + b) / 2 for a, b in runs]
    best = (0, 1)
    for i in range(len(runs) - 1):  # a few dozen lines at most: try every start
        step = centres[i + 1] - centres[i]
        j = i + 1
        while j + 1 < len(runs) and abs(centres[j + 1] - centres[j] - step) <= 2:
            j += 1
        if j + 1 - i > best[1] - best[0]:
            best = (i, j + 1)
    return runs[best[0] : best[1]]


def read_grid_png(path) -> GridPicture:
    """Find the crossword grid on a page picture and read its structure.

    The grid is the largest set of evenly spaced long horizontal ink lines
    that start and end at the same columns (a heading's rule is one line,
    not one cell from the next; a line of text is never continuous ink).  Its vertical lines are the pixel columns
    inked over nearly the grid's whole height: inside a column of squares
    the ink stops at every white square.  A square is black when the middle
    of it is mostly ink; a white square is numbered when its top-left
    corner, clear of the lines, holds a few ink pixels.
    """
    from PIL import Image

    img = Image.open(path).convert("L")
    w, h = img.size
    ink = img.tobytes().translate(_INK_TABLE)
    # Horizontal lines: runs of ink at least a sixth of the page wide, grouped by extent.
    long_run = re.compile(b"\\x01{%d,}" % (w // 6))
    by_extent: dict[tuple[int, int], list[int]] = {}
    for y in range(h):
        for m in long_run.finditer(ink, y * w, (y + 1) * w):
            x0, x1 = m.start() - y * w, m.end() - y * w
            key = next((k for k in by_extent if abs(k[0] - x0) <= 3 and abs(k[1] - x1) <= 3), (x0, x1))
            by_extent.setdefault(key, []).append(y)
    if not by_extent:
        raise AssertionError(f"{path}: no long horizontal line: no grid on this page")
    (gx0, gx1), lines = max(((k, _evenly_spaced(_runs(v))) for k, v in by_extent.items()), key=lambda kv: len(kv[1]))
    gy0, gy1 = lines[0][0], lines[-1][1] + 1
    ys = [(a + b) // 2 for a, b in lines]
    # Vertical lines: columns inked over 95% of the grid's height.
    height = gy1 - gy0
    columns = [x for x in range(gx0, gx1) if ink[gy0 * w + x : gy1 * w + x : w].count(1) >= 0.95 * height]
    xs = [(a + b) // 2 for a, b in _runs(columns)]
    if len(xs) < 2 or len(ys) < 2:
        raise AssertionError(f"{path}: {len(ys)} horizontal and {len(xs)} vertical lines: no grid on this page")
    blacks, numbered = set(), set()
    for r in range(len(ys) - 1):
        for c in range(len(xs) - 1):
            x0, x1, y0, y1 = xs[c], xs[c + 1], ys[r], ys[r + 1]
            cw, ch = x1 - x0, y1 - y0
            mid = [ink[y * w + x0 + cw * 3 // 10 : y * w + x1 - cw // 10] for y in range(y0 + ch * 3 // 10, y1 - ch // 10)]
            if sum(m.count(1) for m in mid) > 0.5 * sum(len(m) for m in mid):
                blacks.add((r, c))
                continue
            pad = max(3, cw // 12)
            corner = [ink[y * w + x0 + pad : y * w + x0 + cw // 2] for y in range(y0 + pad, y0 + ch * 45 // 100)]
            if sum(m.count(1) for m in corner) >= 3:
                numbered.add((r, c))
    return GridPicture(xs, ys, blacks, numbered)
