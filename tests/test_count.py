"""Exhaustive counts: the engine agrees with brute force and with python-constraint.

The word-square lab of seeds 000 (how many 4x4 squares), 001 (no word
twice, a square and its transpose once, squares that survive rotation) and
003 (the NPR square: NAGS at 1-Across, NEWT at 1-Down, sixteen different
letters).  Three independent ways to find the fills check the engine:
trying every choice of words (small lists), python-constraint (the
reference strategy, smaller still) and seed 001's cell-by-cell search over
word prefixes (lists big enough for the popcounts to matter).
"""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.cli import main
from pipeline.fill import WordIndex
from pipeline.fill.count import count_fills, iter_fills, reversible_words, rotation_squares
from pipeline.fill.reference import constraint_count, constraint_fill, constraint_fills
from pipeline.model.grid import Grid, parse_grid

RULES = list(itertools.product([False, True], repeat=3))  # distinct_words, transpose_once, distinct_letters
OPEN4 = "....\n....\n....\n....\n"
NPR_GRID = "NAGS\nE...\nW...\nT...\n"
NPR_ANSWER = ["NAGS", "ECRU", "WHIM", "TYPO"]
NPR_DOWNS = ["NEWT", "ACHY", "GRIP", "SUMO"]
# The answer's words, a fill of the same grid that repeats letters
# (NAGS EURO WRIT TAPS: down NEWT AURA GRIP SOTS), and words that fit nowhere.
NPR_WORDS = "NAGS NEWT ACHY GRIP SUMO ECRU WHIM TYPO EURO WRIT TAPS AURA SOTS ECHO WISP TOME GOSH".split()
# Seed 001's ten "palindromic" 4x4 squares (no word twice, a square and its
# transpose once): every row and column is a word read either way.
SEED_ROTATION_SQUARES = [
    "DRAB RAGA AJAR WARD",
    "DRAB RAJA AGAR WARD",
    "DRAB RAGA AJAR YARD",
    "DRAB RAJA AGAR YARD",
    "DRAW RAGA AJAR YARD",
    "DRAW RAJA AGAR YARD",
    "TRAM RAGA AJAR PART",
    "TRAM RAJA AGAR PART",
    "STEP TIDE EMIT WETS",
    "STEP TIME EDIT WETS",
]


def _flip(fill: str, n: int) -> str:
    """A square's row-major text, transposed."""
    return "".join(fill[c * n + r] for r in range(n) for c in range(n))


def apply_rules(grid: Grid, fills, distinct_words=False, transpose_once=False, distinct_letters=False) -> set:
    """The fills (row-major strings) that keep the rules, each checked on its own."""
    kept = set()
    for f in fills:
        entries = _entries(grid, f)
        if (distinct_words or distinct_letters) and len(set(entries)) != len(entries):
            continue
        letters = [ch for ch in f if ch != "#"]
        if distinct_letters and len(set(letters)) != len(letters):
            continue
        kept.add(f)
    if transpose_once and grid.rows == grid.cols:
        n = grid.rows
        kept = {f for f in kept if not (_flip(f, n) in kept and _flip(f, n) < f)}
    return kept


def _entries(grid: Grid, fill: str) -> list:
    """The words of a filled grid: rows and columns of an open one."""
    if "#" in fill:
        return Grid(grid.rows, grid.cols, fill).words()
    rows = [fill[i : i + grid.cols] for i in range(0, len(fill), grid.cols)]
    return rows + ["".join(col) for col in zip(*rows)]


def brute_fills(grid: Grid, words) -> set:
    """Every fill as a row-major string, by trying every choice of words:
    one per row in an open grid, else one per across slot (per slot of
    either direction when the across slots miss a white cell)."""
    wordset = set(words)
    if "#" not in grid.cells:
        rows = [
            [w for w in words if len(w) == grid.cols and all(g in (".", ch) for g, ch in zip(row, w))]
            for row in grid.row_strings()
        ]
        return {
            "".join(choice)
            for choice in itertools.product(*rows)
            if all("".join(col) in wordset for col in zip(*choice))
        }
    slots = grid.slots()
    chosen = [s for s in slots if s.direction == "across"]
    white = {i for i, ch in enumerate(grid.cells) if ch != "#"}
    if {c for s in chosen for c in s.cells} != white:
        chosen = slots
    fills = set()
    for choice in itertools.product(*([w for w in words if len(w) == s.length] for s in chosen)):
        cells = list(grid.cells)
        ok = True
        for s, w in zip(chosen, choice):
            for c, ch in zip(s.cells, w):
                ok = ok and cells[c] in (".", ch)
                cells[c] = ch
        if ok and "." not in cells and all(w in wordset for w in Grid(grid.rows, grid.cols, cells).words()):
            fills.add("".join(cells))
    return fills


