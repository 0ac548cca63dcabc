"""Stage 3: pattern statistics and the filter's outputs."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from pipeline.filter import STATS_COLUMNS, check_pattern, filter_patterns, pattern_stats
from pipeline.model.errors import InputError
from pipeline.model.grid import parse_grid
from pipeline.model.hexcodec import encode_grid
from pipeline.patterns import generate_patterns, write_patterns

BENCH = Path(__file__).resolve().parent / "data" / "grids"  # copies of ../shared/bench/grids


def grid(name):
    return parse_grid((BENCH / f"{name}.txt").read_text())


def _runs(g):
    """Run lengths >= 2 across and down, counted by hand (the oracle)."""
    rows = g.row_strings()
    lines = rows + ["".join(r[c] for r in rows) for c in range(g.cols)]
    return [len(x) for line in lines for x in line.split("#") if len(x) >= 2]


def test_stats_of_the_78_word_grid():
    s = pattern_stats(grid("us15x15_78w"))
    lengths = _runs(grid("us15x15_78w"))
    assert s["words"] == 78 == len(lengths)
    assert s["blacks"] == 38
    assert s["whites"] == 225 - 38
    assert s["across"] + s["down"] == 78
    assert s["min_len"] == 3 and s["max_len"] == max(lengths) == 11
    assert s["mean_len"] == round(sum(lengths) / 78, 2)
    assert s["three_letter"] == lengths.count(3)
    assert s["unchecked"] == 0
    assert s["black_pct"] == 16.9
    hist = dict(map(int, kv.split(":")) for kv in s["lengths"].split(","))
    assert sum(hist.values()) == 78
    assert hist == {k: lengths.count(k) for k in set(lengths)}
    assert list(hist) == sorted(hist)


def test_stats_of_other_grids():
    s = pattern_stats(grid("us15x15_72w"))
    assert (s["words"], s["blacks"]) == (72, 32)
    s = pattern_stats(parse_grid("#.#\n...\n#.#"))  # a plus: only the centre is checked
    assert (s["words"], s["unchecked"], s["lengths"]) == (2, 4, "3:2")
    s = pattern_stats(parse_grid("...\n...\n..."))
    assert (s["words"], s["unchecked"], s["three_letter"]) == (6, 0, 6)
    s = pattern_stats(parse_grid("###\n###"))
    assert (s["words"], s["min_len"], s["max_len"], s["mean_len"], s["lengths"]) == (0, 0, 0, 0.0, "")


def test_check_pattern_reasons():
    s = pattern_stats(grid("us15x15_78w"))
    assert check_pattern(s) == []
    assert check_pattern(s, max_words=75) == ["words 78 > 75"]
    assert check_pattern(s, max_words=80, min_words=80, max_blacks=30) == ["words 78 < 80", "blacks 38 > 30"]
    assert check_pattern(s, max_words=None, max_blacks=None, max_three_letter=s["three_letter"] - 1) == [
        f"three_letter {s['three_letter']} > {s['three_letter'] - 1}"
    ]


def test_filter_writes_kept_patterns_and_table(tmp_path):
    names = ["us15x15_78w", "us15x15_72w", "mini7x7"]
    src = tmp_path / "connected.txt"
    src.write_text("\n".join(encode_grid(grid(n)) for n in names) + "\n\n")
    out, tsv = tmp_path / "filtered.txt", tmp_path / "stats.tsv"
    kept, dropped = filter_patterns(src, out, tsv, max_words=75, max_blacks=40)
    assert (kept, dropped) == (2, 1)
    assert out.read_text().splitlines() == [encode_grid(grid("us15x15_72w")), encode_grid(grid("mini7x7"))]

    with open(tsv, newline="") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    header = tsv.read_text().splitlines()[0].split("\t")
    assert tuple(header) == STATS_COLUMNS
    for col in ("hex", "words", "blacks", "whites", "min_len", "max_len", "mean_len", "three_letter", "lengths", "kept", "reason"):
        assert col in header
    assert [r["line"] for r in rows] == ["1", "2", "3"]
    assert rows[0]["hex"] == encode_grid(grid("us15x15_78w"))
    assert (rows[0]["words"], rows[0]["blacks"], rows[0]["kept"], rows[0]["reason"]) == ("78", "38", "no", "words 78 > 75")
    assert (rows[1]["words"], rows[1]["kept"], rows[1]["reason"]) == ("72", "yes", "")
    assert rows[2]["rows"] == "7" and rows[2]["kept"] == "yes"


def test_filter_defaults_on_generated_patterns(tmp_path):
    grids = generate_patterns(15, 15, 10, seed=9)
    src = tmp_path / "p.txt"
    write_patterns(src, grids)
    out, tsv = tmp_path / "f.txt", tmp_path / "s.tsv"
    kept, dropped = filter_patterns(src, out, tsv)
    assert kept + dropped == 10 and kept >= 6
    table = tsv.read_text().splitlines()
    assert len(table) == 11
    for line, g in zip(table[1:], grids):
        row = dict(zip(STATS_COLUMNS, line.split("\t")))
        words = len(g.slots())
        assert int(row["words"]) == words
        assert row["kept"] == ("yes" if words <= 78 and g.black_count() <= 40 else "no")
        if row["kept"] == "no":
            assert row["reason"] == f"words {words} > 78"


def test_filter_bad_input_writes_nothing(tmp_path):
    src = tmp_path / "p.txt"
    src.write_text(encode_grid(grid("mini7x7")) + "\nFFFFh\n")  # 17 bits: not square
    out, tsv = tmp_path / "f.txt", tmp_path / "s.tsv"
    with pytest.raises(InputError, match="not a square") as e:
        filter_patterns(src, out, tsv)
    assert e.value.line == 2
    assert not out.exists() and not tsv.exists()


def _cheaters_by_whitening(g):
    """The oracle: whiten each black square; a cheater keeps the word count
    and becomes a checked cell (in an across and a down word)."""
    base = len(g.slots())
    n = 0
    for i, ch in enumerate(g.cells):
        if ch != "#":
            continue
        cells = list(g.cells)
        cells[i] = "."
        h = type(g)(g.rows, g.cols, cells)
        in_slots = [s for s in h.slots() if i in s.cells]
        if len(h.slots()) == base and {s.direction for s in in_slots} == {"across", "down"}:
            n += 1
    return n


def _longest_black_run(g):
    rows = g.row_strings()
    lines = rows + ["".join(r[c] for r in rows) for c in range(g.cols)]
    return max((len(x) for line in lines for x in line.split(".") if x), default=0)


@pytest.mark.parametrize("name", ["us15x15_78w", "us15x15_72w", "us21x21_140w", "mini7x7", "ss_15xcommon"])
def test_cheaters_and_black_runs_against_oracles(name):
    g = grid(name)
    s = pattern_stats(g)
    assert s["cheaters"] == _cheaters_by_whitening(g)
    assert s["max_black_run"] == _longest_black_run(g)


def test_cheaters_and_black_runs_on_generated_patterns():
    grids = generate_patterns(15, 15, 25, seed=5, max_blacks=40, min_blacks=28, max_slot_length=11)
    counts = [pattern_stats(g)["cheaters"] for g in grids]
    assert counts == [_cheaters_by_whitening(g) for g in grids]
    assert any(counts), "the sample should hold some cheaters"
    assert [pattern_stats(g)["max_black_run"] for g in grids] == [_longest_black_run(g) for g in grids]


def test_bounds_on_any_statistic(tmp_path):
    from pipeline.cli import main

    grids = generate_patterns(15, 15, 30, seed=2, max_blacks=40, min_blacks=28, max_slot_length=11)
    src = tmp_path / "in.hex"
    write_patterns(src, grids)
    limit = sorted(pattern_stats(g)["three_letter"] for g in grids)[15]
    out, stats = tmp_path / "out.hex", tmp_path / "stats.tsv"
    code = main(["filter", str(src), "--out", str(out), "--stats", str(stats), "--max-words", "200",
                 "--bound", f"three_letter=:{limit}", "--bound", "cheaters=1:"])
    assert code == 0
    table = list(csv.DictReader(stats.open(), delimiter="\t"))
    for row, g in zip(table, grids):
        s = pattern_stats(g)
        ok = s["three_letter"] <= limit and s["cheaters"] >= 1
        assert row["kept"] == ("yes" if ok else "no"), row
        if s["three_letter"] > limit:
            assert f"three_letter {s['three_letter']} > {limit}" in row["reason"]
        if s["cheaters"] < 1:
            assert "cheaters 0 < 1" in row["reason"]
    kept = [line for line in out.read_text().splitlines()]
    assert kept == [r["hex"] for r in table if r["kept"] == "yes"] and 0 < len(kept) < len(grids)


@pytest.mark.parametrize("bad", ["three_letter<=16", "letters=:3", "words=a:b", "words=5"])
def test_bad_bounds_are_refused(bad, tmp_path, capsys):
    from pipeline.cli import main

    src = tmp_path / "in.hex"
    write_patterns(src, generate_patterns(5, 5, 1, seed=1, max_blacks=5))
    code = main(["filter", str(src), "--out", str(tmp_path / "o"), "--stats", str(tmp_path / "s"), "--bound", bad])
    assert code == 2 and bad in capsys.readouterr().err
    assert not (tmp_path / "o").exists() and not (tmp_path / "s").exists()


def test_config_schema_takes_pattern_bounds():
    import jsonschema
    import yaml

    from conftest import ROOT

    schema = yaml.safe_load((ROOT / "config" / "config.schema.yaml").read_text())
    config = yaml.safe_load((ROOT / "config" / "config.yaml").read_text())
    jsonschema.validate(config, schema)
    jsonschema.validate({**config, "pattern_bounds": {"cheaters": {"max": 6}, "mean_len": {"min": 4.8}}}, schema)
    for bad in [{"cheater": {"max": 6}}, {"cheaters": {"most": 6}}, {"cheaters": {}}]:
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate({**config, "pattern_bounds": bad}, schema)
