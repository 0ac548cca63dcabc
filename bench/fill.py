"""Benchmark our filler against blacksquare, side by side, on the benchmark grids.

Usage: .venv/bin/python bench/fill.py [--seeds 10] [--timeout 60] [--grids DIR]
       [--only NAME ...] [--wordlist W] [--skip-blacksquare] [--bsq-venv DIR]
       [--count-wordlist W] [--min-score S] [--baseline JSON]

blacksquare (PyPI, Python API over a Rust core) is installed at benchmark
time into its own virtualenv in a temporary folder, never into the project's
environment.  Unless ``--wordlist`` is given, its bundled default word list
(CC BY-NC-SA: never commit it, never use it in tests or defaults) is exported
to a temporary ``WORD;score`` file, used by BOTH fillers, and deleted at the
end.  ``--min-score S`` bars words scoring under S from both fillers: ours
then fills as ``xw fill --min-score S`` does (`fill_graded`); blacksquare's
list is cut once at load with ``WordList.score_filter`` (S on its 0-1
scale).  Each blacksquare attempt runs in a child process of that venv
under a hard time limit; ours runs in this process from one loaded index.
Every fill of either filler is verified here, from its letters: each slot a
listed word (scoring at least S), no word twice, black squares and given
letters kept.

With the ``open4x4`` grid it also times `xw count` on the 4x4 double word
squares of the 4-letter words of OUR default list (``--count-wordlist``,
``outputs/lexicon/wordlist.txt``): every square, then seed 001's kind (no
word twice, a square and its transpose once).

``--baseline`` takes the ``--json`` file of an earlier run (say, before a
change to the filler) and prints each grid's median then and now, so a
slowdown shows.

This is a script, not a test: nothing in tests/ imports or runs it.
"""

from __future__ import annotations

import argparse
import json
import math
import queue
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pipeline.fill import FILLED, TIMEOUT, Filler, load_index
from pipeline.fill.quality import fill_graded
from pipeline.model.fileio import read_text
from pipeline.model.grid import parse_grid
from pipeline.model.wordlist import read_wordlist

SPEED_GRIDS = ["us15x15_78w", "us15x15_72w", "us21x21_140w"]
SMALL_GRIDS = ["open6x6", "ss_7xopen", "mini7x7", "open5x5"]
COUNT_GRID = "open4x4"
COUNT_GOAL = 1.5e6  # double word squares counted per second
# The open stacked 7x7 with a score floor: (grid, --min-score, median goal s, max goal s).
FLOOR_GOAL = ("ss_7xopen", 50.0, 1.0, 5.0)

