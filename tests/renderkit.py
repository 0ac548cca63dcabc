"""Shared pieces of the rendering tests: puzzles to print and ways to read PDFs back.

The puzzles are built here: a 5x5 and two 15x15 grids filled with
arbitrary letters (rendering does not care about real words), a clue for
every slot, some clues full of TeX specials and non-Latin text.
"""

from __future__ import annotations

import random
import shutil
import subprocess
import unicodedata
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
