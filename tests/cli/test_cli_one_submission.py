"""`grader check` and `grader grade` on a file that is not a notebook: one line, not a "not
run" line per check; `check` exits 2 (as `grader run` does), `grade` still writes its result."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from grader.cli import main
from grader.cli.options import USAGE_ERROR

NOT_NOTEBOOKS = {
    "notes.txt": ("hello", "unsupported file type '.txt'"),
    "lab.ipynb": ("{}", "JSON but not a Jupyter notebook"),
    "empty.ipynb": ("", "the file is empty"),
    "deep.ipynb": (
        '{"cells": [], "metadata": {"x": ' + "[" * 200_000 + "]" * 200_000 + "}}",
        "its JSON is nested 200,002 levels deep; the limit is 64",
    ),
}


@pytest.mark.parametrize("name", NOT_NOTEBOOKS)
def test_check_says_it_in_one_line_and_exits_2(tmp_path: Path, name: str, capsys: pytest.CaptureFixture[str]) -> None:
    text, reason = NOT_NOTEBOOKS[name]
    (tmp_path / name).write_text(text)
    code = main(["check", str(tmp_path / name), "-a", "lab05"])
    out, err = capsys.readouterr()
    assert code == USAGE_ERROR
    assert out == ""
    assert err.splitlines() == [err.strip()] and err.startswith(f"grader check: {name}: ") and reason in err
    assert not list(tmp_path.glob("*-report.html"))


@pytest.mark.parametrize("name", NOT_NOTEBOOKS)
def test_grade_prints_one_line_and_still_writes_the_result(
    tmp_path: Path, name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    text, reason = NOT_NOTEBOOKS[name]
    (tmp_path / name).write_text(text)
    code = main(["grade", str(tmp_path / name), "-a", "lab05", "--json", str(tmp_path / "result.json")])
    out, err = capsys.readouterr()
    assert code == 0
    assert len(out.splitlines()) == 1 and out.startswith("Not graded (0 / ") and reason in out
    result = json.loads((tmp_path / "result.json").read_text())
    assert result["score"] == 0 and {c["status"] for c in result["checks"]} == {"not run"}


def test_a_missing_file_is_a_usage_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for command in ("check", "grade"):
        assert main([command, str(tmp_path / "nope.ipynb"), "-a", "lab05"]) == USAGE_ERROR
        assert capsys.readouterr().err == f"grader {command}: {tmp_path / 'nope.ipynb'}: no such file\n"
