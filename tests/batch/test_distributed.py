"""Grading on a Dask cluster (a LocalCluster of two worker processes) and in shards: the
outputs equal those of a local run, a worker killed midway costs only a retry, and a
submission that keeps failing becomes "could not be graded"."""

from __future__ import annotations

import json
import logging
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from grader.batch.merge import merge_shards
from grader.batch.plan import BatchOptions, run_batch
from grader.batch.sharding import Shard
from grader.class_folder.layout import RESULT_FILE
from grader.spec.loader import load_assignment
from tests.batch.example_class import ASSIGNMENT, example_class
from tests.batch.fake_grading import grade_by_content

distributed = pytest.importorskip("distributed")
pytestmark = [pytest.mark.slow, pytest.mark.kernel]

REPO = Path(__file__).resolve().parents[2]
CLASS = ["ada-solution", "cleo-horizontal-win-missing", "fay-truncated-upload"]
"""Two notebooks graded, one for each worker of the cluster, and an upload that cannot be read."""


@pytest.fixture(scope="module")
def cluster() -> Iterator[Any]:
    import dask

    # One loss is forgiven, the second ends the task: keeps the repeated-death test short.
    with dask.config.set({"distributed.scheduler.allowed-failures": 1}):
        cluster = distributed.LocalCluster(
            n_workers=2, processes=True, threads_per_worker=1, dashboard_address=None, silence_logs=logging.CRITICAL
        )
    yield cluster
    cluster.close()


@pytest.fixture(scope="module")
def small_class(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return example_class(tmp_path_factory.mktemp("class"), CLASS)


@pytest.fixture(scope="module")
def local_run(small_class: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("local")
    result = run_batch(small_class, load_assignment(ASSIGNMENT), out, BatchOptions(jobs=2, progress=False))
    assert len(result.graded) == len(CLASS) - 1  # fay's upload is truncated
    return out


def outputs(out: Path) -> dict[str, Any]:
    """grades.csv, and per student results.json and the checks of the stored result
    (without the times, which are measurements)."""
    files: dict[str, Any] = {"grades.csv": (out / "grades.csv").read_bytes()}
    for folder in sorted(p for p in out.iterdir() if p.is_dir()):
        gradescope = json.loads((folder / "results.json").read_text())
        gradescope.pop("execution_time")
        stored = json.loads((folder / RESULT_FILE).read_text())
        checks = [{k: v for k, v in c.items() if k != "duration"} for c in stored["checks"]]
        files[folder.name] = (gradescope, checks, stored["problems"], stored["batch"]["failure"])
    return files


def test_a_worker_killed_midway_costs_a_retry_and_the_outputs_equal_a_local_run(
    cluster: Any, small_class: Path, local_run: Path, tmp_path: Path
) -> None:
    out = tmp_path / "dask"
    batch = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "grader",
            "batch",
            str(small_class),
            "-a",
            ASSIGNMENT,
            "--out",
            str(out),
            "--cluster",
            cluster.scheduler_address,
        ],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    with distributed.Client(cluster.scheduler_address) as client:
        deadline = time.monotonic() + 120
        while not any(client.processing().values()):
            assert time.monotonic() < deadline and batch.poll() is None
            time.sleep(0.05)
        time.sleep(1.0)  # into the notebook's execution
        # a worker still grading (fay's unreadable upload is done at once): seen after the pause
        victim, keys = next((w, keys) for w, keys in client.processing().items() if keys)
        pids = client.run_on_scheduler(lambda dask_scheduler: {a: w.pid for a, w in dask_scheduler.workers.items()})
        students = [key.removeprefix(f"grade-{ASSIGNMENT}-").rsplit("-", 1)[0] for key in keys]
        assert not all((out / student / RESULT_FILE).exists() for student in students)  # midway
        os.kill(pids[victim], signal.SIGKILL)
        deadline = time.monotonic() + 60
        while victim in client.scheduler_info()["workers"]:  # the scheduler saw it go
            assert time.monotonic() < deadline
            time.sleep(0.05)
    stdout, stderr = batch.communicate(timeout=600)
    assert batch.returncode == 0, stderr
    assert f"Done: {len(CLASS)} of {len(CLASS)} submission(s)" in stdout
    # each submission stored exactly once (one progress line each), the class files complete
    assert {name: stderr.count(f" {ASSIGNMENT} {name}: ") for name in CLASS} == {name: 1 for name in CLASS}
    assert outputs(out) == outputs(local_run)
    index = (out / "index.html").read_text()  # holds times: compared by its students
    assert all(name in index and (out / name / "report.html").is_file() for name in CLASS)


def test_merged_shards_equal_the_local_run(small_class: Path, local_run: Path, tmp_path: Path) -> None:
    shards = [tmp_path / f"shard{k}" for k in range(2)]
    for k, folder in enumerate(shards):
        run_batch(
            small_class, load_assignment(ASSIGNMENT), folder, BatchOptions(jobs=2, progress=False, shard=Shard(k, 2))
        )
    assert all(list(folder.glob(f"*/{RESULT_FILE}")) for folder in shards)
    merged = merge_shards(tmp_path / "merged", shards)
    assert merged.complete and merged.return_code == 0
    assert (tmp_path / "merged" / "grades.csv").read_bytes() == (local_run / "grades.csv").read_bytes()
    assert outputs(tmp_path / "merged") == outputs(local_run)


def fake_class(folder: Path, texts: dict[str, str]) -> Path:
    folder.mkdir()
    for name, text in texts.items():
        (folder / f"{name}.py").write_text(text)
    return folder


def test_failures_on_the_cluster_become_results(cluster: Any, tmp_path: Path) -> None:
    source = fake_class(
        tmp_path / "in", {"alice": "check-win check-draw", "carol": "CRASH", "dave": "UNREADABLE", "frank": "HANG"}
    )
    options = BatchOptions(progress=False, cluster=cluster.scheduler_address, deadline_seconds=3)
    result = run_batch(source, load_assignment("lab05"), tmp_path / "out", options, grade=grade_by_content)
    by_id = {r.submission.student_id: r for r in result.records}
    assert by_id["alice"].failure is None and by_id["alice"].result.score == 20
    assert "grader failed on this submission (RuntimeError: simulated grader bug)" in (by_id["carol"].failure or "")
    assert by_id["dave"].failure == "not a notebook (invalid JSON)" and not by_id["dave"].grader_fault
    assert "took longer than 3 s" in (by_id["frank"].failure or "") and not by_id["frank"].grader_fault
    assert result.return_code == 1
    again = run_batch(source, load_assignment("lab05"), tmp_path / "out", options, grade=grade_by_content)
    assert {r.submission.student_id for r in again.records if not r.reused} == {"carol"}  # as in a local run


def test_a_submission_that_kills_its_worker_every_time_is_not_graded(cluster: Any, tmp_path: Path) -> None:
    source = fake_class(tmp_path / "in", {"bob": "DIE"})
    options = BatchOptions(progress=False, cluster=cluster.scheduler_address)
    (record,) = run_batch(source, load_assignment("lab05"), tmp_path / "out", options, grade=grade_by_content).records
    assert "grading process died (KilledWorker" in (record.failure or "") and record.grader_fault
