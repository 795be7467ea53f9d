"""The kernel's board reader reads a node's board in every encoding of the open family: from
an argument, from an argument's attribute (``self.board``) or from a global."""

from __future__ import annotations

import sys
from types import FrameType, SimpleNamespace
from typing import Any

from hypothesis import example, given

from grader.execution.channel.kernel.board_reading import board_reader, board_text
from reference.codecs import BoardEncoding
from reference.strategies import arbitrary_boards, board_encodings
from reference.tictactoe import Board


def _node(state: Any, depth: int) -> FrameType:
    """A frame of a search entered with ``state`` as its first argument."""
    return sys._getframe()


@given(encoding=board_encodings(), board=arbitrary_boards())
def test_a_board_argument_is_read_in_every_encoding(encoding: BoardEncoding, board: Board) -> None:
    read = board_reader(None, encoding.marks)
    assert read(_node(encoding.encode(board), 3)) == str(board)


@given(encoding=board_encodings(), board=arbitrary_boards())
def test_a_board_in_an_attribute_of_an_argument_is_read(encoding: BoardEncoding, board: Board) -> None:
    game = SimpleNamespace(board=encoding.encode(board))
    assert board_reader(None, encoding.marks, "board")(_node(game, 3)) == str(board)
    assert board_reader(None, encoding.marks)(_node(game, 3)) is None  # without the attribute: no board


@given(encoding=board_encodings(), board=arbitrary_boards())
def test_a_board_in_a_global_is_read(encoding: BoardEncoding, board: Board) -> None:
    namespace: dict[str, Any] = {"grid": encoding.encode(board)}
    exec("def node():\n    import sys\n    return sys._getframe()\n", namespace)
    assert board_reader("grid", encoding.marks)(namespace["node"]()) == str(board)


def test_values_that_are_not_boards_are_not_read() -> None:
    read = board_reader(None, BoardEncoding("flat", "list", None, "X", "O").marks, "board")
    for value in ([1, 2, 3], "X", {"a": 1}, [None] * 8, [[None] * 3] * 2, SimpleNamespace(board=7), None):
        assert read(_node(value, 0)) is None


@given(encoding=board_encodings(), board=arbitrary_boards(), other=arbitrary_boards())
@example(  # an empty board of ints, and a board whose marks are text
    encoding=BoardEncoding("flat", "numpy", 0, "X", "O"),
    board=Board.from_string("........."),
    other=Board.from_string("........X"),
)
def test_a_board_read_before_is_read_anew_once_its_cells_change(
    encoding: BoardEncoding, board: Board, other: Board
) -> None:
    """The reader remembers boards by their cells: the same list changed in place, or another
    board of the same shape, reads as what it holds now."""
    text = board_text(encoding.marks)
    encoded: Any = encoding.encode(board)
    assert text(encoded) == str(board)
    replacement = encoding.encode(other)
    assert text(replacement) == str(other)
    changed = False
    if isinstance(encoded, list) and isinstance(replacement, list):
        encoded[:] = replacement
        changed = True
    elif (
        hasattr(encoded, "shape")
        and getattr(replacement, "shape", None) == encoded.shape
        and getattr(replacement, "dtype", None)
        == encoded.dtype  # the empty board's ints cannot take marks written as text
    ):
        encoded[...] = replacement  # a numpy array, changed in place
        changed = True
    assert text(encoded) == str(other if changed else board)


def test_rows_that_cannot_be_remembered_are_still_read() -> None:
    text = board_text(["X", "O", [" "]])
    assert text([["X", "O", " "], ["X", " ", " "], [" ", " ", "O"]]) == "XO.X....O"
    assert text(["X", "O", " ", "X", [" "], " ", " ", " ", "O"]) is None  # a list as a cell: no mark
    assert text((("X", "O", " "), ("X", " ", " "), (" ", " ", "O"))) == "XO.X....O"
    assert text(["XO ", "X  ", "  O"]) is None  # rows as text are no board
