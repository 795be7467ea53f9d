"""``grader run``: argument parsing, the printed report, JSON output and exit codes."""

from __future__ import annotations

import argparse
import json
import shutil
from pathlib import Path

import nbformat
import pytest

from grader.cli.run import EXIT_CELLS_FAILED, EXIT_NOT_RUN, EXIT_OK, add_run_parser, execution_options
from grader.execution.result import ExecutionResult
from grader.execution.session import CellStatus, ExecutionOptions
from grader.spec.format_doc import spec_text
from grader.spec.loader import load_assignment
from tests.courses.support_course import MODULE
from tests.execution.support import fixture

pytestmark = pytest.mark.kernel


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


def test_cells_are_numbered_as_jupyter_numbers_them(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """From 1, code cells only: markdown and empty code cells take no number."""
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [
        nbformat.v4.new_markdown_cell("# Title"),
        nbformat.v4.new_code_cell("answer = input('move: ')"),
        nbformat.v4.new_markdown_cell("Then:"),
        nbformat.v4.new_code_cell(""),
        nbformat.v4.new_code_cell("1 / 0"),
    ]
    path = tmp_path / "numbered.ipynb"
    nbformat.write(notebook, path)
    code = run(["run", str(path), "--stdin", "5", "--sandbox", "limits"])
    out = capsys.readouterr().out
    assert code == EXIT_CELLS_FAILED
    lines = [line.split() for line in out.splitlines() if line.strip()[:1].isdigit()]
    assert [(words[0], words[1]) for words in lines] == [("1", "ok"), ("2", "error")]
    assert "cell 1: 'move: ' -> '5'" in out
    run(["run", str(path), "--stdin", "5", "--sandbox", "limits", "--json", str(tmp_path / "out.json")])
    cells = json.loads((tmp_path / "out.json").read_text())["cells"]
    assert [(cell["index"], cell["number"]) for cell in cells] == [(1, 1), (4, 2)]


def test_records_written_before_cells_had_numbers_are_read_with_them() -> None:
    old = {
        "cells": [
            {"index": 1, "source": "x = 1", "status": "ok", "duration": 0.1},
            {"index": 3, "source": "1/0", "status": "error", "error_name": "ZeroDivisionError"},
        ],
        "stdin_transcript": [{"cell_index": 1, "prompt": "? ", "answer": None}],
        "sandbox_mode": "limits",
        "isolation_note": None,
        "kernel_restarts": 0,
        "total_duration": 0.2,
        "kernel_start_seconds": 1.0,
        "notebook_timed_out": False,
    }
    result = ExecutionResult.from_dict(old)
    assert [(cell.index, cell.number) for cell in result.cells] == [(1, 1), (3, 2)]
    assert result.cells[1].status is CellStatus.ERROR
    assert ExecutionResult.from_dict(result.to_dict()) == result


def options_for(argv: list[str]) -> ExecutionOptions:
    parser = argparse.ArgumentParser(prog="grader")
    add_run_parser(parser.add_subparsers(dest="command", required=True))
    return execution_options(parser.parse_args(argv))


def test_an_assignment_gives_its_scripted_input_and_time_limits() -> None:
    lab05 = load_assignment("lab05")
    options = options_for(["run", "nb.ipynb", "-a", "lab05"])
    assert options.stdin == lab05.stdin == ("4", "6", "8")
    assert (options.cell_timeout, options.notebook_timeout) == (lab05.cell_timeout, lab05.notebook_timeout)
    mine = options_for(["run", "nb.ipynb", "-a", "lab05", "--stdin", "1", "--cell-timeout", "5"])
    assert mine.stdin == ("1",) and mine.cell_timeout == 5 and mine.notebook_timeout == lab05.notebook_timeout
    plain = options_for(["run", "nb.ipynb"])
    assert plain.stdin == () and plain.cell_timeout == ExecutionOptions().cell_timeout


def test_an_assignment_gives_its_support_modules(tmp_path: Path) -> None:
    (tmp_path / "assignment.toml").write_text(
        spec_text(
            {"id": "toy", "title": "Toy", "encoding": "flat-space", "support": ["toygame.py"]},
            {"id": "clean", "kind": "runs-cleanly", "points": 1},
        ),
        encoding="utf-8",
    )
    (tmp_path / "support").mkdir()
    shutil.copyfile(MODULE, tmp_path / "support" / "toygame.py")
    assert options_for(["run", "nb.ipynb", "-a", str(tmp_path)]).support == (tmp_path / "support" / "toygame.py",)
    assert options_for(["run", "nb.ipynb"]).support == ()


def test_run_with_an_assignment_answers_input_from_its_stdin(capsys: pytest.CaptureFixture[str]) -> None:
    code = run(["run", str(fixture("input_loop")), "-a", "lab05"])
    out = capsys.readouterr().out
    # lab05's STDIN.txt answers 4, 6, 8 and no 0, so the loop asks once more and fails.
    assert code == EXIT_CELLS_FAILED
    assert "-> '4'" in out and "-> '6'" in out and "-> '8'" in out and "(the script ran out)" in out


def test_timings_are_in_words(capsys: pytest.CaptureFixture[str]) -> None:
    run(["run", str(fixture("sys_exit"))])
    out = capsys.readouterr().out
    assert "kernel start" in out and "kernel_start" not in out
