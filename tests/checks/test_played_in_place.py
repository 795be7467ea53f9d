"""A best move played in place (``ai_move(board)`` puts its mark on the board and returns
nothing): the move is read from the board the call left, wherever the board lives, and a call
that plays no move, several, or the wrong mark is told so."""

from __future__ import annotations

from pathlib import Path

import pytest

from grader.checks.context import CheckContext
from grader.checks.registry import run_check
from grader.results import CheckResult, CheckStatus
from grader.spec.loader import load_assignment
from grader.spec.model import Assignment, AssignmentError
from reference import Board
from tests.checks.in_process import InProcessRunner
from tests.checks.spec_text import flat_list_assignment

SEARCH = """
LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]

def wins(b, mark):
    return any(b[i] == b[j] == b[k] == mark for i, j, k in LINES)

def value(b, o_to_move):
    if wins(b, 'O'):
        return 1
    if wins(b, 'X'):
        return -1
    free = [i for i in range(9) if b[i] == ' ']
    if not free:
        return 0
    scores = []
    for i in free:
        b[i] = 'O' if o_to_move else 'X'
        scores.append(value(b, not o_to_move))
        b[i] = ' '
    return max(scores) if o_to_move else min(scores)

def best_cell(b):
    best, cell = -2, None
    for i in range(9):
        if b[i] == ' ':
            b[i] = 'O'
            v = value(b, False)
            b[i] = ' '
            if v > best:
                best, cell = v, i
    return cell
"""

ARGUMENT = (
    SEARCH
    + """
def ai_move(board):
    board[best_cell(board)] = 'O'
"""
)

LAST_FREE_CELL = (
    SEARCH
    + """
def ai_move(board):
    board[[i for i in range(9) if board[i] == ' '][-1]] = 'O'
"""
)

RETURNS_THE_CELL = (
    SEARCH
    + """
def ai_move(board):
    return best_cell(board)
"""
)

TWO_MARKS = (
    SEARCH
    + """
def ai_move(board):
    cell = best_cell(board)
    board[cell] = 'O'
    free = [i for i in range(9) if board[i] == ' ']
    if free:
        board[free[0]] = 'O'
"""
)

WRONG_MARK = (
    SEARCH
    + """
def ai_move(board):
    board[best_cell(board)] = 'X'
"""
)

ATTRIBUTE = (
    SEARCH
    + """
class Game:
    def __init__(self):
        self.reset()

    def reset(self):
        self.board = [' '] * 9

    def ai_move(self):
        # a new list, not the one it was given: the attribute is read after the call
        cells = list(self.board)
        cells[best_cell(cells)] = 'O'
        self.board = cells
"""
)

GLOBAL = (
    SEARCH
    + """
board = [' '] * 9

def ai_move():
    board[best_cell(board)] = 'O'
"""
)

HEAD = flat_list_assignment("in-place", "A best move played in place", maximizer="O")

CHECKS = """
[[checks]]
id = "ai-move"
kind = "search-value"
points = 10
call = "{call}"
returns = ["move"]
to_move = "O"
in_place = true

[[checks]]
id = "never-loses"
kind = "random-opponent"
points = 10
call = "{call}"
ai = "O"
opponent = "optimal"
games = 3
seed = 7
in_place = true
"""

LOCATIONS = {
    "argument": ("", "ai_move(board)"),
    "attribute": ('location = "attribute"\nfactory = "Game()"\nattribute = "board"\n', "game.ai_move()"),
    "global": ('location = "global"\nglobal = "board"\n', "ai_move()"),
}


def _assignment(tmp_path: Path, where: str) -> Assignment:
    location, call = LOCATIONS[where]
    (tmp_path / "assignment.toml").write_text(HEAD + location + CHECKS.format(call=call))
    return load_assignment(tmp_path)


def _grade(assignment: Assignment, source: str) -> dict[str, CheckResult]:
    runner = InProcessRunner(source)
    ctx = CheckContext.of(assignment, runner, frozenset(runner.defined_names()))
    return {check.id: run_check(check, ctx) for check in assignment.checks}


@pytest.mark.parametrize(("where", "source"), [("argument", ARGUMENT), ("attribute", ATTRIBUTE), ("global", GLOBAL)])
def test_a_best_move_played_in_place_passes_wherever_the_board_lives(tmp_path: Path, where: str, source: str) -> None:
    results = _grade(_assignment(tmp_path, where), source)
    assert {id_: r.status for id_, r in results.items()} == {
        "ai-move": CheckStatus.PASSED,
        "never-loses": CheckStatus.PASSED,
    }, {id_: r.message for id_, r in results.items()}
    assert "gives the reference moves" in results["ai-move"].message


def test_the_last_free_cell_is_a_legal_move_that_is_not_optimal(tmp_path: Path) -> None:
    results = _grade(_assignment(tmp_path, "argument"), LAST_FREE_CELL)
    search = results["ai-move"]
    assert search.status is CheckStatus.FAILED
    example = search.counterexample
    assert example is not None and example.board is not None
    last = Board.from_string(example.board).empty_cells()[-1]
    assert example.actual == f"move {last}" and str(last) not in example.expected
    assert results["never-loses"].status is CheckStatus.FAILED
    assert "lost game" in results["never-loses"].message


@pytest.mark.parametrize(
    ("source", "said"),
    [
        (RETURNS_THE_CELL, "the call left the board as it was and returned "),
        (TWO_MARKS, "the call changed 2 cells"),
        (WRONG_MARK, "put X there, where O is to move"),
    ],
)
def test_a_call_that_plays_no_single_move_says_what_it_did(tmp_path: Path, source: str, said: str) -> None:
    results = _grade(_assignment(tmp_path, "argument"), source)
    search = results["ai-move"]
    assert search.status is CheckStatus.FAILED
    assert search.counterexample is not None and said in search.counterexample.actual
    game = results["never-loses"]
    assert game.status is CheckStatus.FAILED and "stopped" in game.message
    assert said.removeprefix("the call ") in game.message


@pytest.mark.parametrize("kind", ["pruning-equivalence", "depth-limited"])
def test_a_kind_that_judges_values_refuses_a_move_played_in_place(tmp_path: Path, kind: str) -> None:
    (tmp_path / "assignment.toml").write_text(
        HEAD + f'\n[[checks]]\nid = "values"\nkind = "{kind}"\npoints = 1\ncall = "ai_move(board)"\nin_place = true\n'
    )
    with pytest.raises(AssignmentError, match="in_place: .* a move played in place gives none"):
        load_assignment(tmp_path)
