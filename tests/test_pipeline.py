"""The whole pipeline through Snakemake, as `make book` runs it, on a small book."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import unicodedata

import pytest

from conftest import ROOT, need_tool
from pipeline.model.puzzle import read_ipuz
from pipeline.model.wordlist import read_wordlist

PUZZLES = 3


def _workdir(tmp_path_factory, name):
    work = tmp_path_factory.mktemp(name)
    for item in ("Snakefile", "config", "templates", "report"):
        src = ROOT / item
        (shutil.copytree if src.is_dir() else shutil.copy)(src, work / item)
    return work


def _snakemake(work, *config):
    cmd = [sys.executable, "-m", "snakemake", "--cores", "2", "--quiet", "--config", *config]
    return subprocess.run(cmd, cwd=work, capture_output=True, text=True)


@pytest.fixture(scope="module")
def first_run(tmp_path_factory):
    need_tool("latexmk", "pdflatex", "pdftotext")
    work = _workdir(tmp_path_factory, "book")
    run = _snakemake(work, f"puzzles_per_book={PUZZLES}", "seed=11")
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    return work


def _pdf_text(path) -> str:
    text = subprocess.run(["pdftotext", "-raw", str(path), "-"], capture_output=True, text=True, check=True).stdout
    return _squash(text)


def _squash(text: str) -> str:
    # Compare without spaces, line breaks and hyphens (TeX may hyphenate).
    text = unicodedata.normalize("NFKC", text)
    text = text.translate(str.maketrans({"\u2019": "'", "\u2018": "'", "\u201c": '"', "\u201d": '"'}))
    text = text.replace("``", '"').replace("''", '"').replace("`", "'")  # TeX prints ` as an opening quote
    return re.sub(r"[\s\-\u2010\u2011\u00ad]+", "", text)


def test_book_outputs_exist(first_run):
    books = first_run / "outputs" / "books"
    assert (books / "book-1.pdf").stat().st_size > 10_000
    assert (books / "book-1.latex.pdf").stat().st_size > 10_000
    ipuz = sorted((first_run / "outputs" / "puzzles" / "book-1").glob("*.ipuz"))
    assert len(ipuz) == PUZZLES
    assert (first_run / "outputs" / "patterns" / "section-1" / "patterns.hex").read_text().strip()
    stats = (first_run / "outputs" / "patterns" / "section-1" / "stats.tsv").read_text().splitlines()
    assert stats[0].split("\t")[:3] and len(stats) > PUZZLES
    assert (first_run / "outputs" / "lexicon" / "LICENSE-WordNet.txt").read_text().strip()


def test_every_long_stage_logs_how_far_it_is(first_run):
    """Each stage's log has ``n/N`` lines with the rate (and the time left while under way), ending at N/N."""
    logs = first_run / "outputs" / "logs"
    n = PUZZLES
    wanted = {
        "patterns/section-1/": "patterns 15x15 american: ",
        "fill/book-1/batch-1": "book 1 batch 1: ",
        "fill/book-1/merge": "book 1 merge: ",
        "clue/book-1": "clues: ",
        "render/book-1": "pages drawn: ",
        "render/book-1.latex": "puzzles fitted: ",
        "export/book-1": "files exported: ",
    }
    for name, what in wanted.items():
        text = "".join(p.read_text() for p in logs.glob(f"{name}*.log"))
        lines = re.findall(rf"{re.escape(what)}(\d+)/(\d+) \(([^)]*)\)", text)
        assert lines, (name, text[-500:])
        done, total, rate = lines[-1]
        assert done == total and int(total) >= (1 if name.startswith("patterns") else min(n, 2)), (name, lines[-1])
        assert "a second" in rate, (name, rate)
    assert "typeset round 1 in " in (logs / "render" / "book-1.latex.log").read_text()


