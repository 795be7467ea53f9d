"""Student text reaches the instructor's terminal printable: no escape sequence, bell, C1
control or bidi override written by a notebook (or hidden in a file name) acts on it."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from grader.printable import PrintableStream, printable, unfiltered
from tests.fewer_games import read_with_fewer_games

ROOT = Path(__file__).resolve().parents[2]
PAYLOAD = "\x1b]0;PWNED\x07\x1b[2J\x1b[H\u202eevil\x9b31m\u2028"
FORBIDDEN = {"ESC": b"\x1b", "BEL": b"\x07", "C1 CSI": "\x9b".encode(), "RLO": "\u202e".encode()}


def grader(*argv: str, cwd: Path) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "grader", *argv], cwd=cwd, env=env, capture_output=True, timeout=300)


def control_bytes(completed: subprocess.CompletedProcess[bytes]) -> dict[str, int]:
    both = completed.stdout + completed.stderr
    return {name: both.count(code) for name, code in FORBIDDEN.items() if code in both}


def test_controls_are_escaped_and_layout_is_kept() -> None:
    assert printable("plain text, tabs\tand\nnewlines") == "plain text, tabs\tand\nnewlines"
    assert printable(PAYLOAD) == "\\x1b]0;PWNED\\x07\\x1b[2J\\x1b[H\\u202eevil\\x9b31m\\u2028"
    assert printable("\r\x00\x7f\ud800\u2066\U000e0001") == "\\x0d\\x00\\x7f\\ud800\\u2066\\U000e0001"
    assert printable("é ü 中文 ✓") == "é ü 中文 ✓"


def test_the_stream_filters_writes_and_keeps_its_raw_stream_for_the_bar() -> None:
    raw = io.StringIO()
    stream = PrintableStream(raw)
    print("alice:", PAYLOAD, file=stream)
    assert raw.getvalue() == f"alice: {printable(PAYLOAD)}\n" and "\x1b" not in raw.getvalue()
    assert unfiltered(stream) is raw and unfiltered(raw) is raw


@pytest.fixture(scope="module")
def hostile_notebook(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """lab05's solution (a few games of its experiment, not 200), then a cell whose check_win
    raises the payload (and is called once)."""
    notebook = read_with_fewer_games(ROOT / "examples" / "lab05" / "ada-solution.ipynb")
    source = f"def check_win(board, player):\n    raise Exception({PAYLOAD!r})\n\ncheck_win([], 'X')\n"
    notebook.cells.append(nbformat.v4.new_code_cell(source))
    path = tmp_path_factory.mktemp("hostile") / "hostile.ipynb"
    nbformat.write(notebook, path)
    return path


@pytest.mark.kernel
def test_grader_run_prints_the_exception_line_escaped(hostile_notebook: Path) -> None:
    completed = grader("run", str(hostile_notebook), cwd=hostile_notebook.parent)
    assert completed.returncode == 1, completed.stderr.decode(errors="replace")
    assert control_bytes(completed) == {}
    assert b"Exception: \\x1b]0;PWNED\\x07" in completed.stdout


@pytest.mark.kernel
def test_grader_grade_prints_the_counterexample_escaped(hostile_notebook: Path) -> None:
    completed = grader("grade", str(hostile_notebook), "-a", "lab05", cwd=hostile_notebook.parent)
    assert completed.returncode == 0, completed.stderr.decode(errors="replace")
    assert control_bytes(completed) == {}
    assert b"it raised Exception: \\x1b]0;PWNED\\x07" in completed.stdout


def test_a_batch_prints_file_names_and_reasons_escaped(tmp_path: Path) -> None:
    source = tmp_path / "in"
    source.mkdir()
    (source / f"eve{PAYLOAD}.ipynb").write_text("{}", encoding="utf-8")  # unreadable: no kernel is started
    completed = grader("batch", str(source), "-a", "lab05", "-o", str(tmp_path / "out"), "-j", "1", cwd=tmp_path)
    assert completed.returncode == 0, completed.stderr.decode(errors="replace")
    assert control_bytes(completed) == {}
    assert b"eve\\x1b]0;PWNED\\x07" in completed.stderr  # the progress line
    assert b"eve\\x1b]0;PWNED\\x07" in completed.stdout  # the summary's "could not be graded"
