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


def _xw_start(*args):
    """``xw ARGS`` started in the background (communicate() to wait for it)."""
    return subprocess.Popen([sys.executable, "-m", "pipeline.cli", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=ROOT)  # fmt: skip


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


def test_best_mode_keeps_given_entries_and_lifts_the_others():
    """A grid given whole entries (a repair keeps most of a fill): those stay, whatever they score,
    and the rounds lift the weakest of the entries the search chose."""
    from pipeline.fill.quality import fill_best
    from pipeline.fill.search import Filler

    rnd = random.Random(5)
    words = {"".join(rnd.choice("AEIOURSTLNDC") for _ in range(4)): rnd.randint(20, 100) for _ in range(1500)}
    words["SALE"] = 1  # under the floor, and given
    idx = WordIndex(words)
    grid = parse_grid("SALE\n....\n....\n....")
    first = fill_grid(grid, idx, seed=2, timeout=30, min_score=None)
    best = fill_best(grid, idx, seed=2, timeout=30, min_score=20)
    assert first.status == best.status == FILLED and best.grid.row_strings()[0] == "SALE"
    assert_valid(best, grid, words)
    chosen = lambda r: min(words[w] for w in r.words if w != "SALE")  # noqa: E731
    assert best.min_entry_score == 1 and best.extra["rounds"] >= 2 and chosen(best) >= chosen(first)
    if best.extra["bound"] is not None:  # nothing better: the next floor, on the chosen entries only, fails
        floors = [0] + [best.extra["bound"]] * 7
        assert Filler(grid, idx, floors=floors).fill(timeout=30).status == UNFILLABLE


def test_clue_texts_are_dealt_to_one_batch_each_and_cover_its_share(tmp_path):
    from pipeline.fill.reuse import ClueBook, ReusePolicy
    from pipeline.model.cluefile import write_shards

    clues = {"ERA": [f"Age number {i}" for i in range(7)] + ["Long time"], "EON": ["Long time", "Ages"],
             "ALOE": ["Soothing plant"], "ONO": ["Yoko", "Hawaiian fish"]}  # fmt: skip
    write_shards(tmp_path, clues)
    words = sorted(clues)
    policy = ReusePolicy(max_uses=5)
    books = [ClueBook(tmp_path, words, batch=j, batches=3, deal=True) for j in range(3)]
    for w in words:
        own = [set(book.keys[w]) for book in books]
        assert sum(map(len, own)) == len(clues[w]), w  # every text dealt once ...
        assert not (own[0] & own[1] or own[0] & own[2] or own[1] & own[2]), w  # ... to one batch
        # ... and each batch has a text for each use of its share (the shared text aside: ERA's 7 own
        # texts cover the shares whichever batch "Long time" falls to).
        for j, keys in enumerate(own):
            if w != "EON":
                assert len(keys) >= policy.uses_in(w, j, 3, len(clues[w])), (w, j, keys)
    # The merge sees every text, the home batch's first, in the order that batch saw them.
    merge = ClueBook(tmp_path, words, batches=3)
    for j in range(3):
        merge.home = j
        keys = merge._keys("ERA")
        assert keys[: len(books[j].keys["ERA"])] == books[j].keys["ERA"] and len(keys) == 8


# -- penalties: a book's repeated answers score lower -------------------------


@settings(max_examples=60, deadline=None)
@given(
    words=st.dictionaries(st.text(alphabet="ABCDE", min_size=3, max_size=4), st.integers(0, 100), min_size=1, max_size=80),
    picks=st.lists(st.tuples(st.integers(0, 79), st.integers(1, 60)), max_size=30),
    text=st.sampled_from(["...\n...\n...", "...#\n....\n....\n#...", "....\n.#..\n....\n..#."]),
    seed=st.integers(0, 5),
    min_score=st.sampled_from([None, 0, 25]),
    look=st.sampled_from([1, 3, 16]),
)
def test_penalty_searches_as_if_the_list_were_rescored(words, picks, text, seed, min_score, look):
    # A penalty must change nothing but the scores: the search, step for
    # step, is the one on a list whose scores were lowered by hand.
    from pipeline.fill import Filler

    grid = parse_grid(text)
    names = sorted(words)
    penalty = {names[i % len(names)]: p for i, p in picks}
    lowered = {w: max(0, s - penalty.get(w, 0)) for w, s in words.items()}
    a = Filler(grid, WordIndex(words), seed=seed, min_score=min_score, look=look, penalty=penalty).fill(timeout=20)
    b = Filler(grid, WordIndex(lowered), seed=seed, min_score=min_score, look=look).fill(timeout=20)
    assert (a.status, a.nodes, a.fails, a.words, a.score, a.min_entry_score) == (
        b.status, b.nodes, b.fails, b.words, b.score, b.min_entry_score
    )


def test_no_penalty_is_the_same_search():
    rnd = random.Random(9)
    words = {"".join(rnd.choice("AEIOURSTLN") for _ in range(4)): rnd.randint(1, 100) for _ in range(2000)}
    idx = WordIndex(words)
    grid = parse_grid("....\n....\n....\n....")
    from pipeline.fill import Filler

    a = Filler(grid, idx, seed=3).fill(timeout=30)
    b = Filler(grid, idx, seed=3, penalty={}).fill(timeout=30)
    c = Filler(grid, idx, seed=3, penalty={w: 0 for w in words}).fill(timeout=30)
    assert a.status == FILLED and a.words == b.words == c.words and a.nodes == b.nodes == c.nodes


def test_penalty_makes_the_best_fill_prefer_fresh_words():
    from pipeline.fill.quality import fill_best

    # Two 2x2 fills: one of 90s, one of 70s.  Thirty points off a word of
    # the first (used already in the book) make the second the better.
    idx = WordIndex({"AB": 90, "CD": 90, "AC": 90, "BD": 90, "EF": 70, "GH": 70, "EG": 70, "FH": 70})
    grid = parse_grid("..\n..")
    assert sorted(fill_best(grid, idx, timeout=5).words) == ["AB", "AC", "BD", "CD"]
    r = fill_best(grid, idx, timeout=5, penalty={"AB": 30})
    assert sorted(r.words) == ["EF", "EG", "FH", "GH"] and r.min_entry_score == 70
    # the fill's scores are the lowered ones
    r = fill_best(grid, idx, timeout=5, penalty={w: 30 for w in ("EF", "GH", "EG", "FH", "AB")})
    assert sorted(r.words) == ["AB", "AC", "BD", "CD"] and r.min_entry_score == 60


# -- the book stage: variety across a book, the blocklist, cluable words ------

SQUARE_A = ["BAT", "ORE", "WED", "BOW", "ARE", "TED"]  # rows BAT ORE WED, columns BOW ARE TED
SQUARE_B = ["RAW", "AGE", "NOT", "RAN", "AGO", "WET"]
OPEN_3X3 = "1" * 9  # the hex pattern of an open 3x3 (bits, as xw hex encode reads them)


def _tiny_book(tmp_path, scores, puzzles=2, **kw):
    """Fill ``puzzles`` open 3x3s from a list of the two squares; the answers of each."""
    from pipeline.encode import encode_lines
    from pipeline.fill.batch import fill_book

    (tmp_path / "p.hex").write_text("\n".join(encode_lines([OPEN_3X3] * puzzles)) + "\n")
    wl = tmp_path / "w.txt"
    wl.write_text("".join(f"{w};{s}\n" for w, s in scores.items()))
    out = [tmp_path / f"{k}.txt" for k in range(1, puzzles + 1)]
    kw.setdefault("improve_nodes", 10_000)  # the best fill, whatever the seed
    fill_book(tmp_path / "p.hex", wl, out, tmp_path / "report.tsv", book=1, books=1, seed=1, timeout=20, **kw)
    return [sorted(parse_grid(p.read_text()).words()) for p in out]


TINY = {**{w: 90 for w in SQUARE_A}, **{w: 70 for w in SQUARE_B}}


def test_book_repeats_only_as_allowed_and_the_penalty_prefers_fresh_words(tmp_path):
    a, b = sorted(SQUARE_A), sorted(SQUARE_B)
    # Default: no answer twice in a book, so the second puzzle takes the other square.
    assert _tiny_book(tmp_path, TINY) == [a, b]
    # Two uses allowed, no gap and no penalty: the better square twice.
    twice = {"max_answer_repeats": 2, "answer_gap": 0}
    assert _tiny_book(tmp_path, TINY, **twice, repeat_penalty=0) == [a, a]
    # 30 points off a used answer: 90 - 30 is below the fresh square's 70.
    assert _tiny_book(tmp_path, TINY, **twice, repeat_penalty=30) == [a, b]
    # 10 points leaves the used square ahead (80 > 70).
    assert _tiny_book(tmp_path, TINY, **twice, repeat_penalty=10) == [a, a]
    # Never more than allowed: a third puzzle cannot reuse the twice-used square.
    assert _tiny_book(tmp_path, TINY, puzzles=3, **twice, repeat_penalty=0) == [a, a, b]
    # A gap of one puzzle: the better square returns, but not in the next puzzle.
    assert _tiny_book(tmp_path, TINY, puzzles=3, max_answer_repeats=2, answer_gap=1, repeat_penalty=0) == [a, b, a]


def test_book_blocklist_and_cluable_words(tmp_path):
    from pipeline.model.cluefile import write_shards
    from pipeline.model.cluetext import Blocklist

    a, b = sorted(SQUARE_A), sorted(SQUARE_B)
    # A blocked answer is never used, however well it scores.
    assert _tiny_book(tmp_path, TINY, puzzles=1, blocklist=Blocklist(["wed"])) == [b]
    # With the shards, a word with no clue is not used ...
    clues = {w: [f"Clue number {i}"] for i, w in enumerate(SQUARE_A + SQUARE_B) if w != "ORE"}
    write_shards(tmp_path / "clues", clues)
    assert _tiny_book(tmp_path, TINY, puzzles=1, clue_dir=tmp_path / "clues") == [b]
    # ... unless the user's clue file has one; without the shards any word is used.
    (tmp_path / "mine.txt").write_text("ORE|Mined rock\n")
    assert _tiny_book(tmp_path, TINY, puzzles=1, clue_dir=tmp_path / "clues", clue_file=tmp_path / "mine.txt") == [a]
    assert _tiny_book(tmp_path, TINY, puzzles=1) == [a]
    # A clue the blocklist blocks is no clue: ORE's only clue names a blocked word.
    (tmp_path / "mine.txt").write_text("ORE|Damn rock\n")
    blocked = Blocklist(["damn"])
    assert _tiny_book(
        tmp_path, TINY, puzzles=1, clue_dir=tmp_path / "clues", clue_file=tmp_path / "mine.txt", blocklist=blocked
    ) == [b]
    # A clue that gives its word away is no clue either: the clue stage would drop it.
    (tmp_path / "mine.txt").write_text("ORE|Ore, mined\n")
    assert _tiny_book(tmp_path, TINY, puzzles=1, clue_dir=tmp_path / "clues", clue_file=tmp_path / "mine.txt") == [b]


def test_fill_book_cli_blocklist_and_bad_clue_file(tmp_path):
    from pipeline.encode import encode_lines

    (tmp_path / "p.hex").write_text("\n".join(encode_lines([OPEN_3X3])) + "\n")
    wl = tmp_path / "w.txt"
    wl.write_text("".join(f"{w};{s}\n" for w, s in TINY.items()))
    (tmp_path / "block.txt").write_text("# mine\nbat\n")
    common = ["fill-book", "--candidates", str(tmp_path / "p.hex"), "--wordlist", str(wl), "--book", "1"]
    common += ["--books", "1", "--improve-nodes", "10000", "--report", str(tmp_path / "r.tsv")]
    r = _xw(*common, "--blocklist", str(tmp_path / "block.txt"), "--out", str(tmp_path / "1.txt"))
    assert r.returncode == 0, r.stderr
    assert sorted(parse_grid((tmp_path / "1.txt").read_text()).words()) == sorted(SQUARE_B)
    assert json.loads(r.stdout)["blocked"] == 1
    r = _xw(*common, "--no-blocklist", "--out", str(tmp_path / "2.txt"))
    assert r.returncode == 0 and sorted(parse_grid((tmp_path / "2.txt").read_text()).words()) == sorted(SQUARE_A)
    # A bad line in the clue file: file and line named, exit 2, nothing written.
    write_dir = tmp_path / "clues"
    write_dir.mkdir()
    (tmp_path / "mine.txt").write_text("ORE|Mined rock\nWED Married\n")
    r = _xw(*common, "--clues", str(write_dir), "--clue-file", str(tmp_path / "mine.txt"), "--out", str(tmp_path / "3.txt"))
    assert r.returncode == 2 and "mine.txt" in r.stderr and ":2" in r.stderr and "'|'" in r.stderr
    assert not (tmp_path / "3.txt").exists()
    r = _xw(*common, "--max-answer-repeats", "0", "--out", str(tmp_path / "4.txt"))
    assert r.returncode == 2 and "max_answer_repeats" in r.stderr


@pytest.fixture(scope="module")
def english_book(tmp_path_factory):
    """Real fills: 11x11 American patterns from an English list scored by wordfreq."""
    wordfreq = pytest.importorskip("wordfreq")
    from pipeline.patterns import generate_patterns, write_patterns

    tmp = tmp_path_factory.mktemp("english")
    words = {}
    for w in wordfreq.top_n_list("en", 40000):
        if w.isascii() and w.isalpha() and 3 <= len(w) <= 9:
            words.setdefault(w.upper(), min(100, round(wordfreq.zipf_frequency(w, "en") * 14)))
    (tmp / "w.txt").write_text("".join(f"{w};{s}\n" for w, s in sorted(words.items())))
    write_patterns(tmp / "p.hex", generate_patterns(11, 11, 12, 5, max_slot_length=9))

    def fill(name, puzzles=5, **kw):
        from pipeline.fill.batch import fill_book

        out = [tmp / name / f"{k}.txt" for k in range(1, puzzles + 1)]
        stats = fill_book(
            tmp / "p.hex", tmp / "w.txt", out, tmp / name / "report.tsv", book=1, books=1, seed=3,
            timeout=30, max_nodes=20000, improve_nodes=3000, cache_dir=tmp / "cache", **kw,
        )
        return stats, [parse_grid(p.read_text()).words() for p in out]

    fill.folder = tmp
    return fill


def _counts(fills):
    from collections import Counter

    return Counter(w for words in fills for w in words)


def test_real_book_no_answer_twice_by_default(english_book):
    stats, fills = english_book("once")
    assert stats["filled"] == 5 and stats["repeated"] == 0
    assert max(_counts(fills).values()) == 1


def test_real_book_repeats_at_most_twice_and_the_penalty_cuts_them(english_book):
    free_stats, free = english_book("twice-free", max_answer_repeats=2, answer_gap=0, repeat_penalty=0)
    counts = _counts(free)
    assert max(counts.values()) == 2, "with two uses allowed and no penalty, some answer repeats"
    assert free_stats["repeated"] == sum(1 for n in counts.values() if n == 2)
    _, penalised = english_book("twice-penalised", max_answer_repeats=2, answer_gap=0, repeat_penalty=30)
    counts = _counts(penalised)
    assert max(counts.values()) <= 2
    repeats = sum(1 for n in counts.values() if n == 2)
    assert repeats < free_stats["repeated"], "30 points off a used answer gives fewer repeats"


def _gaps(fills):
    """The fewest puzzles between two uses of one answer (None: no answer twice)."""
    where = {}
    for k, words in enumerate(fills):
        for w in words:
            where.setdefault(w, []).append(k)
    gaps = [b - a - 1 for ks in where.values() for a, b in zip(ks, ks[1:])]
    return min(gaps, default=None)


def test_real_book_keeps_the_gap_between_uses(english_book):
    stats, fills = english_book("gap", puzzles=6, max_answer_repeats=3, answer_gap=2, repeat_penalty=0)
    assert stats["repeated"] > 0 and max(_counts(fills).values()) <= 3
    assert _gaps(fills) >= 2


def test_batches_in_parallel_jobs_give_the_books_bytes_and_keep_the_policy(english_book, tmp_path):
    """Three batches as separate processes (as the pipeline runs them), merged: the same bytes as one
    process, every answer within the book's allowance and gap, the boundary's repeats filled again."""
    policy = {"max_answer_repeats": 3, "answer_gap": 2, "repeat_penalty": 0, "batch_size": 2}
    stats, fills = english_book("batched", puzzles=6, **policy)
    assert max(_counts(fills).values()) <= 3 and _gaps(fills) >= 2
    assert stats["refilled"] > 0, "three batches of two puzzles meet at boundaries: some repeat too soon"
    folder = english_book.folder
    common = ["--candidates", str(folder / "p.hex"), "--wordlist", str(folder / "w.txt"), "--book", "1",
              "--books", "1", "--seed", "3", "--timeout", "30", "--max-nodes", "20000", "--improve-nodes", "3000",
              "--max-answer-repeats", "3", "--answer-gap", "2", "--repeat-penalty", "0", "--batch-size", "2",
              "--cache", str(folder / "cache"), "--no-blocklist"]  # fmt: skip
    batches = [tmp_path / f"batch-{j}.tsv" for j in (1, 2, 3)]
    jobs = [_xw_start("fill-book", *common, "--batch", str(j), "--puzzles", "6", "--out", str(b))
            for j, b in zip((1, 2, 3), batches)]  # fmt: skip
    for job in jobs:
        _, err = job.communicate(timeout=600)
        assert job.returncode == 0, err
    out = [tmp_path / f"{k}.txt" for k in range(1, 7)]
    r = _xw("fill-book", *common, "--merge", *map(str, batches), "--report", str(tmp_path / "report.tsv"),
            "--out", *map(str, out))  # fmt: skip
    assert r.returncode == 0, r.stderr
    for k, path in enumerate(out, start=1):
        assert path.read_bytes() == (folder / "batched" / f"{k}.txt").read_bytes()
    def untimed(path):  # the report's seconds are the one column that depends on the machine
        return [line.split("\t")[:3] + line.split("\t")[4:] for line in path.read_text().splitlines()]

    assert untimed(tmp_path / "report.tsv") == untimed(folder / "batched" / "report.tsv")
    report = (tmp_path / "report.tsv").read_text()
    assert "refilled: answers used too often or too recently" in report
    # The merge first tries a repair: the answers at fault and their crossings filled again, the rest kept.
    assert "\tmerge\trepair: kept " in report
    # A batch file that does not match the book's patterns is refused, naming it.
    bad = tmp_path / "bad.tsv"
    lines = batches[1].read_text().splitlines(keepends=True)
    bad.write_text(lines[0] + "99" + lines[1][lines[1].index("\t") :] + "".join(lines[2:]))
    r = _xw("fill-book", *common, "--merge", str(batches[0]), str(bad), str(batches[2]),
            "--report", str(tmp_path / "r2.tsv"), "--out", *map(str, out))  # fmt: skip
    assert r.returncode == 2 and "bad.tsv" in r.stderr
