"""Local batch workers grade one submission after another; a dead one is replaced."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

import grader.batch.plan
from grader.batch.plan import BatchOptions, run_batch
from grader.class_folder.records import GradingRecord
from grader.spec.loader import load_assignment
from tests.batch.fake_grading import grade_by_content
from tests.batch.probe_grading import grade_and_tell_pid

pytestmark = pytest.mark.kernel


def test_workers_are_reused_and_a_dead_one_is_replaced(tmp_path: Path) -> None:
    source = tmp_path / "in"
    source.mkdir()
    for n in range(8):
        (source / f"s{n}.py").write_text("DIE" if n == 3 else "check-win")
    result = run_batch(
        source,
        load_assignment("lab05"),
        tmp_path / "out",
        BatchOptions(jobs=2, progress=False),
        grade=grade_and_tell_pid,
    )
    by_id = {r.submission.student_id: r for r in result.records}
    assert "grading process died (killed by SIGKILL" in (by_id["s3"].failure or "")
    graded = [r for r in result.records if r.failure is None]
    assert len(graded) == 7
    pids = {r.result.timings["pid"] for r in graded}
    assert 2 <= len(pids) <= 3  # two workers, one of them replaced after s3 killed it
    assert all(r.result.timings["spare"] for r in graded)  # each worker keeps a spare kernel for the next
    # but after the batch's last submission, which none follows
    assert [r.submission.student_id for r in graded if not r.result.timings["launch_ahead"]] == ["s7"]


def test_the_next_submission_is_graded_while_the_last_ones_outputs_are_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = tmp_path / "in"
    source.mkdir()
    (source / "a.py").write_text("check-win")
    (source / "b.py").write_text("STARTED check-win")
    started = source / "b.py.started"
    seen_while_writing: dict[str, bool] = {}
    write = grader.batch.plan.write_student_outputs

    def slow_write(out_dir: Path, record: GradingRecord, *args: Any) -> None:
        if record.submission.student_id == "a":  # the one worker must already be on b
            waited_until = time.monotonic() + 30
            while not started.exists() and time.monotonic() < waited_until:
                time.sleep(0.05)
            seen_while_writing["a"] = started.exists()
        write(out_dir, record, *args)

    monkeypatch.setattr(grader.batch.plan, "write_student_outputs", slow_write)
    result = run_batch(
        source, load_assignment("lab05"), tmp_path / "out", BatchOptions(jobs=1, progress=False), grade=grade_by_content
    )
    assert seen_while_writing == {"a": True}
    assert sorted(r.submission.student_id for r in result.records) == ["a", "b"]
