"""A printed game is judged as the game it is: replayed through the AI's own function, its
moves and its end, and the one result the game cell printed; a sentence alone proves nothing."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from grader.checks.context import CheckContext
from grader.checks.kinds.printed import PrintedParams
from grader.checks.registry import run_check
from grader.execution.result import CellRecord, CellStatus, ExecutionResult, SandboxMode
from grader.results import CheckResult, CheckStatus
from grader.spec.call_template import parse_call
from grader.spec.loader import load_assignment
from grader.spec.model import Assignment
from tests.checks.in_process import InProcessRunner

ROOT = Path(__file__).resolve().parents[2]
TIE = "It's a tie!"
FIRST_FREE_CELL = """
def find_best_move(board):
    for i, j in itertools.product(range(3), repeat=2):
        if board[i][j] == ' ':
            return (i, j)
    return None
"""


@pytest.fixture(scope="module")
def experiment04() -> Assignment:
    return load_assignment("experiment04")


@pytest.fixture(scope="module")
def functions() -> str:
    """The solution's functions cell: check_win, minimax, find_best_move..."""
    notebook = json.loads((ROOT / "assignments" / "experiment04" / "solution.ipynb").read_text(encoding="utf-8"))
    code = ["".join(cell["source"]) for cell in notebook["cells"] if cell["cell_type"] == "code"]
    assert "def find_best_move" in code[0]
    return code[0]


def judge(assignment: Assignment, source: str, printed: str) -> CheckResult:
    check = next(c for c in assignment.checks if c.id == "game-ends-in-tie")
    cell = CellRecord(0, 1, "pos = int(input('...'))", CellStatus.OK, output=printed)
    record = ExecutionResult((cell,), (), SandboxMode.NONE, None, 0, 0.0, 0.0, False)
    runner = InProcessRunner(source)
    return run_check(check, CheckContext.of(assignment, runner, frozenset(runner.defined_names()), execution=record))


def test_the_solution_s_game_passes(experiment04: Assignment, functions: str) -> None:
    result = judge(experiment04, functions, f"O moves:\n...\nX moves:\n...\n{TIE}\n")
    assert result.status is CheckStatus.PASSED, result.message
    assert result.figures["outcome"] == "tie"
    # O plays 5, 7, (2 is taken then) 6, 9, as the scripted answers 5 7 2 6 9 are read by the cell.
    assert result.figures["moves"][0::2] == ["O (1, 1)", "O (2, 0)", "O (0, 1)", "O (1, 2)", "O (2, 2)"]


def test_the_tie_printed_after_every_turn_by_a_first_free_cell_ai_fails(
    experiment04: Assignment, functions: str
) -> None:
    source = functions + FIRST_FREE_CELL  # the later definition wins, as in a notebook
    result = judge(experiment04, source, f"{TIE}\n{TIE}\n{TIE}\nX wins!\n{TIE}\n")
    assert result.status is CheckStatus.FAILED
    assert "X's 2nd move, (0, 1), is not optimal (the optimal moves: (0, 2))" in result.message
    assert "ends in a win for X, not a tie" in result.message
    assert "printed 5 results" in result.message
    assert result.counterexample is not None and result.counterexample.actual == "(0, 1)"


@pytest.mark.parametrize(
    ("printed", "words"),
    [
        ("X wins!\n", 'printed "X wins!", but the replayed game ends in a tie'),
        (f"{TIE}\n{TIE}\n", "printed 2 results"),
        ("O moves:\nX moves:\n", "printed no result"),
    ],
)
def test_the_right_game_with_the_wrong_announcement_fails(
    experiment04: Assignment, functions: str, printed: str, words: str
) -> None:
    result = judge(experiment04, functions, printed)
    assert result.status is CheckStatus.FAILED and words in result.message, result.message
    assert "is not optimal" not in result.message


def test_scripted_answers_that_run_out_leave_the_game_unfinished(experiment04: Assignment, functions: str) -> None:
    short = dataclasses.replace(experiment04, stdin=("5", "x", "7"))
    result = judge(short, functions, f"{TIE}\n")
    assert result.status is CheckStatus.FAILED
    assert "the scripted answers ran out before the game was over, after 4 moves" in result.message


def test_a_judged_game_needs_the_meaning_of_each_result() -> None:
    call = parse_call("find_best_move(board)")
    with pytest.raises(ValueError, match="results must map"):
        PrintedParams(pattern="(It's a tie!)", expected=(TIE,), game_call=call)
    with pytest.raises(ValueError, match="one printed result"):
        PrintedParams(pattern="(It's a tie!)", expected=("X wins!",), game_call=call, results={TIE: "tie"})
