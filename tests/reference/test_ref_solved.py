"""The solved table: its positions, its values against minimax, and its invariants."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest

from reference.search import SearchSpec, minimax
from reference.solved import reachable_positions, solve, solve_all
from reference.tictactoe import EMPTY, SYMMETRIES, Board, MalformedBoard, O, X

UNIT = SearchSpec()
SEED001 = SearchSpec(maximizer=X, first_player=O, scoring="depth-adjusted", start_depth=-1)
ADJUSTED_X_FIRST = SearchSpec(maximizer=X, scoring="depth-adjusted")


def _swap(board: Board) -> Board:
    return Board(tuple({X: O, O: X}.get(s, s) for s in board.cells))


def test_there_are_5478_positions_and_958_finished_games() -> None:
    table = solve_all()
    assert len(table) == 5478
    assert set(table) == reachable_positions(X)
    outcomes = Counter(board.winner() for board, sol in table.items() if sol.terminal)
    assert outcomes == {X: 626, O: 316, None: 16}


def test_o_first_positions_are_the_colour_swap_of_x_first() -> None:
    assert reachable_positions(O) == {_swap(board) for board in reachable_positions(X)}
    assert set(solve_all(SEED001)) == reachable_positions(O)


def test_table_is_read_only_and_cached() -> None:
    table = solve_all()
    with pytest.raises(TypeError):
        table[Board.empty()] = table[Board.empty()]  # type: ignore[index]
    assert solve_all() is table and solve_all(SearchSpec()) is table


@pytest.mark.parametrize("spec", [UNIT, SEED001, ADJUSTED_X_FIRST], ids=["unit", "seed001", "adjusted"])
def test_table_equals_minimax_on_every_position_with_few_empty_cells(spec: SearchSpec) -> None:
    for board, solution in solve_all(spec).items():
        if board.count(EMPTY) <= 5:
            result = minimax(board, spec)
            assert solution.value == result.value, board
            if not solution.terminal:
                assert solution.optimal_moves == result.best_moves, board


@pytest.mark.parametrize("spec", [UNIT, SEED001, ADJUSTED_X_FIRST], ids=["unit", "seed001", "adjusted"])
def test_table_equals_minimax_on_the_empty_board(spec: SearchSpec) -> None:
    # Positions with 6-9 empty cells are compared with alpha-beta in test_ref_search.py;
    # the one full minimax here anchors the table at the root.
    result = minimax(Board.empty(), spec)
    solution = solve_all(spec)[Board.empty()]
    assert (solution.value, solution.optimal_moves, solution.best_move) == (
        result.value,
        result.best_moves,
        result.best_move,
    )


def test_solution_fields() -> None:
    table = solve_all()
    start = table[Board.empty()]
    assert (start.value, start.to_move, start.terminal) == (0, X, False)
    assert start.optimal_moves == tuple(range(9)) and start.best_move == 0
    won = table[Board.from_string("XXXOO....")]
    assert (won.value, won.to_move, won.optimal_moves, won.best_move, won.terminal) == (
        -1,
        O,
        (),
        None,
        True,
    )
    # O to move must block at 2; anything else loses to X's row
    assert table[Board.from_string("XX..O....")].optimal_moves == (2,)


@pytest.mark.parametrize("spec", [UNIT, SEED001], ids=["unit", "seed001"])
def test_symmetric_positions_share_values_and_optimal_moves(spec: SearchSpec) -> None:
    table = solve_all(spec)
    for board, solution in table.items():
        for perm, image in zip(SYMMETRIES, board.symmetries()):
            mirrored = table[image]
            assert mirrored.value == solution.value
            assert {perm[m] for m in mirrored.optimal_moves} == set(solution.optimal_moves)


def test_depth_adjusted_optimal_moves_refine_unit_optimal_moves() -> None:
    unit = solve_all(replace(UNIT, maximizer=X))
    adjusted = solve_all(ADJUSTED_X_FIRST)
    for board, solution in adjusted.items():
        assert set(solution.optimal_moves) <= set(unit[board].optimal_moves), board
        # same outcome class: the sign of the value agrees
        assert (solution.value > 0) - (solution.value < 0) == unit[board].value


def test_move_order_orders_the_optimal_moves() -> None:
    reverse = replace(UNIT, move_order=tuple(reversed(range(9))))
    assert solve_all(reverse)[Board.empty()].optimal_moves == tuple(reversed(range(9)))
    assert solve_all(reverse)[Board.empty()].best_move == 8


def test_solve_looks_up_one_position_and_explains_unreachable_ones() -> None:
    assert solve(Board.empty()) is solve_all()[Board.empty()]
    with pytest.raises(MalformedBoard, match="cannot occur with X moving first: X has 2 marks"):
        solve(Board.from_string("XX......."))
    with pytest.raises(MalformedBoard, match="both X and O have three in a row"):
        solve(Board.from_string("XXXOOO..."))


def test_unsolvable_specs_are_refused() -> None:
    with pytest.raises(ValueError, match="depth_limit must be None"):
        solve_all(replace(UNIT, depth_limit=3))
    with pytest.raises(ValueError, match="start_depth <= 0"):
        solve_all(replace(ADJUSTED_X_FIRST, start_depth=1))
