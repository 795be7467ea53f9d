"""The engine's hooks: a move order per node, and what a node reports after each child."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from hypothesis import given, settings

from reference.engine import Cells, Rules
from reference.search import SearchSpec, minimax, minimax_nodes, spec_search
from reference.strategies import nonterminal_boards, windows
from reference.tictactoe import Board
from reference.trace import StepRecorder

SPEC = SearchSpec()
CENTRE_FIRST = (4, 0, 2, 6, 8, 1, 3, 5, 7)


def test_an_order_given_per_node_explores_as_the_same_order_given_once() -> None:
    board = Board.from_string("X........")
    per_node = spec_search(SPEC, order=lambda cells: CENTRE_FIRST, on_enter=(recorder := StepRecorder()))
    once = spec_search(SPEC, Rules(order=CENTRE_FIRST), on_enter=(fixed := StepRecorder()))
    mover = board.to_move()
    assert per_node.search(board.cells, mover, 0, -2, 2) == once.search(board.cells, mover, 0, -2, 2)
    assert recorder.steps == fixed.steps and per_node.nodes == once.nodes
    assert fixed.steps[:2] == ["X........", "X...O...."]  # the centre is tried first


def _sorted_by_a_heuristic(cells: Cells) -> list[int]:
    """An order that changes from node to node: the cells next to the most marks first."""
    near = {cell: sum(cells[other] != "." for other in range(9) if abs(other - cell) in (1, 3)) for cell in range(9)}
    return sorted(range(9), key=lambda cell: (-near[cell], cell))


@settings(max_examples=40, deadline=None, database=None)
@given(board=nonterminal_boards(min_empty=3, max_empty=8))
def test_alphabeta_is_right_under_any_move_order(board: Board) -> None:
    mover = board.to_move()
    search = spec_search(SPEC, order=_sorted_by_a_heuristic)
    value, best_move = search.search(board.cells, mover, 0, -math.inf, math.inf)
    assert value == minimax(board, SPEC).value
    assert best_move in minimax(board, SPEC).best_moves
    assert search.nodes <= minimax_nodes(board, SPEC)


@dataclass
class _Node:
    cells: str
    entry: tuple[float, float]
    held: tuple[float, float]
    """The window the node hands its next child."""
    weighed: list[tuple[float, float, float, float, bool]] = field(default_factory=list)
    """(child's value, best so far, alpha, beta, cut off) after each child."""
    children: int = 0


class _Watch:
    """Checks, as the search runs, that every child is entered with the window its parent
    reported holding, and that no child is entered after a reported cut-off."""

    def __init__(self, maximizer: str) -> None:
        self.maximizer = maximizer
        self.open: list[_Node] = []
        self.closed: list[_Node] = []

    def entered(self, cells: Cells, alpha: float, beta: float) -> None:
        if self.open:
            parent = self.open[-1]
            assert not any(weighed[-1] for weighed in parent.weighed), "a child entered after a cut-off"
            assert (alpha, beta) == parent.held
            parent.children += 1
        self.open.append(_Node("".join(cells), (alpha, beta), (alpha, beta)))

    def weighed(self, value: float, best: float, alpha: float, beta: float, cut: bool) -> None:
        node = self.open[-1]
        node.held = (alpha, beta)
        node.weighed.append((value, best, alpha, beta, cut))

    def returned(self, value: float) -> None:
        node = self.open.pop()
        if node.weighed:
            assert value == node.weighed[-1][1]  # fail-soft: the best value seen
        self.closed.append(node)


@settings(max_examples=40, deadline=None, database=None)
@given(board=nonterminal_boards(min_empty=3, max_empty=8), window=windows())
def test_each_node_reports_the_window_it_hands_down_and_where_it_cuts_off(
    board: Board, window: tuple[float, float]
) -> None:
    watch = _Watch(SPEC.maximizer)
    search = spec_search(SPEC, on_enter=watch.entered, on_weigh=watch.weighed, on_return=watch.returned)
    search.search(board.cells, board.to_move(), 0, *window)
    assert not watch.open and len(watch.closed) == search.nodes
    for node in watch.closed:
        maximizing = node.cells.count("X") > node.cells.count("O")  # X moved first: O, the maximizer, to move
        before = node.entry
        for _, best, alpha, beta, cut in node.weighed:
            # The rule the node applied: cut when its best reaches the bound, else move its own bound.
            if maximizing:
                assert cut == (best >= before[1])
                assert cut or (alpha, beta) == (max(before[0], best), before[1])
            else:
                assert cut == (best <= before[0])
                assert cut or (alpha, beta) == (before[0], min(before[1], best))
            before = (alpha, beta)
        if node.weighed and not node.weighed[-1][-1]:
            assert node.children == node.cells.count(".")  # no cut-off: every move tried