# The program run inside blacksquare's own venv.  It imports nothing from
# this project.  Modes:
#   export OUT            write blacksquare.DEFAULT_WORDLIST as WORD;score (0-100)
#   fill LIST GRID T TEMP MIN SEED...
#                         load LIST once, then one timed fill per seed (MIN:
#                         the lowest score on the list's scale, or "-"); one
#                         JSON line per event, flushed, so the parent can
#                         enforce a hard limit per attempt.
RUNNER = r"""
import json, random, sys, time

def emit(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()

def export(out):
    import blacksquare
    wl = blacksquare.DEFAULT_WORDLIST
    words, scores = wl.words, wl.scores
    top = max(scores)
    factor = 100.0 if top <= 1.0 else 2.0 if top <= 50.0 else 1.0
    kept = dropped = 0
    with open(out, "w", encoding="utf-8") as f:
        for w, s in zip(words, scores):
            s = round(s * factor, 2)
            if s <= 0:  # blacksquare never places a zero-scored word
                dropped += 1
                continue
            f.write(f"{w};{int(s) if s == int(s) else s}\n")
            kept += 1
    emit({"version": getattr(blacksquare, "__version__", None), "entries": len(words), "kept": kept,
          "dropped_zero": dropped, "raw_min": min(scores), "raw_max": top, "factor": factor})

def fill(list_path, grid_path, timeout, temperature, min_score, seeds):
    import blacksquare as bs
    t0 = time.perf_counter()
    wl = bs.WordList(list_path)
    if min_score != "-":
        # WordList(path) divides the scores by the list's top one; score_filter
        # keeps the words at or above its threshold on that 0-1 scale.  Done
        # once here, untimed, as our index is cut at a floor for nothing:
        # fill(score_filter=...) filters the whole list again at every fill.
        top = max(float(line.rsplit(";", 1)[1]) for line in open(list_path) if ";" in line)
        wl = wl.score_filter(float(min_score) / top)
    load = time.perf_counter() - t0
    # The first fill in a process pays a one-off set-up (~30 ms) whatever the
    # grid; pay it here, untimed, as our index build is paid at load.
    t0 = time.perf_counter()
    bs.Crossword(grid=[[bs.EMPTY] * 3] * 3, symmetry=None, word_list=wl).fill(
        word_list=wl, timeout=5.0, temperature=temperature, show_progress=False)
    emit({"event": "loaded", "load_seconds": load, "warmup_seconds": time.perf_counter() - t0, "words": len(wl)})
    rows = [r for r in open(grid_path).read().split("\n") if r]
    cells = [[bs.BLACK if c == "#" else bs.EMPTY if c == "." else c for c in r] for r in rows]
    for seed in seeds:
        xw = bs.Crossword(grid=cells, symmetry=None, word_list=wl)
        # The Rust core draws from its own random source and takes no seed;
        # these only make any Python-side randomness repeatable.
        random.seed(seed)
        try:
            import numpy
            numpy.random.seed(seed)
        except Exception:
            pass
        c0, t0 = time.process_time(), time.perf_counter()
        res = xw.fill(word_list=wl, timeout=timeout, temperature=temperature, show_progress=False)
        wall, cpu = time.perf_counter() - t0, time.process_time() - c0
        out = {"event": "attempt", "seed": seed, "seconds": wall, "cpu": cpu}
        if res is None:
            out["status"] = "timeout" if wall >= timeout * 0.98 else "unfillable"
        else:
            out["status"] = "filled"
            grid = []
            for i in range(len(rows)):
                line = ""
                for j in range(len(rows[0])):
                    v = res[i, j].value
                    line += "#" if v == bs.BLACK else "." if v == bs.EMPTY else str(v)
                grid.append(line)
            words = [w.value for w in res.iterwords()]
            out["grid"] = grid
            out["words"] = words
            out["not_in_list"] = [w for w in words if w not in wl]
            out["dupes"] = len(words) - len(set(words))
        emit(out)

if __name__ == "__main__":
    if sys.argv[1] == "export":
        export(sys.argv[2])
    else:
        fill(sys.argv[2], sys.argv[3], float(sys.argv[4]), float(sys.argv[5]), sys.argv[6],
             [int(s) for s in sys.argv[7:]])
"""


# -- helpers ---------------------------------------------------------------
def log(msg: str) -> None:
    print(f"[bench] {msg}", file=sys.stderr, flush=True)


def default_grids() -> Path:
    shared = (ROOT / ".." / "shared" / "bench" / "grids").resolve()
    return shared if shared.is_dir() else ROOT / "tests" / "data" / "grids"


def verify(original, rows, index, claimed=None, min_score=None) -> dict:
    """Check a fill from its letters alone; return the problems found.

    Words are read back from the letter grid with our own slot finder, so
    crossing letters agree by construction; ``claimed`` (the filler's own
    list of words, slot by slot) must then equal what the letters spell.
    With ``min_score`` every word must score at least that.
    """
    problems: list[str] = []
    try:
        filled = parse_grid("\n".join(rows))
    except Exception as e:  # noqa: BLE001 - any failure is a verification failure
        return {"valid": False, "dupes": 0, "problems": [f"unreadable grid: {e}"]}
    if (filled.rows, filled.cols) != (original.rows, original.cols):
        return {"valid": False, "dupes": 0, "problems": ["wrong size"]}
    for k, (a, b) in enumerate(zip(original.cells, filled.cells)):
        if (a == "#") != (b == "#"):
            problems.append(f"black square changed at cell {k}")
        elif a not in "#." and a != b:
            problems.append(f"given letter changed at cell {k}")
        elif b == ".":
            problems.append(f"cell {k} left empty")
    words = filled.words()
    missing = sorted({w for w in words if w not in index})
    if missing:
        problems.append("not in list: " + " ".join(missing[:5]))
    if min_score is not None:
        low = sorted({w for w in words if w in index and index.score(w) < min_score})
        if low:
            problems.append(f"scored under {min_score:g}: " + " ".join(low[:5]))
    dupes = len(words) - len(set(words))
    if dupes:
        seen, twice = set(), set()
        for w in words:
            (twice if w in seen else seen).add(w)
        problems.append("repeated: " + " ".join(sorted(twice)))
    if claimed is not None and sorted(claimed) != sorted(words):
        problems.append(
            "the filler's words do not match its letters (crossings disagree)"
        )
    return {"valid": not problems, "dupes": dupes, "problems": problems}


