"""A book's sections (pipeline/model/sections.py): parsing, grading and bad sections."""

import pytest

from pipeline.model.errors import InputError
from pipeline.model.sections import Section, section_from, sections_of

README_BOOK = [
    {"title": "Warm-up minis", "count": 12, "size": 5, "difficulty": "easy"},
    {"title": "Daily", "count": 60, "size": 15, "difficulty": ["easy", "hard"]},
    {"title": "Themed", "count": 8, "size": 15, "theme": True, "difficulty": "medium"},
    {"title": "Sunday", "count": 4, "size": 21, "difficulty": "medium"},
]

ONE_SIZE = {"puzzles_per_book": 12, "grid_size": 15, "grid_rows": None, "grid_cols": None,
            "pattern_style": "american", "difficulty": "medium"}  # fmt: skip


def test_the_readme_book_has_four_sections_of_84_puzzles():
    sections = sections_of({**ONE_SIZE, "sections": README_BOOK})
    assert [s.title for s in sections] == ["Warm-up minis", "Daily", "Themed", "Sunday"]
    assert [(s.rows, s.cols) for s in sections] == [(5, 5), (15, 15), (15, 15), (21, 21)]
    assert [s.theme for s in sections] == [False, False, True, False]
    assert sum(s.count for s in sections) == 84


def test_a_config_without_sections_is_one_untitled_section_of_its_one_size_keys():
    assert sections_of(ONE_SIZE) == [Section("", 12, 15, 15, "american", ("medium", "medium"))]
    rect = sections_of({**ONE_SIZE, "grid_rows": 13, "grid_cols": 17, "pattern_style": "british", "difficulty": "hard"})
    assert rect == [Section("", 12, 13, 17, "british", ("hard", "hard"))]


def test_a_graded_section_rises_from_its_first_level_to_its_last():
    daily = section_from(README_BOOK[1])
    levels = daily.levels()
    assert len(levels) == 60 and levels[0] == 0.0 and levels[-1] == 1.0
    assert all(a < b for a, b in zip(levels, levels[1:]))
    names = daily.difficulties()
    assert names[0] == "easy" and names[-1] == "hard" and "medium" in names
    order = {"easy": 0, "medium": 1, "hard": 2}
    assert [order[n] for n in names] == sorted(order[n] for n in names)
    # Graded the other way round, and not graded at all.
    assert section_from({**README_BOOK[1], "difficulty": ["hard", "easy"]}).difficulties() == names[::-1]
    minis = section_from(README_BOOK[0])
    assert not minis.graded and set(minis.difficulties()) == {"easy"}


def test_rows_and_cols_make_a_rectangle_and_style_defaults_to_american():
    s = section_from({"title": "Wide", "count": 3, "rows": 11, "cols": 15})
    assert (s.rows, s.cols, s.style, s.difficulty) == (11, 15, "american", ("medium", "medium"))
    square = section_from({"title": "Squares", "count": 4, "size": 5, "style": "open"})
    assert square.style == "open"


@pytest.mark.parametrize(
    "item, problem",
    [
        ({"size": 15, "rows": 15, "cols": 15}, "give size or rows and cols, not both"),
        ({"rows": 15}, "cols: missing"),
        ({}, "size: missing"),
        ({"size": 9, "style": "open"}, "style open (a word square) needs a square grid of at most 7x7, not 9x9"),
        ({"rows": 5, "cols": 6, "style": "open"}, "not 5x6"),
        ({"size": 5, "theme": True}, "theme: a themed grid needs at least 11x11, not 5x5"),
        ({"size": 5, "style": "open", "theme": True}, "themed grids are style american (180-degree symmetry"),
        ({"size": 15, "style": "british", "theme": True}, "themed grids are style american"),
        ({"size": 15, "difficulty": "brutal"}, "difficulty: 'brutal' is not one of easy, medium, hard"),
        ({"size": 15, "difficulty": ["easy", "medium", "hard"]}, "give one level or [first, last], not 3"),
    ],
)
def test_a_bad_section_is_named_with_its_key(item, problem):
    config = {**ONE_SIZE, "sections": [README_BOOK[0], {"title": "Bad one", "count": 2, **item}]}
    with pytest.raises(InputError) as e:
        sections_of(config)
    assert e.value.message.startswith("sections[1] (Bad one): ")
    assert problem in e.value.message


def test_two_sections_may_not_share_a_title():
    config = {**ONE_SIZE, "sections": [README_BOOK[0], {**README_BOOK[3], "title": "Warm-up minis"}]}
    with pytest.raises(InputError, match=r"sections\[1\] \(Warm-up minis\): title: the same as sections\[0\]'s"):
        sections_of(config)