def seed001_fills(grid: Grid, words) -> list:
    """Every fill of an open grid the way seed 001 finds them: cell by cell,
    each cell taking the letters that continue both its row's prefix and
    its column's prefix towards some word."""
    r, c = grid.rows, grid.cols
    follow: dict = {}  # (word length, prefix) -> letters that may come next
    for w in words:
        for i in range(len(w)):
            follow.setdefault((len(w), w[:i]), set()).add(w[i])
    cells = list(grid.cells)
    out = []

    def fill(k):
        if k == r * c:
            out.append("".join(cells))
            return
        i, j = divmod(k, c)
        row = "".join(cells[i * c : k])
        col = "".join(cells[x * c + j] for x in range(i))
        options = follow.get((c, row), set()) & follow.get((r, col), set())
        if grid.cells[k] != ".":
            options &= {grid.cells[k]}
        for ch in sorted(options):
            cells[k] = ch
            fill(k + 1)
        cells[k] = grid.cells[k]

    fill(0)
    return out


def _index(words) -> WordIndex:
    return WordIndex({w: 50 for w in words})


def _check_all_rules(grid: Grid, words, with_constraint: bool):
    idx = _index(words)
    fills = brute_fills(grid, words)
    for dw, once, dl in RULES:
        expected = apply_rules(grid, fills, dw, once, dl)
        assert count_fills(grid, idx, dw, once, dl) == len(expected), (dw, once, dl)
        listed = ["".join(g.cells) for g in iter_fills(grid, idx, dw, once, dl)]
        assert len(listed) == len(set(listed)) and set(listed) == expected, (dw, once, dl)
        if with_constraint:
            assert constraint_count(grid, words, dw, once, dl) == len(expected), (dw, once, dl)
            found = {"".join(g.cells) for g in constraint_fills(grid, words, dw, once, dl)}
            assert found == expected, (dw, once, dl)


def words_of(length, alphabet, max_size):
    return st.sets(st.text(alphabet=alphabet, min_size=length, max_size=length), min_size=1, max_size=max_size)


def _random_words(seed: int, n: int, alphabet: str, tries: int) -> list:
    rnd = random.Random(seed)
    return sorted({"".join(rnd.choice(alphabet) for _ in range(n)) for _ in range(tries)})


# -- engine == brute force == python-constraint ---------------------------------
@settings(max_examples=40, deadline=None)
@given(words=words_of(2, "ABC", 9))
def test_2x2_every_rule(words):
    _check_all_rules(parse_grid("..\n.."), sorted(words), with_constraint=True)


@settings(max_examples=30, deadline=None)
@given(words=words_of(3, "ABCD", 22), given_letter=st.sampled_from(["...", "A..", ".B.", "..C"]))
def test_3x3_every_rule_with_and_without_given_letters(words, given_letter):
    grid = parse_grid(given_letter + "\n...\n...")
    _check_all_rules(grid, sorted(words), with_constraint=True)


@settings(max_examples=15, deadline=None)
@given(words=words_of(4, "AB", 9))
def test_4x4_tiny_lists(words):
    _check_all_rules(parse_grid(OPEN4), sorted(words), with_constraint=len(words) <= 6)


@settings(max_examples=20, deadline=None)
@given(
    words=st.sets(st.text(alphabet="ABC", min_size=2, max_size=3), min_size=1, max_size=16),
    text=st.sampled_from(["...\n...", "..\n..\n..", "..#\n...\n#..", ".#.\n...\n.#.", "A.#\n...\n#.."]),
)
def test_rectangles_and_grids_with_blacks(words, text):
    _check_all_rules(parse_grid(text), sorted(words), with_constraint=True)


def test_transpose_once_counts_symmetric_squares_once():
    # AB/BA, AA/AA ... are their own transposes; AB/AA pairs with AA/BA.
    words = ["AA", "AB", "BA"]
    grid = parse_grid("..\n..")
    fills = brute_fills(grid, words)
    symmetric = {f for f in fills if f == _flip(f, 2)}
    assert len(fills) == 7 and len(symmetric) == 5
    assert count_fills(grid, _index(words), transpose_once=True) == (len(fills) + len(symmetric)) // 2 == 6
    # Seed 001's rule: no word twice, and a square and its transpose once.
    # No square of distinct words is its own transpose (row 1 would be
    # column 1), so the count is exactly half.
    words = _random_words(1, 3, "AEIRST", 60)
    grid = parse_grid("...\n...\n...")
    fills = brute_fills(grid, words)
    both = apply_rules(grid, fills, distinct_words=True)
    once = count_fills(grid, _index(words), distinct_words=True, transpose_once=True)
    assert len(both) > 100 and once * 2 == len(both) == count_fills(grid, _index(words), distinct_words=True)
    assert once == len(apply_rules(grid, fills, True, True))


