"""Boards of any size in the student's encodings: a list of rows, a numpy array of 0/1/2 (top
or bottom row first) and a flat list; decoding is strict and names the cell at fault; and the
finished games every check of the game starts with."""

from __future__ import annotations

import re

import numpy as np
import pytest

from reference.connect4 import CONNECT_FOUR, ConnectK, ConnectState
from reference.connect_endings import DIRECTIONS, finished_games, play
from reference.errors import MalformedBoard
from reference.grid_codec import GRID_PRESETS, GridEncoding

STATE = ConnectState.from_rows("....", "....", ".O..", "XXO.")


def preset(name: str) -> GridEncoding:
    return GRID_PRESETS[name].sized(4, 4)


def test_a_list_of_rows_a_numpy_array_and_a_flat_list_each_write_the_same_position() -> None:
    assert preset("grid-space").encode(STATE) == [
        [" ", " ", " ", " "],
        [" ", " ", " ", " "],
        [" ", "O", " ", " "],
        ["X", "X", "O", " "],
    ]
    top_first = preset("numpy-012").encode(STATE)
    assert isinstance(top_first, np.ndarray) and top_first.tolist()[3] == [1, 1, 2, 0]
    bottom_first = preset("numpy-012-bottom").encode(STATE)
    assert isinstance(bottom_first, np.ndarray) and bottom_first.tolist()[0] == [1, 1, 2, 0]
    flat = preset("flat-space").encode(STATE)
    assert isinstance(flat, list) and flat[12:] == ["X", "X", "O", " "]
    for name in GRID_PRESETS:
        encoding = preset(name)
        assert encoding.decode(encoding.encode(STATE)) == STATE, name


@pytest.mark.parametrize(
    ("name", "board", "words"),
    [
        ("grid-space", [[" "] * 4] * 3, "must have 4 rows, got 3"),
        ("grid-space", [[" "] * 4] * 3 + [[" "] * 3], "row 3 must have 4 cells, got 3"),
        ("grid-space", [[" "] * 4] * 3 + [["X", "x", " ", " "]], "unknown symbol 'x' at board[3][1]"),
        ("grid-space", [[" "] * 4] * 2 + [["X", " ", " ", " "], [" "] * 4], "board[2][0] floats above an empty cell"),
        ("numpy-012-bottom", np.array([[0] * 4, [1, 0, 0, 0], [0] * 4, [0] * 4]), "board[1][0] floats"),
        ("numpy-012", np.array([[0] * 4] * 3 + [[0, 3, 0, 0]]), "unknown symbol 3 at board[3][1]"),
        ("flat-space", [" "] * 15, "a flat list of 16 cells, got 15"),
        ("flat-space", [" "] * 15 + ["?"], "unknown symbol '?' at board[15]"),
        ("grid-space", "X...", "the board must be a list"),
    ],
)
def test_decoding_is_strict_and_names_the_cell_as_the_student_indexes_it(name: str, board: object, words: str) -> None:
    with pytest.raises(MalformedBoard, match=re.escape(words)):
        preset(name).decode(board)


def test_an_encoding_refuses_marks_that_cannot_be_told_apart() -> None:
    with pytest.raises(ValueError, match="must differ"):
        GridEncoding(4, 4, empty=0, x=1, o=1)


@pytest.mark.parametrize("game", [ConnectK(5, 6, 4), CONNECT_FOUR, ConnectK(4, 4, 3)], ids=str)
def test_the_finished_games_show_each_side_winning_in_each_direction_a_full_board_and_one_won_by_its_last_cell(
    game: ConnectK,
) -> None:
    endings = finished_games(game)
    labels = [ending.label for ending in endings]
    for winner in "XO":
        for direction in DIRECTIONS:
            assert f"{winner} wins {direction}" in labels
    assert labels[-2:] == ["full board", "won with the last free cell"]
    for ending in endings:
        state = play(game, ending.moves)
        assert game.is_terminal(state), ending.label
        if ending.label == "full board":
            assert not game.winners(state) and "." not in state.cells
            continue
        if ending.label == "won with the last free cell":  # a full board that is a win, not a tie
            assert game.winners(state) and "." not in state.cells
            assert not game.is_terminal(play(game, ending.moves[:-1]))  # the last piece made the line
            continue
        winner = ending.label[0]
        assert game.winners(state) == {winner}
        assert game.to_move(play(game, ending.moves[:-1])) == winner  # the winner moved last
        assert not game.is_terminal(play(game, ending.moves[:-1]))
        cells = game.winning_cells(state)
        (r0, c0), (r1, c1) = divmod(cells[0], game.cols), divmod(cells[1], game.cols)
        step = DIRECTIONS[ending.label.split()[2]]
        assert len(cells) == game.k and (abs(r1 - r0), abs(c1 - c0)) == (abs(step[0]), abs(step[1]))
    right_edge = [e for e in endings if e.label == "X wins across at the right edge"]
    assert right_edge and game.cols - 1 in {c % game.cols for c in game.winning_cells(play(game, right_edge[0].moves))}


@pytest.mark.parametrize("top_row_first", [True, False])
def test_the_landing_row_is_the_row_the_encoded_board_fills_next(top_row_first: bool) -> None:
    encoding = GridEncoding(6, 7, top_row_first=top_row_first)
    state = play(CONNECT_FOUR, (3, 3, 4))
    for col in range(7):
        row = encoding.landing_row(state.height(col))
        before, after = encoding.encode(state), encoding.encode(CONNECT_FOUR.result(state, col))
        assert isinstance(before, list) and isinstance(after, list)  # the rows, as lists
        changed = [r for r in range(6) if before[r] != after[r]]
        assert changed == [row], (col, changed, row)
