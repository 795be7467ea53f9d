"""A course's board object made by the kernel and given the position in its attributes: a call
that leaves it changed is seen, and the reference's move and take-back stand in for the
student's methods (`grader.execution.channel.kernel.held_moves`)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any, get_args

from grader.checks.kinds.game_board import MoveAnswer
from grader.execution.channel.call_data import KernelMade, StandIn
from grader.execution.channel.calls import Call, CallOutcome, outcome_from
from grader.execution.channel.kernel.executor import CallExecutor
from grader.execution.channel.kernel.held_moves import HELD_MOVE_ANSWERS
from grader.execution.channel.protocol import OutcomeData

SOURCE = """
class Game:
    def __init__(self):
        self.board = [["."] * 4 for _ in range(4)]  # the top row first
        self.turn = "X"

    def make_move(self, col):
        return None  # wrong: plays nothing

    def undo_move(self, col):
        for row in range(4):
            if self.board[row][col] != ".":
                self.board[row][col] = "."  # wrong: the turn is not given back
                return

def peek(game):
    return game.turn

def leave_moved(game):
    game.board[3][0] = game.turn

def flip_turn(game):
    game.turn = "O" if game.turn == "X" else "X"

def play_on(game, cells):
    cells.append(game.turn)

def drop_piece(board, row, col, piece):
    board[col][row] = piece  # wrong: row and column swapped

def drop(board, col, piece):
    return None  # wrong: plays nothing

def play_two(board, col):
    drop_piece(board, 0, col, 1)
    drop(board, col, 2)
    return board

def dropped(board, col, piece):
    return board  # wrong: plays nothing

def play_new(board, col):
    once = dropped(board, col, "X")
    return board, once, dropped(once, col, "O")

def answered(game, col, times):
    # what each of `times` moves into `col` returned, then each of as many take-backs (a
    # refused one: its exception's kind), and the board and side to move at the end
    def each(method):
        try:
            return method(col)
        except ValueError as error:
            return type(error).__name__
    made = [each(game.make_move) for _ in range(times)]
    undone = [each(game.undo_move) for _ in range(times)]
    return made, undone, [row[:] for row in game.board], game.turn

def make_and_undo(game, col):
    game.make_move(col)
    after = [row[:] for row in game.board], game.turn
    game.undo_move(col)
    return after, ([row[:] for row in game.board], game.turn)
