"""`grader grade --json --overrides`: one notebook's result with the class's decisions for
that student applied (the grading itself stood in for: this is about the decisions)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import grader.grading
from grader.cli import main
from grader.overrides.store import Author, record_adjustment, record_check
from grader.spec.loader import load_assignment
from tests.overrides.fake_class import AUTOMATIC, MANUAL, grade_with_manual_items, write_class


@pytest.fixture
def notebook(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr(grader.grading, "grade_submission", grade_with_manual_items)
    return write_class(tmp_path, load_assignment("depth-limits")) / "ben.ipynb"


def test_the_students_decisions_are_in_the_json(
    notebook: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    overrides = tmp_path / "overrides.toml"
    record_check(overrides, "ben", MANUAL, 6, "fair", Author.now("ta"))
    record_check(overrides, "ben", AUTOMATIC, 2, "", Author.now("ta"))
    record_adjustment(overrides, "ben", -1, "late", Author.now("ta"))
    record_check(overrides, "ben", "gone", 1, "", Author.now("ta"))
    out = tmp_path / "ben.json"
    assert main(["grade", str(notebook), "-a", "depth-limits", "--json", str(out), "--overrides", str(overrides)]) == 0
    data = json.loads(out.read_text())
    checks = {c["id"]: c for c in data["checks"]}
    assert checks[MANUAL]["score"] == 6 and checks[MANUAL]["instructor"]["comment"] == "fair"
    assert checks[AUTOMATIC]["score"] == 2 and checks[AUTOMATIC]["instructor"]["automatic_score"] == 5
    assert data["adjustment"]["points"] == -1 and data["score"] == 2 + 6 - 1
    assert "not applied: students.ben.checks.gone" in capsys.readouterr().err


def test_a_malformed_file_stops_before_grading(
    notebook: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    overrides = tmp_path / "overrides.toml"
    overrides.write_text("[students.ben\n", encoding="utf-8")
    out = tmp_path / "ben.json"
    assert main(["grade", str(notebook), "-a", "depth-limits", "--json", str(out), "--overrides", str(overrides)]) == 2
    assert "not valid TOML" in capsys.readouterr().err and not out.exists()
