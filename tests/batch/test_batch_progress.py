"""What a running batch tells the person who started it: progress without a terminal, and
each class's own time."""

from __future__ import annotations

import io
import time
from pathlib import Path

import pytest

from grader.batch.plan import BatchJob, BatchOptions, run_batches
from grader.batch.progress import ProgressReport, progress_line
from grader.batch.records import GradingRecord
from grader.grading import not_graded_result
from grader.spec.model import Assignment, load_assignment
from grader.submission.inputs import StudentSubmission
from tests.batch.fake_grading import grade_by_content
from tests.batch.test_batch import batch, make_class


@pytest.fixture(scope="module")
def lab05() -> Assignment:
    return load_assignment("lab05")


def test_without_a_terminal_each_finished_submission_gets_a_line(
    tmp_path: Path, lab05: Assignment, capsys: pytest.CaptureFixture[str]
) -> None:
    source = make_class(tmp_path / "in", {"alice.py": "check-win", "bob.py": "CRASH", "carol.py": "check-win"})
    batch(source, tmp_path / "out", lab05, progress=True)
    lines = [line for line in capsys.readouterr().err.splitlines() if line.startswith("[")]
    assert len(lines) == 3
    assert sorted(line[: line.index("]") + 1] for line in lines) == ["[1/3]", "[2/3]", "[3/3]"]
    by_student = {line.split()[2].rstrip(":"): line for line in lines}
    assert by_student.keys() == {"alice", "bob", "carol"}
    assert "lab05 alice: 10/100 in " in by_student["alice"]
    assert "bob: not graded: The grader failed on this submission (RuntimeError" in by_student["bob"]


def test_quiet_batches_say_nothing(tmp_path: Path, lab05: Assignment, capsys: pytest.CaptureFixture[str]) -> None:
    batch(make_class(tmp_path / "in", {"a.py": "check-win"}), tmp_path / "out", lab05, progress=False)
    assert capsys.readouterr().err == ""


def test_progress_line_and_report() -> None:
    assignment = load_assignment("lab05")
    submission = StudentSubmission("dave", Path("dave.txt"), "dave.txt")
    failed = GradingRecord(
        submission,
        not_graded_result("dave.txt", assignment, "not a notebook"),
        "f",
        "not a notebook\nmore",
        False,
        0.25,
    )
    assert progress_line(failed, "lab05", 7, 120) == "[  7/120] lab05 dave: not graded: not a notebook in 0.2s"
    stream = io.StringIO()
    report = ProgressReport(2, stream=stream)
    report.finished(failed, "lab05")
    report.close()
    assert stream.getvalue() == "[1/2] lab05 dave: not graded: not a notebook in 0.2s\n"


def test_each_class_reports_its_own_time(tmp_path: Path, lab05: Assignment) -> None:
    first = make_class(tmp_path / "one", {"a.py": "SLOW check-win"})
    second = make_class(tmp_path / "two", {"b.py": "check-win"})
    jobs = [BatchJob(first, lab05, tmp_path / "out1"), BatchJob(second, lab05, tmp_path / "out2")]
    started = time.monotonic()
    one, two = run_batches(jobs, BatchOptions(jobs=1, progress=False), grade=grade_by_content)
    whole = time.monotonic() - started
    assert one.elapsed >= 2.0
    assert two.elapsed < 1.5 < whole  # graded after the first class, in a moment of its own
