"""Faults and determinism: a run killed mid-fill reruns to the same bytes, at any --cores.

The workflow runs in scratch copies (tests/workflowkit.py) on a small book:
2 books of 3 puzzles, 11x11, the default word list and clues built once
(about 40 s).  The reference run uses ``--cores 1``; a second run uses
``--cores 8`` and other string hashing (``PYTHONHASHSEED``); a third, with
``--cores 2``, is killed with SIGKILL, Snakemake and its jobs together,
while the fill stage is filling, and then started again with the same
command.  All three must give every ``.ipuz``, ``.puz`` and both PDFs byte
for byte.  Below them, the pieces that make it so, each on its own: no
stage writes an output in place, several outputs are written whole or not
at all, the fill's index cache is never read damaged, and the fill's
wall-clock limit may stop a run but never change its result.
"""

from __future__ import annotations

import ast
import contextlib
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import workflowkit as wk
from conftest import need_tool
from pipeline.fill import WordIndex, fill_grid, load_index
from pipeline.fill import quality
from pipeline.fill.batch import FillClockLimit, FillShortfall, fill_book
from pipeline.fill.search import TIMEOUT
from pipeline.model.fileio import write_all
from pipeline.model.grid import parse_grid
from pipeline.model.hexcodec import write_pattern_file


@pytest.fixture(scope="module")
def small(tmp_path_factory) -> dict:
    need_tool("latexmk", "pdflatex")  # before the 40 s of the word list
    return wk.small_config(wk.build_lexicon(tmp_path_factory))


@pytest.fixture(scope="module")
def reference(tmp_path_factory, small) -> dict[str, str]:
    """The deliverables of one uninterrupted run with ``--cores 1``: ``{path: sha256}``."""
    work = wk.copy_workflow(tmp_path_factory.mktemp("reference") / "work")
    run = wk.run_workflow(work, cores=1, config=small, env={"PYTHONHASHSEED": "1"})
    assert run.returncode == 0, wk.tail(run)
    return wk.fingerprints(work)


def _deliverables(config: dict) -> set[str]:
    names = set()
    for b in range(1, config["books"] + 1):
        names |= {f"outputs/books/book-{b}.pdf", f"outputs/books/book-{b}.latex.pdf"}
        for k in range(1, config["puzzles_per_book"] + 1):
            names |= {f"outputs/puzzles/book-{b}/{k}.ipuz", f"outputs/puzzles/book-{b}/{k}.puz"}
    return names


def test_reference_run_delivers_every_file_and_nothing_else(reference, small):
    assert set(reference) == _deliverables(small), "no stray (temporary) file among the deliverables"


def test_same_config_run_again_with_cores_8_gives_the_bytes_of_cores_1(tmp_path, reference, small):
    # Other string hashing too: bytes that hung on the order of a set of strings would differ.
    work = wk.copy_workflow(tmp_path / "work")
    run = wk.run_workflow(work, cores=8, config=small, env={"PYTHONHASHSEED": "2"})
    assert run.returncode == 0, wk.tail(run)
    assert wk.differences(reference, wk.fingerprints(work)) == []


def _fill_logs(work: Path) -> list[str]:
    return [p.read_text() for p in sorted((work / "outputs" / "logs" / "fill").rglob("*.log"))]


def _group_alive(pgid: int) -> bool:
    """Whether any process of group ``pgid`` still runs (zombies aside)."""
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == pgid and fields[0] != "Z":
            return True
    return False


def test_kill_9_in_the_fill_stage_then_the_same_command_again_gives_the_same_bytes(tmp_path, reference, small):
    work = wk.copy_workflow(tmp_path / "work")
    run = wk.start_workflow(work, cores=2, config=small)
    try:
        # Kill the whole process group (snakemake and its jobs) once a book has a
        # puzzle filled and before any book has all of them.
        deadline = time.monotonic() + 600
        while not any(" filled in " in log for log in _fill_logs(work)):
            assert run.poll() is None, (work / "snakemake.out").read_text()[-3000:]
            assert time.monotonic() < deadline, "the fill stage never started"
            time.sleep(0.02)
        os.killpg(run.pid, signal.SIGKILL)
    finally:
        if run.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(run.pid, signal.SIGKILL)
        run.wait()
    end = time.monotonic() + 30
    while _group_alive(run.pid) and time.monotonic() < end:
        time.sleep(0.05)
    assert not _group_alive(run.pid), "a job of the killed run still runs"
    # Work was really cut short: the fill had not finished, so no book was made.
    logs = _fill_logs(work)
    assert logs and not all('"filled": ' in log for log in logs), "the fill stage had finished"
    fills = work / "outputs" / "fills"
    assert not all((fills / f"book-{b}" / "report.tsv").exists() for b in range(1, small["books"] + 1))
    assert not (work / "outputs" / "books").exists()
    assert not (work / "outputs" / "puzzles").exists()
    started = list((work / ".snakemake" / "incomplete").iterdir())
    assert started, "Snakemake marks the jobs it started as incomplete"
    # The fill writes its grids only at its end; a stage writing in place would leave a
    # truncated file under an output's name, as here.  The rerun must not build on it.
    unfinished = next(b for b in range(1, small["books"] + 1) if not (fills / f"book-{b}" / "report.tsv").exists())
    (fills / f"book-{unfinished}").mkdir(parents=True, exist_ok=True)
    (fills / f"book-{unfinished}" / "1.txt").write_text("MIAS")
    again = wk.run_workflow(work, cores=2, config=small)
    assert again.returncode == 0, wk.tail(again)
    assert wk.differences(reference, wk.fingerprints(work)) == []


