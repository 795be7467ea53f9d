"""``grader run``: argument parsing, the printed report, JSON output and exit codes."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from grader.cli.run import EXIT_CELLS_FAILED, EXIT_NOT_RUN, EXIT_OK, add_run_parser
from tests.execution.support import fixture


def run(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="grader")
    add_run_parser(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    return args.handler(args)


def test_report_shows_cells_input_and_sandbox(capsys: pytest.CaptureFixture[str]) -> None:
    code = run(["run", str(fixture("input_loop")), "--stdin", "4", "x", "--stdin", "0", "--cell-timeout", "5"])
    out = capsys.readouterr().out
    assert code == EXIT_OK
    assert "sandbox: " in out
    assert "cell 1: 'number (0 to stop): ' -> 'x'" in out
    lines = [line.split() for line in out.splitlines() if line.strip()[:1].isdigit()]
    assert [(words[0], words[1]) for words in lines] == [("1", "ok"), ("2", "ok")]


def test_failed_cells_give_exit_status_1_and_their_first_error_line(capsys: pytest.CaptureFixture[str]) -> None:
    code = run(["run", str(fixture("syntax_error_repaired")), "--sandbox", "limits"])
    out = capsys.readouterr().out
    assert code == EXIT_CELLS_FAILED
    assert "error" in out and "SyntaxError: " in out
    assert "note: Isolation is reduced" in out


def test_json_output(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out_file = tmp_path / "result.json"
    code = run(["run", str(fixture("sys_exit")), "--json", str(out_file)])
    data = json.loads(out_file.read_text())
    assert code == EXIT_CELLS_FAILED
    assert [cell["status"] for cell in data["cells"]] == ["error", "error", "ok"]
    assert f"wrote {out_file}" in capsys.readouterr().out


def test_unreadable_notebook_gives_exit_status_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    broken = tmp_path / "broken.ipynb"
    broken.write_text("{not json")
    assert run(["run", str(broken)]) == EXIT_NOT_RUN
    assert "broken.ipynb: not a notebook: the file is not valid JSON" in capsys.readouterr().err
