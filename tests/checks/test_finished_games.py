"""A search asked about finished games: the finished positions tried, a None or a value answer
judged by the rule the check names, and the rule init reads off a solution."""

from __future__ import annotations

from pathlib import Path

import pytest

from grader.checks.answers import ShapeError, read_value_only
from grader.checks.context import CheckContext
from grader.checks.positions import smallest_finished_positions
from grader.checks.registry import run_check
from grader.results import CheckResult, CheckStatus
from grader.spec.loader import load_assignment
from reference import Board, O, X
from tests.checks.in_process import InProcessRunner

ASSIGNMENT = """
[assignment]
id = "finished-games"
title = "finished games"
maximizer = "X"
first_player = "X"
scoring = "unit"
move = "rowcol"

[board]
layout = "rows"
container = "list"
empty = "None"
x = "X"
o = "O"

[[checks]]
id = "minimax"
kind = "search-value"
title = "minimax picks an optimal move"
points = 10
call = "minimax(board)"
returns = ["move"]
finished = "{finished}"
min_empty = 1
max_empty = 4
examples = 10
"""

SEARCH = """
LINES = [[(0, 0), (0, 1), (0, 2)], [(1, 0), (1, 1), (1, 2)], [(2, 0), (2, 1), (2, 2)],
         [(0, 0), (1, 0), (2, 0)], [(0, 1), (1, 1), (2, 1)], [(0, 2), (1, 2), (2, 2)],
         [(0, 0), (1, 1), (2, 2)], [(0, 2), (1, 1), (2, 0)]]

def winner(board):
    for line in LINES:
        marks = {board[i][j] for i, j in line}
        if len(marks) == 1 and None not in marks:
            return marks.pop()
    return None

def free(board):
    return [(i, j) for i in range(3) for j in range(3) if board[i][j] is None]

def player(board):
    marks = sum(cell is not None for row in board for cell in row)
    return "X" if marks % 2 == 0 else "O"

def value(board):
    won = winner(board)
    if won or not free(board):
        return {"X": 1, "O": -1, None: 0}[won]
    mover = player(board)
    values = []
    for i, j in free(board):
        board[i][j] = mover
        values.append(value(board))
        board[i][j] = None
    return max(values) if mover == "X" else min(values)

def minimax(board):
    GUARD
    mover = player(board)
    best = None
    for i, j in free(board):
        board[i][j] = mover
        v = value(board)
        board[i][j] = None
        if best is None or (v > best[0] if mover == "X" else v < best[0]):
            best = (v, (i, j))
    return best[1] if best else None
"""
CORRECT = SEARCH.replace("GUARD", "if winner(board) or not free(board):\n        return None")
NO_TERMINAL_TEST = SEARCH.replace("GUARD", "pass")


def grade(tmp_path: Path, source: str, finished: str) -> CheckResult:
    folder = tmp_path / finished
    folder.mkdir()
    (folder / "assignment.toml").write_text(ASSIGNMENT.replace("{finished}", finished), encoding="utf-8")
    assignment = load_assignment(folder)
    runner = InProcessRunner(source)
    ctx = CheckContext.of(assignment, runner, frozenset(runner.defined_names()))
    return run_check(assignment.checks[0], ctx)


def test_the_finished_positions_cover_every_outcome_and_stop_at_full_boards() -> None:
    boards = smallest_finished_positions(X)
    assert all(b.is_terminal() for b in boards)
    assert {b.winner() for b in boards} == {X, O, None}
    assert min(len(b.empty_cells()) for b in boards) == 0
    assert max(len(b.empty_cells()) for b in boards) == 4  # X wins on its third mark at the earliest
    assert all(b.to_move(X) == O for b in smallest_finished_positions(X, O))


def test_a_search_without_a_terminal_test_plays_on_a_won_board(tmp_path: Path) -> None:
    result = grade(tmp_path, NO_TERMINAL_TEST, "none")
    assert result.status is CheckStatus.FAILED
    shown = result.counterexample
    assert shown is not None and shown.board is not None
    assert Board.from_string(shown.board).is_terminal()
    assert shown.expected == "None (the game is over: there is no move)"
    assert result.cause is not None and "test for a finished game before searching" in result.cause.sentence


def test_the_right_search_passes_with_finished_games_asked(tmp_path: Path) -> None:
    assert grade(tmp_path, CORRECT, "none").status is CheckStatus.PASSED


def test_finished_games_are_not_judged_unless_asked(tmp_path: Path) -> None:
    assert grade(tmp_path, NO_TERMINAL_TEST, "not-asked").status is CheckStatus.PASSED


@pytest.mark.parametrize(
    ("raw", "shapes", "value"),
    [
        ((1, ""), ("value,move",), 1),
        ([-1, None], ("value,move",), -1),
        (0, ("value",), 0),
        ((None, 5, 1), ("row,col,value",), 1),
    ],
)
def test_the_value_of_an_answer_whatever_its_move_part_holds(raw: object, shapes: tuple[str, ...], value: int) -> None:
    assert read_value_only(raw, shapes) == value


def test_an_answer_without_a_value_does_not_read() -> None:
    with pytest.raises(ShapeError):
        read_value_only(("", ""), ("value,move",))
    with pytest.raises(ShapeError):
        read_value_only((0, 1), ("move",))
