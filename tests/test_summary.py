"""A book's summary table (``xw summary``) and the render statistics it reads (``xw render --stats``)."""

from __future__ import annotations

import json

import pytest

from pipeline.cli import main
from pipeline.model.errors import InputError
from pipeline.model.puzzle import write_ipuz
from pipeline.summary import summarize_book
from renderkit import PATTERN_5, PATTERN_15, _puzzle

FILL = (
    "candidate\tpattern\tstatus\tseconds\tnodes\tscore\tweakest\tpuzzle\n"
    "1\tAAh\tfilled\t1.500\t200\t60.5\t50\t2\n"
    "2\tBBh\tunfillable\t0.010\t3\t\t\t\n"
    "3\tCCh\tfilled\t0.250\t100\t50.0\t41\t1\n"
)
PATTERNS = (
    "source\tline\thex\trows\tcols\twords\tblacks\tthree_letter\tcheaters\tmean_len\tmax_len\tkept\n"
    "0\t1\tAAh\t15\t15\t78\t40\t20\t4\t4.5\t9\tyes\n"
    "0\t2\tBBh\t15\t15\t72\t36\t10\t0\t5.0\t11\tyes\n"
    "0\t3\tCCh\t15\t15\t76\t38\t16\t2\t4.9\t10\tyes\n"
)


def _files(tmp_path, reportlab=None, latex=None):
    (tmp_path / "report.tsv").write_text(FILL)
    (tmp_path / "stats.tsv").write_text(PATTERNS)
    renders = {}
    for name, stats in (("reportlab", reportlab), ("latex", latex)):
        if stats is not None:
            (tmp_path / f"{name}.json").write_text(json.dumps(stats))
            renders[name] = tmp_path / f"{name}.json"
    return tmp_path / "report.tsv", tmp_path / "stats.tsv", renders


def _read(path):
    rows = [line.split("\t") for line in path.read_text().splitlines()]
    return [dict(zip(rows[0], r)) for r in rows[1:]]


def test_one_row_per_puzzle_in_book_order_and_a_row_for_the_book(tmp_path):
    fill, patterns, renders = _files(
        tmp_path,
        reportlab={"pages": 9, "min_font_size": 8.5, "below_floor": [], "path": "b.pdf"},
        latex={"pages": 10, "clue_sizes": [8.0, 7.5], "below_floor": [{"puzzle": 2, "size": 7.5}]},
    )
    out = tmp_path / "summary.tsv"
    book = summarize_book(fill, patterns, renders, out, html_path=tmp_path / "summary.html", book=3)
    rows = _read(out)
    assert [r["puzzle"] for r in rows] == ["1", "2", "all"]
    one, two, total = rows
    assert (one["words"], one["fill_score"], one["weakest"], one["fill_seconds"]) == ("76", "50", "41", "0.25")
    assert (two["words"], two["blacks"], two["fill_nodes"]) == ("78", "40", "200")
    assert (one["latex_clue_size"], two["latex_clue_size"], two["latex_below_floor"]) == ("8", "7.5", "yes")
    assert one["reportlab_pages"] == "" and one["reportlab_clue_size"] == ""
    assert total["words"] == "154" and total["cheaters"] == "6" and total["weakest"] == "41"
    assert total["fill_score"] == "55.25" and total["max_len"] == "10" and total["rows"] == "15"
    assert (total["reportlab_pages"], total["reportlab_clue_size"], total["reportlab_below_floor"]) == ("9", "8.5", "0")
    assert (total["latex_pages"], total["latex_clue_size"], total["latex_below_floor"]) == ("10", "7.5", "1")
    assert list(rows[0])[-6:] == [f"{r}_{c}" for r in ("reportlab", "latex") for c in ("pages", "clue_size", "below_floor")]
    assert book["puzzles"] == 2 and book["latex_below_floor"] == 1
    html = (tmp_path / "summary.html").read_text()
    assert "<h1>Book 3: statistics</h1>" in html and html.count("<tr>") == 4
    again = tmp_path / "again.tsv"
    summarize_book(fill, patterns, renders, again)
    assert again.read_bytes() == out.read_bytes()


