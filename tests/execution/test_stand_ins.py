"""The reference's stand-ins on a plain namespace: bound for one call, answering in the
student's encoding and convention, and put back however the call ends."""

from __future__ import annotations

import sys
from typing import Any

import numpy as np
import pytest

from grader.execution.channel.call_data import KernelMade, KernelName, StandIn
from grader.execution.channel.calls import Call, CallOutcome, CallStatus, outcome_from
from grader.execution.channel.kernel.executor import CallExecutor
from grader.execution.channel.protocol import BOARD_SLOT, OutcomeData

SOURCE = """
def check_win(board, player):
    return False  # wrong: never a win

def wins_for(player, board):
    return check_win(board, player)

def wins_by_keyword(board):
    return check_win(player="O", board=board)

def spin_after_check(board):
    check_win(board, "X")
    while True:
        pass

def fail_after_check(board):
    check_win(board, "X")
    return 1 / 0

def check_winner(board):
    return None  # wrong, and not the assignment's check_win(board, player)

def winner_is_o(board):
    return check_winner(board) == "O"

def is_end():
    return None  # wrong: the game never ends

def ask_is_end():
    return is_end()

def player(board):
    marks = sum(cell is not None for row in board for cell in row)
    return "O" if marks % 2 == 0 else "X"  # wrong: the parity inverted

def mark_of_next_move(board):
    return player(board)

def result(board, action):
    new = [row for row in board]  # wrong: the rows are shared with the given board
    new[action[0]][action[1]] = "X"
    return new

def children(board):
    boards = []
    for i in range(3):
        for j in range(3):
            if board[i][j] is None:
                boards.append(result(board, (i, j)))
    return boards, board

def try_moves(board, moves):
    answers = []
    for move in moves:
        try:
            answers.append(result(board, move))
        except ValueError:
            answers.append("refused")
    return answers

def select_space(board, move, turn):
    board[move - 1] = turn  # wrong: no check at all
    return True

def grid_winner(board):
    return None  # wrong: never a winner

def winner_of(board):
    return grid_winner(board)

def winning_move(board, piece):
    return False  # wrong: never a win

def is_valid_location(board, col):
    return True  # wrong: never full

def get_next_open_row(board, col):
    return 0  # wrong: always the first row

def legal_columns(board):
    return [0]  # wrong: one column whatever the board

def ask_columns(board):
    return legal_columns(board)

def ask_grid(board, piece, col):
    return winning_move(board, piece), is_valid_location(board, col), get_next_open_row(board, col)

def ask_by_keyword(board, piece, col):
    return winning_move(piece=piece, board=board), is_valid_location(col=col, board=board), get_next_open_row(board, col=col)

class Grid:
    def __init__(self, rows):
        self.rows = rows

def grid_over(grid):
    return False  # wrong: never over

def grid_score(grid, is_max):
    return 0  # wrong: every game a tie

def state_of(rows):
    grid = Grid(rows)
    return grid_over(grid), grid_score(grid, True), grid_score(grid, False)

def play_all(board, moves):
    return [select_space(board, move, "X") for move in moves], board

class State:
    def __init__(self, gameplan):
        self.gameplan = gameplan

    def possible_actions(self):
        return []  # wrong: no moves

    def moves(self):
        return self.possible_actions()
"""

WIN = StandIn("check_win", "wins", ("X", "O", (" ",)), board_arg=0, player_arg=1)
FLAT_O_WINS = ["O", "O", "O", "X", "X", " ", " ", " ", " "]


def executor() -> tuple[CallExecutor, dict[str, Any]]:
    namespace: dict[str, Any] = {"__name__": "__main__"}
    exec(compile(SOURCE, "<notebook>", "exec"), namespace)
    return CallExecutor(namespace, output_chars=1000), namespace


def run(executor: CallExecutor, *calls: Call) -> list[CallOutcome]:
    reported: list[OutcomeData] = []
    executor.run_batch([call.to_request() for call in calls], lambda _, outcome: reported.append(outcome))
    return [outcome_from(outcome) for outcome in reported]


def test_the_stand_in_answers_for_the_call_only_and_the_original_is_put_back() -> None:
    calls, namespace = executor()
    original = namespace["check_win"]
    with_it, without = run(
        calls,
        Call("wins_for", ("O", FLAT_O_WINS), stand_ins=(WIN,)),
        Call("wins_for", ("O", FLAT_O_WINS)),
    )
    assert with_it.value is True and without.value is False
    assert namespace["check_win"] is original


