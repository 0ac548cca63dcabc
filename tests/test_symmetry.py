"""Patterns alike under symmetry, and the diversity figure."""

from __future__ import annotations

import itertools
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.cli import main
from pipeline.encode import encode_patterns
from pipeline.model.grid import Grid, parse_grid
from pipeline.model.hexcodec import encode_grid, read_pattern_file
from pipeline.model.symmetry import canonical, diversity, images
from pipeline.patterns import generate_patterns


def _grids(rows, cols):
    return st.lists(st.sampled_from("#."), min_size=rows * cols, max_size=rows * cols).map(
        lambda cells: Grid(rows, cols, cells)
    )


def _rot90(g):
    n = g.rows
    return Grid(n, n, [g.cells[(n - 1 - c) * n + r] for r in range(n) for c in range(n)])


@settings(max_examples=60, deadline=None)
@given(g=st.one_of(_grids(4, 4), _grids(5, 5), _grids(3, 5)))
def test_canonical_is_the_same_for_every_image_and_only_for_them(g):
    key = canonical(g)
    assert all(canonical(h) == key for h in images(g))
    if g.rows == g.cols:
        assert canonical(_rot90(g)) == key
    # A pattern with the same key is one of the images.
    texts = {h.to_text() for h in images(g)}
    other = Grid(g.rows, g.cols, ["." if ch == "#" else "#" for ch in g.cells])
    assert (canonical(other) == key) == (other.to_text() in texts)


def test_images_of_squares_and_rectangles():
    g = parse_grid("#...\n....\n....\n....")
    assert len({h.to_text() for h in images(g)}) == 4  # the corner goes to the four corners
    r = parse_grid("#..\n...")
    assert len(images(r)) == 4 and len({h.to_text() for h in images(r)}) == 4


def test_diversity_against_brute_force():
    rnd = random.Random(4)
    gs = [Grid(5, 5, [rnd.choice("#..") for _ in range(25)]) for _ in range(30)]
    pairs = list(itertools.combinations(gs, 2))
    expected = sum(sum(a != b for a, b in zip(x.cells, y.cells)) / 25 for x, y in pairs) / len(pairs)
    assert abs(diversity(gs) - expected) < 1e-12
    assert diversity(gs[:1]) == 0.0 and diversity([gs[0]] * 5) == 0.0


def test_generated_patterns_are_distinct_under_symmetry():
    grids = generate_patterns(7, 7, 30, seed=11, max_blacks=14)
    keys = [canonical(g) for g in grids]
    assert len(set(keys)) == len(keys) == 30
    grids = generate_patterns(11, 11, 60, seed=11, max_blacks=24)
    assert len({canonical(g) for g in grids}) == 60


def test_encode_drops_turned_and_mirrored_duplicates(tmp_path, capsys):
    grids = generate_patterns(9, 9, 5, seed=3, max_blacks=20)
    a, b = tmp_path / "a.hex", tmp_path / "b.hex"
    a.write_text("".join(encode_grid(g) + "\n" for g in grids))
    # The same patterns again, each turned a quarter turn, plus one new one.
    extra = generate_patterns(9, 9, 6, seed=99, max_blacks=20)
    new = next(g for g in extra if canonical(g) not in {canonical(x) for x in grids})
    b.write_text("".join(encode_grid(_rot90(g)) + "\n" for g in grids) + encode_grid(new) + "\n")
    out = tmp_path / "out.hex"
    assert main(["encode", str(a), str(b), "--out", str(out)]) == 0
    kept = [g for _, _, g in read_pattern_file(out)]
    assert [g.to_text() for g in kept] == [g.to_text() for g in grids] + [new.to_text()]
    assert "diversity" in capsys.readouterr().err
    assert encode_patterns([b, a], tmp_path / "o2.hex") == 6
