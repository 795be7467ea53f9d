"""Real notebooks through `python -m grader`: a batch killed with SIGKILL and resumed, the
student self-check and the Gradescope autograder mode."""

from __future__ import annotations

import csv
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Collection
from pathlib import Path

import jsonschema
import pytest

from grader.class_folder.layout import RESULT_FILE
from grader.spec.loader import load_assignment
from tests.feedback.test_output_formats import GRADESCOPE_SCHEMA

pytestmark = [pytest.mark.slow, pytest.mark.kernel]

REPO = Path(__file__).resolve().parents[2]
ASSIGNMENT = "alphabeta-challenges"  # its notebooks run in a few seconds each
FIXTURES = REPO / "tests" / "submissions" / ASSIGNMENT
CLASS = ["seed", "ab-cut-strict", "horizontal-win-missing", "min-keeps-largest", "is-valid-indices-swapped"]
RESUMED = ["seed", "ab-cut-strict", "solution"]
"""The part of the class the killed batches grade: two jobs, so one stored and one in flight
when the batch is killed, and one not started."""
STUDENTS = len(RESUMED)


def grader(*args: str, **kwargs) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "grader", *args],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        **kwargs,
    )


def run_grader(*args: str, timeout: float = 900) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "grader", *args], cwd=REPO, capture_output=True, text=True, timeout=timeout
    )


