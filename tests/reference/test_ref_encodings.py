"""The open family of board encodings: every described encoding round-trips, rejects a wrong
shape or a wrong symbol with a message naming the cell, and the presets are descriptions."""

from __future__ import annotations

import re

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from reference.codecs import CODECS, BoardEncoding, CellName
from reference.strategies import arbitrary_boards, board_encodings
from reference.tictactoe import EMPTY, Board, MalformedBoard, O, X

SAMPLE = Board.from_string("X.O/.X./..O")


@given(encoding=board_encodings(), board=arbitrary_boards())
def test_decoding_what_was_encoded_gives_the_board_back(encoding: BoardEncoding, board: Board) -> None:
    assert encoding.decode(encoding.encode(board)) == board


@given(encoding=board_encodings())
def test_encode_makes_a_fresh_object_each_time(encoding: BoardEncoding) -> None:
    first, second = encoding.encode(SAMPLE), encoding.encode(SAMPLE)
    assert first is not second or isinstance(first, (str, tuple))  # immutable ones may be shared


@given(encoding=board_encodings(), board=arbitrary_boards(), cell=st.integers(0, 8))
def test_a_foreign_symbol_is_rejected_naming_its_cell(encoding: BoardEncoding, board: Board, cell: int) -> None:
    cells = [encoding.cell_value(c, s) for c, s in enumerate(board.cells)]
    cells[cell] = "?" if encoding.container == "string" else 3.5
    with pytest.raises(
        MalformedBoard, match=re.escape(f"unknown symbol {cells[cell]!r} at row {cell // 3}, col {cell % 3}")
    ):
        encoding.decode(encoding.pack(cells))


@given(encoding=board_encodings(), board=arbitrary_boards())
def test_a_board_of_eight_cells_is_rejected(encoding: BoardEncoding, board: Board) -> None:
    cells = [encoding.cell_value(c, s) for c, s in enumerate(board.cells)]
    short: object
    if encoding.container == "dict":
        short = {c + 1: v for c, v in enumerate(cells[:8])}
    elif encoding.layout == "rows":
        short = encoding.pack(cells)
        short = [list(row) for row in short][:2] + [list(short[2][:2])]  # type: ignore[index,attr-defined]
    else:
        short = encoding.pack(cells)[:8]  # type: ignore[index]
    with pytest.raises(MalformedBoard, match=r"9 cells|3 cells|keys 1 to 9|9 characters"):
        encoding.decode(short)


@given(encoding=board_encodings(), board=arbitrary_boards())
def test_the_reading_table_reads_every_encoded_cell(encoding: BoardEncoding, board: Board) -> None:
    x, o, empties = encoding.marks
    for cell, symbol in enumerate(board.cells):
        value = encoding.cell_value(cell, symbol)
        assert (value == x) if symbol == X else (value == o) if symbol == O else (value in empties)


def test_the_presets_are_descriptions() -> None:
    assert CODECS["numpy-012"] == BoardEncoding("rows", "numpy", 0, 1, 2)
    assert CODECS["grid-space"] == BoardEncoding("rows", "list", " ", "X", "O")
    assert CODECS["grid-digits"] == BoardEncoding("rows", "list", CellName.DIGIT, "X", "O")
    assert CODECS["flat-space"] == BoardEncoding("flat", "list", " ", "X", "O")


@pytest.mark.parametrize(
    ("encoding", "looks_like"),
    [
        (BoardEncoding("flat", "list", "_", "X", "O"), ["X", "_", "O", "_", "X", "_", "_", "_", "O"]),
        (BoardEncoding("rows", "list", None, "X", "O"), [["X", None, "O"], [None, "X", None], [None, None, "O"]]),
        (BoardEncoding("rows", "list", "-", "x", "o"), [["x", "-", "o"], ["-", "x", "-"], ["-", "-", "o"]]),
        (BoardEncoding("flat", "string", ".", "X", "O"), "X.O.X...O"),
        (BoardEncoding("flat", "tuple", 0, 1, 2), (1, 0, 2, 0, 1, 0, 0, 0, 2)),
        (BoardEncoding("flat", "list", CellName.DIGIT, "X", "O"), ["X", "2", "O", "4", "X", "6", "7", "8", "O"]),
        (BoardEncoding("flat", "list", CellName.NUMBER, "X", "O"), ["X", 2, "O", 4, "X", 6, 7, 8, "O"]),
        (BoardEncoding("flat", "list", CellName.INDEX, "X", "O"), ["X", 1, "O", 3, "X", 5, 6, 7, "O"]),
        (BoardEncoding("flat", "dict", " ", "X", "O"), dict(enumerate("X O X   O", start=1))),
        (BoardEncoding("rows", "tuple", "", "X", "O"), (("X", "", "O"), ("", "X", ""), ("", "", "O"))),
    ],
)
def test_described_encodings_look_as_courses_write_them(encoding: BoardEncoding, looks_like: object) -> None:
    assert encoding.encode(SAMPLE) == looks_like
    assert encoding.decode(looks_like) == SAMPLE