def test_every_entry_is_a_listed_word_and_every_clue_is_printed(first_run):
    words = read_wordlist(first_run / "outputs" / "lexicon" / "wordlist.txt")
    pdfs = {name: _pdf_text(first_run / "outputs" / "books" / name) for name in ("book-1.pdf", "book-1.latex.pdf")}
    seen_clues = []
    used = []
    for k in range(1, PUZZLES + 1):
        puzzle = read_ipuz(first_run / "outputs" / "puzzles" / "book-1" / f"{k}.ipuz")
        grid = puzzle.grid
        assert (grid.rows, grid.cols) == (15, 15)
        for s in grid.slots():
            assert s.length >= 3
            answer = grid.word(s)
            assert answer in words, f"puzzle {k} {s.label} {answer} not in the word list"
            used.append(answer)
            clue = puzzle.clues[(s.direction, s.number)]
            assert answer.lower() not in clue.lower().split()
            seen_clues.append(clue)
            for name, text in pdfs.items():
                assert _squash(clue) in text, f"{name}: clue for {s.label} of puzzle {k} not printed: {clue!r}"
        # across and down cross correctly: each cell's letter is shared by both entries
        for s in grid.slots():
            for pos, cell in enumerate(s.cells):
                assert grid.word(s)[pos] == grid.cells[cell]
    assert len(used) == len(set(used)), "an answer repeated within the book"
    assert len(seen_clues) == len({c.lower() for c in seen_clues}), "a clue printed twice in the book"
    for text in pdfs.values():
        assert "Solutions" in text


def test_copyright_page_carries_wordnets_licence_and_wordfreqs_attribution(first_run):
    from pypdf import PdfReader

    licence = (first_run / "outputs" / "lexicon" / "LICENSE-WordNet.txt").read_text()
    for name in ("book-1.pdf", "book-1.latex.pdf"):
        page = _squash(PdfReader(first_run / "outputs" / "books" / name).pages[1].extract_text())
        for needle in (
            "WordNet 3.0 Copyright 2006 by Princeton University. All rights reserved.",
            "Permission to use, copy, modify and distribute this software and database",
            " ".join(licence.split()[-12:]),  # the licence to its last words
            "wordfreq's data is licensed CC BY-SA 4.0",
            "creativecommons.org/licenses/by-sa/4.0",
            "Free to print, share and sell.",
        ):
            assert _squash(needle) in page, f"{name}: copyright page lacks {needle!r}"


def test_same_seed_same_puzzles_with_the_list_as_user_data(first_run, tmp_path_factory):
    work = _workdir(tmp_path_factory, "again")
    lex = first_run / "outputs" / "lexicon"
    run = _snakemake(
        work,
        f"puzzles_per_book={PUZZLES}",
        "seed=11",
        f"wordlist={lex / 'wordlist.txt'}",
        f"clues={lex / 'clues'}",
        "renderers=[reportlab]",
    )
    assert run.returncode == 0, run.stderr[-3000:]
    assert not (work / "outputs" / "lexicon").exists(), "the user's list was used, nothing rebuilt"
    for k in range(1, PUZZLES + 1):
        a = (first_run / "outputs" / "puzzles" / "book-1" / f"{k}.ipuz").read_bytes()
        b = (work / "outputs" / "puzzles" / "book-1" / f"{k}.ipuz").read_bytes()
        assert a == b, f"puzzle {k} differs between runs with the same seed"