"""

EMPTY = [["."] * 4 for _ in range(4)]
COMMON: dict[str, Any] = {"board_arg": 0, "move_arg": 1, "grid": (4, 4, 4), "board_attribute": "board"}
MOVES = (
    StandIn("Game.make_move", "grid-drop", ("X", "O", (".",)), turn_attribute="turn", **COMMON),
    StandIn("Game.undo_move", "grid-undo", ("X", "O", (".",)), turn_attribute="turn", **COMMON),
)


def _game(board: list[list[str]], turn: str) -> KernelMade:
    return KernelMade("Game", attributes=(("board", board), ("turn", turn)))


def _run(*calls: Call) -> list[CallOutcome]:
    namespace: dict[str, Any] = {"__name__": "__main__"}
    exec(compile(SOURCE, "<notebook>", "exec"), namespace)
    reported: list[OutcomeData] = []
    executor = CallExecutor(namespace, output_chars=1000)
    executor.run_batch([call.to_request() for call in calls], lambda _, outcome: reported.append(outcome))
    return [outcome_from(outcome) for outcome in reported]


def test_the_object_is_given_the_position_and_a_call_that_leaves_it_changed_is_seen() -> None:
    peeked, moved, flipped = _run(
        Call("peek", (_game(EMPTY, "O"),)),
        Call("leave_moved", (_game(EMPTY, "X"),)),
        Call("flip_turn", (_game(EMPTY, "X"),)),
    )
    assert peeked.ok and peeked.value == "O" and not peeked.mutated
    assert moved.ok and moved.mutated  # the board written to it, changed in place
    assert flipped.ok and flipped.mutated  # the side to move, written again


def test_the_reference_makes_and_takes_back_the_move_on_the_object_for_the_call_only() -> None:
    stood_in, alone = _run(
        Call("make_and_undo", (_game(EMPTY, "X"), 2), stand_ins=MOVES), Call("make_and_undo", (_game(EMPTY, "X"), 2))
    )
    assert stood_in.ok, stood_in.error
    answer: Any = stood_in.value
    after, back = answer
    assert after[0][3] == [".", ".", "X", "."] and after[1] == "O"
    assert back == (EMPTY, "X") and not stood_in.mutated
    unplayed: Any = alone.value
    assert alone.ok and unplayed[0] == (EMPTY, "X")  # the student's own make_move, which plays nothing


def test_an_argument_changed_beside_a_made_object_is_named_by_its_own_position() -> None:
    (played,) = _run(Call("play_on", (_game(EMPTY, "O"), ["X"])))
    assert played.ok and played.mutated
    assert dict(played.changed_args) == {1: ["X", "O"]}


def _answered(answers: str, times: int) -> Any:
    moves = tuple(replace(stand_in, answers=answers) for stand_in in MOVES)
    (outcome,) = _run(Call("answered", (_game(EMPTY, "X"), 1, times), stand_ins=moves))
    assert outcome.ok, outcome.error
    return outcome.value


def test_the_stand_ins_return_what_the_courses_methods_return() -> None:
    """A search that reads what make_move returns (``if not game.make_move(col): continue``)
    works with the reference's move as with the course's: the row the piece lands in (the top
    row is row 0 here) or is taken from, None, True (False for a full or empty column, the board
    untouched), the column, or the object itself."""
    made, undone, board, turn = _answered("row", 2)
    assert (made, undone) == ([3, 2], [2, 3])
    assert (board, turn) == (EMPTY, "X")
    assert _answered("none", 2)[:2] == ([None, None], [None, None])
    assert _answered("column", 2)[:2] == ([1, 1], [1, 1])
    made, undone, board, turn = _answered("object", 1)
    assert [type(m).__name__ for m in made + undone] == ["RemoteObject", "RemoteObject"]
    assert made[0].type_name == "Game" and (board, turn) == (EMPTY, "X")
    made, undone, board, turn = _answered("true", 5)  # four rows: the fifth move and take-back are refused
    assert (made, undone) == ([True] * 4 + [False], [True] * 4 + [False])
    assert (board, turn) == (EMPTY, "X")


def test_the_kernel_answers_every_kind_an_assignment_can_name() -> None:
    assert HELD_MOVE_ANSWERS == get_args(MoveAnswer)


def test_without_an_answer_read_a_move_returns_its_row_and_refuses_as_before() -> None:
    """An assignment written before init read what the methods return: a move answers the row it
    lands in, a take-back None, and a full or empty column raises."""
    made, undone, board, turn = _answered("", 5)
    assert (made, undone) == ([3, 2, 1, 0, "ValueError"], [None] * 4 + ["ValueError"])
    assert (board, turn) == (EMPTY, "X")


def test_a_drop_into_the_board_given_writes_the_told_row_or_falls() -> None:
    """A course's ``drop_piece(board, row, col, piece)`` writes the piece into the row it is told
    (row 0 the bottom one here, as the numpy courses keep it); ``drop(board, col, piece)``
    drops it onto the pieces already in the column. Both change the board given."""
    common: dict[str, Any] = {"board_arg": 0, "move_arg": 2, "player_arg": 3, "grid": (4, 4, 4)}
    told = StandIn("drop_piece", "grid-drop", (1, 2, (0,)), row_arg=1, top_row_first=False, **common)
    falls = StandIn("drop", "grid-drop", (1, 2, (0,)), top_row_first=False, **common | {"move_arg": 1, "player_arg": 2})
    board = [[0] * 4 for _ in range(4)]
    stood_in, alone = _run(Call("play_two", (board, 3), stand_ins=(told, falls)), Call("play_two", (board, 3)))
    assert stood_in.ok, stood_in.error
    assert stood_in.value == [[0, 0, 0, 1], [0, 0, 0, 2], [0, 0, 0, 0], [0, 0, 0, 0]]
    assert alone.ok and alone.value == [[0] * 4, [0] * 4, [0] * 4, [1, 0, 0, 0]]  # the student's own


def test_a_drop_that_returns_a_new_board_leaves_the_one_given_alone() -> None:
    """``dropped(board, col, piece)`` returning the board after the move (the top row first
    here): the reference's drop returns a new board of the same kind, rows of tuples too."""
    common: dict[str, Any] = {"board_arg": 0, "move_arg": 1, "player_arg": 2, "grid": (4, 4, 4)}
    new = StandIn("dropped", "grid-drop", ("X", "O", (".",)), returns="new-board", **common)
    rows = tuple((".",) * 4 for _ in range(4))
    (stood_in,) = _run(Call("play_new", (rows, 2), stand_ins=(new,)))
    assert stood_in.ok, stood_in.error
    answer: Any = stood_in.value
    given, once, twice = answer
    assert given == rows and not stood_in.mutated
    assert once == ((".",) * 4,) * 3 + ((".", ".", "X", "."),)
    assert twice == ((".",) * 4,) * 2 + ((".", ".", "O", "."), (".", ".", "X", "."))
