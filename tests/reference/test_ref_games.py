"""The Game protocol, its generic minimax, and Connect-K against an independent solver."""

from __future__ import annotations

import functools
from dataclasses import dataclass

import pytest
from hypothesis import given, settings

from reference.connect4 import ConnectK, ConnectState
from reference.game import Game, game_minimax
from reference.search import SearchSpec, minimax
from reference.strategies import nonterminal_boards
from reference.tictactoe import EMPTY, Board, IllegalMove, MalformedBoard, O, TicTacToe, X

# -- the generic search on games other than tic-tac-toe ---------------------------------------


@dataclass(frozen=True)
class Nim:
    """Take 1 or 2 from a pile; whoever takes the last one wins. State: (pile, mover)."""

    pile: int

    def initial_state(self) -> tuple[int, str]:
        return (self.pile, X)

    def to_move(self, state: tuple[int, str]) -> str:
        return state[1]

    def actions(self, state: tuple[int, str]) -> tuple[int, ...]:
        return tuple(take for take in (1, 2) if take <= state[0])

    def result(self, state: tuple[int, str], action: int) -> tuple[int, str]:
        return (state[0] - action, O if state[1] == X else X)

    def is_terminal(self, state: tuple[int, str]) -> bool:
        return state[0] == 0

    def utility(self, state: tuple[int, str], player: str) -> float:
        # the player to move at 0 did not take the last one: they lost
        return -1 if state[1] == player else 1


@pytest.mark.parametrize("pile", range(1, 10))
def test_game_minimax_solves_nim(pile: int) -> None:
    game: Game[tuple[int, str], int] = Nim(pile)
    result = game_minimax(game, game.initial_state())
    # piles that are multiples of 3 are lost for the mover; otherwise take pile % 3
    assert result.value == (-1 if pile % 3 == 0 else 1)
    if pile % 3:
        assert result.best_moves == (pile % 3,)
    else:
        assert result.best_moves == game.actions(game.initial_state())


def test_game_minimax_depth_limit_and_evaluation() -> None:
    game = Nim(7)
    cut = game_minimax(game, game.initial_state(), depth_limit=0, evaluate=lambda s, p: 0.5)
    assert (cut.value, cut.best_move, cut.best_moves, cut.nodes) == (0.5, None, (), 1)
    shallow = game_minimax(game, game.initial_state(), depth_limit=1, evaluate=lambda s, p: -s[0])
    # one ply: the maximizer leaves the smallest pile as seen by its own evaluation
    assert shallow.best_moves == (2,) and shallow.value == -5
    assert game_minimax(game, game.initial_state(), depth_limit=7) == game_minimax(game, game.initial_state())


@settings(deadline=None)
@given(nonterminal_boards(max_empty=6))
def test_tictactoe_through_the_protocol_matches_the_seed_search(board: Board) -> None:
    generic = game_minimax(TicTacToe(), board)
    direct = minimax(board, SearchSpec(maximizer=board.to_move()))
    assert (generic.value, generic.best_move, generic.best_moves, generic.nodes) == (
        direct.value,
        direct.best_move,
        direct.best_moves,
        direct.nodes,
    )


# -- Connect-K rules ---------------------------------------------------------------------------


def test_discs_fall_to_the_bottom() -> None:
    game = ConnectK(rows=4, cols=4, k=3)
    state = game.result(game.initial_state(), 1)
    assert str(state) == "..../..../..../.X.."
    state = game.result(state, 1)
    assert str(state) == "..../..../.O../.X.."
    assert state.height(1) == 2 and state.height(0) == 0
    assert game.to_move(state) == X


@pytest.mark.parametrize(
    ("rows", "winner"),
    [
        (("....", "....", "....", "XXX."), X),  # horizontal
        (("....", "O...", "O...", "O..."), O),  # vertical
        (("....", "..X.", ".XO.", "XOO."), X),  # diagonal up-right
        (("....", "O...", "XO..", "XXO."), O),  # diagonal down-right
        (("....", "....", "....", "XX.O"), None),
    ],
)
def test_winning_lines_in_every_direction(rows: tuple[str, ...], winner: str | None) -> None:
    game = ConnectK()
    state = ConnectState.from_rows(*rows)
    assert game.winners(state) == ({winner} if winner else set())
    assert game.is_terminal(state) is (winner is not None)


def test_connect_state_validation() -> None:
    with pytest.raises(MalformedBoard, match="floats above an empty cell"):
        ConnectState.from_rows("X..", "...", "...")
    with pytest.raises(MalformedBoard, match="a 2x2 board has 4 cells, got 3"):
        ConnectState(2, 2, (EMPTY,) * 3)
    with pytest.raises(MalformedBoard, match="unknown symbol 'Z' at row 1, col 0"):
        ConnectState.from_rows("..", "Z.")
    with pytest.raises(MalformedBoard, match="equal length"):
        ConnectState.from_rows("...", "..")
    assert eval(repr(ConnectState.from_rows("...", "X.."))) == ConnectState.from_rows("...", "X..")  # noqa: S307


