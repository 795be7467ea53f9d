"""Where a search on Connect Four first parts from the reference's, from the positions its
heuristic was given in order: each student search here is the reference's under one mistake,
so where it parts is known."""

from __future__ import annotations

from dataclasses import replace

from grader.checks.game_divergence import first_parting, search_divergence
from reference.connect4 import ConnectK, ConnectState
from reference.connect_endings import play
from reference.connect_heuristics import OpenWindows
from reference.game_search import GameSearchSpec, alphabeta_search
from reference.game_trace import GameTrace, trace_search

GAME = ConnectK(rows=5, cols=6, k=4)
ROOT = play(GAME, (2, 3, 3))
SPEC = GameSearchSpec(depth_limit=3, evaluate=OpenWindows(GAME), win_value=1000)


def evaluated(trace: GameTrace[ConnectState]) -> list[ConnectState]:
    return [trace.nodes[i].state for i in trace.evaluated]


def test_the_trace_evaluates_what_the_reference_search_evaluates() -> None:
    trace = trace_search(GAME, ROOT, SPEC, prune=True)
    result = alphabeta_search(GAME, ROOT, SPEC)
    assert (len(trace.nodes), len(trace.evaluated)) == (result.nodes, result.evaluations)
    assert trace.nodes[0].value == result.value
    assert all(len(trace.nodes[i].path) == 3 or GAME.is_terminal(trace.nodes[i].state) for i in trace.evaluated)


def test_the_same_evaluations_in_the_same_order_do_not_part() -> None:
    trace = trace_search(GAME, ROOT, SPEC, prune=True)
    assert first_parting(trace, evaluated(trace)) is None
    assert search_divergence(GAME, ROOT, [SPEC], True, evaluated(trace)) is None


def test_a_search_that_does_not_cut_off_parts_where_the_reference_first_cuts_off() -> None:
    pruned = trace_search(GAME, ROOT, SPEC, prune=True)
    student = evaluated(trace_search(GAME, ROOT, SPEC, prune=False))
    parting = first_parting(pruned, student)
    assert parting is not None and parting.student is not None
    node = pruned.nodes[parting.node]
    cut = next(w for w in node.weighed if w.cut)  # the reference cut off at that very node
    assert student[: parting.index] == evaluated(pruned)[: parting.index]
    divergence = search_divergence(GAME, ROOT, [SPEC], True, student)
    assert divergence is not None
    assert divergence.path == node.path and divergence.evaluation == parting.index + 1
    assert divergence.window == (node.alpha, node.beta)
    assert divergence.expected.startswith(f"the reference cuts off here: after column {cut.move} its value")
    assert divergence.actual.startswith("your search went to column")


def test_a_search_that_tries_the_columns_right_to_left_parts_at_the_first_evaluation() -> None:
    right_to_left = replace(SPEC, order=lambda state: list(reversed(GAME.actions(state))))
    student = evaluated(trace_search(GAME, ROOT, right_to_left, prune=True))
    divergence = search_divergence(GAME, ROOT, [SPEC], True, student)
    assert divergence is not None
    assert (divergence.path, divergence.evaluation) == ((), 1)
    assert divergence.expected == "the reference goes on to column 0 and evaluates the position after columns 0 0 0"
    assert divergence.actual == "your search went to column 5 and evaluated the position after columns 5 5 5"
    assert divergence.drawing.last is None  # the position searched: no move of the path to ring


def test_a_search_that_stops_early_parts_where_the_reference_goes_on() -> None:
    trace = trace_search(GAME, ROOT, SPEC, prune=False)
    student = evaluated(trace)[:7]
    divergence = search_divergence(GAME, ROOT, [SPEC], False, student)
    assert divergence is not None and divergence.evaluation == 8
    assert divergence.window is None  # minimax has no window
    assert divergence.actual == "your search evaluated no more positions"
    next_path = trace.nodes[trace.evaluated[7]].path
    assert divergence.expected.endswith(f"evaluates the position after columns {' '.join(map(str, next_path))}")


def test_a_search_that_goes_past_the_depth_limit_parts_at_the_first_leaf() -> None:
    shallow = replace(SPEC, depth_limit=2)
    student = evaluated(trace_search(GAME, ROOT, SPEC, prune=True))
    divergence = search_divergence(GAME, ROOT, [shallow], True, student)
    assert divergence is not None
    assert divergence.path == (0, 0)  # the leaf the reference evaluates, where the student went on
    assert divergence.expected == "the reference evaluates this position"
    assert divergence.actual == "your search went to column 0 and evaluated the position after columns 0 0 0"


def test_progressive_deepening_parts_in_the_search_of_the_depth_where_it_goes_wrong() -> None:
    specs = [replace(SPEC, depth_limit=depth) for depth in (1, 2, 3)]
    first, second = (evaluated(trace_search(GAME, ROOT, spec, prune=True)) for spec in specs[:2])
    wrong_third = evaluated(trace_search(GAME, ROOT, specs[2], prune=False))  # the deepest search prunes nothing
    divergence = search_divergence(GAME, ROOT, specs, True, first + second + wrong_third)
    assert divergence is not None and divergence.depth == 3
    parting = first_parting(trace_search(GAME, ROOT, specs[2], prune=True), wrong_third)
    assert parting is not None
    assert divergence.evaluation == len(first) + len(second) + parting.index + 1
    # the same depth-1 answers twice: the second depth's search is where it parts
    again = search_divergence(GAME, ROOT, specs, True, first + first + second)
    assert again is not None and again.depth == 2 and again.evaluation == len(first) + 1


def test_a_leaf_evaluated_twice_parts_at_that_leaf() -> None:
    trace = trace_search(GAME, ROOT, SPEC, prune=False)
    once = evaluated(trace)
    twice = [state for state in once for _ in range(2)]
    divergence = search_divergence(GAME, ROOT, [SPEC], False, twice)
    assert divergence is not None and divergence.evaluation == 2
    assert divergence.path == trace.nodes[trace.evaluated[0]].path
    assert divergence.expected.startswith("the reference evaluates this position once and goes on to the position")
    assert divergence.actual == "your search evaluated this position again"


def test_a_search_that_stops_a_ply_short_parts_at_the_node_it_evaluated_instead() -> None:
    short = evaluated(trace_search(GAME, ROOT, replace(SPEC, depth_limit=2), prune=True))
    divergence = search_divergence(GAME, ROOT, [SPEC], True, short)
    assert divergence is not None and divergence.evaluation == 1
    assert divergence.path == (0, 0)
    assert divergence.expected == "the reference goes on to column 0 and evaluates the position after columns 0 0 0"
    assert divergence.actual == "your search evaluated this position"
