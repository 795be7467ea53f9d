"""`grader review` refuses, in one line, a folder it cannot serve."""

from __future__ import annotations

from pathlib import Path

import pytest

from grader.cli import main
from grader.overrides.store import overrides_path
from grader.spec.loader import load_assignment
from tests.overrides.fake_class import graded_in_process, write_class


def test_a_folder_without_a_graded_class(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["review", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no graded students here" in err


def test_a_malformed_overrides_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assignment = load_assignment("depth-limits")
    (tmp_path / "src").mkdir()
    out = graded_in_process(write_class(tmp_path / "src", assignment), tmp_path / "out", assignment)
    overrides_path(out).write_text("students = 3\n", encoding="utf-8")
    assert main(["review", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "'students' must be a table" in err
