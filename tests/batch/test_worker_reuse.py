"""Local batch workers grade one submission after another; a dead one is replaced."""

from __future__ import annotations

from pathlib import Path

import pytest

from grader.batch.plan import BatchOptions, run_batch
from grader.spec.loader import load_assignment
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
