"""The shared model: grid text, slots and numbering, word lists, clue shards, ipuz."""

from __future__ import annotations

import json

import pytest

from pipeline.model.cluefile import read_clues_for, read_shard, shard_name, write_shards
from pipeline.model.errors import InputError
from pipeline.model.fileio import atomic_write
from pipeline.model.grid import Grid, parse_grid
from pipeline.model.puzzle import Puzzle, read_ipuz, write_ipuz
from pipeline.model.wordlist import normalise, read_wordlist, write_wordlist


def test_parse_grid_and_numbering():
    g = parse_grid("#...\n....\n....\n...#\n")
    assert (g.rows, g.cols) == (4, 4)
    labels = [s.label for s in g.slots()]
    assert labels == ["1A", "4A", "5A", "6A", "1D", "2D", "3D", "4D"]
    assert g.numbers() == {1: 1, 2: 2, 3: 3, 4: 4, 8: 5, 12: 6}
    assert [s.length for s in g.slots()] == [3, 4, 4, 3, 4, 4, 3, 3]


def test_bench_grid_counts(bench_grid):
    g = parse_grid(bench_grid("us15x15_78w.txt"))
    assert len(g.slots()) == 78
    assert g.black_count() == 38


def test_emogic_template_and_letters():
    g = parse_grid("xoo\nCAT\noox")
    assert g.row_strings() == ["#..", "CAT", "..#"]
    # capital X and O are letters, never Emogic's black/empty
    assert parse_grid("XO#\n").row_strings() == ["XO#"]


@pytest.mark.parametrize(
    "text, problem",
    [("..\n...\n", ":2: row has 3 cells"), (".!.\n", ":1: column 2: '!'"), ("", "no grid")],
)
def test_parse_grid_errors_name_the_line(text, problem):
    with pytest.raises(InputError) as e:
        parse_grid(text, path="g.txt")
    assert problem in str(e.value)
    assert str(e.value).startswith("g.txt")


def test_normalise_folds_accents_and_drops_punctuation():
    assert normalise("Ice-cream") == "ICECREAM"
    assert normalise("naïve") == "NAIVE"
    assert normalise("Straße") == "STRASSE"
    for bad in ("R2D2", "東京"):
        with pytest.raises(ValueError):
            normalise(bad)


def test_wordlist_round_trip_and_errors(tmp_path):
    p = tmp_path / "w.txt"
    p.write_text("# comment\ncat;60\nDOG\nice cream;55.5\n\n")
    words = read_wordlist(p)
    assert words == {"CAT": 60, "DOG": 50, "ICECREAM": 55.5}
    write_wordlist(tmp_path / "o.txt", words)
    assert (tmp_path / "o.txt").read_text() == "CAT;60\nDOG;50\nICECREAM;55.5\n"
    for body, msg in [
        ("CAT;60\nC4T;3\n", ":2: digit"),
        ("CAT;-1\n", ":1: score '-1'"),
        ("CAT;x\n", ":1: score 'x'"),
        ("CAT\ncat;40\n", ":2: CAT is listed twice (first on line 1)"),
        (";40\n", ":1: no letters"),
    ]:
        p.write_text(body)
        with pytest.raises(InputError) as e:
            read_wordlist(p)
        assert msg in str(e.value), str(e.value)


def test_clue_shards_round_trip_and_errors(tmp_path):
    clues = {"AEON": ["Very long time", "Age"], "ABBA": ["Swedish pop group"], "ZOO": ["Animal park"]}
    paths = write_shards(tmp_path, clues)
    assert sorted(p.name for p in paths) == ["_ab.txt", "_ae.txt", "_zo.txt"]
    assert read_shard(tmp_path / "_ae.txt") == {"AEON": ["Very long time", "Age"]}
    assert read_clues_for(tmp_path, {"AEON", "ZOO", "QUUX"}) == {
        "AEON": ["Very long time", "Age"],
        "ZOO": ["Animal park"],
    }
    assert shard_name("QUUX") == "_qu.txt"
    bad = tmp_path / "_xx.txt"
    for body, msg in [
        ("XYZ no bar\n", ":1: no '|'"),
        ("XYZ|ok\nXYZ|\n", ":2: empty clue"),
        ("XYZ|a\x00b\n", ":1: control character U+0000"),
        ("XYZ|" + "x" * 100_000 + "\n", ":1: clue of 100000 characters"),
    ]:
        bad.write_text(body)
        with pytest.raises(InputError) as e:
            read_shard(bad)
        assert msg in str(e.value)


def test_atomic_write_leaves_nothing_on_error(tmp_path):
    target = tmp_path / "out.txt"
    with pytest.raises(RuntimeError):
        with atomic_write(target) as f:
            f.write("half")
            raise RuntimeError("crash")
    assert list(tmp_path.iterdir()) == []


def _small_puzzle():
    grid = parse_grid("CAT#\nARE.\nTEN.\n".replace(".", "S"))
    clues = {(s.direction, s.number): f"Clue for {grid.word(s)} & {{TeX}}" for s in grid.slots()}
    return Puzzle(grid=grid, clues=clues, title="Test", author="Me", copyright="CC0")


def test_ipuz_written_is_read_by_the_ipuz_package(tmp_path):
    import ipuz

    puzzle = _small_puzzle()
    path = tmp_path / "p.ipuz"
    write_ipuz(path, puzzle)
    data = ipuz.read(path.read_text())  # the third-party reader validates the format
    assert data["version"] == "http://ipuz.org/v2"
    assert data["kind"] == ["http://ipuz.org/crossword#1"]
    assert data["dimensions"] == {"width": 4, "height": 3}
    assert data["solution"][0] == ["C", "A", "T", "#"]
    assert data["puzzle"][0] == [1, 2, 3, "#"]
    back = read_ipuz(path)
    assert back.grid == puzzle.grid and back.clues == puzzle.clues


def test_ipuz_errors(tmp_path):
    p = tmp_path / "bad.ipuz"
    p.write_text("{not json")
    with pytest.raises(InputError, match="not JSON"):
        read_ipuz(p)
    data = _small_puzzle().to_ipuz()
    data["clues"]["Across"] = data["clues"]["Across"][1:]
    p.write_text(json.dumps(data))
    with pytest.raises(InputError, match="no clue for 1A"):
        read_ipuz(p)


def test_grid_from_bits_round_trip():
    g = Grid.from_bits("110111011", 3, 3)
    assert g.row_strings() == ["..#", "...", "#.."]
    assert g.to_bits() == "110111011"