def test_transpose_of_a_fill_that_breaks_the_givens_does_not_pair():
    # With a given letter off the diagonal, a transpose is usually no fill.
    words = ["AB", "BA", "AA", "BB"]
    for text in ["A.\n..", ".B\n.."]:
        grid = parse_grid(text)
        expected = apply_rules(grid, brute_fills(grid, words), transpose_once=True)
        assert count_fills(grid, _index(words), transpose_once=True) == len(expected)


def test_the_last_rows_are_counted_not_enumerated():
    # ~100k 3x3 squares: the engine visits only the first row and counts
    # the two below it by popcount.
    words = _random_words(7, 3, "AEIST", 140)
    wordset = set(words)
    prefixes: dict[str, set] = {}
    for w in words:
        prefixes.setdefault(w[:2], set()).add(w[2])
    expected = 0
    for r0, r1 in itertools.product(words, repeat=2):
        columns = [prefixes.get(r0[j] + r1[j], ()) for j in range(3)]
        expected += sum(1 for r2 in itertools.product(*columns) if "".join(r2) in wordset)
    stats = {}
    got = count_fills(parse_grid("...\n...\n..."), _index(words), stats=stats)
    assert got == expected > 50_000
    assert stats["enumerated"] == 0 and stats["counted"] * 20 < got


def test_4x4_counts_agree_with_seed_001_search():
    # A list big enough for tens of thousands of squares, where every
    # shortcut of the count is taken: halving by transposition, the
    # two-row popcount, and its rules for no word twice.
    words = _random_words(0, 4, "AEIOST", 150)
    idx = _index(words)
    for text in [OPEN4, "S...\n....\n....\n....\n", "....\n.A..\n....\n....\n"]:
        grid = parse_grid(text)
        fills = seed001_fills(grid, words)
        assert len(fills) == len(set(fills)) > 5000
        for dw, once, dl in RULES:
            stats = {}
            expected = len(apply_rules(grid, fills, dw, once, dl))
            assert count_fills(grid, idx, dw, once, dl, stats=stats) == expected, (text, dw, once, dl)
            if not dl:
                # Counted, not listed: fewer partial fills visited than fills
                # counted (a count that listed its fills would visit each).
                assert stats["counted"] + stats["enumerated"] < expected, (text, dw, once, stats)


def test_distinct_letters_and_the_npr_puzzle():
    grid = parse_grid(NPR_GRID)
    idx = _index(NPR_WORDS)
    assert count_fills(grid, idx) == 2
    assert count_fills(grid, idx, distinct_letters=True) == 1
    (answer,) = iter_fills(grid, idx, distinct_letters=True)
    assert answer.row_strings() == NPR_ANSWER
    assert [w for s, w in zip(answer.slots(), answer.words()) if s.direction == "down"] == NPR_DOWNS
    assert constraint_fill(grid, NPR_WORDS, distinct_letters=True).row_strings() == NPR_ANSWER
    assert [g.row_strings() for g in constraint_fills(grid, NPR_WORDS, distinct_letters=True)] == [NPR_ANSWER]
    assert constraint_count(grid, NPR_WORDS, distinct_letters=True) == 1
    # A given letter repeated elsewhere in the grid is no fill.
    assert count_fills(parse_grid("NAGS\nE...\nW...\nT..N"), idx, distinct_letters=True) == 0


def test_rotation_squares_are_seed_001s_ten():
    squares = [s.split() for s in SEED_ROTATION_SQUARES]
    words = sorted({w for rows in squares for g in (rows, ["".join(c) for c in zip(*rows)]) for w in g})
    words = sorted(set(words) | {w[::-1] for w in words})
    idx = _index(words + ["DRAT", "ABLE", "STEM"])  # none reads backwards as a word
    assert sorted(reversible_words(idx, 4)[4].words) == words
    found = [g.row_strings() for g in rotation_squares(4, idx, distinct_words=True, transpose_once=True)]
    assert len(found) == 10
    for rows in squares:
        cols = ["".join(c) for c in zip(*rows)]
        assert rows in found or cols in found
    for rows in found:
        g = Grid(4, 4, "".join(rows))
        for _ in range(4):  # every quarter turn is a square of words
            assert all(w in words for w in g.words()), rows
            g = Grid(4, 4, [g.cells[(3 - c) * 4 + r] for r in range(4) for c in range(4)])
    both = rotation_squares(4, idx, distinct_words=True)
    assert len(both) == 20 and len(rotation_squares(4, idx, limit=3)) == 3
    grid = parse_grid(OPEN4)
    assert count_fills(grid, reversible_words(idx, 4), True, True) == 10
    assert constraint_count(grid, reversible_words(idx, 4), True, True) == 10


