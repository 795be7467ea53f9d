"""The reference reproduces each seed notebook's conventions exactly.

Each seed's search functions are the oracles: seed 003's alpha-beta and seed 004's (lab05)
run from the shared source text (``tests/seed_sources.py``); the others are copied below,
kept as close to the notebook text as a closure allows (globals become closure variables,
node counters are added where the seed's own instrumented version has them). The reference must agree with them on
values, chosen moves and node counts, and must reproduce the figures the seeds print.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings

from reference.challenges import depth_limited_selfplay, recommended_sequence
from reference.codecs import CODECS, cell_to_position, position_to_cell
from reference.search import SearchSpec, alphabeta, minimax, move_values
from reference.strategies import nonterminal_boards, reachable_boards, windows
from reference.tictactoe import Board, O, X
from tests.seed_sources import LAB05_SOLUTION, SEED_003_ALPHABETA

# -- seed 003: globals current_state, max()/min() and their alpha-beta versions --------------


# fmt: off  (kept as the notebook wrote it)
def seed003(
    current_state: list[list[str]],
) -> dict[str, Callable[..., tuple[int, int | None, int | None]]]:
    """Seed 003's plain minimax bound to one board; ``calls[0]`` counts every call."""
    calls = [0]

    def is_end():
        for i in range(0, 3):
            if (
                current_state[0][i] in ["X", "O"]
                and current_state[0][i] == current_state[1][i]
                and current_state[1][i] == current_state[2][i]
            ):
                return current_state[0][i]
        for i in range(0, 3):
            if current_state[i] == ["X", "X", "X"]:
                return "X"
            elif current_state[i] == ["O", "O", "O"]:
                return "O"
        if (
            current_state[0][0] in ["X", "O"]
            and current_state[0][0] == current_state[1][1]
            and current_state[0][0] == current_state[2][2]
        ):
            return current_state[0][0]
        if (
            current_state[0][2] in ["X", "O"]
            and current_state[0][2] == current_state[1][1]
            and current_state[0][2] == current_state[2][0]
        ):
            return current_state[0][2]
        for i in range(0, 3):
            for j in range(0, 3):
                if current_state[i][j] not in ["X", "O"]:
                    return None
        return "tie"

    def seed_max():
        calls[0] += 1
        maxv = -2
        px = None
        py = None
        result = is_end()
        if result == "X":
            return (-1, 0, 0)
        elif result == "O":
            return (1, 0, 0)
        elif result == "tie":
            return (0, 0, 0)
        for i in range(0, 3):
            for j in range(0, 3):
                if current_state[i][j] not in ["X", "O"]:
                    temp = current_state[i][j]
                    current_state[i][j] = "O"
                    m, min_i, min_j = seed_min()
                    if m > maxv:
                        maxv = m
                        px = i
                        py = j
                    current_state[i][j] = temp
        return (maxv, px, py)

    def seed_min():
        calls[0] += 1
        minv = 2
        qx = None
        qy = None
        result = is_end()
        if result == "X":
            return (-1, 0, 0)
        elif result == "O":
            return (1, 0, 0)
        elif result == "tie":
            return (0, 0, 0)
        for i in range(0, 3):
            for j in range(0, 3):
                if current_state[i][j] not in ["X", "O"]:
                    temp = current_state[i][j]
                    current_state[i][j] = "X"
                    m, max_i, max_j = seed_max()
                    if m < minv:
                        minv = m
                        qx = i
                        qy = j
                    current_state[i][j] = temp
        return (minv, qx, qy)

    return {
        "max": seed_max,
        "min": seed_min,
        "calls": lambda: calls[0],
    }


# fmt: on


def seed003_alphabeta(board: Board) -> tuple[dict[str, Any], list[int]]:
    """Seed 003's alpha-beta (the shared source) on ``board``; ``calls[0]`` counts every call
    of either function, as the recursion finds them by name."""
    namespace: dict[str, Any] = {}
    exec(compile(SEED_003_ALPHABETA, "<seed 003>", "exec"), namespace)
    namespace["current_state"] = CODECS["grid-digits"].encode(board)
    calls = [0]

    def counted(search: Callable[[float, float], tuple[int, int | None, int | None]]) -> Callable[..., Any]:
        def call(alpha: float, beta: float) -> tuple[int, int | None, int | None]:
            calls[0] += 1
            return search(alpha, beta)

        return call

    for name in ("max_alpha_beta", "min_alpha_beta"):
        namespace[name] = counted(namespace[name])
    return namespace, calls


def _seed003_move(board: Board, px: int | None, py: int | None) -> int | None:
    return None if board.is_terminal() else 3 * px + py  # type: ignore[operator]


@settings(deadline=None)
@given(nonterminal_boards(max_empty=7))
def test_seed003_max_min_match_minimax(board: Board) -> None:
    funcs = seed003(CODECS["grid-digits"].encode(board))  # type: ignore[arg-type]
    value, px, py = funcs["min" if board.to_move() == X else "max"]()
    assert px is not None and py is not None
    result = minimax(board, SearchSpec())
    assert (value, 3 * px + py, funcs["calls"]()) == (result.value, result.best_move, result.nodes)


