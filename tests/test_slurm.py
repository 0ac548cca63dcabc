"""The pipeline on a real SLURM scheduler through config/slurm.

Needs a cluster that answers ``sinfo`` and the executor plugin
(``pip install -e '.[slurm]'``); skipped otherwise, except under
``XWBOOK_REQUIRE_SLURM=1``, which `.ci/run` sets after starting a one-node
cluster on localhost (`.ci/slurm-cluster up`), so CI fails instead.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import time

import pytest
import yaml

from pipeline.config import fill_plan, load_config

from workflowkit import build_lexicon, copy_workflow, differences, fingerprints, run_workflow, small_config, start_workflow, tail

pytestmark = pytest.mark.slurm
PROFILE = ["--profile", "config/slurm"]


def _cluster_problem() -> str | None:
    """Why the SLURM tests cannot run here, or None."""
    if importlib.util.find_spec("snakemake_executor_plugin_slurm") is None:
        return "snakemake-executor-plugin-slurm is not installed (pip install -e '.[slurm]')"
    if shutil.which("sinfo") is None or shutil.which("sbatch") is None:
        return "no SLURM commands (sinfo, sbatch) on PATH"
    try:
        run = subprocess.run(["sinfo", "-h", "-o", "%t"], capture_output=True, text=True, timeout=20)
    except subprocess.TimeoutExpired:
        return "sinfo did not answer in 20 s"
    states = set(run.stdout.split())
    if run.returncode or not states & {"idle", "mix", "alloc", "idle*"}:
        return f"no SLURM node is up (sinfo: {run.stdout.strip() or run.stderr.strip()})"
    return None


@pytest.fixture(scope="module")
def cluster():
    problem = _cluster_problem()
    if problem:
        if os.environ.get("XWBOOK_REQUIRE_SLURM") == "1":
            pytest.fail(f"XWBOOK_REQUIRE_SLURM=1 but {problem}")
        pytest.skip(problem)


@pytest.fixture(scope="module")
def config(tmp_path_factory):
    return small_config(build_lexicon(tmp_path_factory))


@pytest.fixture(scope="module")
def local_run(tmp_path_factory, config):
    """The reference: the same config run locally."""
    work = copy_workflow(tmp_path_factory.mktemp("slurm") / "local")
    run = run_workflow(work, cores=2, config=config)
    assert run.returncode == 0, tail(run)
    return fingerprints(work)


def _jobs_in(work) -> list[dict]:
    """This run's SLURM jobs (those whose working directory is ``work``): id, state, comment."""
    out = subprocess.run(
        ["squeue", "-h", "--states=all", "-o", "%i|%T|%Z|%k"], capture_output=True, text=True, check=True
    ).stdout
    jobs = []
    for line in out.splitlines():
        jobid, state, workdir, comment = line.split("|", 3)
        if os.path.realpath(workdir) == os.path.realpath(work):
            jobs.append({"id": jobid, "state": state, "comment": comment})
    return jobs


def _book_job(job: dict) -> bool:
    """A book's group job (fill's merge and everything after it), not one of its fill batches."""
    return "book" in job["comment"] and "fill_batch" not in job["comment"]


def test_a_book_on_slurm_is_byte_identical_to_a_local_run(cluster, config, local_run, tmp_path):
    work = copy_workflow(tmp_path / "slurm")
    run = run_workflow(work, cores=1, config=config, extra=PROFILE, timeout=1200)
    assert run.returncode == 0, tail(run)
    # It really went through sbatch: one job per pattern shard and per book; encode ran on the login node.
    logs = work / "outputs" / "logs" / "slurm"
    book_logs = [p for p in logs.rglob("*.log") if p.parent.name.startswith("group_book")]
    shard_logs = [p for p in logs.rglob("*.log") if p.parent.name.startswith("group_shard")]
    assert len(book_logs) == config["books"], sorted(p.relative_to(logs) for p in logs.rglob("*.log"))
    assert len(shard_logs) == config["pattern_shards"]
    # Each book's fill batches ran as jobs of their own, at once, and were merged in the book's job.
    (tmp_path / "config.yaml").write_text(yaml.safe_dump(config))  # laid over the defaults, as the run did
    batches = fill_plan(load_config([tmp_path / "config.yaml"]))["fill_batches"]
    assert batches > 1 and len(list((logs / "rule_fill_batch").rglob("*.log"))) == config["books"] * batches
    assert not (logs / "rule_encode").exists() and (work / "outputs" / "patterns" / "section-1" / "patterns.hex").is_file()
    sums = fingerprints(work)
    assert sums and not differences(local_run, sums)


def test_a_cancelled_job_is_retried_and_the_run_completes(cluster, config, local_run, tmp_path):
    work = copy_workflow(tmp_path / "cancel")
    proc = start_workflow(work, cores=1, config=config, extra=PROFILE)
    cancelled = None
    try:
        deadline = time.monotonic() + 600
        while cancelled is None and proc.poll() is None and time.monotonic() < deadline:
            for job in _jobs_in(work):
                # A book's job (fill and everything after it), cancelled while it runs.
                if job["state"] == "RUNNING" and _book_job(job):
                    subprocess.run(["scancel", job["id"]], check=True)
                    cancelled = job["id"]
                    break
            time.sleep(0.3)
        assert cancelled, "no book job was seen running: " + (work / "snakemake.out").read_text()[-3000:]
        rc = proc.wait(timeout=1200)
    finally:
        if proc.poll() is None:
            proc.kill()
    out = (work / "snakemake.out").read_text()
    assert rc == 0, out[-3000:]
    jobs = _jobs_in(work)
    states = {j["id"]: j["state"] for j in jobs}
    assert states.get(cancelled) == "CANCELLED", states
    # The cancelled book was submitted again: one more book job than books.
    book_jobs = [j for j in jobs if _book_job(j)]
    assert len(book_jobs) == config["books"] + 1, book_jobs
    assert not differences(local_run, fingerprints(work))
