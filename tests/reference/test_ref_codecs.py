"""Student encodings: exact shapes per seed, round trips, and strict, specific rejection."""

from __future__ import annotations

import re
from collections.abc import Callable

import numpy as np
import pytest
from hypothesis import given

from reference.codecs import (
    CODECS,
    cell_to_position,
    cell_to_rowcol,
    get_codec,
    position_to_cell,
    rowcol_to_cell,
)
from reference.solved import reachable_positions
from reference.strategies import arbitrary_boards
from reference.tictactoe import Board, IllegalMove, MalformedBoard, O, X

SAMPLE = Board.from_string("X.O/.X./..O")


def test_registry_has_every_seed_encoding() -> None:
    assert set(CODECS) == {"numpy-012", "grid-space", "grid-digits", "flat-space"}
    assert all(codec.name == name and codec.description for name, codec in CODECS.items())


def test_get_codec_lists_known_names() -> None:
    assert get_codec("grid-space") is CODECS["grid-space"]
    with pytest.raises(KeyError, match="unknown board codec 'grid'; known codecs: flat-space, grid-digits"):
        get_codec("grid")


def test_encodings_look_exactly_like_the_seeds() -> None:
    encoded = CODECS["numpy-012"].encode(SAMPLE)
    assert isinstance(encoded, np.ndarray) and encoded.shape == (3, 3)
    assert np.issubdtype(encoded.dtype, np.integer)
    assert encoded.tolist() == [[1, 0, 2], [0, 1, 0], [0, 0, 2]]
    assert CODECS["grid-space"].encode(SAMPLE) == [
        ["X", " ", "O"],
        [" ", "X", " "],
        [" ", " ", "O"],
    ]
    assert CODECS["grid-digits"].encode(Board.empty()) == [
        ["1", "2", "3"],
        ["4", "5", "6"],
        ["7", "8", "9"],
    ]
    assert CODECS["grid-digits"].encode(SAMPLE) == [
        ["X", "2", "O"],
        ["4", "X", "6"],
        ["7", "8", "O"],
    ]
    assert CODECS["flat-space"].encode(SAMPLE) == ["X", " ", "O", " ", "X", " ", " ", " ", "O"]


def test_encode_returns_a_fresh_object_each_time() -> None:
    # Students mutate boards in place; a shared object would leak one call into the next.
    for codec in CODECS.values():
        first, second = codec.encode(SAMPLE), codec.encode(SAMPLE)
        assert first is not second


@pytest.mark.parametrize("name", sorted(CODECS))
@pytest.mark.parametrize("first", [X, O])
def test_round_trip_on_every_reachable_position(name: str, first: str) -> None:
    codec = CODECS[name]
    for board in reachable_positions(first):
        assert codec.decode(codec.encode(board), legal=True, first=first) == board


def test_numpy_codec_accepts_nested_lists_and_integral_floats() -> None:
    codec = CODECS["numpy-012"]
    assert codec.decode([[1, 0, 2], [0, 1, 0], [0, 0, 2]]) == SAMPLE
    assert codec.decode(np.array([[1.0, 0, 2], [0, 1, 0], [0, 0, 2]])) == SAMPLE
    assert codec.decode(np.array([[1, 0, 2], [0, 1, 0], [0, 0, 2]], dtype=np.int8)) == SAMPLE


def test_grid_codecs_accept_tuples() -> None:
    assert CODECS["grid-space"].decode((("X", " ", "O"), (" ", "X", " "), (" ", " ", "O"))) == SAMPLE