def median_time(attempts, timeout) -> float | None:
    """Median seconds per attempt; one not filled counts as the full timeout."""
    if not attempts:
        return None
    return statistics.median(
        a["seconds"] if a["status"] == FILLED else max(a["seconds"], timeout)
        for a in attempts
    )


def summarise(attempts, timeout) -> dict:
    n = len(attempts)
    ok = sum(1 for a in attempts if a["status"] == FILLED and a["valid"])
    med = median_time(attempts, timeout)
    filled_times = sorted(a["seconds"] for a in attempts if a["status"] == FILLED)
    return {
        "n": n,
        "ok": ok,
        "filled": sum(1 for a in attempts if a["status"] == FILLED),
        "timeouts": sum(1 for a in attempts if a["status"] in (TIMEOUT, "hang")),
        "unfillable": sum(1 for a in attempts if a["status"] == "unfillable"),
        "errors": sum(1 for a in attempts if a["status"] == "error"),
        "dupes": sum(1 for a in attempts if a.get("dupes")),
        "invalid": sum(1 for a in attempts if a["status"] == FILLED and not a["valid"]),
        "median": med,
        # the median is a lower bound when it falls on an attempt that ran out of time
        "median_censored": med is not None
        and sum(1 for t in filled_times if t <= med) < math.ceil(n / 2),
        "cpu_median": statistics.median(a["cpu"] for a in attempts)
        if attempts
        else None,
        "max_filled": filled_times[-1] if filled_times else None,
        # the slowest attempt, one not filled counting as the full timeout
        "max": max(a["seconds"] if a["status"] == FILLED else max(a["seconds"], timeout) for a in attempts)
        if attempts
        else None,
    }


# -- blacksquare -----------------------------------------------------------
class Blacksquare:
    """blacksquare in its own venv, driven through the runner program."""

    def __init__(self, venv: Path, work: Path):
        self.venv = venv
        self.python = venv / "bin" / "python"
        self.runner = work / "bsq_runner.py"
        self.runner.write_text(RUNNER)
        self.work = work

    def install(self) -> None:
        if self.python.exists() and self._importable():
            log(f"using blacksquare from {self.venv}")
        else:
            log(f"creating {self.venv} and installing blacksquare (pip) ...")
            subprocess.run(["python3", "-m", "venv", str(self.venv)], check=True)
            subprocess.run(
                [
                    str(self.python),
                    "-m",
                    "pip",
                    "install",
                    "--quiet",
                    "--disable-pip-version-check",
                    "blacksquare",
                ],
                check=True,
            )
        self.version = subprocess.run(
            [
                str(self.python),
                "-c",
                "import importlib.metadata as m; print(m.version('blacksquare'))",
            ],
            capture_output=True,
            text=True,
            check=True,
            cwd=self.work,
        ).stdout.strip()

    def _importable(self) -> bool:
        return (
            subprocess.run(
                [str(self.python), "-c", "import blacksquare"],
                check=False,
                capture_output=True,
                cwd=self.work,
            ).returncode
            == 0
        )

    def export_default(self, out: Path) -> dict:
        run = subprocess.run(
            [str(self.python), str(self.runner), "export", str(out)],
            check=False,
            capture_output=True,
            text=True,
            cwd=self.work,
        )
        if run.returncode:
            raise SystemExit(
                f"exporting blacksquare's default list failed:\n{run.stderr}"
            )
        return json.loads(run.stdout.strip().splitlines()[-1])

    def fill_seeds(
        self,
        wordlist: Path,
        grid_file: Path,
        seeds,
        timeout,
        temperature,
        min_score=None,
        load_limit=300.0,
    ):
        """Yield one attempt dict per seed; a fill that outlives its limit is
        recorded as a hang (a timeout), the child killed and restarted for
        the seeds left."""
        todo = list(seeds)
        grace = max(10.0, 0.25 * timeout)
        while todo:
            err = open(self.work / "bsq_stderr.txt", "w+")  # noqa: SIM115 - closed below, after the child
            cmd = [
                str(self.python),
                str(self.runner),
                "fill",
                str(wordlist),
                str(grid_file),
                str(timeout),
                str(temperature),
                "-" if min_score is None else repr(float(min_score)),
            ]
            proc = subprocess.Popen(
                cmd + [str(s) for s in todo],
                stdout=subprocess.PIPE,
                stderr=err,
                text=True,
                cwd=self.work,
            )
            lines: queue.Queue = queue.Queue()

            def pump(stream=proc.stdout, q=lines):
                for line in stream:
                    q.put(line)
                q.put(None)

            threading.Thread(target=pump, daemon=True).start()
            limit = load_limit
            restart = False
            while todo:
                try:
                    line = lines.get(timeout=limit)
                except queue.Empty:
                    seed = todo.pop(0)
                    yield {
                        "seed": seed,
                        "status": "hang",
                        "seconds": limit,
                        "cpu": float("nan"),
                    }
                    restart = True
                    break
                if line is None:  # the child died
                    err.seek(0)
                    tail = err.read()[-400:]
                    seed = todo.pop(0)
                    yield {
                        "seed": seed,
                        "status": "error",
                        "seconds": timeout,
                        "cpu": float("nan"),
                        "error": tail,
                    }
                    restart = True
                    break
                msg = json.loads(line)
                if msg.get("event") == "loaded":
                    self.load_seconds = msg["load_seconds"]
                    limit = timeout + grace
                    continue
                todo.remove(msg["seed"])
                yield msg
            if proc.poll() is None:
                proc.kill()
            proc.wait()
            err.close()
            if not restart:
                break


