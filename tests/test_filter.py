"""Stage 3: pattern statistics and the filter's outputs."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.cli import main
from pipeline.filter import BOUNDABLE, STATS_COLUMNS, check_pattern, filter_patterns, pattern_stats, prescreen
from pipeline.model.errors import InputError
from pipeline.model.grid import Grid, parse_grid
from pipeline.model.hexcodec import encode_grid
from pipeline.model.rules import rule_violations, style_rules
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


# British grids (quarter-turn): the lattice keeps every rule; HANGS keeps all
# but one, four corners each hang on a single cell.
LATTICE = parse_grid("\n".join("." * 9 if r % 2 == 0 else ".#" * 4 + "." for r in range(9)))
HANGS = parse_grid(
    "....#....\n.#.###.#.\n.........\n.#.#.#.#.\n##.....##\n.#.#.#.#.\n.........\n.#.###.#.\n....#...."
)


def _open_square_by_hand(g):
    """The largest k with a k x k block of white cells, trying every block (the oracle)."""
    best = 0
    for k in range(1, min(g.rows, g.cols) + 1):
        for r in range(g.rows - k + 1):
            for c in range(g.cols - k + 1):
                if all(not g.is_black((r + i) * g.cols + c + j) for i in range(k) for j in range(k)):
                    best = k
    return best


def _checked_min_by_hand(g):
    """Lowest share of letters in an across and a down word, word by word (the oracle)."""
    words = _runs_with_cells(g)
    counts = {}
    for cells in words:
        for i in cells:
            counts[i] = counts.get(i, 0) + 1
    return round(min((sum(counts[i] == 2 for i in w) / len(w) for w in words), default=0.0), 2)


def _runs_with_cells(g):
    lines = [[r * g.cols + c for c in range(g.cols)] for r in range(g.rows)]
    lines += [[r * g.cols + c for r in range(g.rows)] for c in range(g.cols)]
    words = []
    for line in lines:
        run = []
        for i in line + [None]:
            if i is not None and not g.is_black(i):
                run.append(i)
            else:
                if len(run) >= 2:
                    words.append(run)
                run = []
    return words


def test_new_columns_on_hand_made_grids():
    s = pattern_stats(grid("open5x5"))
    assert (s["open_square"], s["checked_min"]) == (5, 1.0)
    s = pattern_stats(LATTICE)  # 5 of the 9 letters of a row or column word are checked
    assert (s["open_square"], s["checked_min"]) == (1, 0.56)
    s = pattern_stats(HANGS)  # 1A: 2 of its 4 letters checked
    assert (s["open_square"], s["checked_min"]) == (1, 0.5)
    s = pattern_stats(parse_grid("#.#\n...\n#.#"))  # a plus: 1 of 3 checked
    assert (s["open_square"], s["checked_min"]) == (1, 0.33)
    s = pattern_stats(parse_grid("....#\n....#\n....#\n....#\n#####"))
    assert (s["open_square"], s["checked_min"]) == (4, 1.0)
    s = pattern_stats(parse_grid("###\n###"))
    assert (s["open_square"], s["checked_min"]) == (0, 0.0)
    s = pattern_stats(parse_grid(".#.\n#.#"))  # white squares, but no word
    assert (s["open_square"], s["checked_min"]) == (1, 0.0)
    assert STATS_COLUMNS.index("checked_min") < STATS_COLUMNS.index("open_square") < STATS_COLUMNS.index("lengths")
    assert {"checked_min", "open_square"} <= set(BOUNDABLE)


@pytest.mark.parametrize("name", ["us15x15_78w", "us15x15_72w", "us21x21_140w", "mini7x7", "ss_15xcommon", "open6x6"])
def test_new_columns_against_oracles(name):
    _agrees_with_oracles(grid(name))


def _agrees_with_oracles(g):
    s = pattern_stats(g)
    assert (s["open_square"], s["checked_min"]) == (_open_square_by_hand(g), _checked_min_by_hand(g))


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 8), st.integers(1, 8), st.data())
def test_new_columns_agree_with_oracles_on_any_grid(rows, cols, data):
    bits = data.draw(st.text(alphabet="0111", min_size=rows * cols, max_size=rows * cols))
    _agrees_with_oracles(Grid.from_bits(bits, rows, cols))


def _table(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f, delimiter="\t"))


def _src(tmp_path, grids):
    src = tmp_path / "in.hex"
    src.write_text("".join(encode_grid(g) + "\n" for g in grids))
    return src


def test_style_violations_are_reasons(tmp_path):
    src = _src(tmp_path, [LATTICE, HANGS, grid("mini7x7")])
    out, tsv = tmp_path / "out.hex", tmp_path / "s.tsv"
    assert filter_patterns(src, out, tsv) == (3, 0)  # no style: no rules
    assert filter_patterns(src, out, tsv, style="british") == (1, 2)
    rows = _table(tsv)
    assert [r["kept"] for r in rows] == ["yes", "no", "no"]
    assert rows[1]["reason"] == "cut cells: " + ", ".join(f"{c} (parts 47, 9)" for c in ("r3c3", "r3c7", "r7c3", "r7c7"))
    # mini7x7 has 2x2 white blocks, far more than five: five are listed.
    mini = rule_violations(grid("mini7x7"), style_rules("british", 7, 7))
    assert len(mini) > 5 and rows[2]["reason"] == "; ".join(mini[:5])
    assert "a 2x2 block of white squares" in rows[2]["reason"]
    assert out.read_text().splitlines() == [encode_grid(LATTICE)]
    # American rules: the lattice's unchecked letters, the mini is fine.
    assert filter_patterns(src, out, tsv, style="american") == (1, 2)
    rows = _table(tsv)
    assert rows[0]["reason"].startswith("r1c2: in a 9-letter across word but no down word (unchecked); ")
    assert rows[2]["kept"] == "yes"
    # A rule switched off.
    assert filter_patterns(src, out, tsv, style="british", overrides={"no_cut_cell": False}) == (2, 1)


def test_a_reason_shared_by_a_limit_and_a_rule_is_given_once(tmp_path):
    src = _src(tmp_path, [grid("us15x15_78w")])
    out, tsv = tmp_path / "out.hex", tmp_path / "s.tsv"
    filter_patterns(src, out, tsv, max_words=75, style="american", overrides={"max_words": 75, "max_blacks": 30})
    assert _table(tsv)[0]["reason"] == "words 78 > 75; blacks 38 > 30"


def test_rules_need_a_style_and_must_fit_the_pattern(tmp_path):
    src = _src(tmp_path, [grid("mini7x7"), Grid(5, 7, "." * 35)])
    out, tsv = tmp_path / "out.hex", tmp_path / "s.tsv"
    with pytest.raises(InputError, match="rules need a style"):
        filter_patterns(src, out, tsv, overrides={"no_cut_cell": False})
    with pytest.raises(InputError, match="quarter-turn symmetry needs a square grid, not 5x7") as e:
        filter_patterns(src, out, tsv, style="british", overrides={"symmetry": "quarter"})
    assert (e.value.path, e.value.line) == (str(src), 2)
    assert not out.exists() and not tsv.exists()


def test_bad_style(tmp_path, capsys):
    src = _src(tmp_path, [LATTICE])
    with pytest.raises(InputError, match="style 'welsh': one of american, british"):
        filter_patterns(src, tmp_path / "o", tmp_path / "s", style="welsh")
    with pytest.raises(SystemExit) as e:
        main(["filter", str(src), "--out", str(tmp_path / "o"), "--stats", str(tmp_path / "s"), "--style", "welsh"])
    assert e.value.code == 2 and "invalid choice: 'welsh'" in capsys.readouterr().err
    assert not (tmp_path / "o").exists() and not (tmp_path / "s").exists()


def test_bad_rule_is_refused_even_without_patterns(tmp_path):
    src = _src(tmp_path, [])
    with pytest.raises(InputError, match="max_words: 'lots' is not a whole number"):
        filter_patterns(src, tmp_path / "o", tmp_path / "s", style="american", overrides={"max_words": "lots"})
    assert not (tmp_path / "o").exists() and not (tmp_path / "s").exists()


def _wordlist(path, words):
    path.write_text("".join(f"{w};50\n" for w in words))
    return path


FIVES = ["ABACK", "BLAST", "CRANE", "DWELL", "EMBER", "FLAIR", "GRAVY", "HOIST", "IVORY", "JOUST"]


def test_prescreen_drops_what_the_list_cannot_supply(tmp_path):
    src = _src(tmp_path, [grid("open5x5"), grid("open4x4")])  # 10 five-letter slots; 8 four-letter
    out, tsv = tmp_path / "out.hex", tmp_path / "s.tsv"
    short = _wordlist(tmp_path / "short.txt", FIVES[:9] + ["CAT", "DOGS"])
    assert filter_patterns(src, out, tsv, wordlist=short) == (0, 2)
    rows = _table(tsv)
    assert rows[0]["reason"] == "prescreen: 10 5-letter slots, the list has 9 5-letter words"
    assert rows[1]["reason"] == "prescreen: 8 4-letter slots, the list has 1 4-letter words"
    enough = _wordlist(tmp_path / "enough.txt", FIVES + ["CAT", "DOGS"])
    assert filter_patterns(src, out, tsv, wordlist=enough) == (1, 1)
    assert [r["kept"] for r in _table(tsv)] == ["yes", "no"]
    assert out.read_text().splitlines() == [encode_grid(grid("open5x5"))]


def test_prescreen_reads_the_list_once(tmp_path, monkeypatch):
    import pipeline.filter

    calls = []
    real = pipeline.filter.read_wordlist
    monkeypatch.setattr(pipeline.filter, "read_wordlist", lambda path: calls.append(path) or real(path))
    src = _src(tmp_path, [grid("open5x5")] * 4)
    words = _wordlist(tmp_path / "w.txt", FIVES)
    assert filter_patterns(src, tmp_path / "o", tmp_path / "s", wordlist=words) == (4, 0)
    assert calls == [words]


def test_prescreen_counts():
    from collections import Counter

    assert prescreen(Counter({3: 4, 4: 2}), Counter({3: 4, 4: 2, 5: 1})) == []
    assert prescreen(Counter({5: 1, 3: 5}), Counter({3: 4})) == [
        "prescreen: 5 3-letter slots, the list has 4 3-letter words",
        "prescreen: 1 5-letter slots, the list has 0 5-letter words",
    ]


def test_bad_wordlist_line_writes_nothing(tmp_path):
    src = _src(tmp_path, [grid("open5x5")])
    bad = tmp_path / "w.txt"
    bad.write_text("ABACK;50\nBL4ST;50\n")
    out, tsv = tmp_path / "o", tmp_path / "s"
    with pytest.raises(InputError, match="digit") as e:
        filter_patterns(src, out, tsv, wordlist=bad)
    assert (e.value.path, e.value.line) == (str(bad), 2)
    assert not out.exists() and not tsv.exists()


def test_cli_filter_style_rule_wordlist_and_new_bounds(tmp_path, capsys):
    src = _src(tmp_path, [LATTICE, HANGS, grid("open5x5")])
    out, tsv = tmp_path / "out.hex", tmp_path / "s.tsv"
    base = ["filter", str(src), "--out", str(out), "--stats", str(tsv)]
    assert main(base + ["--style", "british"]) == 0
    assert capsys.readouterr().err == "xw: filter: kept 1, dropped 2\n"
    assert main(base + ["--style", "british", "--rule", "no_cut_cell=false", "--rule", "no_white_2x2=false"]) == 0
    assert [r["kept"] for r in _table(tsv)] == ["yes", "yes", "yes"]
    assert main(base + ["--bound", "open_square=:4", "--bound", "checked_min=0.5:"]) == 0
    assert [(r["kept"], r["reason"]) for r in _table(tsv)] == [("yes", ""), ("yes", ""), ("no", "open_square 5 > 4")]
    assert main(base + ["--bound", "checked_min=0.6:"]) == 0
    assert [r["reason"] for r in _table(tsv)][:2] == ["checked_min 0.56 < 0.6", "checked_min 0.5 < 0.6"]
    words = _wordlist(tmp_path / "w.txt", FIVES[:3])
    capsys.readouterr()
    assert main(base + ["--wordlist", str(words)]) == 0
    assert [r["kept"] for r in _table(tsv)] == ["no", "no", "no"]
    assert _table(tsv)[2]["reason"] == "prescreen: 10 5-letter slots, the list has 3 5-letter words"


@pytest.mark.parametrize(
    "extra, words",
    [
        (["--style", "british", "--rule", "no_cut_cels=false"], ["--rule: no rule 'no_cut_cels'"]),
        (["--style", "british", "--rule", "no_cut_cell=3"], ["--rule.no_cut_cell: 3 is not true or false"]),
        (["--style", "american", "--rule", "max_words=lots"], ["--rule.max_words: 'lots' is not a whole number"]),
        (["--style", "american", "--rule", "max_words"], ["rule 'max_words': write NAME=VALUE"]),
        (["--rule", "max_words=70"], ["--rule: rules need a style"]),
        (["--wordlist", "missing.txt"], ["missing.txt: file not found"]),
    ],
)
def test_cli_filter_bad_options(extra, words, tmp_path, capsys):
    src = _src(tmp_path, [LATTICE])
    out, tsv = tmp_path / "out.hex", tmp_path / "s.tsv"
    assert main(["filter", str(src), "--out", str(out), "--stats", str(tsv)] + extra) == 2
    err = capsys.readouterr().err
    assert err.startswith("xw filter: error: ") and err.count("\n") == 1
    for w in words:
        assert w in err
    assert not out.exists() and not tsv.exists()