def test_numpy_boards_take_the_element_type_of_their_symbols() -> None:
    plus_minus = BoardEncoding("rows", "numpy", 0, 1, -1).encode(SAMPLE)
    assert isinstance(plus_minus, np.ndarray) and np.issubdtype(plus_minus.dtype, np.integer)
    assert plus_minus.tolist() == [[1, 0, -1], [0, 1, 0], [0, 0, -1]]
    text = BoardEncoding("flat", "numpy", " ", "X", "O").encode(SAMPLE)
    assert isinstance(text, np.ndarray) and text.shape == (9,) and text.dtype.kind == "U"
    mixed = BoardEncoding("rows", "numpy", None, "X", "O").encode(SAMPLE)
    assert isinstance(mixed, np.ndarray) and mixed.dtype == object and mixed[0, 1] is None


def test_the_players_are_written_with_the_encodings_marks() -> None:
    encoding = BoardEncoding("flat", "tuple", 0, 1, -1)
    assert (encoding.symbol(X), encoding.symbol(O)) == (1, -1)
    assert encoding.cell_value(4, EMPTY) == 0
    assert BoardEncoding("flat", "list", CellName.DIGIT, "X", "O").cell_value(4, EMPTY) == "5"
    with pytest.raises(ValueError, match="'.' is not a player"):
        encoding.symbol(EMPTY)


@pytest.mark.parametrize(
    ("encoding", "obj", "message"),
    [
        (BoardEncoding("flat", "string", ".", "X", "O"), ["X"] * 9, "the board must be a string, got list"),
        (BoardEncoding("flat", "string", ".", "X", "O"), "X.O", "the board must be a string of 9 cells, got 3"),
        (BoardEncoding("flat", "string", ".", "X", "O"), "X.O.x...O", "unknown symbol 'x' at row 1, col 1"),
        (BoardEncoding("flat", "dict", " ", "X", "O"), [" "] * 9, "the board must be a dict keyed 1 to 9, got list"),
        (
            BoardEncoding("flat", "dict", " ", "X", "O"),
            {c: " " for c in range(9)},
            "the board must have the keys 1 to 9, got [0, 1, 2",
        ),
        (BoardEncoding("flat", "numpy", 0, 1, 2), np.zeros((3, 3)), "must be an array of 9 cells, got shape (3, 3)"),
        (BoardEncoding("flat", "tuple", 0, 1, 2), (0,) * 8 + (True,), "unknown symbol True at row 2, col 2"),
        (
            BoardEncoding("flat", "tuple", 0, 1, -1),
            (0,) * 8 + (2,),
            "unknown symbol 2 at row 2, col 2; expected the integer -1, 0 or 1",
        ),
        (BoardEncoding("flat", "list", 0, "X", "O"), ["X"] * 8 + ["0"], "unknown symbol '0' at row 2, col 2"),
        (BoardEncoding("flat", "list", None, "X", "O"), ["X"] * 8 + [" "], "expected 'X', 'O' or None"),
        (
            BoardEncoding("flat", "list", CellName.NUMBER, "X", "O"),
            ["X"] * 8 + [3],
            "empty cell at row 2, col 2 holds 3; an empty cell holds its own position 9",
        ),
        (
            BoardEncoding("flat", "list", CellName.INDEX, "X", "O"),
            ["X"] * 8 + ["8"],
            "unknown symbol '8' at row 2, col 2; expected 'X', 'O' or the cell index 8",
        ),
    ],
)
def test_described_encodings_reject_with_a_specific_message(encoding: BoardEncoding, obj: object, message: str) -> None:
    with pytest.raises(MalformedBoard, match=re.escape(message)):
        encoding.decode(obj)


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        (("flat", "list", "X", "X", "O"), "an empty cell can hold 'X', which is also a player's mark"),
        (("flat", "list", " ", "X", "X"), "x and o must differ, both are 'X'"),
        (("flat", "list", CellName.DIGIT, "1", "O"), "an empty cell can hold '1'"),
        (("flat", "list", CellName.INDEX, 1, 2), "an empty cell can hold 1"),
        (("rows", "string", ".", "X", "O"), "a string board is flat"),
        (("rows", "dict", ".", "X", "O"), "a dict board is flat"),
        (("flat", "string", "", "X", "O"), "one-character strings"),
        (("flat", "string", None, "X", "O"), "one-character strings"),
        (("flat", "list", " ", True, "O"), "x must be a string or an integer, not True"),
        (("flat", "list", 0.5, "X", "O"), "empty must be a string, an integer, None"),
        (("grid", "list", " ", "X", "O"), "layout must be one of flat, rows, not 'grid'"),
        (("flat", "set", " ", "X", "O"), "container must be one of list, tuple, string, numpy, dict, not 'set'"),
    ],
)
def test_a_description_that_cannot_work_is_refused(fields: tuple, message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        BoardEncoding(*fields)


def test_a_true_value_is_not_the_integer_one_nor_the_digit_one() -> None:
    ints = BoardEncoding("flat", "list", 0, 1, 2)
    with pytest.raises(MalformedBoard, match="unknown symbol True"):
        ints.decode([True] + [0] * 8)
    with pytest.raises(MalformedBoard, match="unknown symbol '1'"):
        ints.decode(["1"] + [0] * 8)
    assert ints.decode([1.0] + [0.0] * 8) == Board.from_string("X........")