def test_illegal_connect_moves_raise() -> None:
    game = ConnectK(rows=2, cols=3, k=2)
    stacked = game.result(game.result(game.initial_state(), 0), 0)  # column 0: X under O
    with pytest.raises(IllegalMove, match="column 0 is full"):
        game.result(stacked, 0)
    with pytest.raises(IllegalMove, match="a move is a column 0..2, got 3"):
        game.result(stacked, 3)
    with pytest.raises(IllegalMove, match="got True"):
        game.result(stacked, True)
    won = ConnectState.from_rows("O..", "XX.")
    with pytest.raises(IllegalMove, match="cannot drop into column 2: the game is over"):
        game.result(won, 2)
    assert game.actions(won) == ()
    with pytest.raises(MalformedBoard, match="a 4x4 state does not belong to a 2x3 game"):
        game.result(ConnectK().initial_state(), 0)
    with pytest.raises(MalformedBoard, match="X has 2 discs and O 0"):
        game.to_move(ConnectState.from_rows("...", "X.X"))


def test_connect_game_parameters_are_checked() -> None:
    with pytest.raises(ValueError, match="k must be 2..4"):
        ConnectK(rows=4, cols=4, k=5)
    with pytest.raises(ValueError, match="a player is 'X' or 'O'"):
        ConnectK(first_player="R")


def test_connect_utility() -> None:
    game = ConnectK(rows=4, cols=4, k=3)
    state = ConnectState.from_rows("....", "....", "O...", "XXXO")
    assert game.utility(state, X) == 1 and game.utility(state, O) == -1
    with pytest.raises(ValueError, match="finished games only"):
        game.utility(game.initial_state(), X)


# -- Connect-K search against an independent brute-force solver --------------------------------


def brute_force(rows: int, cols: int, k: int):
    """Negamax over columns-as-stacks, written without the reference's code."""

    def has_k(grid: dict[tuple[int, int], str], who: str) -> bool:
        for (r, c), mark in grid.items():
            if mark != who:
                continue
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                if all(grid.get((r + i * dr, c + i * dc)) == who for i in range(k)):
                    return True
        return False

    @functools.cache
    def solve(stacks: tuple[tuple[str, ...], ...], mover: str) -> tuple[int, tuple[int, ...]]:
        """(value for the mover, optimal columns); stacks are bottom-up."""
        grid = {(r, c): mark for c, stack in enumerate(stacks) for r, mark in enumerate(stack)}
        other = "O" if mover == "X" else "X"
        if has_k(grid, other):
            return -1, ()
        if all(len(stack) == rows for stack in stacks):
            return 0, ()
        scores = {}
        for c, stack in enumerate(stacks):
            if len(stack) < rows:
                child = stacks[:c] + (stack + (mover,),) + stacks[c + 1 :]
                scores[c] = -solve(child, other)[0]
        best = max(scores.values())
        return best, tuple(c for c, v in scores.items() if v == best)

    return solve


def _stacks(state: ConnectState) -> tuple[tuple[str, ...], ...]:
    return tuple(
        tuple(state.cell(r, c) for r in reversed(range(state.rows)) if state.cell(r, c) != EMPTY)
        for c in range(state.cols)
    )


def _states(game: ConnectK, max_plies: int) -> list[ConnectState]:
    found, frontier = [], [game.initial_state()]
    for _ in range(max_plies + 1):
        found.extend(frontier)
        frontier = [game.result(s, a) for s in frontier for a in game.actions(s)]
    return list(dict.fromkeys(found))


@pytest.mark.parametrize(("rows", "cols", "k", "plies"), [(3, 3, 3, 9), (4, 3, 3, 1), (2, 4, 2, 8)])
def test_connect_k_minimax_agrees_with_brute_force(rows: int, cols: int, k: int, plies: int) -> None:
    game = ConnectK(rows=rows, cols=cols, k=k)
    solve = brute_force(rows, cols, k)
    for state in _states(game, plies):
        result = game_minimax(game, state)
        expected_value, expected_moves = solve(_stacks(state), game.to_move(state))
        assert result.value == expected_value, state
        assert result.best_moves == expected_moves, state
        assert result.best_move == (expected_moves[0] if expected_moves else None)


def test_connect_k_depth_limited_search() -> None:
    game = ConnectK(rows=4, cols=4, k=3)
    state = ConnectState.from_rows("....", "....", "....", "XX.O")
    assert game.to_move(state) == O
    # Two plies see X complete the bottom row unless O blocks column 2 now.
    result = game_minimax(game, state, depth_limit=2)
    assert result.best_moves == (2,) and result.value == 0


# -- positions the grader holds: each game counts its pieces and refuses another game's -----------


def test_each_game_counts_the_pieces_on_its_board() -> None:
    assert TicTacToe().pieces(Board.from_string("XO./.X./...")) == 3
    assert TicTacToe().pieces(Board.empty()) == 0
    game = ConnectK(rows=4, cols=4, k=3)
    assert game.pieces(game.result(game.result(game.initial_state(), 1), 1)) == 2
    assert game.pieces(game.initial_state()) == 0


def test_a_game_refuses_a_position_of_another_game() -> None:
    connect = ConnectK(rows=4, cols=4, k=3)
    with pytest.raises(MalformedBoard, match="not a tic-tac-toe board"):
        TicTacToe().to_move(connect.initial_state())
    with pytest.raises(MalformedBoard, match="not a Connect-K state"):
        connect.result(Board.empty(), 0)
    with pytest.raises(MalformedBoard, match="does not belong to a 4x4 game"):
        connect.pieces(ConnectK(rows=5, cols=5, k=3).initial_state())
