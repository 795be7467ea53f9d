"""The Gradescope entry point always leaves a valid results.json behind."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from grader.autograder import AutograderOutcome, run_autograder
from grader.spec.loader import load_assignment
from tests.batch.fake_grading import grade_by_content
from tests.feedback.test_output_formats import GRADESCOPE_SCHEMA

pytestmark = pytest.mark.kernel


def autograde(tmp_path: Path, files: dict[str, str]) -> tuple[dict[str, Any], AutograderOutcome]:
    submission = tmp_path / "submission"
    submission.mkdir()
    for name, text in files.items():
        (submission / name).parent.mkdir(parents=True, exist_ok=True)
        (submission / name).write_text(text)
    results = tmp_path / "results" / "results.json"
    outcome = run_autograder(load_assignment("lab05"), submission, results, grade=grade_by_content)
    document = json.loads(results.read_text())
    jsonschema.validate(document, GRADESCOPE_SCHEMA)
    return document, outcome


def test_grades_the_notebook_it_finds(tmp_path: Path) -> None:
    document, outcome = autograde(tmp_path, {"helpers.py": "nothing", "work/lab05.ipynb": "check-win check-draw"})
    assert outcome.graded_file is not None
    assert outcome.graded_file.name == "lab05.ipynb" and outcome.return_code == 0
    assert document["score"] == 20


def test_nothing_to_grade(tmp_path: Path) -> None:
    document, outcome = autograde(tmp_path, {"answer.pdf": "%PDF"})
    assert document["score"] == 0 and "answer.pdf" in document["output"]
    assert outcome.graded_file is None and all(t["status"] == "failed" for t in document["tests"])


def test_a_grader_crash_still_gives_results(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    document, outcome = autograde(tmp_path, {"lab.ipynb": "CRASH"})
    assert document["score"] == 0 and "the grader failed" in document["output"]
    assert "RuntimeError" in capsys.readouterr().err  # the traceback, for the instructor's debug view


def test_unreadable_notebook(tmp_path: Path) -> None:
    document, outcome = autograde(tmp_path, {"lab.ipynb": "UNREADABLE"})
    assert outcome.failure == "not a notebook (invalid JSON)"
    assert "could not be graded: not a notebook" in document["output"]
