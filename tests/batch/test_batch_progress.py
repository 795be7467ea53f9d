"""What a running batch tells the person who started it: progress without a terminal,
each class's own time, which submissions Ctrl-C stopped, and the grader's own failures, logged."""

from __future__ import annotations

import io
import logging
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from grader.batch.local import interrupted_message
from grader.batch.plan import BatchJob, BatchOptions, run_batches
from grader.batch.pool import GradingTask, WorkerReport, record_for
from grader.batch.progress import ProgressReport, progress_line
from grader.class_folder.records import GradingRecord
from grader.grading import not_graded_result
from grader.spec.loader import load_assignment
from grader.spec.model import Assignment
from grader.submission.inputs import StudentSubmission
from tests.batch.fake_grading import grade_by_content
from tests.batch.test_batch import batch, make_class

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def lab05() -> Assignment:
    return load_assignment("lab05")


@pytest.mark.kernel
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


@pytest.mark.kernel
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


@pytest.mark.kernel
def test_each_class_reports_its_own_time(tmp_path: Path, lab05: Assignment) -> None:
    first = make_class(tmp_path / "one", {"a.py": "SLOW check-win"})
    second = make_class(tmp_path / "two", {"b.py": "check-win"})
    jobs = [BatchJob(first, lab05, tmp_path / "out1"), BatchJob(second, lab05, tmp_path / "out2")]
    started = time.monotonic()
    one, two = run_batches(jobs, BatchOptions(jobs=1, progress=False), grade=grade_by_content)
    whole = time.monotonic() - started
    assert one.elapsed >= 2.0
    assert two.elapsed < 1.5 < whole  # graded after the first class, in a moment of its own


def test_interrupted_message_names_the_student() -> None:
    assert interrupted_message("12345") == "12345: stopped: the batch was interrupted"


_CTRL_C_SCRIPT = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from grader.batch.plan import BatchOptions, run_batch
    from grader.spec.loader import load_assignment
    from tests.batch.fake_grading import grade_by_content

    source, out = Path(sys.argv[1]), Path(sys.argv[2])
    result = run_batch(source, load_assignment("lab05"), out, BatchOptions(jobs=2), grade=grade_by_content)
    print(result)
    sys.exit(result.return_code)
    """
)


@pytest.mark.kernel
def test_ctrl_c_names_each_interrupted_submission_once(tmp_path: Path) -> None:
    source = make_class(tmp_path / "in", {"alice.py": "HANG", "bob.py": "HANG"})
    process = subprocess.Popen(
        [sys.executable, "-c", _CTRL_C_SCRIPT, str(source), str(tmp_path / "out")],
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own process group, as a terminal's Ctrl-C reaches
    )
    try:
        deadline = time.monotonic() + 120
        while not all((source / f"{name}.py.started").exists() for name in ("alice", "bob")):
            assert process.poll() is None and time.monotonic() < deadline, process.communicate()
            time.sleep(0.1)
        os.killpg(process.pid, signal.SIGINT)
        _, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    assert process.returncode == 130
    assert err.count("alice: stopped: the batch was interrupted") == 1
    assert err.count("bob: stopped: the batch was interrupted") == 1
    assert "signal 15" not in err and "stopped by the batch" not in err


def test_a_grader_failure_is_logged_as_an_error_with_its_traceback(caplog: pytest.LogCaptureFixture) -> None:
    task = GradingTask(
        StudentSubmission("alice", Path("alice.ipynb"), "alice.ipynb"), "f", load_assignment("lab05"), "bwrap"
    )
    report = WorkerReport(error="RuntimeError: boom", traceback="Traceback (most recent call last): ...")
    with caplog.at_level(logging.ERROR, logger="grader"):
        record = record_for(task, 1.0, report)
    assert record.grader_fault
    [entry] = caplog.records
    assert entry.name == "grader.batch.pool" and entry.levelno == logging.ERROR
    assert entry.getMessage() == "grader: alice: RuntimeError: boom\nTraceback (most recent call last): ..."
