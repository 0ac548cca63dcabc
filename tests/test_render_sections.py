"""Books of sections, mixed sizes, levels and themes (issue 18): the page plan and both renderers' PDFs.

A small book: three minis (5x5, 7x7, 5x5) in "Warm-up minis", two graded
15x15s in "Daily", a themed 15x15 titled "Fire ___" in "Themed" and a 21x21
in "Sunday".  The plan is checked as data; each renderer's PDF by its page
count, its text (contents, section pages, levels, the theme's title and
never its entries, solutions by section) and its pixels (each mini's grid,
and the 21x21's, read back from the page picture).
"""

from __future__ import annotations

import json
import re
import subprocess

import puz
import pytest

from pipeline.model.grid import BLACK, parse_grid
from pipeline.render import Book, render_latex, render_pdf
from pipeline.render.layout import SectionLine, mini_box, plan_book, size_class
from pipeline.render.preview import render_previews
from pipeline.render.puzfile import write_puz
from renderkit import PATTERN_5, PATTERN_15, _fill, _pdftotext, _puzzle, needs_poppler, needs_tex, read_grid_png

PATTERN_7 = [".......", "...#...", ".......", "##...##", ".......", "...#...", "......."]
# A 21x21 with short entries: a black square wherever (7r + 3c) % 11 is 0, off the first and last rows.
PATTERN_21 = ["".join("#" if (r * 7 + c * 3) % 11 == 0 and 0 < r < 20 else "." for c in range(21)) for r in range(21)]
THEME = ("FIREDRILL", "FIREALARM", "FIREWORKS")
SECTIONS = ["Warm-up minis", "Daily", "Themed", "Sunday"]


def _sectioned(trim: str = "letter", layout: str = "auto") -> Book:
    specs = [
        ("Warm-up minis", PATTERN_5, "easy", "Puzzle 1"),
        ("Warm-up minis", PATTERN_7, "easy", "Puzzle 2"),
        ("Warm-up minis", PATTERN_5, "easy", "Puzzle 3"),
        ("Daily", PATTERN_15, "easy", "Puzzle 4"),
        ("Daily", PATTERN_15, "hard", "Puzzle 5"),
        ("Themed", PATTERN_15, "medium", "Fire ___"),
        ("Sunday", PATTERN_21, "medium", "Puzzle 7"),
    ]
    puzzles = []
    for k, (section, pattern, level, title) in enumerate(specs):
        p = _puzzle(pattern, 100 + k, title)
        p.section, p.level = section, level
        p.level_value = {"easy": 0.0, "medium": 0.5, "hard": 1.0}[level]
        if title == "Fire ___":
            p.theme = THEME
        puzzles.append(p)
    return Book("Sections", "Mixed sizes", "A. Setter", ["Copyright 2025 A. Setter."], puzzles, trim=trim, layout=layout)


def _page_texts(path) -> list[str]:
    """The text of every page (pdftotext, one page a form feed)."""
    return [" ".join(t.split()) for t in _pdftotext(path).split("\f")[:-1]]


# -- the plan -------------------------------------------------------------------------------
def test_the_grids_of_the_book_are_made_from_patterns():
    assert parse_grid("\n".join(PATTERN_21)).rows == 21
    assert [size_class(p.grid) for p in _sectioned().puzzles] == ["mini"] * 3 + ["standard"] * 3 + ["large"]


@pytest.mark.parametrize("trim", ["letter", "a4", "6x9", "large-print"])
@pytest.mark.parametrize("layout", ["page", "facing"])
def test_plan_sections_minis_large_grids_and_solutions(trim, layout):
    book = _sectioned(trim, layout)
    plan = plan_book(book)
    kinds = [p.kind for p in plan.pages]
    assert [s.title for s in plan.sections] == SECTIONS
    assert [(s.first, s.last) for s in plan.sections] == [(0, 2), (3, 4), (5, 5), (6, 6)]
    # each section opens with its page, before its first puzzle; on the right-hand side when facing
    for s in plan.sections:
        assert plan.pages[s.page - 1].kind == "section" and s.page < plan.puzzle_pages[s.first]
        assert layout == "page" or s.page % 2 == 1
    # the minis share pages (several to a page on letter and A4), each on the page the plan says
    assert plan.kinds[:3] == ["mini"] * 3
    minis = [p for p in plan.pages if p.kind == "minis"]
    assert [k for p in minis for k in p.puzzles] == [0, 1, 2]
    if trim in ("letter", "a4"):
        assert len(minis) < 3
    for p in minis:
        assert all(plan.puzzle_pages[k] == plan.pages.index(p) + 1 for k in p.puzzles)
    # 15x15s as before; the 21x21 alone on its page, its clues on the next page(s)
    assert plan.kinds[3:6] == ["facing" if layout == "facing" else "page"] * 3
    assert plan.kinds[6] == ("facing" if layout == "facing" else "split")
    big = plan.puzzle_pages[6]
    assert kinds[big - 1] == "grid" and plan.clue_pages(6)[0] == big + 1
    assert all(kinds[p - 1] == "clues" for p in plan.clue_pages(6))
    if layout == "facing":
        assert all(plan.puzzle_pages[k] % 2 == 0 for k in range(3, 7))  # grids on left-hand pages
    assert all(kinds[p - 1] == "blank" for p in plan.blank_pages)
    # solutions at the back, by section, each section's on pages of its own
    assert kinds[plan.solution_first - 1 :] == ["solutions"] * len(plan.solutions)
    by_section = [[k for _n, p in plan.solution_pages() if p.section == s for k in p.puzzles] for s in range(4)]
    assert by_section == [[0, 1, 2], [3, 4], [5], [6]]
    assert [plan.sections[p.section].solutions <= n for n, p in plan.solution_pages()] == [True] * len(plan.solutions)
    assert plan.total == len(plan.pages)


