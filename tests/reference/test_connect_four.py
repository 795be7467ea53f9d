"""Connect Four on 6x7 (and its smaller boards): counts by play, finished games, drawings, heuristics."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import example, find, given, settings

from reference.connect4 import CONNECT_FOUR, ConnectK, ConnectState
from reference.connect_endings import play
from reference.connect_heuristics import CentreColumn, CentrePreference, OpenWindows, centre_out_order
from reference.game_strategies import played_games, played_positions
from reference.tictactoe import EMPTY, Board, IllegalMove, MalformedBoard, O, TicTacToe, X
from tests.reference.connect_four_games import FINISHED_GAMES, FINISHED_POSITIONS, played

PINNED = settings(database=None, derandomize=True, deadline=None, report_multiple_bugs=False)

# -- counts by play ----------------------------------------------------------------------------

POSITIONS_AFTER_PLIES = (1, 7, 49, 238, 1120, 4263, 16422, 54859, 184275)
"""The published count of Connect Four positions after n plies, play stopping at a win."""


def test_positions_after_each_ply_are_the_published_counts() -> None:
    game, level, counts = CONNECT_FOUR, {CONNECT_FOUR.initial_state()}, [1]
    for _ in range(8):
        level = {game.result(state, column) for state in level for column in game.actions(state)}
        counts.append(len(level))
    assert tuple(counts) == POSITIONS_AFTER_PLIES


def test_the_published_counts_are_of_positions_not_of_move_sequences() -> None:
    def games(state: ConnectState, plies: int) -> int:
        if plies == 0:
            return 1
        return sum(games(CONNECT_FOUR.result(state, column), plies - 1) for column in CONNECT_FOUR.actions(state))

    sequences = tuple(games(CONNECT_FOUR.initial_state(), plies) for plies in range(5))
    assert sequences == (1, 7, 49, 343, 2401)  # no game ends before ply 7
    assert sequences[3] > POSITIONS_AFTER_PLIES[3]


@pytest.mark.parametrize(("rows", "cols"), [(4, 4), (4, 5), (5, 5), (5, 6), (6, 6), (6, 7)])
def test_every_board_from_4x4_to_6x7_plays_connect_four(rows: int, cols: int) -> None:
    game = ConnectK(rows=rows, cols=cols, k=4)
    state = game.initial_state()
    assert game.actions(state) == tuple(range(cols))
    for _ in range(rows):  # X and O alternate in column 0 until it is full
        state = game.result(state, 0)
    assert game.actions(state) == tuple(range(1, cols))
    assert not game.is_terminal(state)


# -- finished games ----------------------------------------------------------------------------

_DIRECTIONS = {(0, 1): "row", (1, 0): "column", (1, 1): "down-right", (1, -1): "down-left"}


@pytest.mark.parametrize(("outcome", "columns"), list(FINISHED_GAMES.items()), ids=lambda v: str(v))
def test_each_finished_game_ends_on_its_last_move(outcome: tuple[str | None, str], columns: str) -> None:
    winner, direction = outcome
    game, state = CONNECT_FOUR, played(columns)
    assert not game.is_terminal(played(columns[:-1]))
    assert game.is_terminal(state) and game.actions(state) == ()
    if winner is None:
        assert EMPTY not in state.cells and game.winners(state) == frozenset()
        assert game.utility(state, X) == game.utility(state, O) == 0
        return
    assert game.winners(state) == {winner}
    assert game.utility(state, winner) == 1 and game.utility(state, O if winner == X else X) == -1
    first, second = (divmod(cell, 7) for cell in game.winning_cells(state)[:2])
    assert _DIRECTIONS[(second[0] - first[0], second[1] - first[1])] == direction
    # The same board written out is the same state, and the game finds the same winner on it.
    written = ConnectState(6, 7, state.cells)
    assert written == state and hash(written) == hash(state)
    assert written.outcome is None and game.winners(written) == {winner}


def test_a_state_made_for_one_k_is_judged_afresh_by_another() -> None:
    three_in_a_row = played("0516")  # X on 0 and 1 of the bottom row, O on 5 and 6
    three_in_a_row = CONNECT_FOUR.result(three_in_a_row, 2)
    assert CONNECT_FOUR.winners(three_in_a_row) == frozenset()
    assert ConnectK(rows=6, cols=7, k=3).winners(three_in_a_row) == {X}
    assert ConnectK(rows=6, cols=7, k=4).winners(three_in_a_row) == frozenset()  # an equal game trusts it
    o_first = ConnectK(rows=6, cols=7, k=4, first_player=O)
    with pytest.raises(MalformedBoard, match="with O first that cannot happen"):
        o_first.result(three_in_a_row, 4)
    with pytest.raises(MalformedBoard, match="a 6x7 state does not belong to a 4x4 game"):
        ConnectK(rows=4, cols=4, k=4).winners(three_in_a_row)


def test_moves_may_be_numpy_integers_but_not_booleans() -> None:
    state = CONNECT_FOUR.result(CONNECT_FOUR.initial_state(), np.int64(3))
    assert state.cell(5, 3) == X
    with pytest.raises(IllegalMove, match="got False"):
        CONNECT_FOUR.result(state, False)


# -- drawings ----------------------------------------------------------------------------------


def test_connect_four_drawing_marks_the_last_disc_and_the_winning_line() -> None:
    state = played("0536251")
    drawing = CONNECT_FOUR.drawing(state, last=1)
    assert (drawing.rows, drawing.cols) == (6, 7)
    assert drawing.last == (5, 1)
    assert drawing.line == ((5, 0), (5, 1), (5, 2), (5, 3))
    assert [square.mark for square in drawing.squares[5]] == ["X", "X", "X", "X", "", "O", "O"]
    assert drawing.squares[0][0].mark == "" and not drawing.squares[4][6].winning
    assert CONNECT_FOUR.text(state).splitlines()[-2:] == ["X X X X . O O", "0 1 2 3 4 5 6"]
    assert CONNECT_FOUR.drawing(state).last is None
    with pytest.raises(IllegalMove, match="column 4 is empty"):
        CONNECT_FOUR.drawing(state, last=4)


def test_tictactoe_drawing_marks_the_last_cell_and_the_winning_line() -> None:
    game, board = TicTacToe(), Board.from_string("XO./XO./X..")
    drawing = game.drawing(board, last=6)
    assert drawing.last == (2, 0) and drawing.line == ((0, 0), (1, 0), (2, 0))
    assert game.text(board) == drawing.text() == "X O .\nX O .\nX . ."
    with pytest.raises(IllegalMove, match="cell 8 .* is empty"):
        game.drawing(board, last=8)


# -- heuristics --------------------------------------------------------------------------------


def test_centre_preference_weighs_each_cell_by_the_runs_through_it() -> None:
    table = (
        (3, 4, 5, 7, 5, 4, 3),
        (4, 6, 8, 10, 8, 6, 4),
        (5, 8, 11, 13, 11, 8, 5),
        (5, 8, 11, 13, 11, 8, 5),
        (4, 6, 8, 10, 8, 6, 4),
        (3, 4, 5, 7, 5, 4, 3),
    )
    assert CentrePreference(CONNECT_FOUR).weights == sum(table, ())
    assert CentrePreference(CONNECT_FOUR)(played("32"), X) == 7 - 5


def test_the_simple_heuristics_on_first_moves() -> None:
    centre, windows = CentreColumn(CONNECT_FOUR), OpenWindows(CONNECT_FOUR)
    assert centre(played("3"), X) == 1 and centre(played("33"), X) == 0 and centre(played("03"), O) == 1
    assert CentreColumn(ConnectK(rows=4, cols=4, k=3)).columns == (1, 2)
    assert windows(CONNECT_FOUR.initial_state(), X) == 0
    assert windows(played("3"), X) == 7  # one disc in each of the seven runs through its cell
    assert windows(played("0536251"), X) > 10**4 > windows(played("053625"), X)  # a complete run counts 10**4


def test_centre_out_order() -> None:
    assert centre_out_order(CONNECT_FOUR) == (3, 2, 4, 1, 5, 0, 6)
    assert centre_out_order(ConnectK(rows=4, cols=4, k=3)) == (1, 2, 0, 3)


def test_each_heuristic_scores_a_position_the_same_for_both_sides_with_opposite_signs() -> None:
    @settings(PINNED, max_examples=60)
    @given(played_positions(CONNECT_FOUR, max_plies=42, guide=OpenWindows(CONNECT_FOUR)))
    def symmetric(state: ConnectState) -> None:
        for heuristic in (CentreColumn(CONNECT_FOUR), CentrePreference(CONNECT_FOUR), OpenWindows(CONNECT_FOUR)):
            assert heuristic(state, X) == -heuristic(state, O)

    for state in FINISHED_POSITIONS:
        symmetric = example(state)(symmetric)
    symmetric()


@settings(PINNED, max_examples=40)
@given(played_positions(CONNECT_FOUR, min_plies=5, max_plies=20, include_terminal=False))
def test_positions_by_play_are_reachable_and_respect_their_bounds(state: ConnectState) -> None:
    discs = 42 - state.cells.count(EMPTY)
    assert 5 <= discs <= 20 and not CONNECT_FOUR.is_terminal(state)
    assert CONNECT_FOUR.to_move(state) == (X if discs % 2 == 0 else O)
    assert ConnectState(6, 7, state.cells) == state  # no disc floats


def test_positions_by_play_check_their_lengths_when_made() -> None:
    with pytest.raises(ValueError, match="0 <= min_plies <= max_plies"):
        played_positions(CONNECT_FOUR, min_plies=5, max_plies=4)


@pytest.mark.parametrize(("winner", "plies"), [(X, 7), (O, 8)])
def test_a_failure_shrinks_to_the_shortest_game_that_shows_it(winner: str, plies: int) -> None:
    # A property that fails on every game `winner` has won is shown the shortest such game.
    def won(moves: tuple[int, ...]) -> bool:
        return CONNECT_FOUR.winners(play(CONNECT_FOUR, moves)) == {winner}

    # Short games are drawn (12 plies at most), and enough of them for an 8-ply win to turn up.
    shortest = find(played_games(CONNECT_FOUR, max_plies=12), won, settings=settings(PINNED, max_examples=1000))
    assert len(shortest) == plies