@pytest.mark.parametrize(
    ("name", "obj", "message"),
    [
        ("numpy-012", np.zeros(9, dtype=int), "the board must be a 3x3 array, got shape (9,)"),
        ("numpy-012", [[0, 0, 0], [0, 0, 0]], "the board must have 3 rows, got 2"),
        ("numpy-012", [[0, 0, 0], [0, 0], [0, 0, 0]], "row 1 must have 3 cells, got 2"),
        (
            "numpy-012",
            [[0, 0, 0], [0, 0, 0], [0, 0, 3]],
            "unknown symbol 3 at row 2, col 2; expected the integer 0, 1 or 2",
        ),
        ("numpy-012", [[0, True, 0], [0, 0, 0], [0, 0, 0]], "unknown symbol True at row 0, col 1"),
        ("numpy-012", [[0.5, 0, 0], [0, 0, 0], [0, 0, 0]], "unknown symbol 0.5 at row 0, col 0"),
        ("numpy-012", [["X", 0, 0], [0, 0, 0], [0, 0, 0]], "unknown symbol 'X' at row 0, col 0"),
        ("grid-space", "X  O     ", "the board must be a list, got str"),
        (
            "grid-space",
            [["X", " ", "O"], [" ", "x", " "], [" ", " ", "O"]],
            "unknown symbol 'x' at row 1, col 1; expected 'X', 'O' or ' '",
        ),
        (
            "grid-space",
            [["X", "", "O"], [" ", "X", " "], [" ", " ", "O"]],
            "unknown symbol '' at row 0, col 1",
        ),
        ("grid-space", [["X", " ", "O"], "   ", [" ", " ", "O"]], "row 1 must be a list, got str"),
        ("grid-space", None, "the board must be a list, got NoneType"),
        (
            "grid-digits",
            [["X", "5", "O"], ["4", "X", "6"], ["7", "8", "O"]],
            "empty cell at row 0, col 1 holds '5'; an empty cell holds its own position '2'",
        ),
        (
            "grid-digits",
            [["X", " ", "O"], ["4", "X", "6"], ["7", "8", "O"]],
            "unknown symbol ' ' at row 0, col 1; expected 'X', 'O' or the position digit '2'",
        ),
        (
            "grid-digits",
            [["X", 2, "O"], ["4", "X", "6"], ["7", "8", "O"]],
            "unknown symbol 2 at row 0, col 1",
        ),
        ("flat-space", ["X", " ", "O"], "the board must be a flat list of 9 cells, got 3"),
        (
            "flat-space",
            ["X", " ", "O", " ", "X", " ", " ", " ", 0],
            "unknown symbol 0 at row 2, col 2",
        ),
        (
            "flat-space",
            [["X", " ", "O"], [" ", "X", " "], [" ", " ", "O"]],
            "the board must be a flat list of 9 cells, got 3",
        ),
    ],
)
def test_malformed_boards_are_rejected_with_a_specific_message(name: str, obj: object, message: str) -> None:
    with pytest.raises(MalformedBoard, match=re.escape(message)):
        CODECS[name].decode(obj)


@pytest.mark.parametrize("name", sorted(CODECS))
@given(board=arbitrary_boards())
def test_legal_decoding_rejects_exactly_the_impossible_positions(name: str, board: Board) -> None:
    codec = CODECS[name]
    encoded = codec.encode(board)
    assert codec.decode(encoded) == board  # without legal=True any grid decodes
    problem = board.legality_problem(X)
    if problem is None:
        assert codec.decode(encoded, legal=True) == board
    else:
        with pytest.raises(MalformedBoard, match=re.escape(f"impossible position {board}: {problem}")):
            codec.decode(encoded, legal=True)


def test_legal_decoding_respects_the_first_player() -> None:
    o_first = ["O", " ", " ", " ", " ", " ", " ", " ", " "]
    assert CODECS["flat-space"].decode(o_first, legal=True, first=O) == Board.from_string("O........")
    with pytest.raises(MalformedBoard, match="X has 0 marks and O has 1 mark"):
        CODECS["flat-space"].decode(o_first, legal=True)


# -- move encodings -------------------------------------------------------------------------


def test_move_encodings_agree_with_each_other() -> None:
    for cell in range(9):
        row, col = cell_to_rowcol(cell)
        assert rowcol_to_cell(row, col) == cell
        assert position_to_cell(cell_to_position(cell)) == cell
        # seed 003: pos = qx*3 + qy + 1 and (qx, qy) = ((pos-1)//3, (pos-1)%3)
        assert cell_to_position(cell) == row * 3 + col + 1
    assert cell_to_rowcol(5) == (1, 2) and cell_to_position(0) == 1 and position_to_cell(9) == 8
    assert cell_to_rowcol(np.int64(4)) == (1, 1)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: cell_to_rowcol(9), "a cell index must be an integer 0..8, got 9"),
        (lambda: cell_to_position(-1), "a cell index must be an integer 0..8, got -1"),
        (lambda: position_to_cell(0), "a position must be an integer 1..9, got 0"),
        (lambda: position_to_cell("5"), "a position must be an integer 1..9, got '5'"),  # type: ignore[arg-type]  # a str on purpose
        (lambda: rowcol_to_cell(1, 3), "a column must be an integer 0..2, got 3"),
        (lambda: rowcol_to_cell(True, 0), "a row must be an integer 0..2, got True"),
    ],
)
def test_move_encodings_reject_out_of_range(call: Callable[[], object], message: str) -> None:
    with pytest.raises(IllegalMove, match=re.escape(message)):
        call()
