"""The filler: every fill valid, "unfillable" only when no fill exists, the CLI's exit codes."""

from __future__ import annotations

import itertools
import json
import random
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.fill import FILLED, TIMEOUT, UNFILLABLE, WordIndex, fill_grid, load_index
from pipeline.model.grid import parse_grid

from conftest import ROOT


def brute_force_fills(grid, words):
    """Every valid fill of ``grid`` (no word twice), by trying all across words."""
    slots = grid.slots()
    across = [s for s in slots if s.direction == "across"]
    down = [s for s in slots if s.direction == "down"]
    by_len = {}
    for w in words:
        by_len.setdefault(len(w), []).append(w)
    wordset = set(words)
    fills = []
    for choice in itertools.product(*(by_len.get(s.length, []) for s in across)):
        cells = list(grid.cells)
        ok = True
        for s, w in zip(across, choice):
            for cell, ch in zip(s.cells, w):
                if cells[cell] not in (".", ch):
                    ok = False
                cells[cell] = ch
        if not ok:
            continue
        downs = ["".join(cells[c] for c in s.cells) for s in down]
        allw = list(choice) + downs
        if all(d in wordset for d in downs) and len(set(allw)) == len(allw):
            fills.append("".join(cells))
    return fills


def assert_valid(result, grid, words):
    assert result.status == FILLED
    out = result.grid
    assert out.rows == grid.rows and out.cols == grid.cols
    entries = out.words()
    assert all(w in words for w in entries), entries
    assert len(set(entries)) == len(entries), "a word used twice"
    for a, b in zip(grid.cells, out.cells):
        assert a in (".", b), "a black square or given letter changed"


LETTERS3 = st.text(alphabet="ABCDE", min_size=3, max_size=3)


@settings(max_examples=60, deadline=None)
@given(words=st.sets(LETTERS3, min_size=1, max_size=25), seed=st.integers(0, 10))
def test_open_3x3_agrees_with_brute_force(words, seed):
    grid = parse_grid("...\n...\n...")
    fills = brute_force_fills(grid, words)
    result = fill_grid(grid, WordIndex({w: 50 for w in words}), seed=seed, timeout=20)
    if fills:
        assert_valid(result, grid, words)
        assert "".join(result.grid.cells) in fills
    else:
        assert result.status == UNFILLABLE


@settings(max_examples=40, deadline=None)
@given(
    words=st.sets(st.text(alphabet="ABC", min_size=2, max_size=3), min_size=1, max_size=20),
    seed=st.integers(0, 5),
)
def test_shaped_grid_with_blacks_agrees_with_brute_force(words, seed):
    grid = parse_grid("..#\n...\n#..")
    fills = brute_force_fills(grid, words)
    result = fill_grid(grid, WordIndex({w: 50 for w in words}), seed=seed, timeout=20)
    if fills:
        assert_valid(result, grid, words)
    else:
        assert result.status == UNFILLABLE


# Lists big enough that the kernel keeps no letter counts for some slots
# (over 1000 candidates): the filler must still agree with an independent
# exhaustive search (pipeline.fill.count) on whether a fill exists.
BIG_GRIDS = ["....\n....\n....\n....", "....\n....\n....\n...#", ".....\n.....\n..#..\n.....\n.....", "#....\n.....\n.....\n.....\n....#"]


@settings(max_examples=25, deadline=None)
@given(
    text=st.sampled_from(BIG_GRIDS),
    alphabet=st.sampled_from(["ABCDEF", "ABCDEFG", "AEIOSTRN", "ABCDEFGHIJ"]),
    size=st.integers(1100, 3000),
    list_seed=st.integers(0, 10_000),
    seed=st.integers(0, 5),
)
def test_big_lists_agree_with_exhaustive_search(text, alphabet, size, list_seed, seed):
    from pipeline.fill.count import iter_fills

    grid = parse_grid(text)
    rnd = random.Random(list_seed)
    lengths = sorted({s.length for s in grid.slots()})
    words = {"".join(rnd.choice(alphabet) for _ in range(rnd.choice(lengths))) for _ in range(size)}
    idx = WordIndex({w: rnd.randint(1, 100) for w in words})
    result = fill_grid(grid, idx, seed=seed, timeout=60)
    exists = next(iter_fills(grid, idx, distinct_words=True), None) is not None
    assert result.status == (FILLED if exists else UNFILLABLE)
    if exists:
        assert_valid(result, grid, words)


