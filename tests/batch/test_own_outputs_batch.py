"""A batch, shards and a merge whose outputs go inside the class's input folder grade exactly
the students handed in, run after run (with the fake grader: fast)."""

from __future__ import annotations

import csv
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from grader.batch.merge import merge_shards
from grader.batch.plan import BatchOptions, BatchResult, run_batch
from grader.batch.sharding import Shard
from grader.spec.loader import load_assignment
from grader.spec.model import Assignment
from grader.submission.inputs import InputError
from grader.submission.own_outputs import OUTPUT_MARKER, is_output_folder
from tests.batch.fake_grading import grade_by_content

pytestmark = pytest.mark.kernel

REPO = Path(__file__).resolve().parents[2]
STUDENTS = {"alice": "check-win check-draw", "bob": "check-win", "carol": ""}


@pytest.fixture(scope="module")
def lab05() -> Assignment:
    return load_assignment("lab05")


def make_class(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in STUDENTS.items():
        (folder / f"{name}.py").write_text(text, encoding="utf-8")
    return folder


def batch(source: Path, out: Path, assignment: Assignment, **options) -> BatchResult:
    options.setdefault("jobs", 2)
    options.setdefault("progress", False)
    return run_batch(source, assignment, out, BatchOptions(**options), grade=grade_by_content)


def gradebook(out: Path) -> dict[str, str]:
    with (out / "grades.csv").open(encoding="utf-8") as f:
        return {row["student_id"]: row["total"] for row in csv.DictReader(f)}


def test_a_rerun_with_the_output_inside_the_input_grades_the_same_students(tmp_path: Path, lab05: Assignment) -> None:
    source = make_class(tmp_path / "submissions")
    elsewhere = tmp_path / "elsewhere"
    batch(source, elsewhere, lab05)
    out = source / "graded"
    first = batch(source, out, lab05)
    assert is_output_folder(out) and set(gradebook(out)) == set(STUDENTS)
    assert "Skipped graded/" not in str(first)  # empty when the input was read: nothing to skip

    second = batch(source, out, lab05)
    assert gradebook(out) == gradebook(elsewhere)
    assert [r.submission.student_id for r in second.records] == sorted(STUDENTS) and all(
        r.reused for r in second.records
    )
    summary = str(second)
    assert [line for line in summary.splitlines() if "an output folder" in line] == [
        "Skipped graded/: an output folder of this grader."
    ]
    assert 'href="graded/report.html"' not in (out / "index.html").read_text()
    assert not (out / "graded").exists()
    assert "graded" not in (out / "similarity.csv").read_text()


def test_two_outputs_side_by_side_inside_the_input(tmp_path: Path, lab05: Assignment) -> None:
    source = make_class(tmp_path / "submissions")
    batch(source, source / "graded", lab05)
    batch(source, source / "graded-again", lab05, force=True)
    for out in ("graded", "graded-again"):
        rerun = batch(source, source / out, lab05)
        assert set(gradebook(source / out)) == set(STUDENTS)
        assert set(rerun.own_outputs) == {"graded/", "graded-again/"} and all(r.reused for r in rerun.records)
        assert not any((source / out / name).exists() for name in ("graded", "graded-again"))


def test_an_unmarked_output_folder_is_adopted_before_the_input_is_read(tmp_path: Path, lab05: Assignment) -> None:
    """An output written before outputs carried the mark: its rerun marks it first."""
    source = make_class(tmp_path / "submissions")
    out = source / "graded"
    batch(source, out, lab05)
    (out / OUTPUT_MARKER).unlink()
    assert set(gradebook(out)) == set(STUDENTS) and batch(source, out, lab05).own_outputs == ("graded/",)
    assert set(gradebook(out)) == set(STUDENTS)


def test_the_output_cannot_be_the_input_folder_itself(tmp_path: Path, lab05: Assignment) -> None:
    source = make_class(tmp_path / "submissions")
    with pytest.raises(InputError, match="a folder of their own"):
        batch(source, source, lab05)
    assert sorted(p.name for p in source.iterdir()) == sorted(f"{name}.py" for name in STUDENTS)


def test_shards_and_their_merge_inside_the_input(tmp_path: Path, lab05: Assignment) -> None:
    source = make_class(tmp_path / "submissions")
    whole = batch(source, tmp_path / "whole", lab05)
    shards = [source / f"shard{k}" for k in range(2)]
    for _ in range(2):  # the second round sees the other shard and the merge inside the input
        for k, folder in enumerate(shards):
            result = batch(source, folder, lab05, shard=Shard(k, 2))
            assert result.skipped == []
        merged = merge_shards(source / "merged", shards, lab05)
        assert merged.complete, merged.problems
        assert gradebook(source / "merged") == gradebook(tmp_path / "whole")
    assert result.own_outputs == ("merged/", "shard0/", "shard1/") and is_output_folder(source / "merged")
    assert [r.submission.student_id for r in merged.records] == [r.submission.student_id for r in whole.records]


def test_a_zip_export_holding_an_earlier_output(tmp_path: Path, lab05: Assignment) -> None:
    source = make_class(tmp_path / "submissions")
    batch(source, source / "graded", lab05)
    archive = tmp_path / "class.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        for path in sorted(source.rglob("*")):
            if path.is_file():
                zf.write(path, path.relative_to(source).as_posix())
    result = batch(archive, tmp_path / "out", lab05)
    assert set(gradebook(tmp_path / "out")) == set(STUDENTS) and result.own_outputs == ("graded/",)


def test_the_command_refuses_an_output_folder_as_input_in_one_line(tmp_path: Path, lab05: Assignment) -> None:
    source = make_class(tmp_path / "submissions")
    batch(source, tmp_path / "graded", lab05)
    command = ["batch", str(tmp_path / "graded"), "-a", "lab05", "--out", str(tmp_path / "x")]
    done = subprocess.run(
        [sys.executable, "-m", "grader", *command],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "is an output folder of this grader, not submissions" in done.stderr
    assert not (tmp_path / "x").exists()
