"""The theme stage: locked-slot patterns, theme sets on the real word list, placement, the themes file, xw theme."""

from __future__ import annotations

import subprocess
import sys

import pytest

from pipeline.model.errors import InputError
from pipeline.model.grid import parse_grid
from pipeline.model.hexcodec import encode_grid
from pipeline.model.rules import rule_violations, style_rules
from pipeline.model.themes import HEADER, ThemedCandidate, read_themes, write_themes
from pipeline.patterns import LockedSlot, generate_patterns, parse_lock
from pipeline.patterns.locks import slot_at
from pipeline.theme import ThemeGroup, choose_set, enumerate_sets, layouts, theme_problems
from pipeline.theme.sets import BLAND, STOPWORDS

from conftest import ROOT


# -- locked slots ---------------------------------------------------------------
def _non_theme_violations(grid, rules, locks):
    """rule_violations, but a locked slot (or its turned image) may be longer than max_slot_length."""
    n = grid.rows * grid.cols
    locked = {lk.cells(grid.cols) for lk in locks}
    locked |= {tuple(sorted(n - 1 - c for c in cells)) for cells in locked}
    labels = {s.label for s in grid.slots() if s.cells in locked}
    return [v for v in rule_violations(grid, rules, limit=100)
            if not ("max_slot_length" in v and v.split(" ")[0] in labels)]  # fmt: skip


@pytest.mark.parametrize("locks,cap", [
    ([LockedSlot(3, 0, "across", 11), LockedSlot(7, 1, "across", 13)], 10),
    ([LockedSlot(2, 0, "across", 15), LockedSlot(7, 3, "across", 9)], 8),
    ([LockedSlot(3, 0, "across", 10), LockedSlot(6, 5, "across", 10)], 9),
    ([LockedSlot(2, 7, "down", 11)], 10),
])  # fmt: skip
def test_locked_slots_are_held_exactly_and_the_rest_obey_the_rules(locks, cap):
    rules = style_rules("american", 15, 15, {"max_slot_length": cap})
    grids = generate_patterns(15, 15, 6, seed=5, rules=rules, locked=locks)
    assert len(grids) == 6
    for g in grids:
        for lk in locks:
            s = slot_at(g, lk)
            assert s is not None, lk
            image = tuple(sorted(224 - c for c in s.cells))
            assert any(t.cells == image for t in g.slots())  # its turned image is a slot too
        assert _non_theme_violations(g, rules, locks) == []
        long_ = [s for s in g.slots() if s.length > cap]
        assert len(long_) <= 2 * len(locks)


def test_locks_that_clash_or_do_not_fit_are_input_errors():
    with pytest.raises(InputError, match="both white and black"):
        generate_patterns(15, 15, 1, seed=1, locked=[LockedSlot(3, 0, "across", 11), LockedSlot(3, 5, "across", 10)])
    with pytest.raises(InputError, match="does not fit"):
        generate_patterns(15, 15, 1, seed=1, locked=[LockedSlot(3, 6, "across", 11)])
    with pytest.raises(InputError, match="ROW,COL,DIR,LEN"):
        parse_lock("3,4,across")
    assert parse_lock("4,1,d,11") == LockedSlot(3, 0, "down", 11)


def test_no_locks_gives_the_same_patterns_as_before():
    # locked=() must leave the model as it was: same patterns, same order.
    a = [encode_grid(g) for g in generate_patterns(15, 15, 5, seed=11)]
    b = [encode_grid(g) for g in generate_patterns(15, 15, 5, seed=11, locked=())]
    assert a == b


# -- choosing sets and placing them ------------------------------------------------------
def test_choose_set_pairs_equal_lengths_and_a_centre_of_the_grids_parity():
    pool = (("GROCERYSTORE", 70), ("COUNTRYSTORE", 68), ("HARDWARESTORE", 66), ("CANDYSTORE", 60),
            ("CHAINSTORE", 59), ("DEPARTMENTSTORE", 65))  # fmt: skip
    toks = {e: (e[:-5], "STORE") for e, _ in pool}
    g = ThemeGroup("shared-last-word:STORE", "shared-last-word", "___ Store", pool, toks)
    s = choose_set(g, 15, 15)
    (a, b), = s.pairs
    assert len(a) == len(b) and len(s.centre) % 2 == 1
    assert s.pairs == (("GROCERYSTORE", "COUNTRYSTORE"),) and s.centre == "HARDWARESTORE"
    # Used entries are passed over: no two left of one length, no set.
    assert choose_set(g, 15, 15, used={"GROCERYSTORE", "CANDYSTORE"}) is None


def test_layouts_are_symmetric_pairs_and_a_centred_entry():
    g = ThemeGroup("k", "category", "T", (("ABCDEFGHIJK", 9), ("BCDEFGHIJKL", 8), ("CDEFGHIJKLMNO", 7)), {})
    s = choose_set(g, 15, 15)
    for placed in layouts(s, 15, 15, seed=3):
        by = {p.entry: p.slot for p in placed}
        top, bottom = by[s.pairs[0][0]], by[s.pairs[0][1]]
        assert bottom.row == 14 - top.row and bottom.col == 15 - top.col - top.length
        assert by[s.centre].row == 7 and by[s.centre].col * 2 + by[s.centre].length == 15


def test_theme_problems_names_a_slot_as_long_as_a_theme_entry():
    g = parse_grid("CAT#...\n...#...\n.......\n...#...\n...#DOG")
    probs = theme_problems(g, ["CAT", "DOG"])
    assert any("7-letter across" in p for p in probs)