# -- the pieces ---------------------------------------------------------------
# Files that write without pipeline.model.fileio, and why that is whole-or-nothing too.
_OWN_WRITES = {
    "pipeline/model/fileio.py": "the temporary-file-and-rename writers themselves",
    "pipeline/cluedb.py": "shards written in a private build folder, swapped in by rename once complete",
}


def _writes_in_place(path: Path) -> list[str]:
    """The calls in ``path`` that open or copy a file for writing without fileio."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if not isinstance(node, ast.Call):
            continue
        f = node.func
        name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
        mode = node.args[1] if name in ("open", "fdopen") and len(node.args) > 1 else None
        mode = next((k.value for k in node.keywords if k.arg == "mode"), mode)
        writing = isinstance(mode, ast.Constant) and any(c in str(mode.value) for c in "wax+")
        path_method = isinstance(f, ast.Attribute) and name in ("write_text", "write_bytes")
        copies = name in ("copy", "copy2", "copyfile", "copytree", "move") and ast.unparse(f).startswith("shutil.")
        if writing or path_method or copies:
            found.append(f"{path.relative_to(wk.ROOT)}:{node.lineno}: {ast.unparse(node)[:80]}")
    return found


def test_no_stage_writes_an_output_in_place():
    found = []
    for path in sorted((wk.ROOT / "pipeline").rglob("*.py")):
        if path.relative_to(wk.ROOT).as_posix() not in _OWN_WRITES:
            found += _writes_in_place(path)
    assert found == [], "write through pipeline.model.fileio (atomic_write, write_text, write_bytes, write_all)"
    # The check finds what it looks for.
    assert len(_writes_in_place(wk.ROOT / "pipeline" / "cluedb.py")) >= 2


_WRITER = """
import sys, time
from pathlib import Path
from pipeline.model.fileio import write_all

d = Path(sys.argv[1])

def files():
    yield d / "a.txt", "new a " * 1000
    yield d / "b.txt", "new b " * 1000
    (d / "ready").write_text("")  # two staged; the third never comes
    time.sleep(60)
    yield d / "c.txt", "new c"

