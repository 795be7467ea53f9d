"""The reference replayed under a student's own move order, against lab05's alpha-beta
edited to try its moves in another order (one order everywhere, or one per node)."""

from __future__ import annotations

import math
from collections.abc import Callable

from hypothesis import given, settings

from reference.replay import StudentOrder, orders_tried, replayed_trace
from reference.search import SearchSpec
from reference.strategies import nonterminal_boards
from reference.tictactoe import Board, O
from reference.trace import alphabeta_trace, first_divergence
from tests.seed_sources import LAB05_RECORDS_VISITS, LAB05_SOLUTION, edited

SPEC = SearchSpec()  # lab05: O maximizes, X moves first
ROW_MAJOR_LOOP = "for i in range(9):"
CENTRE_FIRST = "for i in [4, 0, 2, 6, 8, 1, 3, 5, 7]:"
# An order that changes from node to node: a rotation that depends on how many cells are empty.
SORTED_PER_NODE = 'for i in sorted(range(9), key=lambda c: (5 * c + board.count(" ")) % 9):'


def student(*edits: tuple[str, str]) -> Callable[[Board], list[str]]:
    """Lab05's ``minimaxAB``, edited, keeping the board of every call; it explores from a
    board with the full window, as the assignment calls it."""
    namespace: dict = {}
    source = "visited = []\n" + edited(LAB05_SOLUTION, [LAB05_RECORDS_VISITS, *edits])
    exec(compile(source, "<lab05>", "exec"), namespace)

    def explore(board: Board) -> list[str]:
        namespace["visited"] = []
        cells = [" " if c == "." else c for c in board.cells]
        namespace["minimaxAB"](cells, 0, board.to_move() == O, -math.inf, math.inf)
        return namespace["visited"]

    return explore


CENTRE_FIRST_SEARCH = student((ROW_MAJOR_LOOP, CENTRE_FIRST))
SORTED_SEARCH = student((ROW_MAJOR_LOOP, SORTED_PER_NODE))


def test_the_orders_tried_are_read_from_the_exploration() -> None:
    steps = CENTRE_FIRST_SEARCH(Board.from_string("XO.XO...."))
    orders = orders_tried(steps)
    # The centre and the corner 0 are taken; with the full window the root tries every move.
    assert orders[steps[0]] == (2, 6, 8, 5, 7)
    assert all(moves == tuple(m for m in (4, 0, 2, 6, 8, 1, 3, 5, 7) if m in moves) for moves in orders.values())
    # Where a node cut off, the moves never tried follow in row-major order.
    cut = next(position for position, moves in orders.items() if len(moves) < position.count("."))
    tried = orders[cut]
    assert StudentOrder(steps)(tuple(cut)) == tried + tuple(m for m in range(9) if m not in tried)


def test_a_centre_first_alphabeta_explores_as_the_reference_under_its_order() -> None:
    board = Board.empty()
    steps = CENTRE_FIRST_SEARCH(board)
    row_major = alphabeta_trace(board, SPEC).steps
    assert first_divergence(steps, row_major) is not None  # not the assignment's order...
    replay = replayed_trace(steps, board, SPEC)
    assert replay.complete and list(replay.steps) == steps  # ...but a correct alpha-beta in its own
    assert len(steps) < len(row_major)


@settings(max_examples=30, deadline=None, database=None)
@given(board=nonterminal_boards(max_empty=7))
def test_a_search_sorting_its_moves_per_node_is_replayed_exactly(board: Board) -> None:
    steps = SORTED_SEARCH(board)
    assert list(replayed_trace(steps, board, SPEC).steps) == steps


def test_a_mistake_still_parts_from_the_replay_under_the_students_order() -> None:
    board = Board.from_string("X........")
    strict = student((ROW_MAJOR_LOOP, CENTRE_FIRST), ("if beta <= alpha:", "if beta < alpha:"))(board)
    divergence = first_divergence(strict, replayed_trace(strict, board, SPEC).steps)
    assert divergence is not None and divergence.step > 0
    assert divergence.student is not None  # the strict search went on where the reference cut off


def test_a_row_major_exploration_is_searched_in_one_fixed_order() -> None:
    # Read from a row-major search (one that prunes nothing, too), the per-node order is
    # row-major everywhere: the reference is then searched in the fixed order, the same for
    # every such student. A centre-first or per-node order stays the student's own.
    row_major = student()(Board.from_string("X...O...."))
    never_prunes = student(("if beta <= alpha:", "if False:"))(Board.from_string("X...O...."))
    for steps in (row_major, never_prunes):
        assert StudentOrder(steps).fixed() == tuple(range(9))
    for search in (CENTRE_FIRST_SEARCH, SORTED_SEARCH):
        order = StudentOrder(search(Board.from_string("X...O....")))
        assert order.fixed() is order


def test_an_exploration_s_order_is_read_once_and_is_the_same_order() -> None:
    steps = CENTRE_FIRST_SEARCH(Board.from_string("X...O...."))
    first = StudentOrder.of(steps)
    assert StudentOrder.of(list(steps)) is first
    assert first.tried == orders_tried(steps)
