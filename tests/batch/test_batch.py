"""Batch grading with a fake grade function: outcomes, outputs, resume, interruption."""

from __future__ import annotations

import csv
import dataclasses
import json
import os
import signal
import stat
import threading
import zipfile
from pathlib import Path

import jsonschema
import pytest

from grader.batch.plan import BatchJob, BatchOptions, BatchResult, _plan, run_batch
from grader.class_folder.layout import RESULT_FILE
from grader.class_folder.records import GradingRecord
from grader.execution.isolation import Isolation
from grader.execution.result import SandboxMode
from grader.overrides.apply import NO_DECISIONS
from grader.spec.loader import differences_from_folder, load_assignment
from grader.spec.model import Assignment, AssignmentError
from grader.submission.inputs import collect_submissions
from tests.batch.fake_grading import grade_by_content
from tests.feedback.test_output_formats import GRADESCOPE_SCHEMA

pytestmark = pytest.mark.kernel


@pytest.fixture(scope="module")
def lab05() -> Assignment:
    return load_assignment("lab05")


def make_class(folder: Path, files: dict[str, str]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def batch(source: Path, out: Path, assignment: Assignment, **options) -> BatchResult:
    options.setdefault("jobs", 2)
    options.setdefault("progress", False)
    return run_batch(source, assignment, out, BatchOptions(**options), grade=grade_by_content)


def regraded(result: BatchResult) -> set[str]:
    return {r.submission.student_id for r in result.records if not r.reused}


def final_outputs(out: Path) -> dict[str, str]:
    """What an instructor imports: grades.csv and every results.json."""
    files = {"grades.csv": (out / "grades.csv").read_text()}
    for path in sorted(out.glob("*/results.json")):
        files[path.parent.name] = path.read_text()
    return files


def test_every_outcome_becomes_a_result(tmp_path: Path, lab05: Assignment) -> None:
    source = make_class(
        tmp_path / "in",
        {
            "alice.py": "check-win check-draw",
            "bob.py": "DIE",
            "carol.py": "CRASH",
            "dave.ipynb": "UNREADABLE",
            "erin.py": "minimax-value",
            "frank.py": "HANG",
        },
    )
    result = batch(source, tmp_path / "out", lab05, deadline_seconds=2)
    assert [r.submission.student_id for r in result.records] == ["alice", "bob", "carol", "dave", "erin", "frank"]
    by_id = {r.submission.student_id: r for r in result.records}
    assert by_id["alice"].failure is None and by_id["alice"].result.score == 20
    assert "grading process died (killed by SIGKILL" in (by_id["bob"].failure or "")
    assert "grader failed on this submission (RuntimeError: simulated grader bug)" in (by_id["carol"].failure or "")
    assert by_id["dave"].failure == "not a notebook (invalid JSON)" and not by_id["dave"].grader_fault
    assert "took longer than 2 s" in (by_id["frank"].failure or "")
    assert result.return_code == 1  # the grader failed on bob and carol
    for student in by_id:
        folder = tmp_path / "out" / student
        suffix = ".ipynb" if student == "dave" else ".py"
        copy = f"submitted{suffix}"  # the graded file, its suffix kept
        assert {p.name for p in folder.iterdir()} == {copy, "report.html", "results.json", RESULT_FILE}
        assert (folder / copy).read_bytes() == (source / f"{student}{suffix}").read_bytes()
        jsonschema.validate(json.loads((folder / "results.json").read_text()), GRADESCOPE_SCHEMA)
    report = (tmp_path / "out" / "bob" / "report.html").read_text()
    assert "could not be graded" in report and "grading process died" in report
    summary = str(result)
    assert "Graded: 2. Mean score 20.0, median 20" in summary and "Could not be graded: 4." in summary
    rows = list(csv.DictReader((tmp_path / "out" / "grades.csv").open()))
    assert {r["student_id"]: r["total"] for r in rows} == {
        "alice": "20",
        "bob": "",
        "carol": "",
        "dave": "0",
        "erin": "20",
        "frank": "0",
    }


def test_rerun_grades_only_what_is_missing_or_changed(tmp_path: Path, lab05: Assignment) -> None:
    source = make_class(tmp_path / "in", {f"s{n}.py": "check-win" for n in range(6)})
    out = tmp_path / "out"
    assert regraded(batch(source, out, lab05)) == {f"s{n}" for n in range(6)}
    assert regraded(batch(source, out, lab05)) == set()

    (out / "s1" / RESULT_FILE).unlink()  # as if killed before s1 was stored
    (out / "s2" / RESULT_FILE).write_text('{"batch": ')  # a torn file cannot happen, but must not matter
    (source / "s3.py").write_text("check-win check-draw")  # resubmitted
    (source / "s6.py").write_text("check-draw")  # new
    second = batch(source, out, lab05)
    assert regraded(second) == {"s1", "s2", "s3", "s6"}
    assert {r.submission.student_id: r.result.score for r in second.records}["s3"] == 20
    assert regraded(batch(source, out, lab05, force=True)) == {f"s{n}" for n in range(7)}


def test_a_changed_assignment_spec_regrades(tmp_path: Path, lab05: Assignment) -> None:
    source = make_class(tmp_path / "in", {"a.py": "check-win"})
    batch(source, tmp_path / "out", lab05)
    spec = tmp_path / "spec"
    spec.mkdir()
    for f in lab05.directory.iterdir():
        if f.is_file() and f.suffix in (".toml", ".txt", ".py"):
            (spec / f.name).write_bytes(f.read_bytes())
    (spec / "assignment.toml").write_text(
        (spec / "assignment.toml").read_text().replace("points = 10", "points = 12", 1)
    )
    assert regraded(batch(source, tmp_path / "out", load_assignment(spec))) == {"a"}


def test_an_assignment_changed_in_memory_is_refused_before_anything_is_written(
    tmp_path: Path, lab05: Assignment
) -> None:
    """The workers read the assignment from its folder: a copy changed in memory would be graded
    under the file, so the batch names the fields that differ and grades nothing."""
    source = make_class(tmp_path / "in", {"a.py": "check-win"})
    changed = dataclasses.replace(lab05, call_timeout=5.0, cell_timeout=15.0)
    with pytest.raises(AssignmentError) as refused:
        batch(source, tmp_path / "out", changed)
    assert refused.value.field == "cell_timeout"
    assert "differs from its folder in cell_timeout, call_timeout" in refused.value.problem
    assert not (tmp_path / "out").exists()
    assert differences_from_folder(lab05) == []
    assert differences_from_folder(load_assignment("minimax-enhanced")) == []  # its adapter, by its file


def test_another_sandbox_regrades(tmp_path: Path, lab05: Assignment) -> None:
    """A result graded without isolation is not reused when isolation is asked for."""
    source = make_class(tmp_path / "in", {"a.py": "check-win"})
    out = tmp_path / "out"
    assert regraded(batch(source, out, lab05, sandbox="none")) == {"a"}
    assert regraded(batch(source, out, lab05, sandbox="none")) == set()
    assert regraded(batch(source, out, lab05, sandbox="limits")) == {"a"}
    assert regraded(batch(source, out, lab05, sandbox="limits")) == set()


def test_grader_failures_are_retried_on_the_next_run(tmp_path: Path, lab05: Assignment) -> None:
    source = make_class(tmp_path / "in", {"a.py": "check-win", "b.py": "CRASH", "c.ipynb": "UNREADABLE"})
    out = tmp_path / "out"
    batch(source, out, lab05)
    assert regraded(batch(source, out, lab05)) == {"b"}  # not c: an unreadable file stays unreadable


def test_resumed_outputs_equal_an_uninterrupted_run(tmp_path: Path, lab05: Assignment) -> None:
    source = make_class(tmp_path / "in", {f"s{n}.py": " ".join(c.id for c in lab05.checks[:n]) for n in range(8)})
    batch(source, tmp_path / "whole", lab05)

    out = tmp_path / "resumed"
    batch(source, out, lab05)
    for n in (0, 3, 4, 7):  # as if these were still being graded when the batch was killed
        (out / f"s{n}" / RESULT_FILE).unlink()
        (out / f"s{n}" / "results.json").unlink()
    (out / "s5" / f".{RESULT_FILE}.x1y2.tmp").write_text('{"half": ')  # a write cut short
    (out / "grades.csv").write_text("student_id\ns1\n")  # a stale gradebook from the killed run
    assert regraded(batch(source, out, lab05)) == {"s0", "s3", "s4", "s7"}
    assert final_outputs(out) == final_outputs(tmp_path / "whole")


def test_stored_record_round_trips(tmp_path: Path, lab05: Assignment) -> None:
    source = make_class(tmp_path / "in", {"a.py": "check-win"})
    first = batch(source, tmp_path / "out", lab05).records[0]
    loaded = GradingRecord.load(tmp_path / "out" / "a" / RESULT_FILE, first.submission)
    assert loaded is not None and loaded.reused
    assert loaded.result == first.result and loaded.fingerprint == first.fingerprint
    stored = json.loads((tmp_path / "out" / "a" / RESULT_FILE).read_text())
    assert stored["batch"]["student_id"] == "a" and stored["score"] == 10 and stored["submission"] == "a.py"


def test_ctrl_c_keeps_what_is_done(tmp_path: Path, lab05: Assignment) -> None:
    source = make_class(tmp_path / "in", {"a.py": "check-win", "b.py": "HANG", "c.py": "HANG"})
    timer = threading.Timer(3.0, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    try:
        result = batch(source, tmp_path / "out", lab05, jobs=1)
    finally:
        timer.cancel()
    assert result.interrupted and result.return_code == 130
    assert [r.submission.student_id for r in result.records] == ["a"]
    assert "interrupted" in (tmp_path / "out" / "index.html").read_text()
    assert not (tmp_path / "out" / "b" / RESULT_FILE).exists()
    assert "Run the same command again" in str(result)


def test_lms_zip_batch_uses_ids_from_the_file_names(tmp_path: Path, lab05: Assignment) -> None:
    archive = tmp_path / "canvas.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("doejane_LATE_12345_67890_lab05.py", "check-win")
        zf.writestr("roeric_23456_78901_lab05.py", "check-draw")
    result = batch(archive, tmp_path / "out", lab05)
    assert [r.submission.student_id for r in result.records] == ["12345", "23456"]
    index = (tmp_path / "out" / "index.html").read_text()
    assert "doejane" in index and "late" in index
    report = (tmp_path / "out" / "12345" / "report.html").read_text()
    assert "lab05.py" in report and "grader-batch-" not in report  # no scratch paths shown to students


def test_an_unsafe_zip_entry_is_listed_in_the_class_report(tmp_path: Path, lab05: Assignment) -> None:
    archive = tmp_path / "canvas.zip"
    link = zipfile.ZipInfo("roeric_23456_78901_lab05.py")
    link.external_attr = (stat.S_IFLNK | 0o777) << 16
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("doejane_12345_67890_lab05.py", "check-win")
        zf.writestr(link, "/etc/passwd")
    result = batch(archive, tmp_path / "out", lab05)
    assert [r.submission.student_id for r in result.records] == ["12345"]
    assert result.skipped == [("canvas.zip/roeric_23456_78901_lab05.py", "not unpacked: a symbolic link")]
    assert "Files left out: 1." in str(result)
    index = (tmp_path / "out" / "index.html").read_text()
    assert "roeric_23456_78901_lab05.py" in index and "symbolic link" in index


def test_several_classes_share_one_pool(tmp_path: Path, lab05: Assignment) -> None:
    from grader.batch.plan import BatchJob, run_batches

    first = make_class(tmp_path / "one", {"a.py": "check-win", "b.py": "CRASH"})
    second = make_class(tmp_path / "two", {"a.py": "check-draw check-win"})
    jobs = [BatchJob(first, lab05, tmp_path / "out1"), BatchJob(second, lab05, tmp_path / "out2")]
    one, two = run_batches(jobs, BatchOptions(jobs=3, progress=False), grade=grade_by_content)
    assert [r.result.score for r in one.records] == [10, 0] and one.return_code == 1
    assert [r.result.score for r in two.records] == [20] and two.return_code == 0
    assert (tmp_path / "out1" / "b" / RESULT_FILE).is_file() and (tmp_path / "out2" / "grades.csv").is_file()


def test_demo_finds_the_classes_with_a_matching_assignment(tmp_path: Path) -> None:
    from grader.tools.demo import example_classes

    (tmp_path / "lab05").mkdir()
    (tmp_path / "no-such-assignment").mkdir()
    (tmp_path / "README.md").write_text("not a class")
    matched, unmatched = example_classes(tmp_path)
    assert [p.name for p in matched] == ["lab05"] and [p.name for p in unmatched] == ["no-such-assignment"]


def test_planning_reads_the_folder_and_says_what_to_rewrite(tmp_path: Path, lab05: Assignment) -> None:
    source = make_class(tmp_path / "in", {"s1.py": "check-win", "s2.py": "check-win", "s3.py": "check-draw"})
    out = tmp_path / "out"
    batch(source, out, lab05)
    (out / "s1" / "report.html").unlink()
    (out / "s2" / "submitted.py").unlink()
    (source / "s3.py").write_text("check-win check-draw")  # resubmitted: graded again
    before = {p: p.stat().st_mtime_ns for p in out.rglob("*")}
    found = collect_submissions(source, lab05.id, tmp_path / "scratch")
    plan = _plan(BatchJob(source, lab05, out), found, Isolation(SandboxMode.BWRAP), NO_DECISIONS, force=False)
    assert {p: p.stat().st_mtime_ns for p in out.rglob("*")} == before  # nothing written
    assert {k.record.submission.student_id: k.report_missing for k in plan.kept} == {"s1": True, "s2": False}
    assert [t.submission.student_id for t in plan.tasks] == ["s3"]
    plan.rewrite_kept()
    assert (out / "s1" / "report.html").is_file() and (out / "s2" / "submitted.py").is_file()