def test_keyword_arguments_are_read_by_the_students_parameter_names() -> None:
    calls, _ = executor()
    (outcome,) = run(calls, Call("wins_by_keyword", (FLAT_O_WINS,), stand_ins=(WIN,)))
    assert outcome.value is True


@pytest.mark.skipif(sys.platform == "win32", reason="SIGALRM")
def test_the_original_is_put_back_after_a_raise_and_a_time_out() -> None:
    calls, namespace = executor()
    original = namespace["check_win"]
    raised, slow = run(
        calls,
        Call("fail_after_check", (FLAT_O_WINS,), stand_ins=(WIN,)),
        Call("spin_after_check", (FLAT_O_WINS,), stand_ins=(WIN,), timeout=0.2),
    )
    assert raised.status is CallStatus.RAISED and slow.status is CallStatus.TIMEOUT
    assert namespace["check_win"] is original


def test_an_outcome_read_from_a_global_is_spelled_with_the_assignments_codes() -> None:
    calls, namespace = executor()
    digits = ("X", "O", tuple(str(n) for n in range(1, 10)))
    is_end = StandIn(
        "is_end", "outcome", digits, board_global="current_state", codes={"X": "X", "O": "O", "tie": "tie"}
    )
    tie = [["X", "O", "X"], ["X", "O", "O"], ["O", "X", "X"]]
    going = [["X", "2", "3"], ["4", "5", "6"], ["7", "8", "9"]]
    won, drawn, ongoing = run(
        calls,
        *(
            Call("ask_is_end", set_globals={"current_state": board}, stand_ins=(is_end,))
            for board in ([["X", "X", "X"], ["O", "O", "6"], ["7", "8", "9"]], tie, going)
        ),
    )
    assert (won.value, drawn.value, ongoing.value) == ("X", "tie", None)
    assert namespace["is_end"].__code__.co_filename == "<notebook>"


def test_a_method_finds_the_board_among_the_objects_attributes_and_the_class_gets_its_own_back() -> None:
    calls, namespace = executor()
    original = vars(namespace["State"])["possible_actions"]
    actions = StandIn("State.possible_actions", "legal-moves", (1, 2, (0,)), move_format="rowcol")
    board = np.array([[1, 0, 2], [0, 1, 2], [0, 0, 0]])
    (outcome,) = run(calls, Call("State", (board,), then=(("moves", (), {}),), stand_ins=(actions,)))
    assert outcome.value == [(0, 1), (1, 0), (2, 0), (2, 1), (2, 2)]
    assert vars(namespace["State"])["possible_actions"] is original


def test_no_board_in_the_arguments_is_a_type_error_like_a_wrong_call() -> None:
    calls, _ = executor()
    (outcome,) = run(calls, Call("wins_for", ("O", "not a board"), stand_ins=(WIN,)))
    assert outcome.status is CallStatus.RAISED and "found no board" in (outcome.error or "")


def test_a_function_without_the_parameters_the_call_passes_is_not_stood_in_for() -> None:
    calls, namespace = executor()
    original = namespace["check_winner"]
    one_argument = StandIn("check_winner", "wins", ("X", "O", (" ",)), board_arg=0, player_arg=1)
    (outcome,) = run(calls, Call("winner_is_o", (FLAT_O_WINS,), stand_ins=(one_argument,)))
    assert outcome.status is CallStatus.MISSING and "takes other parameters" in (outcome.error or "")
    assert namespace["check_winner"] is original


@pytest.mark.parametrize(("first", "on_empty", "after_one"), [("X", "X", "O"), ("O", "O", "X")])
def test_the_side_to_move_stands_in_with_the_assignments_first_player(
    first: str, on_empty: str, after_one: str
) -> None:
    calls, _ = executor()
    turn = StandIn(
        "player", "to-move", ("X", "O", (None,)), board_arg=0, codes={"X": "X", "O": "O"}, first_player=first
    )
    empty: list[list[str | None]] = [[None] * 3 for _ in range(3)]
    one: list[list[str | None]] = [[None] * 3 for _ in range(3)]
    one[1][1] = first
    answers = run(
        calls,
        Call("mark_of_next_move", (empty,), stand_ins=(turn,)),
        Call("mark_of_next_move", (one,), stand_ins=(turn,)),
        Call("mark_of_next_move", (empty,)),
    )
    assert [a.value for a in answers] == [on_empty, after_one, "O"]


