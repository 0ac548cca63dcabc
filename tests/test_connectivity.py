"""Stage 2: connectivity of the white cells."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.connectivity import components, is_connected, keep_connected, white_graph
from pipeline.model.errors import InputError
from pipeline.model.grid import Grid, parse_grid
from pipeline.model.hexcodec import decode_pattern, encode_grid
from pipeline.patterns import generate_patterns, write_patterns

BENCH = Path(__file__).resolve().parent / "data" / "grids"  # copies of ../shared/bench/grids

# Symmetric, every run >= 3, but a black wall cuts it in two.
SPLIT = parse_grid(
    """\
...#...
...#...
...#...
#######
...#...
...#...
...#...
"""
)

# One region: a ring around a black centre.
RING = parse_grid(
    """\
.....
.....
..#..
.....
.....
"""
)


def _flood(grid: Grid) -> int:
    """Regions of white cells by a plain flood fill (the oracle)."""
    seen, regions = set(), 0
    for start in range(grid.rows * grid.cols):
        if grid.is_black(start) or start in seen:
            continue
        regions += 1
        todo = [start]
        seen.add(start)
        while todo:
            r, c = divmod(todo.pop(), grid.cols)
            for rr, cc in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                j = rr * grid.cols + cc
                if 0 <= rr < grid.rows and 0 <= cc < grid.cols and not grid.is_black(j) and j not in seen:
                    seen.add(j)
                    todo.append(j)
    return regions


@pytest.mark.parametrize("name", ["us15x15_72w", "us15x15_78w", "us21x21_140w", "mini7x7", "open5x5"])
def test_real_grids_are_connected(name):
    grid = parse_grid((BENCH / f"{name}.txt").read_text())
    assert is_connected(grid)
    assert len(components(grid)) == 1


def test_split_grid():
    assert not is_connected(SPLIT)
    parts = components(SPLIT)
    assert [len(p) for p in parts] == [9, 9, 9, 9]
    assert parts[0] == {0, 1, 2, 7, 8, 9, 14, 15, 16}
    assert min(parts[1]) == 4  # ordered by first cell


def test_ring_and_edge_cases():
    assert is_connected(RING)
    assert white_graph(RING).number_of_edges() == 2 * 5 * 4 - 4
    assert not is_connected(Grid(2, 2, "####"))  # no white cell, no puzzle
    assert components(Grid(2, 2, "####")) == []
    assert is_connected(Grid(1, 1, "."))
    assert not is_connected(Grid(1, 3, ".#."))
    # Letters are white cells too.
    assert is_connected(parse_grid("AB\n#C"))


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 7), st.integers(1, 7), st.data())
def test_agrees_with_flood_fill(rows, cols, data):
    bits = data.draw(st.text(alphabet="01", min_size=rows * cols, max_size=rows * cols))
    grid = Grid.from_bits(bits, rows, cols)
    regions = _flood(grid)
    assert len(components(grid)) == regions
    assert is_connected(grid) == (regions == 1)
    # Wrapping across a row end is not adjacency.
    cells = set().union(*components(grid)) if regions else set()
    assert cells == {i for i in range(rows * cols) if not grid.is_black(i)}


def test_keep_connected_file(tmp_path):
    src = tmp_path / "patterns.txt"
    good = parse_grid((BENCH / "us15x15_78w.txt").read_text())
    src.write_text(f"{encode_grid(good)}\n\n{encode_grid(SPLIT)}\n{encode_grid(RING)}\n")
    out = tmp_path / "connected.txt"
    assert keep_connected(src, out) == (2, 1)
    assert out.read_text().splitlines() == [encode_grid(good), encode_grid(RING)]


def test_keep_connected_generated_patterns(tmp_path):
    grids = generate_patterns(15, 15, 12, seed=5)
    src, out = tmp_path / "p.txt", tmp_path / "c.txt"
    write_patterns(src, grids)
    kept, dropped = keep_connected(src, out)
    assert kept + dropped == 12
    lines = out.read_text().splitlines()
    assert len(lines) == kept
    assert kept >= 8  # most generated patterns are connected
    survivors = [decode_pattern(line) for line in lines]
    assert all(is_connected(g) for g in survivors)
    assert survivors == [g for g in grids if is_connected(g)]  # order kept


def test_keep_connected_bad_line_names_file_and_line(tmp_path):
    src = tmp_path / "p.txt"
    src.write_text(f"{encode_grid(RING)}\n\nFFZZ\n")
    out = tmp_path / "c.txt"
    with pytest.raises(InputError) as e:
        keep_connected(src, out)
    assert e.value.line == 3 and e.value.path == str(src)
    assert f"{src}:3:" in str(e.value)
    assert not out.exists()
    with pytest.raises(InputError, match="not found"):
        keep_connected(tmp_path / "missing.txt", out)