# -- ours ------------------------------------------------------------------
def ours_attempt(grid, index, seed, timeout, min_score=None) -> dict:
    """One timed fill of ours: the plain search (``xw fill --first``), or
    with ``min_score`` what ``xw fill --min-score`` runs (`fill_graded`)."""
    c0 = time.process_time()
    try:
        if min_score is None:
            r = Filler(grid, index, seed=seed).fill(timeout)
        else:
            r = fill_graded(grid, index, seed=seed, timeout=timeout, min_score=min_score)
    except Exception as e:  # noqa: BLE001 - e.g. the filler's own check failing
        return {
            "seed": seed,
            "status": "error",
            "seconds": timeout,
            "cpu": time.process_time() - c0,
            "error": repr(e),
        }
    out = {
        "seed": seed,
        "status": r.status,
        "seconds": r.seconds,
        "cpu": time.process_time() - c0,
        "nodes": r.nodes,
        "fails": r.fails,
        "restarts": r.restarts,
    }
    if r.status == FILLED:
        out["grid"] = r.grid.row_strings()
        out["words"] = r.words
    return out


# -- the 4x4 count ---------------------------------------------------------
def xw_command() -> list[str]:
    exe = Path(sys.executable).with_name("xw")
    if exe.exists():
        return [str(exe)]
    return [
        sys.executable,
        "-c",
        "import sys; from pipeline.cli import main; sys.exit(main())",
    ]


DEFAULT_COUNT_LIST = ROOT / "outputs" / "lexicon" / "wordlist.txt"