RESULT = StandIn(
    "result", "successor", ("X", "O", (None,)), board_arg=0, move_arg=1, move_format="rowcol", invalid="raise"
)


def test_the_successor_stands_in_with_a_new_board_and_the_given_one_untouched() -> None:
    calls, _ = executor()
    one: list[list[str | None]] = [[None, None, None], [None, "X", None], [None, None, None]]
    (answer,) = run(calls, Call("children", (one,), stand_ins=(RESULT,)))
    value: Any = answer.value
    boards, given = value
    assert given == [[None, None, None], [None, "X", None], [None, None, None]]
    assert len(boards) == 8 and boards[0] == [["O", None, None], [None, "X", None], [None, None, None]]


def test_the_successor_refuses_a_taken_cell_and_one_off_the_board_as_the_check_reads_it() -> None:
    calls, _ = executor()
    one: list[list[str | None]] = [[None, None, None], [None, "X", None], [None, None, None]]
    (answer,) = run(calls, Call("try_moves", (one, [(1, 1), (-1, 0), (3, 3), (0, 0)]), stand_ins=(RESULT,)))
    value: Any = answer.value
    assert value[:3] == ["refused"] * 3
    assert value[3] == [["O", None, None], [None, "X", None], [None, None, None]]


def test_a_successor_that_plays_in_place_answers_true_or_false() -> None:
    calls, _ = executor()
    played = StandIn(
        "select_space",
        "successor",
        ("X", "O", ("1", "2", "3", "4", "5", "6", "7", "8", "9")),
        board_arg=0,
        move_arg=1,
        move_format="position",
        returns="played",
        invalid="false",
    )
    board = [str(n) for n in range(1, 10)]
    (answer,) = run(calls, Call("play_all", (board, [5, 5, 0, 10, 1]), stand_ins=(played,)))
    value: Any = answer.value
    answers, after = value
    assert answers == [True, False, False, False, True]
    assert after == ["O", "2", "3", "4", "X", "6", "7", "8", "9"]


GRID_WINNER = StandIn("grid_winner", "grid-winner", (1, 2, (0,)), board_arg=0, grid=(4, 5, 4))


@pytest.mark.parametrize(
    "board",
    [
        [[0] * 5, [0] * 5, [2, 2, 2, 0, 0], [1, 1, 1, 1, 0]],
        np.array([[0] * 5, [0] * 5, [2, 2, 2, 0, 0], [0, 1, 1, 1, 1]]),
        [0] * 10 + [2, 2, 2, 0, 0] + [1, 1, 1, 1, 0],
        [[0, 0, 0, 0, 1], [0, 0, 0, 1, 2], [0, 0, 1, 2, 2], [0, 1, 2, 2, 1]],
    ],
    ids=["rows", "numpy", "flat", "anti-diagonal"],
)
def test_the_grid_winner_stands_in_on_a_connect_four_board_of_any_shape(board: Any) -> None:
    calls, _ = executor()
    with_it, without = run(calls, Call("winner_of", (board,), stand_ins=(GRID_WINNER,)), Call("winner_of", (board,)))
    assert with_it.value == 1 and without.value is None
    (nobody,) = run(calls, Call("winner_of", ([[0] * 5] * 4,), stand_ins=(GRID_WINNER,)))
    assert nobody.ok and nobody.value is None


def test_the_grid_stand_ins_answer_a_win_a_column_s_room_and_its_open_row() -> None:
    marks = (1, 2, (0,))
    wins = StandIn("winning_move", "grid-wins", marks, board_arg=0, player_arg=1, grid=(4, 5, 4))
    room = StandIn("is_valid_location", "grid-has-room", marks, board_arg=0, move_arg=1, grid=(4, 5, 4))
    bottom_first = StandIn(
        "get_next_open_row", "grid-open-row", marks, board_arg=0, move_arg=1, grid=(4, 5, 4), top_row_first=False
    )
    top_first = StandIn("get_next_open_row", "grid-open-row", marks, board_arg=0, move_arg=1, grid=(4, 5, 4))
    rows_up = [[1, 1, 1, 1, 2], [2, 2, 2, 0, 1], [0, 0, 0, 0, 2], [0, 0, 0, 0, 1]]  # row 0 the bottom: column 4 full
    calls, _ = executor()
    stood = (wins, room, bottom_first)
    x_wins, o_wins, full, open_col = run(
        calls,
        Call("ask_grid", (rows_up, 1, 4), stand_ins=stood),
        Call("ask_grid", (rows_up, 2, 3), stand_ins=stood),
        Call("ask_grid", (rows_up, 1, 4)),
        Call("ask_grid", (rows_up[::-1], 1, 3), stand_ins=(wins, room, top_first)),
    )
    assert x_wins.value == (True, False, None)
    assert o_wins.value == (False, True, 1)
    assert full.value == (False, True, 0)  # the student's own answers once the call is over
    assert open_col.value == (True, True, 2)  # the same board, the top row first: row 2 from the top