@settings(max_examples=40, deadline=None)
@given(
    words=st.sets(st.text(alphabet="ABCDE", min_size=3, max_size=4), min_size=1, max_size=60),
    text=st.sampled_from(["...\n...\n...", "A..\n...\n..E", "...#\n....\n....\n#...", "....\n.#..\n....\n..#."]),
    seed=st.integers(0, 5),
)
def test_agrees_with_python_constraint(words, text, seed):
    # The reference strategy, modelled as seed 000 models a fill.
    from pipeline.fill.reference import constraint_fill

    grid = parse_grid(text)
    words = sorted(words)
    result = fill_grid(grid, WordIndex({w: 50 for w in words}), seed=seed, timeout=60)
    reference = constraint_fill(grid, words, seed=seed, timeout=60)
    assert result.status == (UNFILLABLE if reference is None else FILLED)
    if reference is not None:
        assert_valid(result, grid, set(words))


def test_big_domains_unfillable_is_proved():
    # Every word starts with a consonant and goes on in vowels: 4x4 cell
    # (0, 1) must be a vowel across and a consonant down.  2160 candidates
    # a slot, far over the counting threshold.
    words = ["".join(w) for w in itertools.product("BCDFGHJKLM", "AEIOUY", "AEIOUY", "AEIOUY")]
    result = fill_grid(parse_grid("....\n" * 4), WordIndex({w: 50 for w in words}), timeout=60)
    assert result.status == UNFILLABLE


def test_no_word_twice_even_through_crossings():
    # A 2x2 open grid: the only fills from these words would repeat AA.
    words = {"AA": 50, "AB": 50}
    result = fill_grid(parse_grid("..\n.."), WordIndex(words))
    assert result.status == UNFILLABLE
    # Symmetric squares (across == down) are the classic dupe trap.
    words = {"AB": 50, "BA": 50}
    assert fill_grid(parse_grid("..\n.."), WordIndex(words)).status == UNFILLABLE


def test_given_letters_are_kept():
    words = {w: 50 for w in ["CAT", "COT", "ARE", "ORE", "TEN", "TEA", "CAT", "ACE", "TEN", "RAN", "ONE", "ERA"]}
    grid = parse_grid("C..\n.R.\n...")
    result = fill_grid(grid, WordIndex(words), timeout=5)
    if result.status == FILLED:
        assert result.grid.cells[0] == "C" and result.grid.cells[4] == "R"
    bad = parse_grid("Q..\n...\n...")
    assert fill_grid(bad, WordIndex(words)).status == UNFILLABLE


def test_min_score_and_exclude():
    words = {"AB": 90, "CD": 90, "AC": 90, "BD": 90, "XY": 10}
    idx = WordIndex(words)
    r = fill_grid(parse_grid("..\n.."), idx, min_score=50)
    assert r.status == FILLED and r.min_entry_score == 90 and r.score == 90
    r = fill_grid(parse_grid("..\n.."), idx, exclude={"AB"})
    assert r.status == UNFILLABLE


def test_same_seed_same_fill_and_seeds_differ():
    rnd = random.Random(3)
    words = {"".join(rnd.choice("AEIOURSTLN") for _ in range(3)): rnd.randint(20, 80) for _ in range(400)}
    idx = WordIndex(words)
    grid = parse_grid("...\n...\n...")
    a = fill_grid(grid, idx, seed=1)
    b = fill_grid(grid, idx, seed=1)
    assert a.status == FILLED and a.grid == b.grid
    others = {tuple(fill_grid(grid, idx, seed=s).grid.cells) for s in range(2, 12)}
    assert len(others) > 1


def test_bench_grid_fills_with_a_real_list(bench_grid, tmp_path):
    # A synthetic but English-shaped list: every 3-5 letter word from wordfreq.
    wordfreq = pytest.importorskip("wordfreq")
    words = {}
    for w in wordfreq.top_n_list("en", 60000):
        if w.isascii() and w.isalpha() and 3 <= len(w) <= 15:
            words[w.upper()] = 50
    path = tmp_path / "w.txt"
    path.write_text("".join(f"{w};50\n" for w in sorted(words)))
    idx = load_index(path, cache_dir=tmp_path / "cache")
    assert list((tmp_path / "cache").iterdir()), "index cache written"
    idx2 = load_index(path, cache_dir=tmp_path / "cache")
    assert idx2[5].words == idx[5].words
    grid = parse_grid(bench_grid("us15x15_78w.txt"))
    result = fill_grid(grid, idx, seed=0, timeout=60)
    assert_valid(result, grid, words)
    assert len(result.words) == 78