def test_contents_lists_sections_puzzles_and_the_solutions_of_each_section():
    plan = plan_book(_sectioned())
    lines = [line for page in plan.contents for line in page]
    bold = [line for line in lines if isinstance(line, SectionLine)]
    assert bold == [
        ("Warm-up minis · Puzzles 1-3", plan.sections[0].page),
        ("Daily · Puzzles 4-5", plan.sections[1].page),
        ("Themed · Puzzle 6", plan.sections[2].page),
        ("Sunday · Puzzle 7", plan.sections[3].page),
        ("Solutions", plan.solution_first),
    ]
    assert ("Puzzle 6: Fire ___", plan.puzzle_pages[5]) in lines and ("Puzzle 4", plan.puzzle_pages[3]) in lines
    assert lines[-4:] == [(s.title, s.solutions) for s in plan.sections]


def test_a_legacy_book_is_planned_as_before():
    # no sections: no section pages, minis one to a page, solutions two to a row, no bold contents lines
    book = _sectioned()
    for p in book.puzzles:
        p.section = ""
    plan = plan_book(book)
    assert "section" not in {p.kind for p in plan.pages} and plan.kinds[:3] == ["page"] * 3
    assert plan.puzzle_pages[:4] == [4, 5, 6, 7]
    assert not any(isinstance(line, SectionLine) for page in plan.contents for line in page)
    assert plan.contents[0][-1] == ("Solutions", plan.solution_first)
    assert {(p.columns, p.rows) for _n, p in plan.solution_pages()} <= {(2, 3), (2, 2)}


# -- the PDFs ---------------------------------------------------------------------------------
def _render(renderer: str, book: Book, out):
    return render_latex(book, out) if renderer == "latex" else render_pdf(book, out)


RENDERERS = ["reportlab", pytest.param("latex", marks=needs_tex)]


@pytest.fixture(scope="module", params=RENDERERS)
def letter_pdf(request, tmp_path_factory):
    book = _sectioned("letter")
    out = tmp_path_factory.mktemp(request.param) / "book.pdf"
    return request.param, book, out, _render(request.param, book, out)


@needs_poppler
def test_page_count_stats_and_sections_in_the_stats(letter_pdf):
    renderer, book, out, stats = letter_pdf
    plan = plan_book(book)
    pages = int(re.search(r"Pages:\s+(\d+)", subprocess.run(["pdfinfo", str(out)], capture_output=True, text=True).stdout)[1])
    assert stats["pages"] == pages == plan.total
    assert stats["puzzle_pages"] == plan.puzzle_page_count and stats["solution_pages"] == len(plan.solutions)
    assert stats["minis_pages"] == len([p for p in plan.pages if p.kind == "minis"])
    assert [(s["title"], s["puzzles"], s["first"], s["last"]) for s in stats["sections"]] == [
        ("Warm-up minis", 3, 1, 3), ("Daily", 2, 4, 5), ("Themed", 1, 6, 6), ("Sunday", 1, 7, 7)]  # fmt: skip
    json.dumps(stats)  # what xw render --stats writes


@needs_poppler
def test_contents_and_section_pages_name_the_sections(letter_pdf):
    renderer, book, out, _stats = letter_pdf
    plan = plan_book(book)
    texts = _page_texts(out)
    contents = " ".join(texts[2 : 2 + len(plan.contents)])
    for s in plan.sections:
        label = f"{s.title} · {s.puzzle_range}"
        assert re.search(re.escape(label) + r"[ .]*" + str(s.page), contents), (renderer, label)
        opening = texts[s.page - 1]
        assert s.title in opening and s.puzzle_range in opening, (renderer, opening)
    assert "5x5, 7x7 · Easy" in texts[plan.sections[0].page - 1]
    assert "15x15 · Easy to hard" in texts[plan.sections[1].page - 1]


@needs_poppler
def test_levels_and_the_theme_title_are_printed_but_never_the_theme_entries(letter_pdf):
    renderer, book, out, _stats = letter_pdf
    plan = plan_book(book)
    texts = _page_texts(out)
    for k, p in enumerate(book.puzzles):
        page = texts[plan.puzzle_pages[k] - 1]
        assert re.search(rf"Puzzle {k + 1} {p.level.capitalize()}", page), (renderer, k, page[:300])
    assert re.search(r"Puzzle 6 Medium · Fire ___", texts[plan.puzzle_pages[5] - 1])
    whole = " ".join(texts)
    assert not any(word in whole for word in THEME)


