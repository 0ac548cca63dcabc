"""The clue stage: every answer clued from the shards, no clue twice in a book, clean errors."""

from __future__ import annotations

import pytest

from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.clue import MissingClues, assign_distinct, clue_book
from pipeline.model.cluefile import write_shards
from pipeline.model.puzzle import read_ipuz


def _setup(tmp_path, clues):
    fills = []
    for k, rows in enumerate((["CAT", "ORE", "WED"], ["BAT", "ORE", "WED"]), start=1):
        p = tmp_path / f"{k}.txt"
        p.write_text("\n".join(rows) + "\n")
        fills.append(p)
    shard_dir = tmp_path / "clues"
    write_shards(shard_dir, clues)
    return fills, shard_dir


CLUES = {  # two books' worth only where both puzzles share the answer
    "CAT": ["Feline"],
    "BAT": ["Cricket need"],
    "ORE": ["Mined rock", "Metal source"],
    "WED": ["Married"],
    "COW": ["Barn animal"],
    "BOW": ["Ribbon knot"],
    "ARE": ["Exist"],
    "TED": ["Spread for drying"],
}


def test_every_slot_clued_and_no_clue_twice(tmp_path):
    clues = dict(CLUES, WED=["Married", "Got hitched"], ARE=["Exist", "Live"], TED=["Spread for drying", "Turn hay"])
    fills, shards = _setup(tmp_path, clues)
    out = [tmp_path / "p1.ipuz", tmp_path / "p2.ipuz"]
    stats = clue_book(fills, shards, out, title="Puzzle {k}", author="A", copyright="C")
    assert stats["puzzles"] == 2
    seen = []
    for k, path in enumerate(out, start=1):
        puzzle = read_ipuz(path)
        assert puzzle.title == f"Puzzle {k}"
        for direction in ("across", "down"):
            for slot, answer, clue in puzzle.entries(direction):
                assert clue in clues[answer]
                seen.append(clue.lower())
    assert len(seen) == len(set(seen)), "a clue printed twice in one book"
    p1 = read_ipuz(out[0])
    assert p1.clues[("across", 4)] == "Mined rock" and read_ipuz(out[1]).clues[("across", 4)] == "Metal source"


def test_missing_clues_are_listed_and_nothing_written(tmp_path):
    clues = dict(CLUES)
    del clues["WED"]
    clues["ORE"] = ["Mined rock"]
    fills, shards = _setup(tmp_path, clues)
    out = [tmp_path / "p1.ipuz", tmp_path / "p2.ipuz"]
    with pytest.raises(MissingClues) as e:
        clue_book(fills, shards, out)
    msg = str(e.value)
    assert "WED (puzzle 1, 5-Across: no clue in the shards)" in msg
    assert "ORE (puzzle 2, 4-Across: every clue already used in this book)" in msg
    assert not any(p.exists() for p in out)


def test_only_needed_shards_are_opened(tmp_path, monkeypatch):
    fills, shards = _setup(tmp_path, dict(CLUES, WED=["Married", "Got hitched"], ARE=["Exist", "Live"], TED=["Spread for drying", "Turn hay"]))
    (shards / "_zz.txt").write_text("ZZZ no separator here\n")  # would fail if opened
    opened = []
    import pipeline.model.cluefile as cf

    real = cf.read_shard
    monkeypatch.setattr(cf, "read_shard", lambda p, wanted=None: opened.append(p.name) or real(p, wanted))
    clue_book(fills, shards, [tmp_path / "a.ipuz", tmp_path / "b.ipuz"])
    assert "_zz.txt" not in opened and "_ca.txt" in opened


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(st.integers(0, 12), max_size=4), max_size=25))
def test_assign_distinct_is_a_maximum_matching(options):
    import networkx as nx

    pick = assign_distinct(options)
    chosen = [p for p in pick if p is not None]
    assert len(chosen) == len(set(chosen))
    assert all(p is None or p in opts for p, opts in zip(pick, options))
    g = nx.Graph()
    items = [("i", i) for i in range(len(options))]
    g.add_nodes_from(items)
    for i, opts in enumerate(options):
        for o in opts:
            g.add_edge(("i", i), ("o", o))
    best = nx.bipartite.maximum_matching(g, top_nodes=items)
    assert len(chosen) == len(best) // 2