@settings(deadline=None)
@given(board=reachable_boards(), window=windows(bounds=(-2, -1.5, -1, -0.5, 0, 0.5, 1, 1.5, 2)))
def test_seed003_alpha_beta_matches_on_any_window(board: Board, window: tuple[float, float]) -> None:
    namespace, calls = seed003_alphabeta(board)
    name = "min_alpha_beta" if board.to_move() == X else "max_alpha_beta"
    value, px, py = namespace[name](*window)
    result = alphabeta(board, SearchSpec(), alpha=window[0], beta=window[1])
    assert value == result.value
    assert calls[0] == result.nodes
    assert _seed003_move(board, px, py) == result.best_move


def test_seed003_min_from_the_empty_board_visits_549946_nodes() -> None:
    result = minimax(Board.empty(), SearchSpec())
    assert (result.value, result.best_move, result.nodes) == (0, 0, 549_946)


def test_seed003_alpha_beta_from_the_empty_board_visits_18297_nodes() -> None:
    result = alphabeta(Board.empty(), SearchSpec(), alpha=-2, beta=2)
    assert (result.value, result.best_move, result.nodes) == (0, 0, 18_297)


@pytest.mark.parametrize(("algorithm", "first_search"), [("minimax", 549_946), ("alphabeta", 18_297)])
def test_seed003_recommended_sequence_is_1_2_7_6_9_and_a_tie(algorithm: str, first_search: int) -> None:
    game = recommended_sequence(SearchSpec(), algorithm=algorithm)  # type: ignore[arg-type]
    assert game.recommended == (1, 2, 7, 6, 9)
    assert game.winner is None and game.final.is_full()
    assert game.final == Board.from_string("XXO/OOX/XOX")  # the seed's final board
    assert game.nodes[0] == first_search


# -- seed 000: the State class's depth-limited self-play ------------------------------------

SEED000_TABLE = {
    1: 9,
    2: 89,
    3: 656,
    4: 4064,
    5: 21109,
    6: 82733,
    7: 249498,
    8: 474512,
    9: 618175,
}


@pytest.mark.parametrize(("max_depth", "generated"), sorted(SEED000_TABLE.items()))
def test_seed000_generated_states_and_winner(max_depth: int, generated: int) -> None:
    result = depth_limited_selfplay(max_depth)
    assert result.generated == generated
    assert sum(result.generated_per_move) == generated
    assert result.winner == ("Player 1 Wins" if max_depth <= 6 else "Drawn")


def test_seed000_depth_two_transcript() -> None:
    # The notebook prints the actions (0,0), (0,1), (0,2), (1,0), (1,1), (1,2), (2,0).
    result = depth_limited_selfplay(2)
    assert result.moves == (0, 1, 2, 3, 4, 5, 6)
    assert result.generated_per_move == (81, 8, 0, 0, 0, 0, 0)


# -- seed 001: X maximizes with 10 - depth, O moves first -----------------------------------


# fmt: off  (kept as the notebook wrote it)
def seed001_check_win(board, player):
    win = [player] * 3  # noqa: F841 - kept from the notebook
    return (
        any(all(cell == player for cell in row) for row in board)
        or any(all(board[i][j] == player for i in range(3)) for j in range(3))
        or all(board[i][i] == player for i in range(3))
        or all(board[i][2 - i] == player for i in range(3))
    )


def seed001_is_board_full(board):
    return all(cell != " " for row in board for cell in row)


def seed001_minimax(board, depth, is_maximizing):
    if seed001_check_win(board, "X"):
        return 10 - depth  # noqa: E701
    if seed001_check_win(board, "O"):
        return depth - 10  # noqa: E701
    if seed001_is_board_full(board):
        return 0  # noqa: E701
    best_score = float("-inf") if is_maximizing else float("inf")
    for i, j in itertools.product(range(3), repeat=2):
        if board[i][j] == " ":
            board[i][j] = "X" if is_maximizing else "O"
            score = seed001_minimax(board, depth + 1, not is_maximizing)
            board[i][j] = " "
            best_score = max(score, best_score) if is_maximizing else min(score, best_score)
    return best_score


def seed001_find_best_move(board, scores):
    """The notebook's find_best_move, recording each move's score in ``scores``."""
    best_move = None
    best_score = float("-inf")
    for i, j in itertools.product(range(3), repeat=2):
        if board[i][j] == " ":
            board[i][j] = "X"
            score = seed001_minimax(board, 0, False)
            scores[3 * i + j] = score
            board[i][j] = " "
            if score > best_score:
                best_score = score
                best_move = (i, j)
    return best_move


# fmt: on


SEED001 = SearchSpec(maximizer=X, first_player=O, scoring="depth-adjusted", start_depth=-1)


def _check_seed001(board: Board) -> None:
    scores: dict[int, float] = {}
    move = seed001_find_best_move(CODECS["grid-space"].encode(board), scores)
    assert move_values(board, SEED001) == scores
    assert minimax(board, SEED001).best_move == 3 * move[0] + move[1]