def test_the_legal_moves_stand_in_answers_the_columns_with_room_left_to_right() -> None:
    legal = StandIn("legal_columns", "grid-legal-moves", (1, 2, (0,)), board_arg=0, grid=(4, 5, 4))
    # row 0 the top: columns 1 and 4 full
    rows = [[0, 2, 0, 0, 1], [0, 1, 0, 0, 2], [0, 2, 0, 1, 1], [1, 1, 2, 2, 2]]
    calls, _ = executor()
    stood, own = run(calls, Call("ask_columns", (rows,), stand_ins=(legal,)), Call("ask_columns", (rows,)))
    assert stood.ok and stood.value == [0, 2, 3]
    assert own.value == [0]


X_JUST_WON = [[0] * 5, [0] * 5, [2, 2, 2, 0, 0], [1, 1, 1, 1, 0]]
"""X (1) has four in the bottom row and O (2) is to move."""
FULL_NOBODY = [[1, 1, 2, 2, 1], [2, 2, 1, 1, 2], [1, 1, 2, 2, 1], [2, 2, 1, 1, 2]]


@pytest.mark.parametrize(
    "rows, over, scores",
    [(X_JUST_WON, True, (-1000, 1000)), (FULL_NOBODY, True, (0, 0)), ([[0] * 5] * 4, False, None)],
    ids=["won", "full", "open"],
)
def test_the_grid_board_functions_stand_in_on_the_course_s_board_object(
    rows: list[list[int]], over: bool, scores: tuple[int, int] | None
) -> None:
    """Whether the game is over, and a finished game's value for the maximizer (is_max: the
    side to move maximizes), read through the attribute of the course's board object."""
    common: dict[str, Any] = {"marks": (1, 2, (0,)), "board_arg": 0, "grid": (4, 5, 4), "board_attribute": "rows"}
    stand_ins = (
        StandIn("grid_over", "grid-terminal", **common),
        StandIn("grid_score", "grid-endgame-score", player_arg=1, **common),
    )
    calls, namespace = executor()
    original = namespace["grid_over"]
    with_them, without = run(calls, Call("state_of", (rows,), stand_ins=stand_ins), Call("state_of", (rows,)))
    assert with_them.ok, with_them.error
    answered: Any = with_them.value
    assert answered[0] is over and without.value == (False, 0, 0)
    if scores is not None:
        assert tuple(answered[1:]) == scores
    assert namespace["grid_over"] is original


GRID_ROLES = {
    "wins": StandIn("winning_move", "grid-wins", (1, 2, (0,)), board_arg=0, player_arg=1, grid=(4, 5, 4)),
    "room": StandIn("is_valid_location", "grid-has-room", (1, 2, (0,)), board_arg=0, move_arg=1, grid=(4, 5, 4)),
    "row": StandIn("get_next_open_row", "grid-open-row", (1, 2, (0,)), board_arg=0, move_arg=1, grid=(4, 5, 4)),
}
BOTH_HAVE_LINES = [[0] * 5, [0] * 5, [2, 2, 2, 2, 0], [1, 1, 1, 1, 0]]
"""The top row first: X (1) has four in the bottom row and O (2) four in the row above."""


def test_the_grid_wins_stand_in_answers_for_each_side_that_has_a_line() -> None:
    calls, _ = executor()
    stood = tuple(GRID_ROLES.values())
    x_asks, o_asks = run(
        calls,
        Call("ask_grid", (BOTH_HAVE_LINES, 1, 4), stand_ins=stood),
        Call("ask_grid", (BOTH_HAVE_LINES, 2, 4), stand_ins=stood),
    )
    assert x_asks.value == (True, True, 3) and o_asks.value == (True, True, 3)