def count_wordlist(path: Path) -> tuple[Path | None, str]:
    """The list the 4x4 count reads, and a note on how it was found.

    Our default list (``xw lexicon``'s) is built when it is missing, as the
    Snakefile's lexicon rule builds it; any other missing list is reported
    with the command that makes the default one.
    """
    if path.exists():
        return path, ""
    how = f"build it with `xw lexicon --out {DEFAULT_COUNT_LIST.parent}`"
    if path.resolve() != DEFAULT_COUNT_LIST:
        return None, f"no word list at {path} (for our default list, {how})"
    log(f"{path} is missing: building our default list with `xw lexicon` ...")
    run = subprocess.run(
        xw_command() + ["lexicon", "--out", str(path.parent)],
        check=False,
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    if run.returncode != 0 or not path.exists():
        tail = run.stderr.strip()[-300:]
        return None, f"`xw lexicon` could not build {path} (exit {run.returncode}: {tail}); {how}"
    return path, f"built {path} with `xw lexicon`"


def run_count(grid_file: Path, wordlist: Path, work: Path, limit: float) -> dict:
    """Count the double word squares of ``grid_file`` with `xw count`.

    Takes the words of the grid's side from ``wordlist`` (the issue's
    benchmark: the 4-letter words of our default list), counts every square,
    then seed 001's kind (no word twice, a square and its transpose once).
    Times are wall seconds of each `xw count` run; ``rate`` leaves out
    Python's start-up, measured on `xw --help`.
    """
    cmd = xw_command()
    probe = subprocess.run(
        cmd + ["count", "--help"], check=False, capture_output=True, text=True, cwd=ROOT
    )
    if probe.returncode != 0:
        return {"skipped": "`xw count` is not available yet"}
    found, note = count_wordlist(wordlist)
    if found is None:
        return {"skipped": note}
    if note:
        log(note)
    side = len([r for r in read_text(grid_file).splitlines() if r.strip()])
    words = {w: s for w, s in read_wordlist(found).items() if len(w) == side}
    short = work / f"count-words{side}.txt"
    short.write_text("".join(f"{w};{s:g}\n" for w, s in words.items()))
    # Python start-up and import cost, measured so it can be told apart.
    t0 = time.perf_counter()
    subprocess.run(cmd + ["--help"], check=False, capture_output=True, cwd=ROOT)
    startup = time.perf_counter() - t0
    out = {"wordlist": str(found), "words": len(words), "startup": startup}
    for name, rules in [("all", []), ("distinct_once", ["--distinct-words", "--transpose-once"])]:
        what = "`" + " ".join(["xw count"] + rules) + "`"
        log(f"4x4 double word squares: {what} ...")
        t0 = time.perf_counter()
        try:
            run = subprocess.run(
                cmd + ["--quiet", "count", str(grid_file), "--wordlist", str(short)] + rules,
                check=False,
                capture_output=True,
                text=True,
                cwd=ROOT,
                timeout=limit,
            )
        except subprocess.TimeoutExpired:
            out["skipped"] = f"{what} did not finish within {limit:g} s"
            return out
        wall = time.perf_counter() - t0
        lines = run.stdout.strip().splitlines()
        if run.returncode != 0 or not lines or not lines[-1].strip().isdigit():
            tail = (run.stderr.strip() or run.stdout.strip())[-300:]
            out["skipped"] = f"{what} failed (exit {run.returncode}): {tail}"
            return out
        count = int(lines[-1])
        search = max(wall - startup, 1e-9)
        out[name] = {"count": count, "wall": wall, "rate": count / search, "rate_wall": count / wall}
        log(f"  {count:,} in {wall:.2f} s")
    return out


# -- main ------------------------------------------------------------------
def fmt_s(v, censored=False) -> str:
    if v is None:
        return "-"
    s = f"{v:.3f}" if v < 100 else f"{v:.1f}"
    return (">=" if censored else "") + s


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--seeds",
        type=int,
        default=10,
        help="attempts per grid and filler (seeds 0..N-1)",
    )
    ap.add_argument(
        "--timeout", type=float, default=60.0, help="seconds per fill (default 60)"
    )
    ap.add_argument(
        "--grids",
        type=Path,
        default=None,
        help="folder of NAME.txt grids (default ../shared/bench/grids)",
    )
    ap.add_argument(
        "--only",
        nargs="+",
        metavar="NAME",
        help="run only these grids (names without .txt)",
    )
    ap.add_argument(
        "--wordlist",
        type=Path,
        help="a WORD;score list to use instead of blacksquare's default list",
    )
    ap.add_argument(
        "--skip-blacksquare", action="store_true", help="run our filler only"
    )
    ap.add_argument(
        "--bsq-venv",
        type=Path,
        help="blacksquare's venv: reused if it has blacksquare, else made there and kept",
    )
    ap.add_argument(
        "--bsq-temperature",
        type=float,
        default=1.0,
        help="blacksquare's fill temperature (default 1.0: random fills, like our seeds; 0 is one deterministic fill)",
    )
    ap.add_argument(
        "--count-timeout",
        type=float,
        default=900.0,
        help="seconds allowed for `xw count` on the 4x4",
    )
    ap.add_argument(
        "--count-wordlist",
        type=Path,
        default=DEFAULT_COUNT_LIST,
        help="the list whose 4-letter words the 4x4 count uses (default: ours, "
        "outputs/lexicon/wordlist.txt, built with `xw lexicon` if missing)",
    )
    ap.add_argument(
        "--min-score",
        type=float,
        default=None,
        help="no word scoring under this, for both fillers (ours: as `xw fill --min-score`, "
        "the graded search; blacksquare: its list cut by score_filter)",
    )
    ap.add_argument(
        "--json",
        type=Path,
        help="also write every attempt and summary to this JSON file",
    )
    ap.add_argument(
        "--baseline",
        type=Path,
        help="the --json file of an earlier run: print each grid's median then and now",
    )
    args = ap.parse_args()

    grids_dir = args.grids or default_grids()
    files = sorted(grids_dir.glob("*.txt"))
    if args.only:
        files = [f for f in files if f.stem in args.only]
        missing = set(args.only) - {f.stem for f in files}
        if missing:
            raise SystemExit(
                f"no such grid in {grids_dir}: {' '.join(sorted(missing))}"
            )
    if not files:
        raise SystemExit(f"no grids (*.txt) in {grids_dir}")
    order = {n: k for k, n in enumerate(SPEED_GRIDS + SMALL_GRIDS + [COUNT_GRID])}
    files.sort(key=lambda f: (order.get(f.stem, 99), f.stem))
    if args.wordlist is None and args.skip_blacksquare:
        raise SystemExit(
            "--skip-blacksquare needs --wordlist (the default list comes from blacksquare)"
        )
    seeds = list(range(args.seeds))

    work = Path(tempfile.mkdtemp(prefix="xw-bench-fill-"))
    bsq = None
    try:
        # 1. the word list both fillers use: a temporary WORD;score file
        bench_list = work / "bench-wordlist.txt"
        if not args.skip_blacksquare:
            bsq = Blacksquare(
                args.bsq_venv.resolve() if args.bsq_venv else work / "bsq-venv", work
            )
            bsq.install()
        if args.wordlist is None:
            info = bsq.export_default(bench_list)
            list_desc = (
                f"blacksquare {bsq.version} default list (CC BY-NC-SA), exported to a temp file: "
                f"{info['kept']} entries of {info['entries']} (dropped {info['dropped_zero']} scored 0), "
                f"scores {info['raw_min']:g}-{info['raw_max']:g} x{info['factor']:g} -> 0-100"
            )
        else:
            # Our reader normalises and checks the list; both fillers then read
            # the same normalised copy.  Zero-scored entries are dropped since
            # blacksquare never places them.
            words = read_wordlist(args.wordlist)
            kept = {w: s for w, s in words.items() if s > 0}
            bench_list.write_text("".join(f"{w};{s:g}\n" for w, s in kept.items()))
            list_desc = f"{args.wordlist}: {len(kept)} entries (dropped {len(words) - len(kept)} scored 0)"
        log(f"word list: {list_desc}")

        t0 = time.perf_counter()
        index = load_index(bench_list)
        our_load = time.perf_counter() - t0
        log(f"our index loaded in {our_load:.2f} s")

        # 2. fill every grid with both fillers
        results = {}
        count_grid = None
        for f in files:
            grid = parse_grid(read_text(f), f)
            if f.stem == COUNT_GRID:
                count_grid = f
            grid_file = work / f"{f.stem}.grid"
            grid_file.write_text(grid.to_text())
            row = {
                "size": f"{grid.rows}x{grid.cols}",
                "slots": len(grid.slots()),
                "ours": [],
                "bsq": [],
            }
            for s in seeds:
                a = ours_attempt(grid, index, s, args.timeout, args.min_score)
                a.update(
                    verify(grid, a["grid"], index, a["words"], args.min_score)
                    if a["status"] == FILLED
                    else {"valid": False}
                )
                row["ours"].append(a)
                log(
                    f"{f.stem} ours seed {s}: {a['status']} {a['seconds']:.3f} s, {a.get('nodes', 0)} nodes"
                    + (
                        ""
                        if a.get("valid", True) or a["status"] != FILLED
                        else f" INVALID {a['problems']}"
                    )
                )
            if bsq is not None:
                for a in bsq.fill_seeds(
                    bench_list, grid_file, seeds, args.timeout, args.bsq_temperature, args.min_score
                ):
                    a.update(
                        verify(grid, a["grid"], index, a["words"], args.min_score)
                        if a["status"] == FILLED
                        else {"valid": False}
                    )
                    row["bsq"].append(a)
                    log(
                        f"{f.stem} blacksquare seed {a['seed']}: {a['status']} {a['seconds']:.3f} s"
                        + (
                            f" INVALID {a['problems']}"
                            if a["status"] == FILLED and not a["valid"]
                            else ""
                        )
                    )
            row["ours_sum"] = summarise(row["ours"], args.timeout)
            row["bsq_sum"] = (
                summarise(row["bsq"], args.timeout) if bsq is not None else None
            )
            results[f.stem] = row

        # 3. the 4x4 double word square count
        count = None
        if count_grid is not None:
            count = run_count(count_grid, args.count_wordlist, work, args.count_timeout)

        report(args, results, count, list_desc, our_load, bsq)
        if args.json:
            dump = {
                "wordlist": list_desc,
                "timeout": args.timeout,
                "seeds": args.seeds,
                "min_score": args.min_score,
                "bsq_temperature": args.bsq_temperature,
                "our_load_seconds": our_load,
                "grids": results,
                "count": count,
            }
            for row in dump["grids"].values():
                for a in row["ours"] + row["bsq"]:
                    a.pop("words", None)
            args.json.write_text(json.dumps(dump, indent=1, default=str))
    finally:
        shutil.rmtree(
            work, ignore_errors=True
        )  # the exported list and, unless --bsq-venv, the venv
    return 0