def test_british_book_from_the_config(first_run, tmp_path_factory):
    work = _workdir(tmp_path_factory, "british")
    lex = first_run / "outputs" / "lexicon"
    run = _snakemake(
        work,
        "puzzles_per_book=2",
        "pattern_style=british",
        "grid_size=13",
        f"wordlist={lex / 'wordlist.txt'}",
        f"clues={lex / 'clues'}",
        "renderers=[reportlab]",
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    from pipeline.model.rules import rule_violations, style_rules

    for k in (1, 2):
        grid = read_ipuz(work / "outputs" / "puzzles" / "book-1" / f"{k}.ipuz").grid
        assert grid.is_complete() and (grid.rows, grid.cols) == (13, 13)
        assert rule_violations(grid, style_rules("british", 13, 13)) == []
        assert any(len(run_) == 1 for row in grid.row_strings() for run_ in row.split("#") if run_)  # unchecked
    stats = (work / "outputs" / "patterns" / "section-1" / "stats.tsv").read_text()
    assert "checked_min" in stats.splitlines()[0]


def test_bad_config_is_refused_before_anything_runs(tmp_path_factory):
    work = _workdir(tmp_path_factory, "bad")
    for value, key in (
        ("books=0", "books"),
        ("renderers=[word]", "renderers"),
        ("grid_size=abc", "grid_size"),
        ("pattern_style=french", "pattern_style"),
        ("grid_rows=4", "grid_rows"),
        ("missing_clues=sometimes", "missing_clues"),
        ("max_answer_repeats=0", "max_answer_repeats"),
        ("repeat_penalty=200", "repeat_penalty"),
        ("blocklists=default", "blocklists"),
    ):
        run = _snakemake(work, value)
        assert run.returncode != 0
        assert key in run.stdout + run.stderr
        assert not (work / "outputs").exists()


def test_missing_clues_listed_then_left_then_given_and_the_blocklist_reaches_the_fill(first_run, tmp_path_factory):
    work = _workdir(tmp_path_factory, "missing")
    lex = first_run / "outputs" / "lexicon"
    first = read_ipuz(first_run / "outputs" / "puzzles" / "book-1" / "1.ipuz").grid
    blocked = first.word(first.slots()[0])
    (work / "block.txt").write_text(f"{blocked.lower()}\n")
    (work / "no-clues").mkdir()  # a shard folder with no clue at all
    config = [
        "puzzles_per_book=2", "seed=11", f"wordlist={lex / 'wordlist.txt'}", "clues=no-clues",
        "renderers=[reportlab]", "blocklists=[default, block.txt]",
    ]  # fmt: skip
    listing = work / "outputs" / "reports" / "book-1" / "missing-clues.txt"
    puzzles = work / "outputs" / "puzzles" / "book-1"
    # fail: any word filled, every answer listed, no puzzle written
    run = _snakemake(work, *config, "missing_clues=fail")
    assert run.returncode != 0
    log = (work / "outputs" / "logs" / "clue" / "book-1.log").read_text()
    assert "missing-clues.txt" in log and "have no unused clue" in log
    fills = [(work / "outputs" / "fills" / "book-1" / f"{k}.txt").read_text().split() for k in (1, 2)]
    from pipeline.model.grid import parse_grid

    answers = [w for rows in fills for w in parse_grid("\n".join(rows)).words()]
    assert blocked not in answers, "the blocklist reaches the fill stage"
    assert '"blocked": ' in (work / "outputs" / "logs" / "fill" / "book-1" / "merge.log").read_text()
    lines = listing.read_text().splitlines()
    assert lines == [f"{a}|" for a in dict.fromkeys(answers)]
    assert not list(puzzles.glob("*.ipuz"))
    # leave: the puzzles are written with empty clues, and the render refuses them
    run = _snakemake(work, *config, "missing_clues=leave")
    assert run.returncode != 0
    assert read_ipuz(puzzles / "1.ipuz").unclued(), "empty clues in the .ipuz"
    log = (work / "outputs" / "logs" / "render" / "book-1.log").read_text()
    assert "puzzle 1" in log and "add a clue to clue_file" in log
    assert not (work / "outputs" / "books" / "book-1.pdf").exists()
    # the list completed is the clue file: the book is made, those clues printed
    mine = work / "my-clues.txt"
    # (no English word, so that no clue gives its answer away: the clue stage would skip it)
    mine.write_text("".join(f"{line}Zzyzx {i}\n" for i, line in enumerate(lines)))
    run = _snakemake(work, *config, "missing_clues=leave", "clue_file=my-clues.txt")
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    assert not listing.exists(), "the stale list is gone once every answer has a clue"
    text = _pdf_text(work / "outputs" / "books" / "book-1.pdf")
    assert _squash("Zzyzx 0") in text
    # the user's own data only: no WordNet notice on the copyright page
    from pypdf import PdfReader

    assert "Princeton" not in PdfReader(work / "outputs" / "books" / "book-1.pdf").pages[1].extract_text()


def test_puz_previews_summary_and_the_report(first_run):
    from renderkit import read_grid_png

    from pipeline.render.book import load_book, plan_book

    out = first_run / "outputs"
    ipuz = [out / "puzzles" / "book-1" / f"{k}.ipuz" for k in range(1, PUZZLES + 1)]
    for path in ipuz:
        assert path.with_suffix(".puz").read_bytes()[2:14] == b"ACROSS&DOWN\0", f"{path.stem}.puz is no Across Lite file"
    assert not (out / "submissions").exists(), "NYT PDFs only with nyt_submission"
    # the previews are the reportlab book's first pages; the first puzzle's page shows its grid
    previews = [out / "previews" / "book-1" / f"page-{i}.png" for i in (1, 2, 3, 4)]
    assert all(p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" for p in previews)
    assert not (out / "previews" / "book-1" / "page-5.png").exists()
    page = plan_book(load_book(ipuz)).puzzle_pages[0]
    grid = read_ipuz(ipuz[0]).grid
    seen = read_grid_png(previews[page - 1])
    assert (seen.rows, seen.cols) == (grid.rows, grid.cols)
    assert seen.blacks == {divmod(i, grid.cols) for i, ch in enumerate(grid.cells) if ch == "#"}
    # one summary row per puzzle and one for the book, with each PDF's pages from its render stats
    rows = [line.split("\t") for line in (out / "reports" / "book-1" / "summary.tsv").read_text().splitlines()]
    table = [dict(zip(rows[0], r)) for r in rows[1:]]
    assert [r["puzzle"] for r in table] == [*map(str, range(1, PUZZLES + 1)), "all"]
    for suffix, name in (("", "reportlab"), (".latex", "latex")):
        stats = json.loads((out / "reports" / "book-1" / f"render{suffix}.json").read_text())
        assert table[-1][f"{name}_pages"] == str(stats["pages"])
    assert table[-1]["words"] == str(sum(int(r["words"]) for r in table[:-1]))
    assert "<table>" in (out / "reports" / "book-1" / "summary.html").read_text()
    # the Snakemake report: the previews and the statistics, no docutils warnings
    run = subprocess.run(
        [sys.executable, "-m", "snakemake", "--config", f"puzzles_per_book={PUZZLES}", "seed=11",
         "--report", "outputs/report.html"],
        cwd=first_run, capture_output=True, text=True,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr[-3000:]
    assert "WARNING" not in run.stderr and "ERROR" not in run.stderr, run.stderr[-3000:]
    report = (out / "report.html").read_text()
    for needle in ("xwbook: crossword puzzle books", "Previews", "Book statistics", "page-4.png", "summary.html"):
        assert needle in report, f"the report lacks {needle!r}"
    # with nyt_submission only the export runs again, writing the submission PDFs
    made = {p: p.stat().st_mtime_ns for p in [out / "books" / "book-1.pdf", *previews]}
    run = _snakemake(first_run, f"puzzles_per_book={PUZZLES}", "seed=11", "nyt_submission=True")
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    assert all((out / "submissions" / "book-1" / f"{k}.pdf").read_bytes()[:5] == b"%PDF-" for k in range(1, PUZZLES + 1))
    assert made == {p: p.stat().st_mtime_ns for p in made}, "nothing but the export ran again"
    dry = subprocess.run(
        [sys.executable, "-m", "snakemake", "-n", "--config", f"puzzles_per_book={PUZZLES}", "seed=11", "preview_pages=0"],
        cwd=first_run, capture_output=True, text=True,
    )  # fmt: skip
    assert dry.returncode == 0 and "rule preview" not in dry.stdout + dry.stderr


def test_user_lists_laid_over_the_default(tmp_path_factory):
    """wordlist: [default, theme.txt]: the default list is built, the theme laid over it
    (xw wordlist merge, the theme's scores winning), and every stage reads the merged list."""
    work = _workdir(tmp_path_factory, "overlay")
    (work / "theme.txt").write_text("TINA;90\nXYLOPHONE;80\n")
    dry = subprocess.run(
        [sys.executable, "-m", "snakemake", "-n", "-p", "--cores", "1", "--config", "wordlist=[default, theme.txt]"],
        cwd=work, capture_output=True, text=True,
    )  # fmt: skip
    out = dry.stdout + dry.stderr
    assert dry.returncode == 0, out[-3000:]
    assert "rule merge_wordlists" in out and "rule lexicon" in out
    assert "xw wordlist merge outputs/lexicon/wordlist.txt theme.txt --out outputs/wordlist/merged.txt" in out
    assert "--wordlist outputs/wordlist/merged.txt" in out
    assert "--wordlist outputs/lexicon/wordlist.txt" not in out.replace("merge outputs/lexicon/wordlist.txt", "")