@pytest.mark.parametrize(
    "text",
    [
        "....O....",  # the notebook's game: O opens at position 5
        "X...O.O..",  # the transcript's position before X's second move
        "XOX.O.O..",
        "XOX.OOO.X",
        "OX..O....",
        "O.X.X.O.O",
    ],
)
def test_seed001_move_scores_match_find_best_move(text: str) -> None:
    _check_seed001(Board.from_string(text))


def test_seed001_transcript() -> None:
    # The notebook's game: O (the human) plays 5, 7, 2, 6, 9; X answers 1, 3, 8, 4; a tie.
    board, replies = Board.empty(), []
    for position in (5, 7, 2, 6, 9):
        board = board.play(position_to_cell(position), O, first=O)
        if board.is_terminal():
            break
        move = minimax(board, SEED001).best_move
        assert move is not None
        replies.append(cell_to_position(move))
        board = board.play(move, X, first=O)
    assert replies == [1, 3, 8, 4]
    assert board == Board.from_string("XOX/XOO/OXO") and board.winner() is None


@settings(deadline=None, max_examples=40)
@given(reachable_boards(first=O, max_empty=7).filter(lambda b: not b.is_terminal() and b.to_move(O) == X))
def test_seed001_move_scores_match_on_random_positions(board: Board) -> None:
    _check_seed001(board)


# -- seed 002: minimax_with_count, X maximizes -----------------------------------------------


# fmt: off  (kept as the notebook wrote it)
def seed002_minimax_with_count(
    board: list[list[str]],
) -> Callable[[bool], tuple[int, tuple[int, int] | None, int]]:
    node_count = [0]

    def check_winner(board):
        lines = []
        for i in range(3):
            lines.append(board[i])
            lines.append([board[0][i], board[1][i], board[2][i]])
        lines.append([board[0][0], board[1][1], board[2][2]])
        lines.append([board[0][2], board[1][1], board[2][0]])
        for line in lines:
            if line[0] != " " and line.count(line[0]) == 3:
                return line[0]
        return None

    def is_terminal(board):
        return check_winner(board) is not None or all(board[i][j] != " " for i in range(3) for j in range(3))

    def evaluate(board):
        winner = check_winner(board)
        return 1 if winner == "X" else -1 if winner == "O" else 0

    def minimax_with_count(board, is_max_turn):
        node_count[0] += 1
        if is_terminal(board):
            return evaluate(board), None
        best_score = float("-inf") if is_max_turn else float("inf")
        best_move = None
        for i, j in [(i, j) for i in range(3) for j in range(3) if board[i][j] == " "]:
            board[i][j] = "X" if is_max_turn else "O"
            score, _ = minimax_with_count(board, not is_max_turn)
            board[i][j] = " "
            if (score > best_score) if is_max_turn else (score < best_score):
                best_score = score
                best_move = (i, j)
        return best_score, best_move

    def run(is_max_turn: bool) -> tuple[int, tuple[int, int] | None, int]:
        score, move = minimax_with_count(board, is_max_turn)
        return score, move, node_count[0]

    return run


# fmt: on


@settings(deadline=None)
@given(reachable_boards(max_empty=6))
def test_seed002_node_count_and_move_match(board: Board) -> None:
    run = seed002_minimax_with_count(CODECS["grid-space"].encode(board))  # type: ignore[arg-type]
    score, move, nodes = run(board.to_move() == X)
    result = minimax(board, SearchSpec(maximizer=X))
    assert (score, nodes) == (result.value, result.nodes)
    assert result.best_move == (None if move is None else 3 * move[0] + move[1])


def test_seed002_counts_549946_nodes_from_the_start() -> None:
    assert minimax(Board.empty(), SearchSpec(maximizer=X)).nodes == 549_946


# -- seed 004: flat board, O maximizes, depth-limited via minimax(child, 0, ...) ---------------


def seed004(board: Board, max_depth: float) -> tuple[int, dict[int, int]]:
    """Lab05's ``best_move_depth`` on ``board`` (the shared source), with the score
    ``minimax(child, 0, False, max_depth)`` it gives each move."""
    namespace: dict[str, Any] = {}
    exec(compile(LAB05_SOLUTION, "<seed 004>", "exec"), namespace)
    cells = CODECS["flat-space"].encode(board)
    scores = {}
    for i in board.empty_cells():
        cells[i] = "O"  # type: ignore[index]
        scores[i] = namespace["minimax"](cells, 0, False, max_depth)
        cells[i] = " "  # type: ignore[index]
    return namespace["best_move_depth"](cells, max_depth), scores


@settings(deadline=None)
@given(nonterminal_boards(max_empty=8).filter(lambda b: b.to_move() == O))
def test_seed004_depth_limited_best_move_matches(board: Board) -> None:
    # the unlimited oracle is slow on open boards; the limited ones are cheap anywhere
    for max_depth in (0, 1, 3) if board.count(".") > 6 else (0, 1, 3, math.inf):
        move, scores = seed004(board, max_depth)
        limit = None if max_depth == math.inf else int(max_depth)
        spec = SearchSpec(maximizer=O, start_depth=-1, depth_limit=limit)
        assert move_values(board, spec) == scores
        assert minimax(board, spec).best_move == move