def _median_nodes(attempts) -> str:
    nodes = [a["nodes"] for a in attempts if "nodes" in a]
    return f"{statistics.median(nodes):g}" if nodes else "-"


def compare(args, results) -> None:
    """Each grid's median (and max) of ours in the ``--baseline`` run, then in this one."""
    base = json.loads(args.baseline.read_text())
    print()
    print(f"Ours against the baseline run {args.baseline}: median s then -> now (now/then), median nodes, max s.")
    print(
        "  The same code run minutes apart on a shared machine can differ 2x on millisecond fills; the nodes "
        "(words tried) of a seed do not change unless the search does."
    )
    if base.get("min_score") != args.min_score or base.get("seeds") != args.seeds:
        print(
            f"  (the baseline ran with --min-score {base.get('min_score')} and {base.get('seeds')} seeds, "
            f"this run with {args.min_score} and {args.seeds}: not like for like)"
        )
    for name, row in results.items():
        then = base.get("grids", {}).get(name)
        if then is None:
            continue
        a, b = then["ours_sum"], row["ours_sum"]
        ratio = b["median"] / a["median"] if a["median"] else float("nan")
        print(
            f"  {name:<14} {fmt_s(a['median']):>8} -> {fmt_s(b['median']):>8} (x{ratio:.2f})   "
            f"nodes {_median_nodes(then['ours'])} -> {_median_nodes(row['ours'])}   "
            f"max {fmt_s(a.get('max', a['max_filled']))} -> {fmt_s(b['max'])}"
        )