# -- the themes file -------------------------------------------------------------------------
def test_themes_file_round_trips(tmp_path):
    g = parse_grid("CAT#\n...#\n#...\n#DOG")
    c = ThemedCandidate(g, "Pets", "category", ("CAT", "DOG"))
    p = tmp_path / "x.themes.tsv"
    write_themes(p, [c, c])
    assert p.read_text().splitlines()[0] == HEADER
    assert read_themes(p) == [c, c]


@pytest.mark.parametrize("line,message", [
    ("zz\t...#\tT\tcategory\tCAT", "bad hex"),
    ("F\tCAT#/...#/#.../#DOG\tPets\tcategory", "5"),
    ("{pat}\tCAT#/...#/#...\tPets\tcategory\tCAT,DOG", "not 4 rows"),
    ("{pat}\tCAT#/...#/#.../#DOG\t\tcategory\tCAT,DOG", "empty title"),
    ("{pat}\tCAT#/...#/#.../#DOG\tPets\tCategory!\tCAT,DOG", "kind"),
    ("{pat}\tCAT#/...#/#.../#DOG\tPets\tcategory\tCAT,EMU", "not in the grid: EMU"),
    ("{pat}\tCAT#/..#./#.../#DOG\tPets\tcategory\tCAT,DOG", "black squares"),
    ("{pat}\tCAT#/...#/#.../#DOg\tPets\tcategory\tCAT,DOG", "cells are"),
])  # fmt: skip
def test_bad_themes_lines_name_file_and_line(tmp_path, line, message):
    pat = encode_grid(parse_grid("CAT#\n...#\n#...\n#DOG"))
    p = tmp_path / "bad.themes.tsv"
    p.write_text(HEADER + "\n" + line.format(pat=pat) + "\n")
    with pytest.raises(InputError, match=message) as e:
        read_themes(p)
    assert e.value.line == 2 and str(p) in str(e.value)


def test_a_themes_file_needs_its_header(tmp_path):
    p = tmp_path / "bad.themes.tsv"
    p.write_text("pattern\tgrid\n")
    with pytest.raises(InputError, match="header"):
        read_themes(p)


# -- on the real word list ------------------------------------------------------------------


def test_theme_sets_on_the_real_list_are_valid(inputs):
    source, index = inputs
    sets = enumerate_sets(source.groups(), 15, 15, seed=1)
    assert len(sets) >= 30
    seen: set[str] = set()
    for s in sets:
        entries = s.entries
        assert 3 <= len(entries) <= 5 and len(set(entries)) == len(entries)
        assert not seen & set(entries), "an entry in two sets"
        seen |= set(entries)
        assert s.title and s.kind in ("shared-first-word", "shared-last-word", "category", "hidden-word")
        for e in entries:
            assert 9 <= len(e) <= 15
            assert source.words[e] >= 45 and source.clued(e)
            assert not (source.blocklist and source.blocklist.blocks_answer(e))
        if s.kind.startswith("shared"):
            word = s.key.split(":", 1)[1]
            assert word not in STOPWORDS and word not in BLAND
            for e in entries:
                assert e != word and (e.startswith(word) if s.kind == "shared-first-word" else e.endswith(word))
            others = [e[len(word):] if s.kind == "shared-first-word" else e[: -len(word)] for e in entries]
            assert len(set(others)) == len(others)
        for (a, b) in s.pairs:
            assert len(a) == len(b)
        if s.centre:
            assert len(s.centre) % 2 == 1


def test_themed_candidates_fill_with_theme_entries_longest_and_symmetric(inputs):
    from pipeline.theme import make_themes

    source, index = inputs
    attempts = []
    cands = make_themes(source, index, 15, 15, 3, seed=4, attempts=attempts)
    assert len(cands) == 3
    assert len({c.entries for c in cands}) == 3
    assert len({e for c in cands for e in c.entries}) == sum(len(c.entries) for c in cands)
    for c in cands:
        assert theme_problems(c.grid, c.entries) == []
        rules = style_rules("american", 15, 15)
        assert [v for v in rule_violations(c.grid, rules) if "max_slot_length" not in v] == []
    for a in attempts:
        if a.candidate is not None:
            assert a.fill.is_complete()
            assert [a.fill.word(s) for s in a.fill.slots() if a.fill.word(s) in a.candidate.entries]


def test_parts_never_share_a_set(inputs):
    source, _ = inputs
    sets = enumerate_sets(source.groups(), 15, 15, seed=9)
    a, b = sets[0::2], sets[1::2]
    assert not {e for s in a for e in s.entries} & {e for s in b for e in s.entries}


# -- the command -------------------------------------------------------------------------------
def _xw(*args):
    return subprocess.run([sys.executable, "-m", "pipeline.cli", "--quiet", *args], capture_output=True, text=True,
                          cwd=ROOT)  # fmt: skip


@pytest.mark.parametrize("extra,message", [
    (["--rows", "9", "--cols", "9"], "11x11 or larger"),
    (["--rows", "15", "--cols", "15", "--part", "2", "--parts", "2"], "--part 2"),
    (["--rows", "15", "--cols", "15", "--count", "500"], "only"),
])  # fmt: skip
def test_xw_theme_bad_input_writes_nothing(lexicon, tmp_path, extra, message):
    out = tmp_path / "x.themes.tsv"
    args = ["theme", "--seed", "1", "--wordlist", str(lexicon / "wordlist.txt"), "--clues", str(lexicon / "clues"),
            "--out", str(out), *extra]  # fmt: skip
    if "--count" not in extra:
        args += ["--count", "1"]
    r = _xw(*args)
    assert r.returncode == 2 and message in r.stderr and "Traceback" not in r.stderr
    assert not out.exists()
