"""A book of sections through Snakemake: minis, a graded daily section, a themed puzzle, a Sunday grid.

Checks what the sections change in the outputs: each puzzle's section,
size and level in its ``.ipuz``, the graded section's levels, floors and
hard clues rising, the themed puzzle's entries the longest and symmetric
and its title naming the theme, the summary's difficulty index, and both
PDFs listing the sections.  Bad section configs are refused before
anything runs, naming the section and the key.
"""

from __future__ import annotations

import csv
import subprocess
import sys

import pytest
import yaml

from conftest import ROOT, need_tool
from pipeline.config import load_config
from pipeline.model.errors import InputError
from pipeline.model.puzzle import read_ipuz
from pipeline.model.sections import level_floor
from pipeline.model.wordlist import read_wordlist
from pipeline.theme.place import theme_problems
from test_pipeline import _pdf_text, _squash, _workdir

SECTIONS = [
    {"title": "Warm-up minis", "count": 3, "size": 5, "difficulty": "easy"},
    {"title": "Daily", "count": 4, "size": 15, "difficulty": ["easy", "hard"]},
    {"title": "Themed", "count": 1, "size": 15, "theme": True, "difficulty": "medium"},
    {"title": "Sunday", "count": 1, "size": 21, "difficulty": "medium"},
]


@pytest.fixture(scope="module")
def book(tmp_path_factory):
    need_tool("latexmk", "pdflatex", "pdftotext")
    work = _workdir(tmp_path_factory, "sections")
    (work / "sections.yaml").write_text(yaml.safe_dump({"sections": SECTIONS, "seed": 5, "preview_pages": 1}))
    cmd = [sys.executable, "-m", "snakemake", "--cores", "2", "--quiet", "--configfile", "sections.yaml"]
    run = subprocess.run(cmd, cwd=work, capture_output=True, text=True)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    out = work / "outputs"
    return {
        "out": out,
        "puzzles": [read_ipuz(out / "puzzles" / "book-1" / f"{k}.ipuz") for k in range(1, 10)],
        "summary": list(csv.DictReader((out / "reports" / "book-1" / "summary.tsv").open(), delimiter="\t")),
        "scores": read_wordlist(out / "lexicon" / "wordlist.txt"),
    }


def test_each_puzzle_has_its_sections_size_and_level(book):
    got = [(p.section, p.grid.rows, p.grid.cols, p.level) for p in book["puzzles"]]
    assert got == [("Warm-up minis", 5, 5, "easy")] * 3 + [
        ("Daily", 15, 15, "easy"), ("Daily", 15, 15, "medium"), ("Daily", 15, 15, "medium"), ("Daily", 15, 15, "hard"),
        ("Themed", 15, 15, "medium"), ("Sunday", 21, 21, "medium"),
    ]  # fmt: skip
    daily = [p.level_value for p in book["puzzles"][3:7]]
    assert daily == sorted(daily) and daily[0] == 0 and daily[-1] == 1
    for p in book["puzzles"]:
        assert p.grid.is_complete() and not p.unclued()


def test_every_word_scores_at_least_its_puzzles_floor(book):
    scores = book["scores"]
    for p in book["puzzles"]:
        floor = level_floor(35, p.level_value)
        words = [w for w in p.grid.words() if w not in p.theme]
        assert all(w in scores for w in p.grid.words())
        assert min(scores[w] for w in words) >= floor, (p.section, p.level_value, floor)


def test_the_graded_section_grows_harder(book):
    rows = book["summary"][3:7]
    hard = [int(r["hard_clues"]) / int(r["words"]) for r in rows]
    assert hard[0] < hard[-1] and hard == sorted(hard)
    index = [float(r["difficulty"]) for r in rows]
    assert index[0] < index[-1]
    assert book["summary"][-1]["puzzle"] == "all"


def test_the_themed_puzzle_is_titled_by_its_theme_and_its_entries_are_longest_and_symmetric(book):
    themed = book["puzzles"][7]
    assert 3 <= len(themed.theme) <= 5 and themed.title and themed.title != "Puzzle 8"
    assert theme_problems(themed.grid, themed.theme) == []
    assert all(not p.theme for i, p in enumerate(book["puzzles"]) if i != 7)
    others = {w for i, p in enumerate(book["puzzles"]) if i != 7 for w in p.grid.words()}
    assert not others & set(themed.theme)  # a theme entry is its puzzle's alone
    row = book["summary"][7]
    assert row["theme"] == themed.title and row["section"] == "Themed"


def test_both_pdfs_list_the_sections_and_print_the_levels(book):
    for name in ("book-1.pdf", "book-1.latex.pdf"):
        text = _pdf_text(book["out"] / "books" / name)
        for title in ("Warm-up minis", "Daily", "Themed", "Sunday", book["puzzles"][7].title):
            assert _squash(title) in text, (name, title)
        assert _squash("Easy") in text and _squash("Hard") in text


@pytest.mark.parametrize(
    "section, message",
    [
        ({"title": "A", "count": 2, "size": 30}, "sections[0].size: 30 is more than the maximum of 25"),
        ({"title": "A", "count": 2, "size": 9, "theme": True}, "sections[0] (A): theme: a themed grid needs at least"),
        ({"title": "A", "count": 2, "size": 9, "style": "open"}, "sections[0] (A): style open (a word square)"),
        ({"title": "A", "count": 2, "size": 15, "rows": 15, "cols": 13}, "sections[0] (A): give size or rows"),
        ({"title": "A", "count": 2, "rows": 15}, "sections[0] (A): cols: missing"),
        ({"title": "A", "count": 2, "size": 15, "difficulty": "tough"}, "sections[0].difficulty: 'tough' is not"),
        ({"title": "A", "size": 15}, "sections[0].count: missing (a required key)"),
        ({"title": "A", "count": 2, "size": 15, "colour": "red"}, "sections[0].colour: unknown key"),
    ],
)
def test_bad_section_configs_are_refused_naming_the_section_and_key(tmp_path, section, message):
    path = tmp_path / "bad.yaml"
    path.write_text(yaml.safe_dump({"sections": [section]}))
    run = subprocess.run([sys.executable, "-m", "pipeline.cli", "check-config", str(path)], capture_output=True,
                         text=True, cwd=ROOT)  # fmt: skip
    assert run.returncode != 0 and message in run.stderr, run.stderr


def test_two_sections_of_one_title_are_refused(tmp_path):
    path = tmp_path / "twice.yaml"
    path.write_text(yaml.safe_dump({"sections": [{"title": "A", "count": 1, "size": 5}] * 2}))
    with pytest.raises(InputError, match=r"sections\[1\] \(A\): title: the same as sections\[0\]"):
        load_config([path])