def report(args, results, count, list_desc, our_load, bsq) -> None:
    n = args.seeds
    T = args.timeout
    print()
    print(
        f"Fill benchmark: {n} seeds per grid, {T:g} s per fill; word list: {list_desc}"
    )
    if args.min_score is not None:
        print(
            f"--min-score {args.min_score:g}: no word scoring under it (ours: fill_graded, as `xw fill --min-score`; "
            f"blacksquare: its list cut once, untimed, by WordList.score_filter({args.min_score:g}/top score))"
        )
    if bsq is not None:
        print(
            f"blacksquare {bsq.version} in its own venv, Crossword.fill(temperature={args.bsq_temperature:g}); "
            f"list load: ours {our_load:.2f} s, blacksquare {getattr(bsq, 'load_seconds', float('nan')):.2f} s (excluded)"
        )
    print(
        "Times are wall seconds of the search alone (median over all attempts; a fill not found counts as the"
    )
    print(
        "full timeout, shown >= when that sets the median). The machine is noisy: the ratio is the meaningful figure."
    )
    print(
        "ok = filled and verified (listed words, no word twice, crossings agree); t/o = timeouts; dup = fills with a repeat."
    )
    print()
    head = f"{'grid':<14}{'size':>6}{'slots':>6} | {'ours ok':>7}{'t/o':>4}{'dup':>4}{'med s':>9}{'cpu s':>8}{'max s':>8} |"
    if bsq is not None:
        head += f" {'bsq ok':>7}{'t/o':>4}{'dup':>4}{'med s':>9}{'cpu s':>8}{'max s':>8} | {'ours/bsq':>8}"
    print(head)
    print("-" * len(head))
    for name, row in results.items():
        o = row["ours_sum"]
        line = (
            f"{name:<14}{row['size']:>6}{row['slots']:>6} | {o['ok']:>4}/{o['n']:<2}{o['timeouts']:>4}{o['dupes']:>4}"
            f"{fmt_s(o['median'], o['median_censored']):>9}{fmt_s(o['cpu_median']):>8}{fmt_s(o['max_filled']):>8} |"
        )
        if bsq is not None:
            b = row["bsq_sum"]
            ratio = o["median"] / b["median"] if b["median"] else float("nan")
            row["ratio"] = ratio
            line += (
                f" {b['ok']:>4}/{b['n']:<2}{b['timeouts']:>4}{b['dupes']:>4}"
                f"{fmt_s(b['median'], b['median_censored']):>9}{fmt_s(b['cpu_median']):>8}{fmt_s(b['max_filled']):>8} |"
                f" {ratio:>8.2f}"
            )
        print(line)
        for who in ("ours", "bsq"):
            for a in row[who]:
                if a["status"] in ("error", "unfillable") or (
                    a["status"] == FILLED and not a["valid"]
                ):
                    why = (
                        a.get("error")
                        or "; ".join(a.get("problems", []))
                        or "search space exhausted: no fill exists"
                    )
                    print(
                        f"    {who} seed {a['seed']}: {a['status']}: {why.strip()[:160]}"
                    )

    print()
    print("Goals:")
    for name in SPEED_GRIDS:
        if name not in results:
            continue
        row = results[name]
        o = row["ours_sum"]
        if bsq is not None:
            r = row["ratio"]
            print(
                f"  {name}: median ours/blacksquare = {r:.2f} (goal <= 1.0): {'met' if r <= 1.0 else 'NOT met'}"
            )
        ok = o["ok"] == o["n"]
        extra = ""
        if bsq is not None:
            extra = f"; blacksquare {row['bsq_sum']['ok']}/{n}, {row['bsq_sum']['timeouts']} timeouts"
        print(
            f"  {name}: ours {o['ok']}/{o['n']} filled within {T:g} s (goal 100%){extra}: {'met' if ok else 'NOT met'}"
        )
    for name in SMALL_GRIDS:
        if name in results:
            o = results[name]["ours_sum"]
            print(
                f"  {name}: ours {o['ok']}/{o['n']} filled within {T:g} s (goal {o['n']}/{o['n']}): "
                f"{'met' if o['ok'] == o['n'] else 'NOT met'}"
            )
    bad = sum(
        results[g]["ours_sum"]["invalid"] + results[g]["ours_sum"]["errors"]
        for g in results
    )
    print(
        f"  every fill of ours valid (no repeat, all listed, crossings agree): {'met' if bad == 0 else f'NOT met ({bad} bad)'}"
    )
    name, floor, goal_med, goal_max = FLOOR_GOAL
    if name in results and args.min_score == floor:
        o = results[name]["ours_sum"]
        met = o["ok"] == o["n"] and o["median"] <= goal_med and o["max"] <= goal_max
        print(
            f"  {name} at --min-score {floor:g}: ours median {fmt_s(o['median'], o['median_censored'])} s "
            f"(goal <= {goal_med:g} s), max {fmt_s(o['max'])} s (goal <= {goal_max:g} s), {o['ok']}/{o['n']} filled: "
            f"{'met' if met else 'NOT met'}"
        )
    if args.baseline:
        compare(args, results)
    if count is not None:
        if "all" in count:
            c = count["all"]
            print(
                f"  4x4 double word squares from the {count['words']} 4-letter words of {count['wordlist']}: "
                f"{c['count']:,} in {c['wall']:.2f} s wall ({count['startup']:.2f} s of it Python start-up): "
                f"{c['rate'] / 1e6:.2f} M squares/s ({c['rate_wall'] / 1e6:.2f} M/s counting start-up) "
                f"(goal >= {COUNT_GOAL / 1e6:.1f} M/s): {'met' if c['rate'] >= COUNT_GOAL else 'NOT met'}"
            )
        if "distinct_once" in count:
            c = count["distinct_once"]
            print(
                f"    no word twice, a square and its transpose once (seed 001's rule): {c['count']:,} "
                f"in {c['wall']:.2f} s wall: {c['rate'] / 1e6:.2f} M squares/s "
                f"({c['rate_wall'] / 1e6:.2f} M/s counting start-up)"
            )
        if "skipped" in count:
            print(f"  4x4 double word squares: skipped: {count['skipped']}")

if __name__ == "__main__":
    sys.exit(main())
