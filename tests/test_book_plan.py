"""The book model's page plan, trims, margins and layouts: what both renderers follow."""

from __future__ import annotations

import pytest

from pipeline.render import Book, RenderError
from pipeline.render.book import (
    FONT_HARD_MIN,
    TRIM_ALIASES,
    TRIMS,
    contents_label,
    get_layout,
    get_trim,
    plan_book,
)
from renderkit import PATTERN_5, PATTERN_15, _puzzle


def _book(n: int, trim: str = "letter", layout: str = "auto", pattern=PATTERN_15, **kw) -> Book:
    puzzles = [_puzzle(pattern, k, f"Puzzle {k + 1}" if k % 3 else f"Theme {k + 1}") for k in range(n)]
    return Book("T", "", "", [], puzzles, trim=trim, layout=layout, **kw)


def test_every_trim_has_sane_type_bounds_and_a_layout():
    for name, trim in TRIMS.items():
        assert FONT_HARD_MIN < trim.font_floor < trim.font_max, name
        assert trim.layout in ("page", "facing"), name
        assert trim.text_width >= 4 and trim.text_height >= 7, name
    assert TRIMS["large-print"].font_floor >= 11 and TRIMS["large-print"].font_max >= 16
    for alias, name in TRIM_ALIASES.items():
        assert get_trim(alias) == TRIMS[name]


def test_margins_replace_the_trims_and_bad_ones_are_refused():
    t = get_trim("6x9", {"inner": 1.0, "binding": 0, "top": None})
    assert (t.inner, t.binding, t.top, t.gutter) == (1.0, 0.0, TRIMS["6x9"].top, 1.0)
    assert t.text_width == pytest.approx(6 - 1.0 - TRIMS["6x9"].outer)
    with pytest.raises(RenderError, match=r"margins\.outer: 0\.1in is under"):
        get_trim("letter", {"outer": 0.1})
    with pytest.raises(RenderError, match=r"margins\.gutter: unknown margin"):
        get_trim("letter", {"gutter": 1})
    with pytest.raises(RenderError, match=r"margins\.top: 'wide' is not a length"):
        get_trim("letter", {"top": "wide"})
    with pytest.raises(RenderError, match=r"text block"):
        get_trim("6x9", {"inner": 2.0, "outer": 1.5})
    with pytest.raises(RenderError, match=r"unknown trim size 'b5'.*large-print"):
        get_trim("b5")


def test_layout_auto_follows_the_trim():
    assert get_layout(get_trim("letter")) == "page"
    assert get_layout(get_trim("6x9")) == get_layout(get_trim("large-print")) == "facing"
    assert get_layout(get_trim("6x9"), "page") == "page"
    with pytest.raises(RenderError, match="unknown layout 'spread'"):
        get_layout(get_trim("a4"), "spread")


def test_plan_one_page_per_puzzle():
    book = _book(12)
    plan = plan_book(book)
    assert plan.layout == "page" and plan.blank_pages == []
    assert len(plan.contents) == 1  # 13 lines fit one contents page
    assert plan.puzzle_pages == list(range(4, 16))
    assert plan.solution_first == 16
    assert [k for page in plan.solutions for k in page] == list(range(12))
    assert all(len(page) <= plan.solution_columns * plan.solution_rows for page in plan.solutions)
    assert plan.total == 15 + len(plan.solutions)
    lines = plan.contents[0]
    assert lines[0] == ("Puzzle 1: Theme 1", 4)
    assert lines[1] == ("Puzzle 2", 5)  # a puzzle titled "Puzzle 2" is not named twice
    assert lines[-1] == ("Solutions", 16)


def test_plan_facing_pages_start_on_the_left_and_skip_a_page_when_needed():
    book = _book(5, trim="6x9")
    plan = plan_book(book)
    assert plan.layout == "facing" and plan.pages_per_puzzle == 2
    # title 1, copyright 2, contents 3: the first spread starts on page 4, a left-hand page
    assert plan.blank_pages == [] and plan.puzzle_pages == [4, 6, 8, 10, 12]
    assert all(p % 2 == 0 for p in plan.puzzle_pages)
    assert plan.solution_first == 14


def test_plan_with_two_contents_pages_inserts_a_blank_before_the_first_spread():
    book = _book(100, trim="6x9")
    plan = plan_book(book)
    n_contents = len(plan.contents)
    assert n_contents >= 2
    lines = [line for page in plan.contents for line in page]
    assert len(lines) == 101 and all(len(p) <= plan.contents_columns * plan.contents_rows for p in plan.contents)
    first = 3 + n_contents
    assert plan.blank_pages == ([first] if first % 2 else [])
    assert plan.puzzle_pages[0] % 2 == 0 and plan.puzzle_pages[1] - plan.puzzle_pages[0] == 2
    assert lines[:100] == [(contents_label(p, k + 1), plan.puzzle_pages[k]) for k, p in enumerate(book.puzzles)]


def test_solution_label_names_the_first_and_last_puzzle_of_the_page():
    plan = plan_book(_book(8))
    per = plan.solution_columns * plan.solution_rows
    assert plan.solution_label(0) == f"Solutions 1-{min(per, 8)}"
    small = plan_book(_book(3, pattern=PATTERN_5))
    assert small.solution_label(0) == "Solutions 1-3"


def test_book_refuses_a_bad_layout_or_trim_before_rendering():
    with pytest.raises(RenderError, match="unknown layout"):
        _book(1, layout="sideways").validate()
    with pytest.raises(RenderError, match="unknown trim"):
        _book(1, trim="quarto").validate()
    with pytest.raises(RenderError, match=r"margins\.inner"):
        _book(1, margins={"inner": 0.0}).validate()
