"""The files a batch leaves behind: readable by others, and blank where a person grades."""

from __future__ import annotations

import csv
import io
import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from grader.atomic_write import write_atomic
from grader.autograder import run_autograder
from grader.class_folder.layout import GRADES_FILE, INDEX_FILE, RESULT_FILE, SIMILARITY_FILE, STUDENT_FILES
from grader.class_folder.outputs import write_submitted_copy
from grader.feedback.gradebook import GradebookRow, grades_csv
from grader.grading import not_graded_result
from grader.spec.loader import load_assignment
from grader.spec.model import Assignment
from grader.submission.inputs import StudentSubmission
from grader.submission.reader import DEFAULT_MAX_BYTES, SubmissionUnreadable, read_submission
from tests.batch.fake_grading import grade_by_content
from tests.batch.test_batch import batch, make_class


@pytest.fixture(scope="module")
def lab05() -> Assignment:
    return load_assignment("lab05")


@pytest.fixture
def umask_002() -> Iterator[None]:
    previous = os.umask(0o002)
    try:
        yield
    finally:
        os.umask(previous)


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_atomic_writes_get_the_usual_file_mode(tmp_path: Path, umask_002: None) -> None:
    write_atomic(tmp_path / "a" / "file.txt", "text")
    assert mode(tmp_path / "a" / "file.txt") == 0o664
    os.umask(0o022)
    write_atomic(tmp_path / "a" / "file.txt", "again")
    assert mode(tmp_path / "a" / "file.txt") == 0o644
    assert (tmp_path / "a" / "file.txt").read_text() == "again"
    assert [p.name for p in (tmp_path / "a").iterdir()] == ["file.txt"]


@pytest.mark.kernel
def test_a_rerun_removes_the_temporary_files_a_killed_batch_left(tmp_path: Path, lab05: Assignment) -> None:
    """SIGKILL between writing a temporary file and renaming it leaves the temporary file:
    the next batch on the folder removes it, and nothing else."""
    source, out = make_class(tmp_path / "in", {"a.py": "check-win", "b.py": "check-draw"}), tmp_path / "out"
    batch(source, out, lab05, jobs=1)
    left = [out / ".grades.csv.k2x9.tmp", out / "a" / ".submitted.py.q7w1.tmp"]
    for path in left:
        path.write_text("half")
    kept = out / "a" / "notes.tmp"
    kept.write_text("not the grader's")
    (out / "b" / RESULT_FILE).unlink()  # b is graded again, a is kept
    result = batch(source, out, lab05, jobs=1)
    assert [r.submission.student_id for r in result.records if not r.reused] == ["b"]
    assert not any(path.exists() for path in left)
    assert kept.read_text() == "not the grader's"


@pytest.mark.kernel
def test_batch_outputs_are_readable_by_others(tmp_path: Path, lab05: Assignment, umask_002: None) -> None:
    out = tmp_path / "out"
    batch(make_class(tmp_path / "in", {"a.py": "check-win"}), out, lab05)
    written = [out / INDEX_FILE, out / GRADES_FILE, *(out / "a" / name for name in STUDENT_FILES)]
    written += [out / SIMILARITY_FILE, out / "a" / "submitted.py"]
    assert {p.name: mode(p) for p in written} == {p.name: 0o664 for p in written}


def test_gradescope_results_are_readable_by_others(tmp_path: Path, lab05: Assignment, umask_002: None) -> None:
    submission = tmp_path / "submission"
    submission.mkdir()
    (submission / "lab.py").write_text("check-win")
    results = tmp_path / "results" / "results.json"
    run_autograder(lab05, submission, results, grade=grade_by_content)
    assert mode(results) == 0o664


def test_manual_columns_stay_empty_for_an_unreadable_upload() -> None:
    assignment = load_assignment("experiment04")
    manual = [c.id for c in assignment.checks if c.kind == "manual"]
    assert manual, "experiment04 has a manual item"
    result = not_graded_result("notes.txt", assignment, "notes.txt: unsupported file type '.txt'")
    rows = list(csv.DictReader(io.StringIO(grades_csv([GradebookRow("s1", "", result)]))))
    assert rows[0]["total"] == "0"
    assert all(rows[0][check] == "" for check in manual)
    automatic = [c.id for c in assignment.checks if c.kind != "manual"]
    assert all(rows[0][check] == "0" for check in automatic)


def test_a_refused_oversized_file_is_stored_only_up_to_the_size_limit(tmp_path: Path) -> None:
    huge = tmp_path / "in" / "huge.ipynb"
    huge.parent.mkdir()
    with huge.open("wb") as handle:  # 150 MB, sparse: cheap to make, all of it read by a plain copy
        handle.write(b'{"cells": [')
        handle.truncate(150 * 1024**2)
    with pytest.raises(SubmissionUnreadable, match="too large"):
        read_submission(huge)
    folder = tmp_path / "out" / "huge"
    write_submitted_copy(folder, StudentSubmission("huge", huge, huge.name))
    copy = folder / "submitted.ipynb"
    assert copy.stat().st_size == DEFAULT_MAX_BYTES
    assert copy.read_bytes()[:11] == b'{"cells": ['
    small = tmp_path / "in" / "small.py"
    small.write_text("x = 1\n")
    write_submitted_copy(tmp_path / "out" / "small", StudentSubmission("small", small, small.name))
    assert (tmp_path / "out" / "small" / "submitted.py").read_text() == "x = 1\n"
