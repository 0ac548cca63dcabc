"""Benchmark ``xw fill`` as a user runs it: one whole process per fill, the list's index cached by default.

Usage: .venv/bin/python bench/standalone_fill.py [--bsq-venv DIR] [--wordlist W] [--grid G] [--runs 7]

Unless ``--wordlist`` is given, blacksquare's bundled list (303,260 entries
scored above 0; CC BY-NC-SA: never commit it, never use it in tests or
defaults) is exported to a temporary ``WORD;score`` file the way
bench/fill.py does it (its runner's ``export`` mode, in blacksquare's own
venv: ``--bsq-venv``, else a temporary one made with pip) and deleted at
the end.  Then, with XDG_CACHE_HOME a fresh empty folder, it times
``xw fill GRID --wordlist LIST`` and nothing more, a new process each time:
the first run (which reads the list, indexes it and writes the cache
entry) and the median of the next ``--runs`` (which load the entry).  The
goals: the first run within 1.5 s, the later ones within 0.3 s.  It also
times ``xw fill --no-cache`` (what every run cost before the cache was on
by default), the whole process of ``xw --help`` and its imports
(``python -X importtime``), and, inside one process, `load_index` without a
cache, building an entry, and loading it, so the README's load figures can
be checked.  Every run must print the same fill.

This is a script, not a test: nothing in tests/ imports or runs it.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

FIRST_GOAL, LATER_GOAL = 1.5, 0.3  # seconds, whole process
DEFAULT_GRID = ROOT.parent / "shared" / "bench" / "grids" / "us15x15_78w.txt"


def log(msg: str) -> None:
    print(f"[bench] {msg}", file=sys.stderr, flush=True)


def xw_command() -> list[str]:
    exe = Path(sys.executable).with_name("xw")
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "pipeline.cli"]


def timed(cmd: list[str], env: dict) -> tuple[float, subprocess.CompletedProcess]:
    t0 = time.perf_counter()
    run = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=ROOT, check=False)
    seconds = time.perf_counter() - t0
    if run.returncode != 0:
        log(f"exit {run.returncode}: {' '.join(cmd)}: {run.stderr.strip()[-300:]}")
    return seconds, run


def export_blacksquare_list(out: Path, venv: Path | None, work: Path) -> str:
    """blacksquare's default list as WORD;score at ``out``, with bench/fill.py's own runner."""
    spec = importlib.util.spec_from_file_location("bench_fill", ROOT / "bench" / "fill.py")
    bench_fill = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench_fill)
    bsq = bench_fill.Blacksquare(venv.resolve() if venv else work / "bsq-venv", work)
    bsq.install()
    info = bsq.export_default(out)
    return f"blacksquare {bsq.version} default list (CC BY-NC-SA), {info['kept']:,} entries, in a temporary file"


def import_ms(env: dict) -> tuple[float, list[tuple[float, str]]]:
    """``xw --help``'s import of pipeline.cli in ms (-X importtime), and its five slowest top-level imports."""
    code = "import sys; sys.argv = ['xw', '--help']; from pipeline.cli import main; main()"
    run = subprocess.run([sys.executable, "-X", "importtime", "-c", code], capture_output=True, text=True, env=env,
                         cwd=ROOT, check=False)  # fmt: skip
    top = []
    for line in run.stderr.splitlines():
        m = re.match(r"import time:\s+\d+ \|\s+(\d+) \| (\S.*)$", line)  # top level: no indent
        if m:
            top.append((int(m.group(1)) / 1000, m.group(2)))
    cli = next((ms for ms, name in top if name == "pipeline.cli"), float("nan"))
    return cli, sorted(top, reverse=True)[:5]