def _xw(*args, input=None):
    return subprocess.run(
        [sys.executable, "-m", "pipeline.cli", *args], capture_output=True, text=True, input=input, cwd=ROOT
    )


def test_cli_fill_exit_codes_and_json(tmp_path):
    wl = tmp_path / "w.txt"
    wl.write_text("AB\nCD\nAC\nBD\n")
    grid = tmp_path / "g.txt"
    grid.write_text("..\n..\n")
    r = _xw("fill", str(grid), "--wordlist", str(wl), "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["status"] == "filled" and sorted(out["grid"]) in (["AB", "CD"], ["AC", "BD"])
    for key in ("seconds", "load_seconds", "nodes", "score"):
        assert key in out
    r = _xw("fill", str(grid), "--wordlist", str(wl))
    assert r.returncode == 0 and len(r.stdout.split()) == 2
    # proven unfillable: exit 3
    wl.write_text("AB\nCD\n")
    assert _xw("fill", str(grid), "--wordlist", str(wl)).returncode == 3
    # bad input: exit 2, message names file and line, no traceback
    grid.write_text("..\n.!\n")
    r = _xw("fill", str(grid), "--wordlist", str(wl))
    assert r.returncode == 2 and "g.txt:2" in r.stderr and "Traceback" not in r.stderr
    grid.write_text("..\n..\n")
    wl.write_text("AB;50\nC3;20\n")
    r = _xw("fill", str(grid), "--wordlist", str(wl))
    assert r.returncode == 2 and "w.txt:2" in r.stderr


def test_cli_fill_timeout_exit_4(tmp_path):
    rnd = random.Random(0)
    words = sorted({"".join(rnd.choice("ABCDEFGHIJKLMNOPRSTUVWY") for _ in range(7)) for _ in range(3000)})
    wl = tmp_path / "w.txt"
    wl.write_text("\n".join(words) + "\n")
    grid = tmp_path / "g.txt"
    grid.write_text(("." * 7 + "\n") * 7)
    r = _xw("fill", str(grid), "--wordlist", str(wl), "--timeout", "0.5", "--json")
    assert r.returncode in (3, 4)
    status = json.loads(r.stdout)["status"]
    assert status in (TIMEOUT, UNFILLABLE) and r.returncode == (4 if status == TIMEOUT else 3)


def test_node_budget_is_reproducible(bench_grid):
    rnd = random.Random(0)
    words = {"".join(rnd.choice("ABCDEFGHIJKLMNOPRSTUVWY") for _ in range(6)): 50 for _ in range(3000)}
    idx = WordIndex(words)
    grid = parse_grid(("." * 6 + "\n") * 6)
    runs = [fill_grid(grid, idx, seed=4, timeout=60, max_nodes=300) for _ in range(2)]
    assert runs[0].status == runs[1].status
    assert runs[0].nodes == runs[1].nodes
    if runs[0].status == TIMEOUT:
        assert runs[0].nodes == 301


def test_best_mode_lifts_the_weakest_entry():
    from pipeline.fill.quality import fill_best

    rnd = random.Random(5)
    words = {}
    for _ in range(1500):
        w = "".join(rnd.choice("AEIOURSTLNDC") for _ in range(4))
        words[w] = rnd.randint(1, 100)
    idx = WordIndex(words)
    grid = parse_grid("....\n....\n....\n....")
    first = fill_grid(grid, idx, seed=2, timeout=30)
    best = fill_best(grid, idx, seed=2, timeout=30)
    assert first.status == best.status == FILLED
    assert_valid(best, grid, words)
    assert (best.min_entry_score, best.score) >= (first.min_entry_score, first.score)
    assert best.extra["rounds"] >= 2
    # the search ended by proving the next floor unfillable: nothing better exists
    if best.extra["bound"] is not None:
        assert fill_grid(grid, idx, min_score=best.extra["bound"], timeout=30).status == UNFILLABLE