@needs_poppler
def test_every_clue_is_on_its_puzzles_pages(letter_pdf):
    renderer, book, out, _stats = letter_pdf
    plan = plan_book(book)
    texts = _page_texts(out)
    for k, p in enumerate(book.puzzles):
        text = " ".join(texts[n - 1] for n in plan.clue_pages(k))
        for slot in p.grid.slots():
            assert f"{slot.label}" in text, (renderer, k, slot.label)  # each test clue ends with its label


@needs_poppler
def test_solutions_are_grouped_by_section(letter_pdf):
    renderer, book, out, _stats = letter_pdf
    plan = plan_book(book)
    texts = _page_texts(out)
    for n, spec in plan.solution_pages():
        text = texts[n - 1]
        title = plan.sections[spec.section].title
        assert re.search(rf"Solutions {re.escape(title)}", text), (renderer, text[:200])
        shown = [int(m) for m in re.findall(r"Puzzle (\d+)", text)]
        assert sorted(set(shown)) == [k + 1 for k in spec.puzzles], (renderer, n, shown)


DPI = 120


def _expected(grid):
    return {divmod(i, grid.cols) for i, ch in enumerate(grid.cells) if ch == BLACK}, {divmod(i, grid.cols) for i in grid.numbers()}


@needs_poppler
def test_each_mini_and_the_large_grid_read_back_from_the_page_pictures(letter_pdf, tmp_path):
    from PIL import Image

    renderer, book, out, _stats = letter_pdf
    plan = plan_book(book)
    trim = book.page_trim
    for spec in (p for p in plan.pages if p.kind == "minis"):
        page = plan.pages.index(spec) + 1
        png = tmp_path / f"minis-{page}.png"
        render_previews(out, [png], first_page=page, dpi=DPI)
        img = Image.open(png)
        left = trim.left_margin(page) * DPI
        for slot, k in enumerate(spec.puzzles):
            grid = book.puzzles[k].grid
            box = mini_box(trim.text_width * 72, trim.text_height * 72, grid.rows, grid.cols, spec.rows, slot)
            top = trim.top * DPI + box.top * DPI / 72
            crop = tmp_path / f"mini-{k}.png"
            img.crop((int(left) - 4, int(top), int(left + trim.text_width * DPI) + 4, int(top + box.height * DPI / 72))).save(crop)
            seen = read_grid_png(crop)
            assert (seen.rows, seen.cols) == (grid.rows, grid.cols), (renderer, k)
            assert (seen.blacks, seen.numbered) == _expected(grid), (renderer, k)
    page = plan.puzzle_pages[6]
    png = tmp_path / "large.png"
    render_previews(out, [png], first_page=page, dpi=DPI)
    seen, grid = read_grid_png(png), book.puzzles[6].grid
    assert (seen.rows, seen.cols) == (21, 21) and (seen.blacks, seen.numbered) == _expected(grid), renderer
    steps = {b - a for a, b in zip(seen.xs, seen.xs[1:])}
    assert min(steps) >= 0.9 * 14 * DPI / 72  # squares of 14pt or more on a letter page


@needs_poppler
@pytest.mark.parametrize("renderer", RENDERERS)
@pytest.mark.parametrize("trim", ["6x9", "large-print", "a4"])
def test_every_trim_in_its_own_layout(renderer, trim, tmp_path):
    book = _sectioned(trim)
    out = tmp_path / "book.pdf"
    stats = _render(renderer, book, out)
    plan = plan_book(book)
    assert stats["pages"] == plan.total and stats["layout"] == plan.layout
    assert stats["below_floor"] == [], (renderer, trim)
    texts = _page_texts(out)
    assert len(texts) == plan.total
    for s in plan.sections:
        assert s.title in texts[s.page - 1]
    if plan.layout == "facing":
        for k in range(3, 7):  # a spread: the grid on the left, its clues facing it
            assert plan.puzzle_pages[k] % 2 == 0 and "Clues" in texts[plan.puzzle_pages[k]]


# -- .puz -----------------------------------------------------------------------------------------
def test_puz_carries_section_level_and_theme_title_but_not_the_entries(tmp_path):
    book = _sectioned()
    themed, daily = book.puzzles[5], book.puzzles[4]
    write_puz(themed, tmp_path / "t.puz")
    write_puz(daily, tmp_path / "d.puz")
    t, d = puz.read(str(tmp_path / "t.puz")), puz.read(str(tmp_path / "d.puz"))
    assert t.title == "Fire ___" and t.notes == "Section: Themed. Level: Medium. Theme: Fire ___."
    assert not any(word in t.notes for word in THEME)
    assert d.title == "Puzzle 5" and d.notes == "Section: Daily. Level: Hard."
    unnamed = _puzzle(PATTERN_5, 9, "")
    unnamed.section = "Warm-up minis"
    write_puz(unnamed, tmp_path / "u.puz")
    assert puz.read(str(tmp_path / "u.puz")).title == "Warm-up minis"


def test_fill_helper_gives_letters_everywhere():
    assert all(ch == BLACK or ch.isalpha() for ch in _fill(PATTERN_21, 1).cells)
