"""The canonical board: parsing, rules, legality, symmetry, and the TicTacToe game."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given

from reference.solved import reachable_positions
from reference.strategies import arbitrary_boards, nonterminal_boards, reachable_boards
from reference.tictactoe import (
    EMPTY,
    LINES,
    SYMMETRIES,
    Board,
    IllegalMove,
    MalformedBoard,
    O,
    TicTacToe,
    X,
    opponent,
)

ALL_GRIDS = [Board(cells) for cells in itertools.product((EMPTY, X, O), repeat=9)]


# -- parsing and display ------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "X.O.X...O",
        "x.o.x...o",
        "X . O\n. X .\n. . O",
        "X|.|O/.|X|./.|.|O",
        "X2O4X678O",
        "X5O1X999O",
    ],
)
def test_from_string_accepts_every_documented_spelling(text: str) -> None:
    assert Board.from_string(text) == Board((X, EMPTY, O, EMPTY, X, EMPTY, EMPTY, EMPTY, O))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("X.O", "expected 9 cells, found 3"),
        ("X.O.X...O.", "expected 9 cells, found 10"),
        ("X.O.Z...O", "unknown symbol 'Z' at cell 4 (row 1, col 1)"),
        ("X0.......", "did you mean the letter 'O'?"),
        ("-........", "unknown symbol '-' at cell 0"),
    ],
)
def test_from_string_names_the_problem(text: str, message: str) -> None:
    with pytest.raises(MalformedBoard, match=message.replace("(", r"\(").replace(")", r"\)")):
        Board.from_string(text)


def test_constructor_validates_cells() -> None:
    with pytest.raises(MalformedBoard, match="9 cells, got 8"):
        Board((EMPTY,) * 8)
    with pytest.raises(MalformedBoard, match=r"unknown symbol ' ' at cell 3 \(row 1, col 0\)"):
        Board((EMPTY,) * 3 + (" ",) + (EMPTY,) * 5)
    with pytest.raises(MalformedBoard, match="use Board.from_string"):
        Board("X........")  # type: ignore[arg-type]
    assert Board([X] + [EMPTY] * 8).cells == (X,) + (EMPTY,) * 8  # type: ignore[arg-type]


def test_board_is_immutable_and_hashable() -> None:
    board = Board.from_string("X........")
    with pytest.raises(AttributeError):
        board.cells = Board.empty().cells  # type: ignore[misc]
    assert {board, Board.from_string("X........")} == {board}


@given(arbitrary_boards())
def test_str_and_repr_round_trip(board: Board) -> None:
    assert Board.from_string(str(board)) == board
    assert eval(repr(board)) == board  # noqa: S307 - repr is documented as round-trippable
    assert Board.from_string(board.grid()) == board
    assert len(board.grid().splitlines()) == 3


# -- rules --------------------------------------------------------------------------------


def test_lines_are_the_eight_winning_triples() -> None:
    assert len(set(LINES)) == 8
    rows = {(0, 1, 2), (3, 4, 5), (6, 7, 8)}
    columns = {(0, 3, 6), (1, 4, 7), (2, 5, 8)}
    assert set(LINES) == rows | columns | {(0, 4, 8), (2, 4, 6)}


@pytest.mark.parametrize(
    ("text", "winners", "winner", "terminal"),
    [
        (".........", set(), None, False),
        ("XXX.OO...", {X}, X, True),
        ("XO.XO.X..", {X}, X, True),
        ("O.XXO...O", {O}, O, True),
        ("XOXXOOOXX", set(), None, True),
        ("XXXOOO...", {X, O}, None, True),
    ],
)
def test_winners_winner_and_terminal(text: str, winners: set[str], winner: str | None, terminal: bool) -> None:
    board = Board.from_string(text)
    assert board.winners() == winners
    assert board.winner() == winner
    assert board.is_terminal() is terminal


def test_to_move_follows_the_counts_and_the_first_player() -> None:
    assert Board.empty().to_move() == X
    assert Board.empty().to_move(first=O) == O
    assert Board.from_string("X........").to_move() == O
    assert Board.from_string("O........").to_move(first=O) == X
    with pytest.raises(MalformedBoard, match="X has 0 marks and O has 1 mark; with X moving first"):
        Board.from_string("O........").to_move()
    with pytest.raises(MalformedBoard, match="with O moving first"):
        Board.from_string("XX.......").to_move(first=O)


@given(nonterminal_boards())
def test_play_places_the_side_to_move(board: Board) -> None:
    cell = board.empty_cells()[0]
    after = board.play(cell)
    assert after.cells[cell] == board.to_move()
    assert after.count(EMPTY) == board.count(EMPTY) - 1
    assert after.to_move() == opponent(board.to_move())
    assert board.cells[cell] == EMPTY  # the original is untouched
    assert board.play(np.int64(cell)) == after  # decoded student moves are often numpy ints


@pytest.mark.parametrize(
    ("text", "cell", "player", "message"),
    [
        ("X........", 0, None, r"cell 0 \(row 0, col 0\) is already taken by X"),
        ("X........", 9, None, "a move is a cell index 0..8, got 9"),
        ("X........", -1, None, "got -1"),
        ("X........", True, None, "got True"),
        ("X........", "4", None, "got '4'"),
        ("XXXOO....", 8, None, "the game is over, X has three in a row"),
        ("XOXXOOOXX", 0, None, "the game is over"),
        ("X........", 4, X, "it is O's turn, not X's"),
        ("X........", 4, "o", "a player is 'X' or 'O', got 'o'"),
    ],
)
def test_illegal_moves_raise(text: str, cell: object, player: str | None, message: str) -> None:
    with pytest.raises(IllegalMove, match=message):
        Board.from_string(text).play(cell, player)  # type: ignore[arg-type]


# -- legality: the three rules are exactly reachability -------------------------------------


@pytest.mark.parametrize("first", [X, O])
def test_legality_rules_match_reachability_on_all_grids(first: str) -> None:
    reachable = reachable_positions(first)
    legal = {board for board in ALL_GRIDS if board.is_legal_position(first)}
    assert legal == reachable
    assert len(legal) == 5478


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("XX.......", "X has 2 marks and O has 0 marks"),
        ("XXXOOO...", "both X and O have three in a row"),
        ("XXXOO.O..", "X has three in a row, so X moved last and must have one mark more than O"),
        ("OOOXX.X.X", "O has three in a row, so O moved last and must have as many marks as X"),
    ],
)
def test_legality_problem_explains(text: str, message: str) -> None:
    problem = Board.from_string(text).legality_problem()
    assert problem is not None and message in problem


@given(reachable_boards(first=O))
def test_reachable_boards_are_legal_for_their_first_player(board: Board) -> None:
    assert board.is_legal_position(first=O)
    assert board.legality_problem(first=O) is None


# -- symmetry -----------------------------------------------------------------------------


def test_symmetries_form_the_dihedral_group() -> None:
    perms = set(SYMMETRIES)
    assert len(perms) == 8 and SYMMETRIES[0] == tuple(range(9))
    compose = {tuple(p[q[i]] for i in range(9)) for p in perms for q in perms}
    assert compose == perms  # closed under composition
    assert all(set(p) == set(range(9)) for p in perms)
    # lines map to lines: winning is invariant
    line_sets = {frozenset(line) for line in LINES}
    assert all({frozenset(p[i] for i in line) for line in LINES} == line_sets for p in perms)


@given(arbitrary_boards())
def test_symmetric_images_share_counts_winners_and_canonical_form(board: Board) -> None:
    images = board.symmetries()
    assert len(images) == 8 and images[0] == board
    for image in images:
        assert image.count(X) == board.count(X) and image.count(O) == board.count(O)
        assert image.winners() == board.winners()
        assert image.canonical() == board.canonical()
    assert board.canonical() in images


# -- the game protocol --------------------------------------------------------------------


def test_tictactoe_game_protocol() -> None:
    game = TicTacToe()
    state = game.initial_state()
    assert state == Board.empty() and game.to_move(state) == X
    assert game.actions(state) == tuple(range(9))
    state = game.result(state, 4)
    assert game.to_move(state) == O and 4 not in game.actions(state)
    won = Board.from_string("XXXOO....")
    assert game.is_terminal(won) and game.actions(won) == ()
    assert game.utility(won, X) == 1 and game.utility(won, O) == -1
    assert game.utility(Board.from_string("XOXXOOOXX"), X) == 0
    with pytest.raises(ValueError, match="finished games only"):
        game.utility(Board.empty(), X)
    with pytest.raises(IllegalMove):
        game.result(state, 4)


def test_tictactoe_lets_o_start() -> None:
    game = TicTacToe(first_player=O)
    assert game.to_move(game.initial_state()) == O
    assert game.result(game.initial_state(), 0).cells[0] == O
    with pytest.raises(ValueError, match="a player is 'X' or 'O'"):
        TicTacToe(first_player="Z")
