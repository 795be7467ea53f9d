"""Games where the student's AI moves first: the game opens with a seeded move in its place,
since no first move can lose tic-tac-toe, so its search from the empty board (the most
expensive question there is) is never asked; the check still fails an AI that throws a
drawable game away and one that plays on a taken cell."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from grader.checks.context import CheckContext
from grader.checks.kinds.game_choices import openings_note, seeded_opening
from grader.checks.registry import run_check
from grader.grading import grade_submission
from grader.results import CheckResult, CheckStatus
from grader.spec.loader import load_assignment
from grader.spec.model import Assignment
from reference import Board
from tests.checks.in_process import InProcessRunner
from tests.checks.spec_text import flat_list_assignment

ASSIGNMENT = (
    flat_list_assignment("ai-first", "The AI moves first", maximizer="X")
    + """
[[checks]]
id = "never-loses"
kind = "random-opponent"
title = "the AI never loses to an optimal opponent"
points = 10
call = "ai(board)"
ai = "X"
opponent = "optimal"
games = 5
seed = 2024
"""
)

SEARCH = """
LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]
ASKED = []

def wins(b, mark):
    return any(b[i] == b[j] == b[k] == mark for i, j, k in LINES)

def to_move(b):
    return 'X' if b.count('X') == b.count('O') else 'O'

def value(b):
    if wins(b, 'X'):
        return 1
    if wins(b, 'O'):
        return -1
    free = [i for i in range(9) if b[i] == ' ']
    if not free:
        return 0
    mark = to_move(b)
    scores = []
    for i in free:
        b[i] = mark
        scores.append(value(b))
        b[i] = ' '
    return max(scores) if mark == 'X' else min(scores)

def best(b):
    mark = to_move(b)
    scored = []
    for i in range(9):
        if b[i] == ' ':
            b[i] = mark
            scored.append((value(b), i))
            b[i] = ' '
    return max(scored)[1] if mark == 'X' else min(scored)[1]
"""

CORRECT = (
    SEARCH
    + """
def ai(board):
    ASKED.append(''.join(board))
    return best(board)
"""
)

FIRST_FREE_CELL = (
    SEARCH
    + """
def ai(board):
    # legal, never optimal on purpose: the first free cell in reading order
    return board.index(' ')
"""
)

GIVES_AWAY_A_DRAW = (
    SEARCH
    + """
def ai(board):
    # optimal, except that it never blocks: with two of O's marks in a line it plays elsewhere
    move = best(board)
    for i, j, k in LINES:
        cells = [board[i], board[j], board[k]]
        if cells.count('O') == 2 and ' ' in cells and (i, j, k)[cells.index(' ')] == move:
            others = [c for c in range(9) if board[c] == ' ' and c != move]
            return others[0] if others else move
    return move
"""
)

TAKEN_CELL = (
    SEARCH
    + """
def ai(board):
    # the optimal move, unless the opponent has a mark: then the cell it took last in reading order
    taken = [i for i in range(9) if board[i] == 'O']
    return taken[-1] if taken else best(board)