def test_without_render_statistics_the_pattern_and_fill_columns_alone(tmp_path):
    fill, patterns, _ = _files(tmp_path)
    summarize_book(fill, patterns, {}, tmp_path / "s.tsv")
    rows = _read(tmp_path / "s.tsv")
    assert list(rows[0]) == ["puzzle", "rows", "cols", "words", "blacks", "three_letter", "cheaters", "mean_len",
                             "max_len", "fill_score", "weakest", "fill_seconds", "fill_nodes"]  # fmt: skip


@pytest.mark.parametrize(
    "change, match",
    [
        (lambda d: (d / "stats.tsv").write_text(PATTERNS.replace("CCh", "DDh")), "puzzle 1's pattern CCh is not in"),
        (lambda d: (d / "stats.tsv").write_text(PATTERNS.replace("cheaters", "cheats")), "no column cheaters"),
        (lambda d: (d / "report.tsv").write_text(FILL.replace("\t200\t", "\tmany\t")), "not a number: 'many'"),
        (lambda d: (d / "report.tsv").write_text(FILL.splitlines(True)[0]), "no filled puzzle listed"),
        (lambda d: (d / "reportlab.json").write_text("{pages: 3"), "not JSON"),
        (lambda d: (d / "reportlab.json").write_text('{"trim": "letter"}'), "no page count"),
        (lambda d: (d / "reportlab.json").write_text('{"pages": 3, "below_floor": [7]}'), "names puzzle 7"),
        (lambda d: (d / "report.tsv").unlink(), "report.tsv"),
    ],
)
def test_bad_input_is_named_and_nothing_is_written(tmp_path, change, match):
    fill, patterns, renders = _files(tmp_path, reportlab={"pages": 9})
    change(tmp_path)
    with pytest.raises(InputError, match=match):
        summarize_book(fill, patterns, renders, tmp_path / "s.tsv", html_path=tmp_path / "s.html")
    assert not (tmp_path / "s.tsv").exists() and not (tmp_path / "s.html").exists()


def test_xw_summary_and_its_bad_options(tmp_path, capsys):
    fill, patterns, renders = _files(tmp_path, reportlab={"pages": 9})
    args = ["summary", "--fill-report", str(fill), "--pattern-stats", str(patterns), "--out", str(tmp_path / "s.tsv")]
    assert main([*args, "--render", f"reportlab={renders['reportlab']}"]) == 0
    assert json.loads(capsys.readouterr().out)["reportlab_pages"] == 9
    (tmp_path / "s.tsv").unlink()
    assert main([*args, "--render", str(renders["reportlab"])]) == 2
    assert "--render wants NAME=FILE.json" in capsys.readouterr().err
    assert not (tmp_path / "s.tsv").exists()


def test_xw_render_stats_file_is_the_printed_line(tmp_path, capsys):
    paths = []
    for k, (rows, seed) in enumerate(((PATTERN_5, 1), (PATTERN_15, 2)), start=1):
        paths.append(tmp_path / f"{k}.ipuz")
        write_ipuz(paths[-1], _puzzle(rows, seed, f"Puzzle {k}"))
    stats = tmp_path / "reports" / "render.json"
    code = main(["render", "reportlab", *map(str, paths), "--out", str(tmp_path / "b.pdf"), "--stats", str(stats)])
    assert code == 0
    printed = capsys.readouterr().out.strip().splitlines()[-1]
    assert stats.read_text() == printed + "\n"
    data = json.loads(printed)
    assert list(data) == sorted(data) and data["pages"] >= 4 and data["puzzle_pages"] == 2
    # a render that fails writes no statistics
    bad = tmp_path / "bad.json"
    assert main(["render", "reportlab", str(tmp_path / "missing.ipuz"), "--out", str(tmp_path / "c.pdf"),
                 "--stats", str(bad)]) == 2  # fmt: skip
    assert not bad.exists()