write_all(files())
"""


def test_write_all_killed_while_writing_leaves_every_target_as_it_was(tmp_path):
    for name in "abc":
        (tmp_path / f"{name}.txt").write_text(f"old {name}")
    writer = subprocess.Popen([sys.executable, "-c", _WRITER, str(tmp_path)])
    try:
        deadline = time.monotonic() + 30
        while not (tmp_path / "ready").exists():
            assert writer.poll() is None and time.monotonic() < deadline
            time.sleep(0.01)
    finally:
        writer.send_signal(signal.SIGKILL)
        writer.wait()
    assert [(tmp_path / f"{n}.txt").read_text() for n in "abc"] == ["old a", "old b", "old c"]
    staged = sorted(p.name for p in tmp_path.glob(".*.tmp"))
    assert [s.split(".")[1] for s in staged] == ["a", "b"], "the staged files are hidden temporaries"


def test_write_all_failing_midway_renames_nothing_and_leaves_no_temporary(tmp_path):
    (tmp_path / "a.txt").write_text("old")

    def files():
        yield tmp_path / "a.txt", "new"
        raise OSError("disk full")

    with pytest.raises(OSError, match="disk full"):
        write_all(files())
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.txt"]
    assert (tmp_path / "a.txt").read_text() == "old"
    write_all([(tmp_path / "a.txt", "new"), (tmp_path / "sub" / "b.bin", b"\x00\x01")])
    assert (tmp_path / "a.txt").read_text() == "new" and (tmp_path / "sub" / "b.bin").read_bytes() == b"\x00\x01"
    assert oct((tmp_path / "sub" / "b.bin").stat().st_mode & 0o777) == "0o644"


def test_index_cache_damaged_entry_is_rebuilt_not_read(tmp_path):
    (tmp_path / "w.txt").write_text("CAT;60\nCOT;50\nDOG;40\n")
    built = load_index(tmp_path / "w.txt", cache_dir=tmp_path / "cache")
    (entry,) = (tmp_path / "cache").iterdir()
    whole = entry.read_bytes()
    for damaged in (whole[: len(whole) // 2], whole[:-1] + bytes([whole[-1] ^ 1]), b""):
        entry.write_bytes(damaged)
        again = load_index(tmp_path / "w.txt", cache_dir=tmp_path / "cache")
        assert again[3].words == built[3].words and again[3].scores == built[3].scores
        assert entry.read_bytes() == whole, "the damaged entry is replaced by a whole one"
    assert [p.name for p in (tmp_path / "cache").iterdir()] == [entry.name], "no temporary left behind"


def _random_words(length: int, n: int = 3000, seed: int = 0) -> dict[str, int]:
    rnd = random.Random(seed)
    return {"".join(rnd.choice("ABCDEFGHIJKLMNOPRSTUVWY") for _ in range(length)): 50 for _ in range(n)}


OPEN_6 = parse_grid(("." * 6 + "\n") * 6)


def test_the_filler_says_whether_the_clock_or_the_node_budget_stopped_it():
    idx = WordIndex(_random_words(6))
    by_clock = fill_grid(OPEN_6, idx, seed=4, timeout=1e-9, max_nodes=10**6)
    by_nodes = fill_grid(OPEN_6, idx, seed=4, timeout=60, max_nodes=300)
    assert (by_clock.status, by_clock.wall_clock) == (TIMEOUT, True)
    assert (by_nodes.status, by_nodes.wall_clock) == (TIMEOUT, False)
    for timeout in (1e-9, 60):  # fill_best too, its first round always run
        r = quality.fill_best(OPEN_6, idx, seed=4, timeout=timeout, max_nodes=300, improve_nodes=300)
        assert r.status == TIMEOUT and r.wall_clock == (timeout < 1)


def test_fill_best_cut_short_by_the_clock_after_a_fill_says_so(monkeypatch):
    idx = WordIndex({"AB": 10, "CD": 10, "AC": 10, "BD": 10, "XY": 90, "ZW": 90, "XZ": 90, "YW": 90})
    grid = parse_grid("..\n..")
    whole = quality.fill_best(grid, idx, timeout=5, max_nodes=100, improve_nodes=100)
    assert whole.extra["rounds"] == 3 and not whole.wall_clock
    # A clock that jumps past the deadline after the first round: the better fill is never looked for.
    ticks = iter([0.0, 0.0] + [1e6] * 10)
    monkeypatch.setattr(quality, "time", type("Clock", (), {"perf_counter": staticmethod(lambda: next(ticks))}))
    cut = quality.fill_best(grid, idx, timeout=5, max_nodes=100, improve_nodes=100)
    assert cut.extra["rounds"] == 1 and cut.wall_clock


def test_fill_book_refuses_a_result_the_wall_clock_decided(tmp_path):
    write_pattern_file(tmp_path / "p.hex", [OPEN_6])
    (tmp_path / "w.txt").write_text("".join(f"{w};{s}\n" for w, s in sorted(_random_words(6).items())))
    out = [tmp_path / "fills" / "1.txt"]
    report = tmp_path / "fills" / "report.tsv"
    common = dict(book=1, books=1, seed=4, improve_nodes=100)
    with pytest.raises(FillClockLimit, match="fill_timeout_s") as e:
        fill_book(tmp_path / "p.hex", tmp_path / "w.txt", out, report, timeout=1e-9, max_nodes=10**6, **common)
    assert "candidate 1" in str(e.value) and "speed" in str(e.value)
    assert not (tmp_path / "fills").exists(), "nothing written"
    # Without a node budget the clock is the budget: out of time is an ordinary shortfall.
    with pytest.raises(FillShortfall) as e:
        fill_book(tmp_path / "p.hex", tmp_path / "w.txt", out, report, timeout=1e-9, max_nodes=None, **common)
    assert not isinstance(e.value, FillClockLimit) and "out of budget" in str(e.value)
    # The node budget decides in time: a fill, or an ordinary shortfall, the same at any speed.
    try:
        fill_book(tmp_path / "p.hex", tmp_path / "w.txt", out, report, timeout=60, max_nodes=300, **common)
    except FillShortfall as e:
        assert not isinstance(e, FillClockLimit)


def test_fill_book_cli_fails_loudly_on_the_clock(tmp_path):
    write_pattern_file(tmp_path / "p.hex", [OPEN_6])
    (tmp_path / "w.txt").write_text("".join(f"{w};{s}\n" for w, s in sorted(_random_words(6).items())))
    run = subprocess.run(
        [sys.executable, "-m", "pipeline.cli", "fill-book", "--candidates", str(tmp_path / "p.hex"),
         "--wordlist", str(tmp_path / "w.txt"), "--book", "1", "--books", "1", "--timeout", "0.000000001",
         "--max-nodes", "1000000", "--report", str(tmp_path / "report.tsv"), "--out", str(tmp_path / "1.txt")],
        capture_output=True, text=True, cwd=wk.ROOT,
    )  # fmt: skip
    assert run.returncode == 1, run.stderr  # the stage failed (not bad input: 2)
    assert "wall-clock safety limit" in run.stderr and "fill_timeout_s" in run.stderr
    assert not (tmp_path / "1.txt").exists() and not (tmp_path / "report.tsv").exists()