"""
)


def _assignment(tmp_path: Path) -> Assignment:
    (tmp_path / "assignment.toml").write_text(ASSIGNMENT)
    return load_assignment(tmp_path)


def _games(tmp_path: Path, source: str) -> tuple[CheckResult, InProcessRunner]:
    assignment = _assignment(tmp_path)
    runner = InProcessRunner(source)
    ctx = CheckContext.of(assignment, runner, frozenset(runner.defined_names()))
    return run_check(assignment.checks[0], ctx), runner


def test_every_first_move_keeps_the_draw_so_the_empty_board_is_not_asked(tmp_path: Path) -> None:
    ctx = CheckContext.of(_assignment(tmp_path), InProcessRunner(CORRECT), frozenset())
    assert seeded_opening(Board.empty(), "X", ctx) == tuple(range(9))
    # later positions are the AI's to answer, whatever their moves
    assert seeded_opening(Board.from_string("X...O...."), "X", ctx) == ()


@dataclass(frozen=True)
class _Played:
    opening: str | None


@pytest.mark.parametrize(
    ("openings", "words"),
    [
        (("X 1,1",), " The game opened with the seeded move X 1,1 in the AI's place"),
        (("X 0,0", "X 2,2"), " Each game opened with a seeded move in the AI's place"),
        (("X 0,0", None, "X 2,2"), " 2 of the 3 games opened with a seeded move in the AI's place"),
    ],
)
def test_the_note_says_which_games_opened_with_a_seeded_move(openings: tuple[str | None, ...], words: str) -> None:
    assert openings_note([_Played(opening) for opening in openings]).startswith(words)


def test_games_that_no_seeded_move_opened_get_no_note() -> None:
    assert openings_note([_Played(None), _Played(None)]) == ""


def test_a_correct_ai_moving_first_draws_every_game_without_its_search_of_the_empty_board(tmp_path: Path) -> None:
    result, runner = _games(tmp_path, CORRECT)
    assert result.status is CheckStatus.PASSED, result.message
    assert result.figures["tally"] == {"AI": 0, "Opponent": 0, "Draw": 5}
    asked: list[str] = runner.namespace["ASKED"]
    assert asked and " " * 9 not in asked
    assert all(board.count("X") == board.count("O") == 1 for board in asked[:1])
    openings: list[Any] = result.figures["openings"]
    assert len(openings) == 5 and all(o.startswith("X ") for o in openings)
    assert len(set(openings)) > 1  # the games open differently
    assert "Each game opened with a seeded move in the AI's place" in result.message


def test_an_ai_that_loses_a_drawable_game_fails(tmp_path: Path) -> None:
    for source in (FIRST_FREE_CELL, GIVES_AWAY_A_DRAW):
        result, _ = _games(tmp_path, source)
        assert result.status is CheckStatus.FAILED, result.message
        assert result.figures["tally"]["Opponent"] == 1 and "lost game" in result.message
        example = result.counterexample
        assert example is not None and example.board is not None
        assert Board.from_string(example.board).winners() == {"O"}
        assert example.expected == "a win or a draw for the AI"


def test_an_ai_that_plays_on_a_taken_cell_fails(tmp_path: Path) -> None:
    result, _ = _games(tmp_path, TAKEN_CELL)
    assert result.status is CheckStatus.FAILED, result.message
    assert "which is not a free cell" in result.message and "stopped" in result.message
    example = result.counterexample
    assert example is not None and example.board is not None and example.expected == "a legal move"
    taken = int(example.actual.split()[-1]) if example.actual.split()[-1].isdigit() else None
    board = Board.from_string(example.board)
    assert taken is None or taken not in board.empty_cells()


@pytest.mark.kernel
@pytest.mark.slow
def test_in_a_kernel_the_games_fail_a_lost_draw_and_a_taken_cell_and_pass_a_correct_ai(tmp_path: Path) -> None:
    """The same three AIs, graded as hand-ins are: each `.py` file runs in a sandboxed kernel."""
    assignment = _assignment(tmp_path)
    statuses = {}
    for name, source in (("correct", CORRECT), ("gives-away-a-draw", GIVES_AWAY_A_DRAW), ("taken", TAKEN_CELL)):
        handin = tmp_path / f"{name}.py"
        handin.write_text(source)
        result = grade_submission(handin, assignment).check("never-loses")
        statuses[name] = (result.status, result.message)
    assert statuses["correct"][0] is CheckStatus.PASSED, statuses
    assert statuses["gives-away-a-draw"][0] is CheckStatus.FAILED and "lost game" in statuses["gives-away-a-draw"][1]
    assert statuses["taken"][0] is CheckStatus.FAILED and "not a free cell" in statuses["taken"][1]
