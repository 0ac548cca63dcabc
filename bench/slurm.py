"""1,000 puzzles through the SLURM profile against the same run on local cores.

Usage (as root on a machine with Debian's packages, or on a cluster's login node):

    sudo .ci/slurm-cluster up            # a one-node cluster on localhost, if you have none
    .venv/bin/python bench/slurm.py [--books 10] [--puzzles 100] [--cores N] [--config KEY=VALUE ...] [--json FILE]

Makes two scratch copies of the workflow, each with this project's
``outputs/lexicon`` (built first if missing), and runs the same config in
both: ``snakemake --cores N`` (N: the cluster's CPUs, from ``sinfo``) and
``snakemake --profile config/slurm``.  Prints each run's wall-clock time, the
jobs SLURM ran and the ratio (the goal: SLURM at most 1.3x local), then
checks that both runs delivered byte-identical ``.ipuz``, ``.puz`` and PDFs.
Not a test: nothing in tests/ runs it.  The two runs take three to five
minutes each on the 2-CPU reference machine.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from workflowkit import copy_workflow, differences, fingerprints, snakemake_command  # noqa: E402

GOAL = 1.3


def _cluster_cpus() -> int:
    """All CPUs of the cluster's nodes (sinfo's A/I/O/T, the T)."""
    try:
        out = subprocess.run(["sinfo", "-h", "-o", "%C"], capture_output=True, text=True, check=True, timeout=30)
    except (FileNotFoundError, subprocess.CalledProcessError, subprocess.TimeoutExpired) as e:
        sys.exit(f"bench: no SLURM cluster answers sinfo ({e}); start one with: sudo .ci/slurm-cluster up")
    return sum(int(line.split("/")[3]) for line in out.stdout.split())


def _lexicon() -> Path:
    lexicon = ROOT / "outputs" / "lexicon"
    if not (lexicon / "wordlist.txt").exists():
        print("bench: building the default word list first (xw lexicon, about 40 s)", file=sys.stderr, flush=True)
        subprocess.run([sys.executable, "-m", "pipeline.cli", "-q", "lexicon", "--out", str(lexicon)], check=True)
    return lexicon


def _run(name: str, work: Path, cores: int, config: dict, extra: list[str]) -> dict:
    shutil.copytree(_lexicon(), work / "outputs" / "lexicon")
    cmd = snakemake_command(work, cores, config, extra)
    print(f"bench: {name}: {' '.join(cmd[2:])} (in {work})", file=sys.stderr, flush=True)
    t0 = time.perf_counter()
    with open(work / "snakemake.out", "w") as log:
        run = subprocess.run(cmd, cwd=work, stdout=log, stderr=subprocess.STDOUT)
    wall = time.perf_counter() - t0
    if run.returncode:
        sys.exit(f"bench: {name} run failed (exit {run.returncode}); see {work / 'snakemake.out'}")
    jobs = len(list((work / "outputs" / "logs" / "slurm").rglob("*.log")))
    print(f"bench: {name}: {wall:.0f} s", file=sys.stderr, flush=True)
    return {"run": name, "seconds": round(wall, 1), "slurm_jobs": jobs}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--books", type=int, default=10)
    ap.add_argument("--puzzles", type=int, default=100, help="puzzles per book")
    ap.add_argument("--cores", type=int, help="local cores (default: the cluster's CPUs)")
    ap.add_argument("--config", nargs="*", default=[], metavar="KEY=VALUE",
                    help="config keys changed in both runs (a YAML value), e.g. fill_batch_size=100")
    ap.add_argument("--json", type=Path, metavar="FILE", help="also write the rows as JSON")
    ap.add_argument("--keep", action="store_true", help="keep the scratch folders and print their paths")
    args = ap.parse_args()
    cores = args.cores or _cluster_cpus()
    # The default config with only the books' size changed, as bench/books.py runs it.
    config = {"books": args.books, "puzzles_per_book": args.puzzles}
    for item in args.config:
        key, sep, value = item.partition("=")
        if not sep:
            ap.error(f"--config {item}: give KEY=VALUE")
        config[key] = yaml.safe_load(value)
    scratch = Path(tempfile.mkdtemp(prefix="xwbench-slurm-"))
    rows = [
        _run("local", copy_workflow(scratch / "local"), cores, config, []),
        _run("slurm", copy_workflow(scratch / "slurm"), 1, config, ["--profile", "config/slurm"]),
    ]
    diff = differences(fingerprints(scratch / "local"), fingerprints(scratch / "slurm"))
    ratio = rows[1]["seconds"] / rows[0]["seconds"]
    n = args.books * args.puzzles
    print(f"\n{n} puzzles ({args.books} books of {args.puzzles}), cluster CPUs = local cores = {cores}")
    print(f"{'run':<8}{'seconds':>10}{'SLURM jobs':>12}")
    for row in rows:
        print(f"{row['run']:<8}{row['seconds']:>10.1f}{row['slurm_jobs'] or '':>12}")
    print(f"SLURM / local: {ratio:.2f} (goal <= {GOAL})")
    print(f"deliverables: {len(fingerprints(scratch / 'local'))} files, " + ("identical" if not diff else f"{len(diff)} differ"))
    for line in diff[:20]:
        print("  " + line)
    if args.json:
        args.json.write_text(json.dumps({"cores": cores, "puzzles": n, "rows": rows, "ratio": ratio, "differences": diff}))
    if args.keep:
        print(f"scratch: {scratch}")
    else:
        shutil.rmtree(scratch)
    return 1 if diff or ratio > GOAL else 0


if __name__ == "__main__":
    sys.exit(main())
