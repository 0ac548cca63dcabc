"""Time each stage of the default book: run the pipeline in a scratch copy.

Usage: .venv/bin/python bench/stages.py [--cores 8] [--config key=value ...]

Copies the Snakefile, config/ and templates/ to a temporary folder, runs
``snakemake --cores N`` there (so your own outputs/ are untouched), then
prints the seconds Snakemake's ``benchmark:`` files recorded per stage, the
sum over shards and books, and the wall-clock time of the whole run.
"""

from __future__ import annotations

import argparse
import csv
import shutil
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ORDER = ["lexicon", "patterns", "connectivity", "filter", "encode", "fill", "clue", "render", "export", "preview", "summary"]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cores", type=int, default=8)
    ap.add_argument("--config", nargs="*", default=[], help="extra key=value config overrides")
    ap.add_argument("--keep", action="store_true", help="keep the scratch folder and print its path")
    args = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="xwbench-"))
    for name in ("Snakefile", "config", "templates", "report"):
        src = ROOT / name
        (shutil.copytree if src.is_dir() else shutil.copy)(src, work / name)
    cmd = [sys.executable, "-m", "snakemake", "--cores", str(args.cores), "--quiet", "all"]
    if args.config:
        cmd += ["--config", *args.config]
    t0 = time.perf_counter()
    run = subprocess.run(cmd, cwd=work)
    wall = time.perf_counter() - t0
    if run.returncode:
        print(f"snakemake failed (exit {run.returncode}); scratch folder kept: {work}", file=sys.stderr)
        return run.returncode
    per_stage = defaultdict(list)
    for tsv in sorted((work / "outputs" / "benchmarks").rglob("*.tsv")):
        rel = tsv.relative_to(work / "outputs" / "benchmarks")
        stage = rel.parts[0].removesuffix(".tsv")
        with open(tsv) as f:
            row = next(csv.DictReader(f, delimiter="\t"))
        per_stage[stage].append(float(row["s"]))
    print(f"{'stage':<14}{'jobs':>5}{'sum s':>10}{'max s':>10}")
    for stage in ORDER:
        times = per_stage.get(stage)
        if times:
            print(f"{stage:<14}{len(times):>5}{sum(times):>10.2f}{max(times):>10.2f}")
    print(f"{'wall clock':<14}{'':>5}{wall:>10.2f}   (snakemake --cores {args.cores})")
    if args.keep:
        print(f"outputs: {work / 'outputs'}")
    else:
        shutil.rmtree(work)
    return 0


if __name__ == "__main__":
    sys.exit(main())
