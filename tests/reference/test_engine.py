"""The engine's hooks: a move order per node, and what a node reports after each child."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from hypothesis import given, settings
from hypothesis import strategies as st

from reference.engine import CORRECT, NO_PRUNING, Cells, FailMode, MoveOrder, Rules
from reference.mistakes import MISTAKES, SCOPED
from reference.search import SearchSpec, minimax, minimax_nodes, spec_search
from reference.strategies import nonterminal_boards, windows
from reference.tictactoe import Board
from reference.trace import MAX_STEPS, StepRecorder, TraceEnds

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


# -- a subtree explored before is replayed, not explored again --------------------------------

_EVERY_RULE_SET = (CORRECT, NO_PRUNING, *(rules for m in (*MISTAKES, *SCOPED) for rules in m.rules))


@dataclass(frozen=True)
class _Explored:
    value: float | None
    """None: the search was ended (then neither its best move nor its node count is kept)."""
    best_move: int | None
    nodes: int | None
    steps: list[str]
    ended: bool
    """The recorder ended the search (the cap, or a step off ``expected``)."""
    left_at: str | None


def _explore(
    board: Board,
    rules: Rules,
    window: tuple[float, float],
    fail: FailMode,
    order: MoveOrder,
    replayed: bool,
    cap: int = MAX_STEPS,
    expected: list[str] | None = None,
) -> _Explored:
    recorder = StepRecorder(cap, expected)
    search = spec_search(
        SPEC,
        rules,
        fail=fail,
        order=order,
        window=window,
        on_enter=recorder,
        on_repeat=recorder.repeat if replayed else None,
    )
    try:
        value, best_move = search.search(board.cells, board.to_move(), 0, *window)
    except TraceEnds:
        return _Explored(None, None, None, recorder.steps, True, recorder.left_at)
    return _Explored(value, best_move, search.nodes, recorder.steps, False, recorder.left_at)


ROW = tuple(range(9))
_ORDERS: tuple[MoveOrder, ...] = (ROW, CENTRE_FIRST, _sorted_by_a_heuristic)


@settings(max_examples=150, deadline=None, database=None)
@given(
    board=nonterminal_boards(min_empty=3, max_empty=8),
    rules=st.sampled_from(_EVERY_RULE_SET),
    window=windows(),
    fail=st.sampled_from(("soft", "hard")),
    order=st.sampled_from(_ORDERS),
)
def test_a_replayed_search_enters_the_same_nodes_and_returns_the_same(
    board: Board, rules: Rules, window: tuple[float, float], fail: FailMode, order: MoveOrder
) -> None:
    """Replaying a subtree explored before is exact: for every rule set, known mistake and
    scoped mistake, window, fail mode and move order (fixed or per node), the same steps in
    the same order, the same value, best move and node count as exploring every node."""
    explored = _explore(board, rules, window, fail, order, replayed=False)
    assert _explore(board, rules, window, fail, order, replayed=True) == explored


@settings(max_examples=150, deadline=None, database=None)
@given(
    board=nonterminal_boards(min_empty=4, max_empty=8),
    rules=st.sampled_from(_EVERY_RULE_SET),
    student=st.sampled_from(_EVERY_RULE_SET),
    window=windows(),
    cap=st.integers(1, 3000),
)
def test_a_replayed_search_ends_where_the_expected_exploration_is_left_or_at_the_cap(
    board: Board, rules: Rules, student: Rules, window: tuple[float, float], cap: int
) -> None:
    """Against another rule set's exploration (a student's), and under a cap that may fall
    inside a replayed subtree, a replayed search ends at the same step, with the same steps
    recorded and the same step named as the one that left the expected exploration."""
    expected = _explore(board, student, window, "soft", ROW, replayed=False).steps
    for bound, against in ((MAX_STEPS, expected), (cap, None), (cap, expected)):
        plain = _explore(board, rules, window, "soft", ROW, replayed=False, cap=bound, expected=against)
        assert _explore(board, rules, window, "soft", ROW, replayed=True, cap=bound, expected=against) == plain


def test_replaying_explores_each_position_and_window_once() -> None:
    """What replaying buys: plain minimax from X........ enters 59,705 nodes, all recorded,
    but expands each of its 1,870 distinct positions (each with one window here) once; every
    other entry is part of a replayed subtree."""
    board = Board.from_string("X........")
    recorder = StepRecorder()
    replayed: list[int] = []

    def repeat(start: int, count: int) -> None:
        replayed.append(count)
        recorder.repeat(start, count)

    search = spec_search(SPEC, NO_PRUNING, on_enter=recorder, on_repeat=repeat)
    search.search(board.cells, board.to_move(), 0, -math.inf, math.inf)
    assert search.nodes == len(recorder.steps) == minimax_nodes(board, SPEC) == 59_705
    assert recorder.steps == _explore(board, NO_PRUNING, (-math.inf, math.inf), "soft", ROW, replayed=False).steps
    assert len(recorder.steps) - sum(replayed) == len(set(recorder.steps)) == 1_870
