"""Graded floors: a first fill with the best-scored words the grid allows, lowered only where a corner needs it.

Checked against brute force on small grids (a fill whenever one exists,
"unfillable" only when none does), on where the floors come down, and on
a 15x15 with an English list: more fine entries than the plain search's
first fill.  Also ``xw fill``'s default list, found without ``--wordlist``.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.fill import FILLED, UNFILLABLE, Filler, WordIndex
from pipeline.fill.quality import fill_graded
from pipeline.lexicon.store import lexicon_fingerprint
from pipeline.model.grid import parse_grid

from conftest import ROOT
from test_fill import assert_valid, brute_force_fills

LETTERS3 = st.text(alphabet="ABCDE", min_size=3, max_size=3)


@settings(max_examples=60, deadline=None)
@given(words=st.dictionaries(LETTERS3, st.sampled_from([10, 35, 45, 60, 80]), min_size=1, max_size=25),
       seed=st.integers(0, 10))  # fmt: skip
def test_graded_fill_agrees_with_brute_force(words, seed):
    grid = parse_grid("...\n...\n...")
    fills = brute_force_fills(grid, list(words))
    result = fill_graded(grid, WordIndex(words), seed=seed, timeout=30)
    if fills:
        assert_valid(result, grid, words)
    else:
        assert result.status == UNFILLABLE


@settings(max_examples=40, deadline=None)
@given(words=st.dictionaries(LETTERS3, st.sampled_from([10, 35, 45, 60, 80]), min_size=1, max_size=25),
       seed=st.integers(0, 10), floor=st.sampled_from([30, 40, 50]))  # fmt: skip
def test_min_score_stays_a_hard_floor(words, seed, floor):
    grid = parse_grid("...\n...\n...")
    good = [w for w, s in words.items() if s >= floor]
    result = fill_graded(grid, WordIndex(words), seed=seed, timeout=30, min_score=floor)
    if brute_force_fills(grid, good):
        assert_valid(result, grid, good)
    else:
        assert result.status == UNFILLABLE


def test_the_floor_comes_down_only_where_the_grid_needs_it():
    # Rows AB/CD, columns AC/BD: only BD, scoring 20, can be the last column.
    idx = WordIndex({"AB": 60, "CD": 60, "AC": 60, "BD": 20, "XY": 20, "ZZ": 20})
    r = fill_graded(parse_grid("..\n.."), idx)
    assert r.status == FILLED and sorted(r.words) == ["AB", "AC", "BD", "CD"]
    assert r.extra["relaxed"] == 1 and r.min_entry_score == 20
    # with every word fine, nothing comes down
    idx = WordIndex({"AB": 60, "CD": 60, "AC": 60, "BD": 60, "XY": 20, "ZW": 20, "XZ": 20, "YW": 20})
    r = fill_graded(parse_grid("..\n.."), idx, seed=3)
    assert sorted(r.words) == ["AB", "AC", "BD", "CD"] and r.extra["relaxed"] == 0


def test_per_slot_grades_in_the_filler():
    idx = WordIndex({"AB": 60, "CD": 60, "AC": 60, "BD": 20, "XY": 20})
    r = Filler(parse_grid("..\n.."), idx, floors=[(50, 10)] * 4).fill(5)
    assert r.status == FILLED and sorted(r.levels) == [0, 0, 0, 1]
    assert Filler(parse_grid("..\n.."), idx, floors=[50] * 4).fill(5).status == UNFILLABLE
    with pytest.raises(ValueError):
        Filler(parse_grid("..\n.."), idx, floors=[50] * 3)


@pytest.fixture(scope="module")
def english():
    """Every wordfreq word of 3-15 letters among the commonest 80,000, scored by frequency rank:
    the first 20,000 fine (60), the next 30,000 corner fill (40), the rest avoided (20)."""
    wordfreq = pytest.importorskip("wordfreq")
    words = {}
    for rank, w in enumerate(wordfreq.top_n_list("en", 80000)):
        if w.isascii() and w.isalpha() and 3 <= len(w) <= 15:
            words.setdefault(w.upper(), 60 if rank < 20000 else 40 if rank < 50000 else 20)
    return WordIndex(words)


def test_a_first_fill_keeps_fine_words_where_the_plain_search_does_not(english, bench_grid):
    grid = parse_grid(bench_grid("us15x15_78w.txt"))
    graded_fine = plain_fine = 0
    for seed in range(3):
        graded = fill_graded(grid, english, seed=seed, timeout=30)
        plain = Filler(grid, english, seed=seed).fill(30)
        assert graded.status == plain.status == FILLED
        graded_fine += sum(english.score(w) >= 50 for w in graded.words)
        plain_fine += sum(english.score(w) >= 50 for w in plain.words)
    assert graded_fine > plain_fine and graded_fine >= 0.9 * 3 * 78


def test_same_seed_and_budget_same_graded_fill(english, bench_grid):
    grid = parse_grid(bench_grid("us15x15_72w.txt"))
    a = fill_graded(grid, english, seed=5, timeout=60, max_nodes=20000)
    b = fill_graded(grid, english, seed=5, timeout=60, max_nodes=20000)
    assert (a.status, a.words, a.nodes, a.extra) == (b.status, b.words, b.nodes, b.extra)


def _xw(*args, env=None):
    return subprocess.run([sys.executable, "-m", "pipeline.cli", *args], capture_output=True, text=True, cwd=ROOT,
                          env=env)  # fmt: skip


def test_xw_fill_uses_the_default_list_and_grades_its_floors(tmp_path):
    """Without --wordlist: the default list in $XWBOOK_LEXICON (built there when missing or stale:
    here it is current, so nothing is built)."""
    import os

    lexicon = tmp_path / "lexicon"
    lexicon.mkdir()
    (lexicon / "wordlist.txt").write_text("AB;60\nCD;60\nAC;60\nBD;20\nXY;20\n")
    (lexicon / "BUILD").write_text(lexicon_fingerprint() + "\n")
    grid = tmp_path / "g.txt"
    grid.write_text("..\n..\n")
    env = {**os.environ, "XWBOOK_LEXICON": str(lexicon)}
    r = _xw("fill", str(grid), "--json", env=env)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["grid"] == ["AB", "CD"] and out["relaxed"] == 1 and "building" not in r.stderr
    r = _xw("fill", str(grid), "--json", "--first", env=env)
    assert r.returncode == 0 and json.loads(r.stdout)["grid"] == ["AB", "CD"] and "relaxed" not in r.stdout
    r = _xw("fill", str(grid), "--json", "--min-score", "50", env=env)
    assert r.returncode == 3 and json.loads(r.stdout)["status"] == UNFILLABLE
    r = _xw("wordlist", "stats", "--json", env=env)
    assert json.loads(r.stdout)["by_length"]["2"] == {"fine": 3, "corner": 0, "avoid": 2}