def in_process(wordlist: Path, cache: Path, repeat: int = 5) -> dict:
    """`load_index` in this process: no cache, building an entry, loading it (median of ``repeat``)."""
    from pipeline.fill import load_index

    out = {}
    t0 = time.perf_counter()
    load_index(wordlist)
    out["no cache"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    load_index(wordlist, cache_dir=cache)
    out["build + write entry"] = time.perf_counter() - t0
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        load_index(wordlist, cache_dir=cache)
        times.append(time.perf_counter() - t0)
    out["load entry (median)"] = statistics.median(times)
    return out


def verdict(ok: bool) -> str:
    return "met" if ok else "NOT met"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--grid", type=Path, default=DEFAULT_GRID, help="grid text (default ../shared/bench/grids/us15x15_78w.txt)"
    )
    ap.add_argument("--wordlist", type=Path, help="a WORD;score list instead of blacksquare's")
    ap.add_argument(
        "--bsq-venv", type=Path, help="blacksquare's venv: reused if it has blacksquare, else made there and kept"
    )
    ap.add_argument("--runs", type=int, default=7, help="runs after the first, for the median (default 7)")
    args = ap.parse_args()
    if not args.grid.exists():
        args.grid = ROOT / "tests" / "data" / "grids" / args.grid.name
    xw = xw_command()
    failed = False
    with tempfile.TemporaryDirectory(prefix="xw-standalone-") as tmp:
        work = Path(tmp)
        if args.wordlist is None:
            wordlist = work / "bsq.dict"
            desc = export_blacksquare_list(wordlist, args.bsq_venv, work)
        else:
            wordlist, desc = args.wordlist.resolve(), str(args.wordlist)
        env = {**os.environ, "XDG_CACHE_HOME": str(work / "xdg-cache")}
        env.pop("PYTHONHASHSEED", None)
        command = [*xw, "fill", str(args.grid), "--wordlist", str(wordlist)]
        log(f"{' '.join(['xw', *command[len(xw):]])}, XDG_CACHE_HOME empty at first ...")
        first, run = timed(command, env)
        fills = [run.stdout]
        failed |= run.returncode != 0
        later = []
        for _ in range(max(1, args.runs)):
            seconds, run = timed(command, env)
            later.append(seconds)
            fills.append(run.stdout)
            failed |= run.returncode != 0
        no_cache = []
        for _ in range(3):
            seconds, run = timed(command + ["--no-cache"], env)
            no_cache.append(seconds)
            fills.append(run.stdout)
            failed |= run.returncode != 0
        entries = [p.stat().st_size for p in (work / "xdg-cache" / "xwbook" / "index").glob("index-*")]
        said = run.stderr.strip().splitlines()[-1:] or ["-"]  # xw's own "filled in S s, N nodes ..."
        helps = [timed([*xw, "--help"], env)[0] for _ in range(5)]
        bare = [timed([sys.executable, "-c", "pass"], env)[0] for _ in range(5)]
        cli_ms, slowest = import_ms(env)
        loads = in_process(wordlist, work / "in-process-cache")

    median = statistics.median(later)
    print(f"list: {desc}")
    print(f"grid: {args.grid.name}; python {sys.version.split()[0]}; {os.cpu_count()} cores")
    print(f"first run (reads, indexes, writes the cache entry): {first:.3f} s   goal <= {FIRST_GOAL} s: "
          f"{verdict(first <= FIRST_GOAL)}")  # fmt: skip
    print(f"next {len(later)} runs (from the cache entry): median {median:.3f} s (min {min(later):.3f}, "
          f"max {max(later):.3f})   goal <= {LATER_GOAL} s: {verdict(median <= LATER_GOAL)}")  # fmt: skip
    print(f"--no-cache: median {statistics.median(no_cache):.3f} s of {len(no_cache)}; the search alone: {said[0]}")
    print(f"cache entries written: {len(entries)} ({sum(entries) / 1e6:.1f} MB)")
    print(f"same fill every run: {'yes' if len(set(fills)) == 1 and fills[0] else 'NO'}")
    print(f"xw --help: median {statistics.median(helps):.3f} s whole process; import of pipeline.cli {cli_ms:.1f} ms; "
          f"python -c pass {statistics.median(bare):.3f} s")  # fmt: skip
    print("slowest top-level imports of xw --help: " + ", ".join(f"{n} {ms:.1f} ms" for ms, n in slowest))
    print("load_index in one process: " + ", ".join(f"{k} {v:.3f} s" for k, v in loads.items()))
    if failed:
        print("a run did not fill the grid (exit status not 0)")
    return 1 if failed or len(set(fills)) != 1 else 0


if __name__ == "__main__":
    sys.exit(main())
