"""Minimax and alpha-beta: agreement, window guarantees, depth limits and knobs."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reference.engine import NO_PRUNING
from reference.search import (
    SearchSpec,
    alphabeta,
    minimax,
    minimax_nodes,
    move_values,
    optimal_moves,
    root_mover,
    spec_search,
)
from reference.solved import solve_all
from reference.strategies import nonterminal_boards, reachable_boards, windows
from reference.tictactoe import EMPTY, SYMMETRIES, Board, MalformedBoard, O, X

UNIT = SearchSpec()  # seed 003: O maximizes, X first, +1/0/-1
ADJUSTED = SearchSpec(maximizer=X, first_player=O, scoring="depth-adjusted", start_depth=-1)  # seed 001
ADJUSTED_BOUNDS = (-math.inf, -10, -8, -6.5, -5, -1, 0, 1, 5, 6.5, 8, 10, math.inf)


# -- full window: alpha-beta == minimax on every reachable position --------------------------


@pytest.mark.parametrize("spec", [UNIT, ADJUSTED], ids=["unit", "depth-adjusted"])
@pytest.mark.parametrize("fail", ["soft", "hard"])
def test_full_window_alphabeta_equals_minimax_everywhere(spec: SearchSpec, fail: str) -> None:
    # The solved table is minimax's value (checked against minimax in test_ref_solved.py);
    # re-running minimax per position would take minutes.
    for board, solution in solve_all(spec).items():
        result = alphabeta(board, spec, fail=fail)  # type: ignore[arg-type]
        assert result.value == solution.value, board
        # With the full window the first move that reaches the best value is exact.
        assert result.best_move == solution.best_move, board


# -- narrow windows: the textbook bound guarantees --------------------------------------------


def _check_window_guarantees(board: Board, spec: SearchSpec, alpha: float, beta: float) -> None:
    true = solve_all(spec)[board].value
    soft = alphabeta(board, spec, alpha=alpha, beta=beta, fail="soft")
    hard = alphabeta(board, spec, alpha=alpha, beta=beta, fail="hard")

    if soft.value <= alpha:
        assert true <= soft.value
    elif soft.value >= beta:
        assert true >= soft.value
    else:
        assert soft.value == true

    assert alpha <= hard.value <= beta
    if hard.value == alpha:
        assert true <= alpha
    elif hard.value == beta:
        assert true >= beta
    else:
        assert hard.value == true

    # Clamping a child's value never changes which bound it crosses, so both modes
    # search the same tree, and each fail-hard node is its fail-soft value clamped.
    assert hard.nodes == soft.nodes
    assert hard.value == min(max(soft.value, alpha), beta)


@settings(deadline=None)  # the first example builds the solved table
@given(board=reachable_boards(), window=windows())
def test_window_guarantees_unit(board: Board, window: tuple[float, float]) -> None:
    _check_window_guarantees(board, UNIT, *window)


@settings(deadline=None)  # the first example builds the solved table
@given(board=reachable_boards(first=O), window=windows(ADJUSTED_BOUNDS))
def test_window_guarantees_depth_adjusted(board: Board, window: tuple[float, float]) -> None:
    _check_window_guarantees(board, ADJUSTED, *window)


@settings(deadline=None)  # several full searches per example
@given(board=nonterminal_boards(min_empty=2, max_empty=7), window=windows())
def test_narrower_windows_never_search_more(board: Board, window: tuple[float, float]) -> None:
    assert alphabeta(board, UNIT, alpha=window[0], beta=window[1]).nodes <= alphabeta(board, UNIT).nodes
    assert alphabeta(board, UNIT).nodes <= minimax(board, UNIT).nodes


def test_alphabeta_rejects_bad_windows_and_modes() -> None:
    with pytest.raises(ValueError, match="alpha < beta"):
        alphabeta(Board.empty(), alpha=0, beta=0)
    with pytest.raises(ValueError, match="fail is 'soft' or 'hard'"):
        alphabeta(Board.empty(), fail="medium")  # type: ignore[arg-type]


# -- depth limits -------------------------------------------------------------------------


@settings(deadline=None)
@given(
    board=reachable_boards(max_empty=7),
    extra=st.integers(0, 3),
    spec=st.sampled_from([UNIT, ADJUSTED]),
)
def test_depth_limit_beyond_the_empty_cells_is_the_full_search(board: Board, extra: int, spec: SearchSpec) -> None:
    first = spec.first_player
    if not board.is_legal_position(first):
        board = Board(tuple({X: O, O: X}.get(s, s) for s in board.cells))  # swap to fit `first`
    limit = spec.start_depth + board.count(EMPTY) + extra
    limited = replace(spec, depth_limit=limit, cutoff_value=99)
    assert minimax(board, limited) == minimax(board, spec)
    assert alphabeta(board, limited) == alphabeta(board, spec)


@given(nonterminal_boards())
def test_depth_limit_one_sees_only_immediate_wins(board: Board) -> None:
    spec = replace(UNIT, depth_limit=1, cutoff_value=0.25)
    mover = board.to_move()
    expected: dict[int, float] = {}
    for cell in board.empty_cells():
        child = board.play(cell)
        if child.winner() == mover:
            expected[cell] = 1 if mover == UNIT.maximizer else -1
        elif child.is_full():
            expected[cell] = 0
        else:
            expected[cell] = 0.25
    assert move_values(board, spec) == expected
    assert minimax(board, spec).nodes == 1 + len(expected)


@given(nonterminal_boards())
def test_a_root_at_the_depth_limit_is_not_expanded(board: Board) -> None:
    spec = replace(UNIT, start_depth=3, depth_limit=3, cutoff_value=0.5)
    for result in (minimax(board, spec), alphabeta(board, spec)):
        assert (result.value, result.best_move, result.best_moves, result.nodes) == (
            0.5,
            None,
            (),
            1,
        )
    # the per-move values are still defined: each child is searched one ply deeper
    assert set(move_values(board, spec)) == set(board.empty_cells())


# -- knobs and edge cases -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "spec", "value"),
    [
        ("XXXOO....", UNIT, -1),
        ("XXXOO....", replace(UNIT, maximizer=X), 1),
        ("OOOXX.X..", replace(UNIT, first_player=O), 1),
        ("XOXXOOOXX", UNIT, 0),
        ("XXXOO....", SearchSpec(maximizer=X, scoring="depth-adjusted", start_depth=0), 10),
        ("XXXOO....", SearchSpec(maximizer=O, scoring="depth-adjusted", start_depth=3), -7),
    ],
)
def test_terminal_root_is_one_node_scored_at_the_start_depth(text: str, spec: SearchSpec, value: float) -> None:
    for result in (
        minimax(Board.from_string(text), spec),
        alphabeta(Board.from_string(text), spec),
    ):
        assert (result.value, result.best_move, result.best_moves, result.nodes) == (
            value,
            None,
            (),
            1,
        )
    assert move_values(Board.from_string(text), spec) == {}
    assert optimal_moves(Board.from_string(text), spec) == ()


def test_depth_adjusted_scores_prefer_the_fastest_win() -> None:
    # X to move can win at once (cell 2) or later; seed 001 scores the child at depth 0.
    board = Board.from_string("XX.OO....")
    values = move_values(board, SearchSpec(maximizer=X, scoring="depth-adjusted", start_depth=-1))
    assert values[2] == 10
    assert optimal_moves(board, SearchSpec(maximizer=X, scoring="depth-adjusted")) == (2,)
    assert minimax(board, SearchSpec(maximizer=X, scoring="depth-adjusted")).value == 9


@settings(deadline=None)  # several full searches per example
@given(nonterminal_boards(max_empty=6))
def test_move_order_changes_only_the_tie_break(board: Board) -> None:
    reverse = replace(UNIT, move_order=tuple(reversed(range(9))))
    forward, backward = minimax(board, UNIT), minimax(board, reverse)
    assert forward.value == backward.value and forward.nodes == backward.nodes
    assert set(forward.best_moves) == set(backward.best_moves)
    assert forward.best_move == forward.best_moves[0]
    assert backward.best_move == backward.best_moves[0] == max(forward.best_moves)
    assert alphabeta(board, reverse).best_move == backward.best_move


@settings(deadline=None)  # several full searches per example
@given(nonterminal_boards(max_empty=6))
def test_move_values_and_optimal_moves_agree_with_minimax(board: Board) -> None:
    result = minimax(board, UNIT)
    values = move_values(board, UNIT)
    assert tuple(values) == board.empty_cells()
    assert optimal_moves(board, UNIT) == result.best_moves
    best = max(values.values()) if board.to_move() == UNIT.maximizer else min(values.values())
    assert best == result.value


@settings(deadline=None)  # several full searches per example
@given(nonterminal_boards(max_empty=6))
def test_symmetric_images_have_equal_values(board: Board) -> None:
    result = minimax(board, UNIT)
    for perm, image in zip(SYMMETRIES, board.symmetries()):
        mirrored = minimax(image, UNIT)
        assert mirrored.value == result.value and mirrored.nodes == result.nodes
        # image cell i holds original cell perm[i]: optimal moves map along the permutation
        assert {perm[m] for m in mirrored.best_moves} == set(result.best_moves)


@settings(deadline=None)  # several full searches per example
@given(reachable_boards(max_empty=6).filter(lambda b: b.count(X) == b.count(O) and not b.is_terminal()))
def test_to_move_overrides_the_counts(board: Board) -> None:
    as_if_o_first = minimax(board, replace(UNIT, first_player=O))
    assert minimax(board, UNIT, to_move=O) == as_if_o_first
    assert alphabeta(board, UNIT, to_move=O) == alphabeta(board, replace(UNIT, first_player=O))


def test_errors_are_typed_and_specific() -> None:
    with pytest.raises(MalformedBoard, match="both players have three in a row"):
        minimax(Board.from_string("XXXOOO..."))
    with pytest.raises(MalformedBoard, match="X has 0 marks and O has 2 marks"):
        minimax(Board.from_string("OO......."))
    with pytest.raises(ValueError, match="a player is 'X' or 'O'"):
        minimax(Board.empty(), to_move="x")
    with pytest.raises(ValueError, match="a player is 'X' or 'O'"):
        SearchSpec(maximizer="max")
    with pytest.raises(ValueError, match="scoring is 'unit' or 'depth-adjusted'"):
        SearchSpec(scoring="tenths")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="move_order must list each cell 0..8 once"):
        SearchSpec(move_order=(0, 1, 2))
    from_list = SearchSpec(move_order=list(range(9)))  # type: ignore[arg-type]
    assert from_list.move_order == tuple(range(9))


# -- node counts without the search ------------------------------------------------------------


def test_minimax_nodes_from_the_empty_board_is_the_seed_figure() -> None:
    assert minimax_nodes(Board.empty(), UNIT) == 549_946
    assert (
        minimax_nodes(Board.empty(), SearchSpec(maximizer=X, depth_limit=2))
        == minimax(Board.empty(), SearchSpec(maximizer=X, depth_limit=2)).nodes
        == 1 + 9 + 72
    )


@settings(deadline=None)  # a full search per example
@given(
    board=reachable_boards(),
    limit=st.one_of(st.none(), st.integers(min_value=-1, max_value=9)),
    start=st.sampled_from([-1, 0, 2]),
    spec=st.sampled_from([UNIT, ADJUSTED]),
)
def test_minimax_nodes_equals_the_searched_count(board: Board, limit: int | None, start: int, spec: SearchSpec) -> None:
    spec = replace(spec, depth_limit=limit, start_depth=start)
    to_move = board.to_move(X)  # the boards are drawn with X first; ADJUSTED's first player is O
    walk = spec_search(spec, NO_PRUNING)  # every node visited, none memoized
    walk.search(board.cells, root_mover(board, spec, to_move), spec.start_depth, -math.inf, math.inf)
    assert minimax_nodes(board, spec, to_move=to_move) == minimax(board, spec, to_move=to_move).nodes == walk.nodes


def test_minimax_nodes_ignores_move_order_and_follows_the_side_to_move() -> None:
    board = Board.from_string("X...O....")
    reversed_order = replace(UNIT, move_order=tuple(reversed(range(9))))
    assert minimax_nodes(board, reversed_order) == minimax(board, reversed_order).nodes == minimax_nodes(board, UNIT)
    assert minimax_nodes(board, UNIT, to_move=O) == minimax(board, UNIT, to_move=O).nodes
