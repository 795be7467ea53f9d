"""The reference's search standing in for a search another search calls, on the course with its own
state objects: made from the assignment's check of the search, bound in a plain namespace, it answers
what the reference engine answers on the same position: the path, the score, the static evaluations."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import Any

import pytest

from grader.checks.context import CheckContext
from grader.checks.game_cases import GameCase, game_view
from grader.checks.kinds.game_search import sampled_positions
from grader.checks.reference_helpers import stand_in_for
from grader.execution.channel.kernel.stand_ins import install_stand_ins
from grader.spec.loader import load_assignment
from reference.game_search import GameSearchSpec, alphabeta_search, best_leaf_search, minimax_search
from reference.tictactoe import opponent
from tests.checks.in_process import InProcessRunner
from tests.courses.state_course import COURSE, SOLUTION, SUPPORT

ASSIGNMENT = load_assignment(COURSE)
WRONG = """

def minimax_search(state, heuristic_fn=always_zero, depth_limit=INF, maximize=True):
    return [state], 0, 0

def minimax_search_alphabeta(state, alpha=-INF, beta=INF, heuristic_fn=always_zero, depth_limit=INF, maximize=True):
    return [state], 0, 0

def dfs_maximizing(state):
    return [state], 0, 0
"""


@pytest.fixture(scope="module")
def lab() -> Iterator[tuple[CheckContext, dict[str, Any]]]:
    """The solution with its searches wrong, and the reference's searches bound in their place."""
    sys.path.insert(0, str(SUPPORT))
    try:
        runner = InProcessRunner(SOLUTION.read_text(encoding="utf-8") + WRONG)
        ctx = CheckContext.of(ASSIGNMENT, runner, frozenset(runner.defined_names()))
        by_id = {check.id: check for check in ASSIGNMENT.checks}
        stand_ins = [stand_in_for(by_id[name], ctx) for name in ("minimax", "alphabeta", "dfs-maximizing")]
        assert all(stand_ins), stand_ins
        restore = install_stand_ins(runner.namespace, [s.to_request() for s in stand_ins if s is not None])
        yield ctx, runner.namespace
        restore()
    finally:
        sys.path.remove(str(SUPPORT))


def _answer(ctx: CheckContext, namespace: dict[str, Any], root: Any, search: str, *args: Any, **kwargs: Any) -> Any:
    """The search bound to ``search`` called on the course's state of ``root``, its path read as positions."""
    view = game_view(ctx)
    board = namespace["ConnectFourBoard"](view.encode(root))
    functions = (namespace[f"{f}_connectfour"] for f in ("is_game_over", "next_boards", "endgame_score"))
    path, score, evaluations = namespace[search](namespace["AbstractGameState"](board, *functions), *args, **kwargs)
    return tuple(view.setup.encoding.decode(step.snapshot.board_array).cells for step in path), score, evaluations


def _reference(
    ctx: CheckContext, namespace: dict[str, Any], root: Any, search: str, depth: int | None, maximize: bool
) -> Any:
    """The reference engine's path, score and count on ``root``, under the course's heuristic."""
    view = game_view(ctx)
    game = view.game
    mover = game.to_move(root)
    player = mover if maximize else opponent(mover)

    def evaluate(node: Any, to_value_for: str) -> float:
        if game.is_terminal(node):
            return 1000 * game.utility(node, to_value_for)
        is_max = search == "best-leaf" or game.to_move(node) == to_value_for
        return namespace["heuristic_connectfour"](namespace["ConnectFourBoard"](view.encode(node)), is_max)

    spec = GameSearchSpec(depth_limit=depth, evaluate=evaluate, evaluate_terminals=True, win_value=1000, tie="first")
    best = (
        best_leaf_search(game, root, spec) if search == "best-leaf" else minimax_search(game, root, spec, player=player)
    )
    count = alphabeta_search(game, root, spec, player=player).evaluations if search == "alphabeta" else best.evaluations
    states = [root]
    for move in best.path:
        states.append(game.result(states[-1], move))
    return tuple(s.cells for s in states), best.value, count


def _position(ctx: CheckContext, moves: str) -> Any:
    view = game_view(ctx)
    return GameCase(view.game, tuple(map(int, moves))).state


@pytest.mark.parametrize("maximize", [True, False])
@pytest.mark.parametrize("moves", ["3344", "33442"])
def test_the_stand_in_answers_the_reference_engine_s_path_score_and_count(lab: Any, moves: str, maximize: bool) -> None:
    ctx, namespace = lab
    h, inf, root = namespace["heuristic_connectfour"], float("inf"), _position(ctx, moves)
    for depth in (1, 2, 3):
        expected = _reference(ctx, namespace, root, "minimax", depth, maximize)
        assert _answer(ctx, namespace, root, "minimax_search", h, depth, maximize) == expected
        expected = _reference(ctx, namespace, root, "alphabeta", depth, maximize)
        assert _answer(ctx, namespace, root, "minimax_search_alphabeta", -inf, inf, h, depth, maximize) == expected


def test_a_call_by_keyword_searches_to_the_end_with_the_student_s_defaults(lab: Any) -> None:
    """``minimax_search(state, maximize=False)``, as a ``minimax_endgame_search`` calls it: no depth limit,
    as the student's function's defaults say."""
    ctx, namespace = lab
    (check,) = [c for c in ASSIGNMENT.checks if c.id == "minimax-endgame"]
    view = game_view(ctx)
    (case, *_) = sampled_positions(check, ctx, view, 36, 38, 2)
    for maximize in (True, False):
        expected = _reference(ctx, namespace, case.state, "minimax", None, maximize)
        assert _answer(ctx, namespace, case.state, "minimax_search", maximize=maximize) == expected
    expected = _reference(ctx, namespace, case.state, "best-leaf", None, True)
    assert _answer(ctx, namespace, case.state, "dfs_maximizing") == expected