@pytest.fixture(scope="module")
def small_class(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("class")
    for name in CLASS:
        shutil.copyfile(FIXTURES / f"{name}.ipynb", folder / f"{name}.ipynb")
    shutil.copyfile(load_assignment(ASSIGNMENT).solution_path, folder / "solution.ipynb")
    return folder


@pytest.fixture(scope="module")
def resumed_class(small_class: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("resumed")
    for name in RESUMED:
        shutil.copyfile(small_class / f"{name}.ipynb", folder / f"{name}.ipynb")
    return folder


@pytest.fixture(scope="module")
def whole_run(small_class: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The class graded in one uninterrupted batch."""
    out = tmp_path_factory.mktemp("whole")
    done = run_grader("batch", str(small_class), "-a", ASSIGNMENT, "--out", str(out), "--jobs", "2", "--quiet")
    assert done.returncode == 0, done.stderr
    return out


def gradebook_and_results(out: Path, students: Collection[str] | None = None) -> dict[str, object]:
    """The imported outputs (of ``students`` only, when given: their rows of the gradebook);
    execution_time is a measurement and may differ between runs."""
    text = (out / "grades.csv").read_text()
    if students is not None:
        header, *rows = text.splitlines(keepends=True)
        text = header + "".join(row for row in rows if next(csv.reader([row]))[0] in students)
    files: dict[str, object] = {"grades.csv": text}
    for path in sorted(out.glob("*/results.json")):
        if students is not None and path.parent.name not in students:
            continue
        document = json.loads(path.read_text())
        document.pop("execution_time")
        files[path.parent.name] = document
    return files


def kill_once_a_result_is_stored(source: Path, out: Path) -> dict[str, int]:
    """Start a batch of ``source`` into ``out``, SIGKILL it once a first student is stored;
    the stored students, with their record's modification time."""
    process = grader("batch", str(source), "-a", ASSIGNMENT, "--out", str(out), "--jobs", "2", "--quiet")
    deadline = time.monotonic() + 600
    while not list(out.glob(f"*/{RESULT_FILE}")):
        assert process.poll() is None, "the batch finished before it could be killed"
        assert time.monotonic() < deadline
        time.sleep(0.05)
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    survivors = {p.parent.name: p.stat().st_mtime_ns for p in out.glob(f"*/{RESULT_FILE}")}
    assert 0 < len(survivors) < STUDENTS
    assert not (out / "grades.csv").exists()  # the class outputs come at the end
    return survivors


def test_a_batch_killed_midway_resumes_and_matches_an_uninterrupted_run(
    resumed_class: Path, whole_run: Path, tmp_path: Path
) -> None:
    out = tmp_path / "killed"
    survivors = kill_once_a_result_is_stored(resumed_class, out)

    rerun = run_grader("batch", str(resumed_class), "-a", ASSIGNMENT, "--out", str(out), "--jobs", "2", "--quiet")
    assert rerun.returncode == 0, rerun.stderr
    regraded = STUDENTS - len(survivors)
    assert f"({regraded} graded now, {len(survivors)} kept from an earlier run)" in rerun.stdout
    for student, mtime in survivors.items():
        assert (out / student / RESULT_FILE).stat().st_mtime_ns == mtime, f"{student} was graded again"
    assert gradebook_and_results(out) == gradebook_and_results(whole_run, RESUMED)
    assert not list(out.rglob("*.tmp"))

    again = run_grader("batch", str(resumed_class), "-a", ASSIGNMENT, "--out", str(out), "--quiet")
    assert f"(0 graded now, {STUDENTS} kept from an earlier run)" in again.stdout


def test_a_killed_batch_with_its_output_inside_the_input_resumes_with_the_class_only(
    resumed_class: Path, whole_run: Path, tmp_path: Path
) -> None:
    source = tmp_path / "submissions"
    shutil.copytree(resumed_class, source)
    out = source / "graded"
    survivors = kill_once_a_result_is_stored(source, out)

    rerun = run_grader("batch", str(source), "-a", ASSIGNMENT, "--out", str(out), "--jobs", "2", "--quiet")
    assert rerun.returncode == 0, rerun.stderr
    assert f"({STUDENTS - len(survivors)} graded now, {len(survivors)} kept from an earlier run)" in rerun.stdout
    assert "Skipped graded/: an output folder of this grader." in rerun.stdout
    rows = list(csv.DictReader((out / "grades.csv").open()))
    assert sorted(r["student_id"] for r in rows) == sorted(RESUMED)
    assert gradebook_and_results(out) == gradebook_and_results(whole_run, RESUMED)


def test_scores_and_reports_of_the_small_class(whole_run: Path) -> None:
    rows = {r["student_id"]: r for r in csv.DictReader((whole_run / "grades.csv").open())}
    assert set(rows) == {*CLASS, "solution"}
    assert float(rows["solution"]["total"]) == float(rows["solution"]["max"])
    for name in CLASS[1:]:
        assert float(rows[name]["total"]) < float(rows[name]["max"]), name
    assert "node-chart" in (whole_run / "ab-cut-strict" / "report.html").read_text()
    assert 'class="board"' in (whole_run / "horizontal-win-missing" / "report.html").read_text()
    index = (whole_run / "index.html").read_text()
    assert all(f'href="{name}/report.html"' in index for name in rows)


def test_the_class_page_and_results_json_say_the_isolation(whole_run: Path) -> None:
    """The suite runs where bubblewrap works (`make test` installs it), or with the mode named
    in GRADER_SANDBOX: whichever ran is said on the class page and in every results.json."""
    mode = os.environ.get("GRADER_SANDBOX", "bwrap")
    index = (whole_run / "index.html").read_text()
    expected = "Every submission ran under bubblewrap" if mode == "bwrap" else "Isolation reduced</strong>"
    assert expected in index
    for path in whole_run.glob("*/results.json"):
        isolation = json.loads(path.read_text())["extra_data"]["isolation"]
        assert isolation["mode"] == mode and isolation["reduced"] is (mode != "bwrap"), path


def test_student_self_check_writes_the_report(tmp_path: Path) -> None:
    notebook = tmp_path / "my lab.ipynb"
    shutil.copyfile(FIXTURES / "horizontal-win-missing.ipynb", notebook)
    done = run_grader("check", str(notebook), "-a", ASSIGNMENT)
    assert done.returncode == 0, done.stderr
    report = tmp_path / "my lab-report.html"
    assert f"Feedback report: {report}" in done.stdout
    html = report.read_text()
    assert "is-end" in html and 'class="board"' in html


def test_gradescope_autograder_mode(tmp_path: Path) -> None:
    submission = tmp_path / "submission"
    submission.mkdir()
    shutil.copyfile(FIXTURES / "min-keeps-largest.ipynb", submission / "challenges.ipynb")
    (submission / "notes.txt").write_text("hello")
    results = tmp_path / "results" / "results.json"
    done = run_grader("gradescope", "-a", ASSIGNMENT, "--submission-dir", str(submission), "--results", str(results))
    assert done.returncode == 0, done.stderr
    document = json.loads(results.read_text())
    jsonschema.validate(document, GRADESCOPE_SCHEMA)
    assert 0 < document["score"] < sum(t["max_score"] for t in document["tests"])

    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "README.md").write_text("oops")
    done = run_grader("gradescope", "-a", ASSIGNMENT, "--submission-dir", str(empty), "--results", str(results))
    assert done.returncode == 0
    document = json.loads(results.read_text())
    jsonschema.validate(document, GRADESCOPE_SCHEMA)
    assert document["score"] == 0 and "no notebook" in document["output"] and "README.md" in document["output"]
