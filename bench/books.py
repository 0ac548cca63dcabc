"""Full-size books on the defaults: one book of 150 puzzles, and 10 books of 100, timed.

Usage: .venv/bin/python bench/books.py [--cores 2] [--lexicon outputs/lexicon]
       [--only one-150 ten-100] [--config key=value ...] [--keep] [--json FILE]

Each scenario runs ``snakemake --cores N`` on the default config (with only
``books`` and ``puzzles_per_book`` changed) in a scratch copy of the
workflow, from the patterns on: the lexicon is built once beforehand (or
taken from ``--lexicon``) and copied in, as the issue's goals exclude it.
It prints the wall time against the goal (150 puzzles in 90 s, 1,000 in 5
minutes), each stage's seconds (Snakemake's ``benchmark:`` files, summed
over jobs, and the longest job), the fill's search time a puzzle (in the
run, where two jobs share the 2-core machine, and for book 1's first batch
run again alone: the goal, 0.2 s, is the fill's own cost), and each book's fill: the mean of its
puzzles' mean entry scores (goal 55), the mean of their weakest entries
(goal 40), the puzzles the merge filled again, and how often answers came
back (how many answers were used 1, 2, 3... times).

This is a script, not a test: nothing in tests/ runs it.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from workflowkit import bench_lexicon, copy_workflow, install_lexicon  # noqa: E402
from pipeline.model.grid import parse_grid  # noqa: E402

SCENARIOS = {"one-150": (1, 150, 90.0), "ten-100": (10, 100, 300.0)}
GOALS = {"mean_score": 55.0, "mean_weakest": 40.0}
ORDER = ["patterns", "connectivity", "filter", "encode", "fill", "clue", "render", "export", "preview", "summary"]


def _stage_seconds(work: Path) -> dict[str, list[float]]:
    per_stage = defaultdict(list)
    for tsv in sorted((work / "outputs" / "benchmarks").rglob("*.tsv")):
        stage = tsv.relative_to(work / "outputs" / "benchmarks").parts[0].removesuffix(".tsv")
        with open(tsv) as f:
            per_stage[stage].append(float(next(csv.DictReader(f, delimiter="\t"))["s"]))
    return per_stage


def _book_fill(work: Path, book: int, puzzles: int) -> dict:
    log = (work / "outputs" / "logs" / "fill" / f"book-{book}" / "merge.log").read_text().splitlines()
    stats = json.loads(log[-1])
    uses = Counter()
    for k in range(1, puzzles + 1):
        uses.update(parse_grid((work / "outputs" / "fills" / f"book-{book}" / f"{k}.txt").read_text()).words())
    stats["answers_by_uses"] = dict(sorted(Counter(uses.values()).items()))
    return stats


def _alone(work: Path, config: list[str]) -> dict:
    """Book 1's first fill batch run again by itself, as Snakemake ran it: its search time and the job's CPU time.

    In the run every fill job shares the machine with another (on the
    2-core reference machine each search is then 5-15% slower, from memory
    traffic, not work); this is the fill's own cost.  The batch file must come out byte for byte as
    the run wrote it.
    """
    target = "outputs/fills/book-1/batch-1.tsv"
    dry = subprocess.run([sys.executable, "-m", "snakemake", "-n", "-p", "--cores", "1", "--forcerun", "fill_batch",
                          "--rerun-triggers", "mtime", "--config", *config, "--", target],
                         cwd=work, capture_output=True, text=True, check=True)  # fmt: skip
    (command,) = [line.split(": ", 1)[1] for line in dry.stdout.splitlines() if line.startswith("Shell command: xw fill-book")]
    before = (work / target).read_bytes()
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(["bash", "-c", command], cwd=work, check=True, env={**os.environ, "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}"})
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    def untimed(data: bytes) -> list[list[str]]:  # the seconds column is the one that depends on the machine
        return [row[:3] + row[4:] for row in (line.split("\t") for line in data.decode().splitlines())]

    if untimed((work / target).read_bytes()) != untimed(before):
        raise SystemExit(f"{target} came out different when run again: the fill is not deterministic")
    stats = json.loads((work / "outputs" / "logs" / "fill" / "book-1" / "batch-1.log").read_text().splitlines()[-1])
    cpu = after.ru_utime + after.ru_stime - used.ru_utime - used.ru_stime
    return {"puzzles": stats["filled"], "search": stats["seconds"], "cpu": round(cpu, 2)}


def run(name: str, books: int, puzzles: int, cores: int, lexicon: Path, extra: list[str], keep: bool) -> dict:
    work = copy_workflow(Path(tempfile.mkdtemp(prefix=f"xwbench-{name}-")) / "work")
    install_lexicon(work, lexicon)
    cmd = [sys.executable, "-m", "snakemake", "--cores", str(cores), "--quiet", "--rerun-triggers", "mtime",
           "--config", f"books={books}", f"puzzles_per_book={puzzles}", *extra]  # fmt: skip
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, cwd=work, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    if proc.returncode:
        print(proc.stderr[-3000:], file=sys.stderr)
        raise SystemExit(f"{name}: snakemake failed (exit {proc.returncode}); scratch folder kept: {work}")
    result = {
        "books": books,
        "puzzles_per_book": puzzles,
        "cores": cores,
        "wall": round(wall, 1),
        "stages": {s: [round(sum(t), 2), round(max(t), 2), len(t)] for s, t in _stage_seconds(work).items()},
        "fill": [_book_fill(work, b, puzzles) for b in range(1, books + 1)],
        "alone": _alone(work, [f"books={books}", f"puzzles_per_book={puzzles}", *extra]),
    }
    if keep:
        print(f"{name}: outputs kept in {work / 'outputs'}")
    else:
        shutil.rmtree(work.parent)
    return result


def report(name: str, r: dict, goal: float) -> None:
    n = r["books"] * r["puzzles_per_book"]
    met = "met" if r["wall"] <= goal else "NOT met"
    print(f"\n== {name}: {r['books']} book(s) of {r['puzzles_per_book']} at --cores {r['cores']} ==")
    print(f"wall clock {r['wall']:.1f} s for {n} puzzles (goal {goal:.0f} s: {met}); "
          f"{r['wall'] * r['cores'] / n:.2f} core-seconds a puzzle at most")  # fmt: skip
    print(f"{'stage':<14}{'jobs':>5}{'sum s':>10}{'max s':>10}")
    for stage in ORDER:
        if stage in r["stages"]:
            total, longest, jobs = r["stages"][stage]
            print(f"{stage:<14}{jobs:>5}{total:>10.2f}{longest:>10.2f}")
    fill_search = sum(b["seconds"] for b in r["fill"])
    print(f"fill search {fill_search:.1f} s in all: {fill_search / n:.3f} s a puzzle, each job sharing the machine")
    a = r["alone"]
    per = a["search"] / a["puzzles"]
    print(f"fill alone (book 1's first batch again, nothing beside it): {per:.3f} s of search a puzzle (goal 0.2 s: "
          f"{'met' if per <= 0.2 else 'NOT met'}), {a['cpu'] / a['puzzles']:.3f} core-seconds a puzzle for the whole job")
    print(f"{'book':>4}{'mean':>7}{'weakest':>9}{'refilled':>10}{'tried':>7}{'repeated':>10}{'most':>6}  answers by uses")
    for b, f in enumerate(r["fill"], start=1):
        print(f"{b:>4}{f['mean_score']:>7.1f}{f['mean_weakest']:>9.1f}{f['refilled']:>10}{f['tried']:>7}"
              f"{f['repeated']:>10}{f['most_uses']:>6}  {f['answers_by_uses']}")  # fmt: skip
    for key, goal_value in GOALS.items():
        worst = min(f[key] for f in r["fill"])
        print(f"lowest book {key} {worst:.1f} (goal {goal_value:.0f}: {'met' if worst >= goal_value else 'NOT met'})")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cores", type=int, default=2)
    ap.add_argument("--lexicon", type=Path, default=ROOT / "outputs" / "lexicon",
                    help="a built lexicon folder (default outputs/lexicon; built when missing)")  # fmt: skip
    ap.add_argument("--only", nargs="+", choices=sorted(SCENARIOS), default=list(SCENARIOS))
    ap.add_argument("--config", nargs="*", default=[], help="extra key=value config overrides")
    ap.add_argument("--keep", action="store_true", help="keep each scratch folder")
    ap.add_argument("--json", type=Path, help="write every figure here")
    args = ap.parse_args()
    lexicon = bench_lexicon(args.lexicon)
    results = {}
    for name in args.only:
        books, puzzles, goal = SCENARIOS[name]
        print(f"running {name} ...", flush=True)
        results[name] = run(name, books, puzzles, args.cores, lexicon, args.config, args.keep)
        report(name, results[name], goal)
    if args.json:
        args.json.write_text(json.dumps(results, indent=1, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