def test_timeouts_raise():
    words = _random_words(0, 4, "AEIOSTRN", 1500)
    with pytest.raises(TimeoutError):
        count_fills(parse_grid(OPEN4), _index(words), timeout=0)
    with pytest.raises(TimeoutError):
        constraint_fill(parse_grid(OPEN4), words, distinct_letters=True, timeout=0)


# -- the command line -------------------------------------------------------
def _run(capsys, *args):
    code = main(list(map(str, args)))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def npr_files(tmp_path):
    grid = tmp_path / "npr.txt"
    grid.write_text(NPR_GRID)
    wl = tmp_path / "w.txt"
    wl.write_text("".join(f"{w};50\n" for w in NPR_WORDS))
    return grid, wl


@pytest.mark.parametrize("strategy", ["engine", "constraint"])
def test_cli_count_prints_the_count_last(capsys, npr_files, strategy):
    grid, wl = npr_files
    code, out, _ = _run(capsys, "count", grid, "--wordlist", wl, "--distinct-letters", "--strategy", strategy)
    assert code == 0 and out.splitlines()[-1] == "1"
    code, out, _ = _run(capsys, "count", grid, "--wordlist", wl, "--distinct-words", "--list", "5", "--strategy", strategy)
    lines = out.splitlines()
    assert code == 0 and lines[-1] == "2"
    listed = sorted(block.strip() for block in "\n".join(lines[:-1]).split("\n\n") if block.strip())
    assert listed == ["NAGS\nECRU\nWHIM\nTYPO", "NAGS\nEURO\nWRIT\nTAPS"]


def test_cli_count_rotations_and_bad_input(capsys, tmp_path):
    words = sorted({w for s in SEED_ROTATION_SQUARES for w in s.split()} | {"DRAW", "BARD", "DRAY", "TIME", "EDIT"})
    wl = tmp_path / "w.txt"
    wl.write_text("\n".join(words + ["DRAT"]) + "\n")
    grid = tmp_path / "g.txt"
    grid.write_text(OPEN4)
    code, out, _ = _run(capsys, "count", grid, "--wordlist", wl, "--rotations", "--distinct-words", "--list", "1")
    expected = len(rotation_squares(4, _index(words), True))
    assert code == 0 and int(out.splitlines()[-1]) == expected > 0 and len(out.splitlines()) == 6
    grid.write_text("...\n...\n")
    code, _, err = _run(capsys, "count", grid, "--wordlist", wl, "--rotations")
    assert code == 2 and "--rotations" in err
    grid.write_text("..\n.!\n")
    code, _, err = _run(capsys, "count", grid, "--wordlist", wl)
    assert code == 2 and "g.txt:2" in err


@pytest.mark.parametrize("strategy", ["engine", "constraint"])
def test_cli_fill_distinct_letters_solves_the_npr_puzzle(capsys, npr_files, strategy):
    grid, wl = npr_files
    code, out, _ = _run(capsys, "fill", grid, "--wordlist", wl, "--distinct-letters", "--strategy", strategy)
    assert code == 0 and out.split() == NPR_ANSWER
    wl.write_text("".join(f"{w}\n" for w in NPR_WORDS if w != "WHIM"))
    code, out, _ = _run(capsys, "fill", grid, "--wordlist", wl, "--distinct-letters", "--strategy", strategy)
    assert code == 3 and out == ""


def test_cli_fill_constraint_strategy(capsys, tmp_path):
    wl = tmp_path / "w.txt"
    wl.write_text("AB\nCD\nAC\nBD\n")
    grid = tmp_path / "g.txt"
    grid.write_text("..\n..\n")
    code, out, _ = _run(capsys, "fill", grid, "--wordlist", wl, "--strategy", "constraint")
    assert code == 0 and sorted(out.split()) in (["AB", "CD"], ["AC", "BD"])
    wl.write_text("AB\nCD\n")
    code, _, _ = _run(capsys, "fill", grid, "--wordlist", wl, "--strategy", "constraint")
    assert code == 3
