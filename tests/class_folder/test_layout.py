"""A `ClassFolder` finds what a batch wrote, and the packages that read a class folder go
through it rather than through the batch."""

from __future__ import annotations

import ast
from dataclasses import replace
from pathlib import Path

import pytest

from grader.class_folder.layout import (
    RESULT_FILE,
    ClassFolder,
    UnknownAssignment,
    assignment_of_records,
    stored_submission,
)
from grader.spec.loader import load_assignment
from grader.spec.model import Assignment
from tests.overrides.fake_class import graded_in_process, write_class

GRADER = Path(__file__).resolve().parents[2] / "grader"


@pytest.fixture(scope="module")
def depth_limits() -> Assignment:
    return load_assignment("depth-limits")


@pytest.fixture
def graded(tmp_path: Path, depth_limits: Assignment) -> ClassFolder:
    source = tmp_path / "in"
    source.mkdir()
    return ClassFolder(graded_in_process(write_class(source, depth_limits), tmp_path / "out", depth_limits))


def test_it_reads_back_the_records_and_files_a_batch_wrote(graded: ClassFolder, depth_limits: Assignment) -> None:
    records = graded.records()
    assert sorted(records) == ["ana", "ben", "cleo"]
    assert graded.index.is_file() and graded.grades.is_file() and not graded.overrides.exists()
    settings = graded.settings()
    assert settings is not None and settings.assignment_id == depth_limits.id
    ana = graded.student(records["ana"].submission)
    assert stored_submission(ana) == ana / "submitted.ipynb"
    assert assignment_of_records(list(records.values())).id == depth_limits.id


def test_an_unreadable_record_is_left_out_and_a_rewrite_changes_the_stamp(graded: ClassFolder) -> None:
    before = graded.stamp()
    (graded.path / "ben" / RESULT_FILE).write_text('{"batch": ', encoding="utf-8")
    assert sorted(graded.records()) == ["ana", "cleo"]
    assert graded.stamp() != before


def test_records_of_two_assignments_name_no_assignment(graded: ClassFolder) -> None:
    first, second, _ = graded.records().values()
    elsewhere = replace(first, result=replace(first.result, assignment_id="lab05"))
    with pytest.raises(UnknownAssignment, match="2 assignments"):
        assignment_of_records([elsewhere, second])


def test_overrides_and_review_do_not_import_the_batch() -> None:
    importers = []
    for package in ("overrides", "review", "class_folder"):
        for path in sorted((GRADER / package).glob("*.py")):
            for node in ast.walk(ast.parse(path.read_text())):
                names = [node.module or ""] if isinstance(node, ast.ImportFrom) else []
                names += [a.name for a in node.names] if isinstance(node, ast.Import) else []
                importers += [f"{package}/{path.name}" for name in names if name.startswith("grader.batch")]
    assert importers == []