def test_the_grid_stand_ins_bind_keyword_arguments_by_the_function_s_signature() -> None:
    calls, _ = executor()
    stood = tuple(GRID_ROLES.values())
    rows_top_first = [[0, 0, 0, 0, 2], [0, 0, 0, 0, 1], [0, 0, 0, 0, 2], [2, 2, 2, 0, 1]]
    by_keyword, by_position = run(
        calls,
        Call("ask_by_keyword", (rows_top_first, 2, 3), stand_ins=stood),
        Call("ask_grid", (rows_top_first, 2, 3), stand_ins=stood),
    )
    assert by_keyword.ok, by_keyword.error
    assert by_keyword.value == by_position.value == (False, True, 3)
    (full,) = run(calls, Call("ask_by_keyword", (rows_top_first, 1, 4), stand_ins=stood))
    assert full.value == (False, False, None)


@pytest.mark.parametrize(
    "col, error, words",
    [
        (5, "ValueError", "column 5 is outside the board: its columns are 0 to 4"),
        (-1, "ValueError", "column -1"),
        ("2", "TypeError", "a whole number, not '2'"),
        (True, "TypeError", "a whole number, not True"),
    ],
)
def test_a_column_outside_the_board_is_refused_not_wrapped(col: Any, error: str, words: str) -> None:
    calls, _ = executor()
    (asked,) = run(calls, Call("ask_grid", ([[0] * 5] * 4, 1, col), stand_ins=(GRID_ROLES["room"],)))
    assert not asked.ok and asked.error is not None
    assert error in asked.error and words in asked.error


def test_a_function_without_a_parameter_for_the_column_is_not_stood_in_for() -> None:
    calls, _ = executor()
    no_column = StandIn("check_winner", "grid-has-room", (1, 2, (0,)), board_arg=0, move_arg=1, grid=(4, 5, 4))
    (outcome,) = run(calls, Call("winner_is_o", (FLAT_O_WINS,), stand_ins=(no_column,)))
    assert outcome.status is CallStatus.MISSING and "takes other parameters" in (outcome.error or "")


NEXT_SOURCE = """
class Board:
    def __init__(self, cells):
        self.cells = tuple(tuple(row) for row in cells)

def next_boards(board):
    boards = []
    for col in reversed(range(5)):  # wrong: the last column first
        rows = [list(row) for row in board.cells]
        empty = [r for r in range(4) if rows[r][col] == 0]
        if empty:
            pieces = sum(cell != 0 for row in rows for cell in row)
            rows[empty[-1]][col] = 1 if pieces % 2 == 0 else 2
            boards.append(Board(rows))
    return boards

def columns_played(board):
    return [after.cells for after in next_boards(board)], [type(after).__name__ for after in next_boards(board)]
"""


def test_the_boards_one_move_away_stand_in_made_through_the_course_s_board_class() -> None:
    """Column 0 first, the side to move's piece, each board made as the course makes its objects;
    none once the game is over."""
    namespace: dict[str, Any] = {"__name__": "__main__"}
    exec(compile(NEXT_SOURCE, "<notebook>", "exec"), namespace)
    calls = CallExecutor(namespace, output_chars=1000)
    made = KernelMade("Board", (KernelName(BOARD_SLOT),))
    common: dict[str, Any] = {"marks": (1, 2, (0,)), "board_arg": 0, "grid": (4, 5, 4), "board_attribute": "cells"}
    stand_in = StandIn("next_boards", "grid-next-boards", board_object=made, **common)
    full_column = [[0, 0, 0, 0, 1], [0, 0, 0, 0, 2], [0, 0, 0, 0, 1], [0, 0, 0, 1, 2]]  # 2 to move
    board = KernelMade("Board", (full_column,))
    with_it, without = run(
        calls, Call("columns_played", (board,), stand_ins=(stand_in,)), Call("columns_played", (board,))
    )
    assert with_it.ok, with_it.error
    answered: Any = with_it.value
    boards, kind = answered
    assert set(kind) == {"Board"}
    expected = []
    for col in range(4):  # column 4 is full; 2 to move
        rows = [list(row) for row in full_column]
        rows[max(r for r in range(4) if rows[r][col] == 0)][col] = 2
        expected.append([tuple(row) for row in rows])
    assert [list(after) for after in boards] == expected
    own: Any = without.value
    assert [list(after) for after in own[0]] == expected[::-1]  # the student's own: the last column first
    won = KernelMade("Board", (X_JUST_WON,))
    (over,) = run(calls, Call("columns_played", (won,), stand_ins=(stand_in,)))
    assert over.ok and over.value == ([], [])
