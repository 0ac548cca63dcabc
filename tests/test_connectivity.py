"""Stage 2: connectivity of the white cells."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.cli import main
from pipeline.connectivity import REPORT_COLUMNS, components, connectivity_reasons, is_connected, keep_connected, white_graph
from pipeline.model.errors import InputError
from pipeline.model.graph import cut_cells
from pipeline.model.grid import Grid, parse_grid
from pipeline.model.hexcodec import decode_pattern, encode_grid
from pipeline.model.rules import Rules
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


# A British (quarter-turn) grid that keeps every other rule but hangs on four
# cells: filling r3c3 cuts off the 9 white squares of the top-left corner.
HANGS = parse_grid(
    """\
....#....
.#.###.#.
.........
.#.#.#.#.
##.....##
.#.#.#.#.
.........
.#.###.#.
....#....
"""
)
HANGS_CUTS = "cut cells: r3c3 (parts 47, 9), r3c7 (parts 47, 9), r7c3 (parts 47, 9), r7c7 (parts 47, 9)"

# The classic British lattice: no cell holds any part of it on.
LATTICE = parse_grid("\n".join("." * 9 if r % 2 == 0 else ".#" * 4 + "." for r in range(9)))


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


def _write(path, grids):
    path.write_text("".join(encode_grid(g) + "\n" for g in grids))
    return path


def _report(path):
    lines = path.read_text().splitlines()
    assert lines[0].split("\t") == list(REPORT_COLUMNS)
    return [tuple(line.split("\t")) for line in lines[1:]]


def test_split_grid_is_dropped_naming_its_regions(tmp_path):
    src = _write(tmp_path / "in.hex", [RING, SPLIT, LATTICE])
    out, report = tmp_path / "out.hex", tmp_path / "dropped.tsv"
    result = keep_connected(src, out, report=report)
    assert result == (2, 1) and (result.kept, result.dropped) == (2, 1)
    regions = "white squares in 4 regions (9 from r1c1, 9 from r1c5, 9 from r5c1, 9 from r5c5)"
    assert result.reasons == [(2, encode_grid(SPLIT), regions)]
    assert _report(report) == [("2", encode_grid(SPLIT), regions)]
    assert out.read_text().splitlines() == [encode_grid(RING), encode_grid(LATTICE)]


def test_british_grid_that_hangs_on_a_cell(tmp_path):
    src = _write(tmp_path / "in.hex", [LATTICE, HANGS])
    out, report = tmp_path / "out.hex", tmp_path / "dropped.tsv"
    # American rules ask only for one region: both are.
    assert keep_connected(src, out) == (2, 0)
    result = keep_connected(src, out, "british", report=report)
    assert result == (1, 1)
    assert result.reasons == [(2, encode_grid(HANGS), HANGS_CUTS)]
    assert _report(report) == [("2", encode_grid(HANGS), HANGS_CUTS)]
    assert out.read_text().splitlines() == [encode_grid(LATTICE)]
    # The rule switched off keeps it.
    assert keep_connected(src, out, "british", {"no_cut_cell": False}, report=report) == (2, 0)
    assert _report(report) == []


def test_connected_rule_off_keeps_split_grids(tmp_path):
    src = _write(tmp_path / "in.hex", [SPLIT, RING])
    out = tmp_path / "out.hex"
    assert keep_connected(src, out, overrides={"connected": False}) == (2, 0)
    assert out.read_text().splitlines() == [encode_grid(SPLIT), encode_grid(RING)]


def test_cut_cells_are_judged_within_each_region():
    # Filling r1c7 strands one cell of the right region; the whole grid's
    # articulation points would count the left region as a part cut off too.
    g = parse_grid("...#....\n...#...#\n...#....")
    assert cut_cells(g) == {}
    assert connectivity_reasons(g, Rules(connected=False, no_cut_cell=True)) == []
    assert connectivity_reasons(g, Rules(no_cut_cell=True)) == ["white squares in 2 regions (9 from r1c1, 11 from r1c5)"]
    assert connectivity_reasons(Grid(2, 2, "####"), Rules()) == ["no white square"]
    assert connectivity_reasons(Grid(2, 2, "####"), Rules(connected=False, no_cut_cell=True)) == []


def _cuts_by_hand(g):
    """Cells whose filling splits the grid into parts of 3 or more (the oracle)."""
    out = []
    for i in range(g.rows * g.cols):
        if not g.is_black(i):
            cells = ["#" if j == i else ch for j, ch in enumerate(g.cells)]
            parts = sorted((len(p) for p in components(Grid(g.rows, g.cols, cells))), reverse=True)
            if len(parts) > 1 and parts[1] >= 3:
                out.append(f"r{i // g.cols + 1}c{i % g.cols + 1} (parts {', '.join(map(str, parts))})")
    return out


def test_many_cut_cells_name_the_first_five():
    dumbbell = parse_grid("...#########...\n...............\n...#########...")  # two blocks, a corridor
    expected = _cuts_by_hand(dumbbell)
    assert len(expected) == 11
    r = connectivity_reasons(dumbbell, Rules(no_cut_cell=True))
    assert r == ["cut cells: " + ", ".join(expected[:5]) + " and 6 more"]
    assert connectivity_reasons(HANGS, Rules(no_cut_cell=True)) == [HANGS_CUTS] == ["cut cells: " + ", ".join(_cuts_by_hand(HANGS))]


def test_cli_connectivity_prints_counts_and_reasons(tmp_path, capsys):
    src = _write(tmp_path / "in.hex", [LATTICE, HANGS, SPLIT])
    out, report = tmp_path / "out.hex", tmp_path / "r.tsv"
    args = ["connectivity", str(src), "--out", str(out), "--style", "british"]
    assert main(args + ["--report", str(report)]) == 0
    err = capsys.readouterr().err.splitlines()
    assert err[0] == "xw: connectivity: kept 1, dropped 2"
    assert err[1] == f"xw: connectivity: {src}:2: {HANGS_CUTS}"
    assert err[2].startswith(f"xw: connectivity: {src}:3: white squares in 4 regions (9 from r1c1, ")
    assert [row[0] for row in _report(report)] == ["2", "3"]
    assert main(args + ["--rule", "no_cut_cell=false"]) == 0
    assert capsys.readouterr().err.splitlines()[0] == "xw: connectivity: kept 2, dropped 1"


def test_cli_connectivity_prints_ten_reasons_at_most(tmp_path, capsys):
    src = _write(tmp_path / "in.hex", [SPLIT] * 12)
    assert main(["connectivity", str(src), "--out", str(tmp_path / "o")]) == 0
    err = capsys.readouterr().err.splitlines()
    assert err[0] == "xw: connectivity: kept 0, dropped 12"
    assert len(err) == 12 and err[-1] == "xw: connectivity: ... and 2 more"


@pytest.mark.parametrize(
    "rule, words",
    [
        ("no_cut_cels=false", ["no_cut_cels", "--rule", "no_cut_cell"]),
        ("no_cut_cell=maybe", ["--rule.no_cut_cell", "'maybe' is not true or false"]),
        ("min_slot_length=-1", ["min_slot_length", "-1"]),
        ("no_cut_cell", ["no_cut_cell", "NAME=VALUE"]),
    ],
)
def test_cli_connectivity_bad_rule(rule, words, tmp_path, capsys):
    src = _write(tmp_path / "in.hex", [HANGS])
    out, report = tmp_path / "out.hex", tmp_path / "r.tsv"
    code = main(["connectivity", str(src), "--out", str(out), "--style", "british", "--rule", rule, "--report", str(report)])
    err = capsys.readouterr().err
    assert code == 2 and err.startswith("xw connectivity: error: ") and err.count("\n") == 1
    for w in words:
        assert w in err
    assert not out.exists() and not report.exists()


def test_bad_rule_is_refused_even_without_patterns(tmp_path):
    src = tmp_path / "empty.hex"
    src.write_text("")
    with pytest.raises(InputError, match="no rule 'no_cut_cels'"):
        keep_connected(src, tmp_path / "out.hex", "british", {"no_cut_cels": False})
    assert not (tmp_path / "out.hex").exists()
    assert keep_connected(src, tmp_path / "out.hex", "british", {"no_cut_cell": False}) == (0, 0)


def test_bad_style_and_rules_that_do_not_fit_a_pattern(tmp_path, capsys):
    src = _write(tmp_path / "in.hex", [RING, Grid(5, 7, "." * 35)])
    out = tmp_path / "out.hex"
    with pytest.raises(SystemExit) as e:
        main(["connectivity", str(src), "--out", str(out), "--style", "welsh"])
    assert e.value.code == 2 and "invalid choice: 'welsh'" in capsys.readouterr().err
    with pytest.raises(InputError, match="style 'welsh': one of american, british"):
        keep_connected(src, out, "welsh")
    # Quarter-turn symmetry cannot apply to the 5x7 pattern on line 2.
    with pytest.raises(InputError, match="quarter-turn symmetry needs a square grid, not 5x7") as e:
        keep_connected(src, out, "british", {"symmetry": "quarter"})
    assert (e.value.path, e.value.line) == (str(src), 2)
    assert not out.exists()
