"""The hand-written theme sets (pipeline/data/themes/sets.tsv) and how ``xw theme`` uses them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from pipeline.model.errors import InputError
from pipeline.model.themes import KINDS, read_themes
from pipeline.theme.handwritten import default_sets_path, read_sets

ROOT = Path(__file__).resolve().parent.parent


def test_the_file_parses_with_80_sets_of_4_to_6_entries():
    sets = read_sets()
    assert len(sets) >= 80
    seen: set[str] = set()
    for s in sets:
        assert s.title and s.kind in KINDS
        assert 4 <= len(s.entries) <= 6
        for e in s.entries:
            assert e.isalpha() and e.isupper() and 7 <= len(e) <= 15
            assert e not in seen, f"{e} twice"
            seen.add(e)
    assert len({s.kind for s in sets}) >= 3, "vary the kinds"


def test_the_file_states_its_licence():
    head = default_sets_path().read_text(encoding="utf-8").splitlines()[:5]
    assert any("CC0" in line for line in head)
    assert "CC0 1.0" in (default_sets_path().parent / "LICENSE").read_text(encoding="utf-8")


@pytest.mark.parametrize("line,message", [
    ("T\tshared-last-word\tABCDEFGH\tBCDEFGHI\tCDEFGHIJ", "fields"),
    ("T\tpuns\tABCDEFGH\tBCDEFGHI\tCDEFGHIJ\tDEFGHIJK", "kind"),
    ("T\tcategory\tABCDEFGH\tBCDEFGHI\tCDEFGHIJ\tdefghijk", "not 7-15"),
    ("T\tcategory\tABCDEFGH\tBCDEFGHI\tCDEFGHIJ\tABCDEFGH", "already"),
])  # fmt: skip
def test_bad_lines_name_file_and_line(tmp_path, line, message):
    p = tmp_path / "sets.tsv"
    p.write_text("# comment\n" + line + "\n")
    with pytest.raises(InputError, match=message) as e:
        read_sets(p)
    assert ":2:" in str(e.value)


# -- on the real word list ------------------------------------------------------------------


def test_most_entries_are_in_the_list_with_a_clue(inputs):
    source, _ = inputs
    entries = [e for s in read_sets() for e in s.entries]
    good = [e for e in entries if e in source.words and source.clued(e)]
    assert len(good) >= 0.9 * len(entries), sorted(set(entries) - set(good))


def test_every_set_fits_a_15x15(inputs):
    from pipeline.theme import choose_set

    source, _ = inputs
    groups = source.hand_groups()
    assert len(groups) == len(read_sets())
    for g in groups:
        s = choose_set(g, 15, 15)
        assert s is not None, g.title
        assert all(source.hand_usable(e) for e in s.entries)


def test_hand_written_sets_come_first_and_parts_stay_disjoint(inputs):
    from pipeline.theme import enumerate_sets

    source, _ = inputs
    hand = source.hand_groups()
    sets = enumerate_sets(source.groups(), 15, 15, seed=5, first=hand)
    n = len(hand)
    assert all(s.key.startswith("hand:") for s in sets[:n])
    assert not any(s.key.startswith("hand:") for s in sets[n:])
    titles = [s.title for s in sets]
    assert len(titles) == len(set(titles)), "a title twice"
    entries = [e for s in sets for e in s.entries]
    assert len(entries) == len(set(entries)), "an entry in two sets"
    other = enumerate_sets(source.groups(), 15, 15, seed=6, first=hand)
    assert [s.key for s in other[:n]] != [s.key for s in sets[:n]], "the seed orders the hand-written sets"
    again = enumerate_sets(source.groups(), 15, 15, seed=5, first=hand)
    assert again == sets


def _xw(*args):
    return subprocess.run([sys.executable, "-m", "pipeline.cli", "--quiet", *args], capture_output=True, text=True,
                          cwd=ROOT)  # fmt: skip


def test_xw_theme_writes_hand_written_sets_and_is_deterministic(lexicon, tmp_path):
    common = ["theme", "--rows", "15", "--cols", "15", "--count", "3", "--seed", "11",
              "--wordlist", str(lexicon / "wordlist.txt"), "--clues", str(lexicon / "clues")]  # fmt: skip
    one, two = tmp_path / "a.themes.tsv", tmp_path / "b.themes.tsv"
    r1 = _xw(*common, "--out", str(one))
    r2 = _xw(*common, "--out", str(two))
    assert r1.returncode == 0, r1.stderr
    assert r2.returncode == 0, r2.stderr
    assert one.read_bytes() == two.read_bytes()
    hand = {s.title: set(s.entries) for s in read_sets()}
    for c in read_themes(one):
        assert c.title in hand and set(c.entries) <= hand[c.title]
