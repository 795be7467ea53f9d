"""Tic-tac-toe and Connect-K answer the checks that read a board cell by cell through the game:
its cells, its winning lines and their names, a position from its text or its cells."""

from __future__ import annotations

import pytest

from reference import LINE_NAMES, LINES, ConnectK, LineGame, MalformedBoard, O, Position, TicTacToe, X
from reference.connect_endings import play
from reference.tictactoe import Board

GAMES: list[LineGame[Position]] = [TicTacToe(), TicTacToe(O), ConnectK(), ConnectK(rows=5, cols=6, k=4)]


def _played(game: LineGame[Position], moves: list[int]) -> list[Position]:
    """The positions along a game that plays the first legal move of ``moves`` at each turn."""
    state = game.initial_state()
    seen = [state]
    for move in moves:
        legal = game.actions(state)
        if not legal:
            break
        state = game.result(state, move if move in legal else legal[0])
        seen.append(state)
    return seen


@pytest.mark.parametrize("game", GAMES, ids=repr)
def test_each_game_reads_its_positions_by_their_text_and_by_their_cells(game: LineGame[Position]) -> None:
    assert isinstance(game, LineGame)
    for state in _played(game, [1, 4, 2, 0, 3, 5, 3, 6, 7, 8]):
        assert game.position(str(state)) == state
        assert game.with_cells(game.cells(state)) == state
        assert game.pieces(state) == sum(mark != "." for mark in game.cells(state))


@pytest.mark.parametrize("game", GAMES, ids=repr)
def test_the_groups_of_lines_hold_each_line_once_and_each_line_has_a_name(game: LineGame[Position]) -> None:
    grouped = [line for _, group in game.line_groups() for line in group]
    assert sorted(grouped) == sorted(game.lines)
    assert [name for name, _ in game.line_groups()] == ["the rows", "the columns", "the diagonals"]
    names = [game.line_name(line) for line in game.lines]
    assert len(set(names)) == len(names)
    with pytest.raises(ValueError):
        game.line_name((0, 1))


def test_tic_tac_toe_names_its_lines_as_feedback_always_has() -> None:
    game = TicTacToe()
    assert game.lines == LINES
    assert {line: game.line_name(line) for line in game.lines} == LINE_NAMES
    rows, columns, diagonals = (group for _, group in game.line_groups())
    assert (rows, columns, diagonals) == (LINES[0:3], LINES[3:6], LINES[6:8])


def test_connect_k_groups_its_runs_by_direction_and_names_their_ends() -> None:
    game = ConnectK(rows=4, cols=5, k=3)
    rows, columns, diagonals = (group for _, group in game.line_groups())
    assert all(len({cell // 5 for cell in line}) == 1 for line in rows)
    assert all(len({cell % 5 for cell in line}) == 1 for line in columns)
    assert all(len({cell // 5 for cell in line}) == 3 == len({cell % 5 for cell in line}) for line in diagonals)
    assert game.line_name((15, 16, 17)) == "the run from row 3, col 0 to row 3, col 2"


def test_the_winners_are_the_players_with_a_complete_line() -> None:
    tic = TicTacToe()
    board = Board.from_string("XXXOO....")
    assert tic.winners(board) == board.winners() == frozenset({X})
    connect = ConnectK()
    state = play(connect, (0, 1, 0, 1, 0))
    assert connect.winners(state) == frozenset({X})
    assert connect.cells(state)[8] == connect.cells(state)[12] == X


def test_a_game_refuses_the_text_and_the_positions_of_another() -> None:
    with pytest.raises(MalformedBoard):
        ConnectK().position("..../..../....")  # three rows of a four-row game
    with pytest.raises(MalformedBoard):
        TicTacToe().cells(ConnectK().initial_state())
    with pytest.raises(MalformedBoard):
        ConnectK().cells(Board.empty())


def test_tic_tac_toe_says_why_a_board_cannot_arise() -> None:
    assert TicTacToe().legality_problem(Board.from_string("XX.......")) is not None
    assert TicTacToe(O).legality_problem(Board.from_string("O........")) is None
    assert TicTacToe().legality_problem(Board.from_string("O........")) is not None
