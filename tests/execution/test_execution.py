"""Executing whole notebooks: budgets, skipped cells, replay, scripts, the seed notebooks."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from grader.execution.channel.calls import Call
from grader.execution.session import CellStatus, ExecutionOptions, NotebookSession, execute_notebook
from tests.execution.support import SEEDS, fixture

pytestmark = pytest.mark.kernel

OK, ERROR = CellStatus.OK, CellStatus.ERROR


def test_the_notebook_budget_cuts_the_running_cell_and_the_rest_is_not_run() -> None:
    result = execute_notebook(fixture("infinite_loop"), ExecutionOptions(cell_timeout=30, notebook_timeout=1.5))
    assert [r.status for r in result.cells] == [OK, CellStatus.TIMEOUT, CellStatus.NOT_RUN]
    assert result.notebook_timed_out
    assert "1.5 s ran out" in (result.cell(3).error_message or "")
    assert result.total_duration < 8


def test_skipped_cells_are_recorded_as_skipped() -> None:
    result = execute_notebook(fixture("infinite_loop"), ExecutionOptions(skip_cells=frozenset({2})))
    assert [r.status for r in result.cells] == [OK, CellStatus.SKIPPED, OK]
    assert not result.failed_cells


def test_replay_after_a_kernel_death_feeds_each_cell_its_own_answers(open_session) -> None:
    session = open_session("input_then_kill", ExecutionOptions(stdin=("A", "B", "C")))
    result = session.execute()
    assert [r.status for r in result.cells] == [OK, CellStatus.KILLED, OK]
    assert result.cell(3).output == "third: C\nA C\n"
    assert [(e.cell_index, e.answer) for e in result.stdin_transcript] == [(1, "A"), (2, "B"), (3, "C")]
    assert result.kernel_restarts == 1


def test_result_is_plain_json(tmp_path: Path) -> None:
    result = execute_notebook(fixture("syntax_error_repaired"), ExecutionOptions(sandbox="limits"))
    data = json.loads(result.to_json())
    assert data == result.to_dict()
    assert data["sandbox_mode"] == "limits"
    assert [cell["status"] for cell in data["cells"]] == ["error", "ok", "ok"]
    assert data["cells"][0]["error_name"] == "SyntaxError"
    assert data["kernel_start_seconds"] > 0


def test_a_python_script_runs_with_definitions_after_its_game_loop(tmp_path: Path) -> None:
    script = tmp_path / "submission.py"
    script.write_text(
        "board = [' '] * 9\n"
        "while True:\n"
        "    move = int(input('move: '))\n"
        "    board[move] = 'X'\n\n"
        "def minimax(board):\n"
        "    return board.count('X')\n"
    )
    with NotebookSession(script, ExecutionOptions(stdin=("4", "0"))) as session:
        result = session.execute()
        assert [r.status for r in result.cells] == [OK, ERROR, OK]
        assert result.cell(1).error_name == "ScriptedInputExhausted"
        assert session.calls.call(Call("minimax", (["X", " ", "X"],))).value == 2


def test_the_kernel_starts_without_a_debugger_and_a_notebook_can_still_import_one(tmp_path: Path) -> None:
    """ipykernel's debugger (debugpy) is a fifth of a kernel's start-up imports and no grading
    uses it: the kernel starts without it, and a student's ``import debugpy`` still works."""
    script = tmp_path / "submission.py"
    script.write_text(
        "import sys\n"
        "print('at start:', 'debugpy' in sys.modules, 'ipykernel.debugger' in sys.modules)\n"
        "import debugpy\n"
        "print('imported:', debugpy.__name__)\n"
    )
    result = execute_notebook(script, ExecutionOptions())
    assert {cell.status for cell in result.cells} == {OK}, result.cells
    assert "".join(cell.output for cell in result.cells) == "at start: False True\nimported: debugpy\n"


@dataclass(frozen=True)
class SeedRun:
    """How a seed notebook is expected to execute; cells not listed must be OK."""

    name: str
    stdin: tuple[str, ...] = ()
    errors: dict[int, str] = field(default_factory=dict)
    output: dict[int, str] = field(default_factory=dict)


SEED_RUNS = [
    pytest.param(SeedRun("001", ("5", "7", "2", "6", "9"), output={1: "It's a tie!"}), id="001"),
    pytest.param(SeedRun("002", output={5: "Total nodes explored: 549946"}), id="002", marks=pytest.mark.slow),
    pytest.param(
        SeedRun("003", ("1", "2", "7", "6", "9") * 2, output={13: "Recommended move: 9", 19: "It's a tie!"}), id="003"
    ),
    pytest.param(
        SeedRun(
            "004",
            ("4", "0", "2", "6"),
            errors={6: "IndentationError", 10: "NameError", 12: "NameError"},
            output={14: "Results with full depth"},
        ),
        id="004",
        marks=pytest.mark.slow,
    ),
]
# Seed 000 is depth-limits' seed (the same cells; `test_wrong_submissions.py` checks that): its
# grading there runs it as its author saw and asserts it, so its depth-9 game, tens of seconds of
# numpy code, is played once in the suite and not again here.


@pytest.mark.parametrize("seed", SEED_RUNS)
def test_seed_notebooks_run_as_their_authors_saw(seed: SeedRun) -> None:
    options = ExecutionOptions(stdin=seed.stdin, cell_timeout=120, notebook_timeout=600)
    result = execute_notebook(SEEDS / f"{seed.name}.ipynb", options)
    for record in result.cells:
        expected = seed.errors.get(record.index)
        assert (record.status, record.error_name) == ((ERROR, expected) if expected else (OK, None)), record
    for index, text in seed.output.items():
        assert text in result.cell(index).output
    assert result.kernel_restarts == 0
