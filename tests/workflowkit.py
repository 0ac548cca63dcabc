"""Run the real workflow in a scratch copy and fingerprint what it delivers.

The fault and determinism tests (and the SLURM test, with its own
``extra`` arguments such as ``--executor slurm --profile config/slurm``)
all do the same three things: copy the workflow into a fresh folder, run
``snakemake`` there with a small config, and compare the deliverables of
two runs byte for byte.  This module is those three things, once.

Example
-------
::

    work = copy_workflow(tmp_path / "a")
    run = run_workflow(work, cores=1, config=small_config(lexicon))
    assert run.returncode == 0, tail(run)
    sums = fingerprints(work)   # {"outputs/books/book-1.pdf": "3f2a...", ...}
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import yaml

__all__ = [
    "ROOT",
    "DELIVERABLES",
    "WORKFLOW_FILES",
    "copy_workflow",
    "snakemake_command",
    "run_workflow",
    "start_workflow",
    "fingerprints",
    "differences",
    "small_config",
    "build_lexicon",
    "bench_lexicon",
    "install_lexicon",
    "tail",
]

ROOT = Path(__file__).resolve().parent.parent
# What a user's clone runs from: the Snakefile and everything it reads from the tree.
WORKFLOW_FILES = ("Snakefile", "config", "templates", "report", "profiles")
# The folders whose every file must come out byte-identical: .ipuz and .puz, both PDFs.
DELIVERABLES = ("outputs/puzzles", "outputs/books")
OVERRIDES = "test-config.yaml"

_lexicon: dict[str, Path] = {}


def copy_workflow(dest) -> Path:
    """Copy the workflow (:data:`WORKFLOW_FILES` that exist) into the new folder ``dest``."""
    dest = Path(dest)
    dest.mkdir(parents=True, exist_ok=False)
    for item in WORKFLOW_FILES:
        src = ROOT / item
        if src.is_dir():
            shutil.copytree(src, dest / item)
        elif src.exists():
            shutil.copy(src, dest / item)
    return dest


def snakemake_command(work, cores: int = 2, config: dict | None = None, extra=()) -> list[str]:
    """The ``snakemake`` command line a user would type, run with this Python.

    ``config`` (any keys of ``config/config.yaml``, mappings too) is written
    to ``work/test-config.yaml`` and given with ``--configfile``, which
    Snakemake lays over the workflow's own config file.
    """
    cmd = [sys.executable, "-m", "snakemake", "--cores", str(cores)]
    if config:
        (Path(work) / OVERRIDES).write_text(yaml.safe_dump(config, sort_keys=True))
        cmd += ["--configfile", OVERRIDES]
    return cmd + [*extra]


def run_workflow(
    work, cores: int = 2, config: dict | None = None, extra=(), env: dict | None = None, timeout: float = 900
) -> subprocess.CompletedProcess:
    """Run the workflow in ``work`` to the end; the completed process (output captured).

    ``env`` adds to (or overrides) the environment, e.g. ``{"PYTHONHASHSEED": "1"}``.
    """
    cmd = snakemake_command(work, cores, config, extra)
    return subprocess.run(cmd, cwd=work, capture_output=True, text=True, timeout=timeout, env=_env(env))


def start_workflow(work, cores: int = 2, config: dict | None = None, extra=(), env: dict | None = None, log=None):
    """Start the workflow in ``work`` in a process group of its own; the ``subprocess.Popen``.

    ``os.killpg(p.pid, signal.SIGKILL)`` kills Snakemake and every job it
    started, as a kill of the user's terminal session would.  The output
    goes to ``log`` (a path; default ``work/snakemake.out``).
    """
    cmd = snakemake_command(work, cores, config, extra)
    out = open(Path(log) if log else Path(work) / "snakemake.out", "w")
    try:
        return subprocess.Popen(
            cmd, cwd=work, stdout=out, stderr=subprocess.STDOUT, start_new_session=True, env=_env(env)
        )
    finally:
        out.close()  # the child has its own copy


def fingerprints(work, folders=DELIVERABLES) -> dict[str, str]:
    """``{path relative to work: sha256}`` of every file under ``folders`` (hidden ones too)."""
    work = Path(work)
    sums = {}
    for folder in folders:
        for path in sorted((work / folder).rglob("*")):
            if path.is_file():
                sums[path.relative_to(work).as_posix()] = hashlib.sha256(path.read_bytes()).hexdigest()
    return sums


def differences(a: dict[str, str], b: dict[str, str]) -> list[str]:
    """The paths whose bytes differ between two :func:`fingerprints`, or that only one has, each saying which.

    Examples
    --------
    >>> differences({"x": "1", "y": "2"}, {"x": "1", "y": "3", "z": "4"})
    ['outputs differ: y', 'only in the second run: z']
    """
    out = [f"outputs differ: {p}" for p in sorted(a.keys() & b.keys()) if a[p] != b[p]]
    out += [f"only in the first run: {p}" for p in sorted(a.keys() - b.keys())]
    out += [f"only in the second run: {p}" for p in sorted(b.keys() - a.keys())]
    return out


def small_config(lexicon, **changes) -> dict:
    """A small book that still runs every stage: 2 books of 3 puzzles, 11x11 American grids.

    ``lexicon`` is a folder built by ``xw lexicon`` (see :func:`build_lexicon`),
    given as the user's word list and clues so no run rebuilds it.
    """
    config = {
        "seed": 7,
        "books": 2,
        "puzzles_per_book": 3,
        "preview_pages": 0,
        "grid_size": 11,
        "pattern_rules": {
            "american": {"max_words": 42, "min_words": None, "max_blacks": 22, "min_blacks": None, "max_slot_length": 9}
        },
        "pattern_shards": 2,
        "patterns_per_shard": 12,
        # Each book filled in two batches at once, then merged (its answers may come back once, a puzzle apart).
        "fill_batch_size": 2,
        "max_answer_repeats": 2,
        "answer_gap": 1,
        "wordlist": str(Path(lexicon) / "wordlist.txt"),
        "clues": str(Path(lexicon) / "clues"),
    }
    config.update(changes)
    return config


def build_lexicon(tmp_path_factory) -> Path:
    """The default word list and clues (``xw lexicon``, about 40 s), built once per test session."""
    if "default" not in _lexicon:
        out = tmp_path_factory.mktemp("lexicon")
        xw = [sys.executable, "-m", "pipeline.cli"]
        run = subprocess.run([*xw, "lexicon", "--out", str(out)], capture_output=True, text=True, env=_env())
        assert run.returncode == 0, run.stderr[-3000:]
        _lexicon["default"] = out
    return _lexicon["default"]


def bench_lexicon(path=None) -> Path:
    """A benchmark's lexicon: ``path`` when it holds a built one, else one built now in a scratch folder."""
    if path is not None and (Path(path) / "wordlist.txt").exists():
        return Path(path)
    import tempfile

    out = Path(tempfile.mkdtemp(prefix="xwbench-lexicon-"))
    print(f"building the lexicon in {out} ...", flush=True)
    subprocess.run([sys.executable, "-m", "pipeline.cli", "lexicon", "--out", str(out), "--quiet"], check=True)
    return out


def install_lexicon(work, lexicon) -> None:
    """Copy a built ``lexicon`` into ``work/outputs/lexicon``, newer than the house files (not built again)."""
    dest = Path(work) / "outputs" / "lexicon"
    shutil.copytree(lexicon, dest)
    now = time.time()
    for p in dest.rglob("*"):
        os.utime(p, (now, now))


def tail(run, chars: int = 3000) -> str:
    """The end of a completed process's output, for an assertion message."""
    return (run.stdout or "")[-chars:] + (run.stderr or "")[-chars:]


def _env(changes: dict | None = None) -> dict:
    # The rules find `xw` beside this Python (the Snakefile puts its folder on PATH).
    env = dict(os.environ)
    env.pop("PYTHONHASHSEED", None)  # each process its own string hashing, as on a user's machine
    env.update(changes or {})
    return env
