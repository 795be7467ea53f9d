"""Depth-limited minimax and alpha-beta over any game, judged by exact counts."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from reference.connect4 import CONNECT_FOUR, ConnectK, ConnectState
from reference.connect_heuristics import CentreColumn, CentrePreference, OpenWindows, centre_out_order
from reference.engine import Search
from reference.game_search import (
    Evaluation,
    GamePositions,
    GameSearchSpec,
    alphabeta_search,
    deepening,
    minimax_search,
)
from reference.game_strategies import played_positions
from reference.search import SearchSpec, alphabeta, minimax
from reference.strategies import nonterminal_boards
from reference.tictactoe import Board, O, TicTacToe, X
from tests.reference.connect_four_games import FINISHED_POSITIONS, played

PINNED = settings(database=None, derandomize=True, deadline=None, report_multiple_bugs=False)
WIN = 10**6
"""What a won game is worth under the heuristics: more than any of them gives a position."""
HEURISTICS: dict[str, Evaluation] = {
    "centre column": CentreColumn(CONNECT_FOUR),
    "centre preference": CentrePreference(CONNECT_FOUR),
    "open windows": OpenWindows(CONNECT_FOUR),
}
ORDERS: tuple[Sequence[int] | None, ...] = (None, centre_out_order(CONNECT_FOUR), (6, 5, 4, 3, 2, 1, 0))


def plain_minimax(
    game: ConnectK, state: ConnectState, depth: int, spec: GameSearchSpec, maximizer: str, ply: int = 0
) -> tuple:
    """(value, positions entered, evaluations) of the textbook recursion, written apart from the engine."""
    if game.is_terminal(state):
        if spec.evaluate_terminals:
            return spec.evaluate(state, maximizer), 1, 1
        won = spec.win_value if spec.scoring == "unit" else spec.win_value - ply
        return won * game.utility(state, maximizer), 1, 0
    if ply == depth:
        return spec.evaluate(state, maximizer), 1, 1
    nodes = evaluations = 0
    values = []
    for column in game.actions(state):
        value, n, e = plain_minimax(game, game.result(state, column), depth, spec, maximizer, ply + 1)
        values.append(value)
        nodes, evaluations = nodes + n, evaluations + e
    pick = max if game.to_move(state) == maximizer else min
    return pick(values), nodes + 1, evaluations


def assert_agree(game: ConnectK, state: ConnectState, spec: GameSearchSpec, independent: bool) -> None:
    """Alpha-beta finds minimax's value, move and line, evaluating and entering no more."""
    exact = minimax_search(game, state, spec)
    pruned = alphabeta_search(game, state, spec)
    where = f"{state!r} at depth {spec.depth_limit}"
    assert (pruned.value, pruned.best_move, pruned.path) == (exact.value, exact.best_move, exact.path), where
    assert pruned.evaluations <= exact.evaluations and pruned.nodes <= exact.nodes, where
    assert exact.best_move is None or exact.best_move in exact.best_moves
    if independent:
        assert plain_minimax(game, state, spec.depth_limit or 0, spec, game.to_move(state)) == (
            exact.value,
            exact.nodes,
            exact.evaluations,
        ), where


CONVENTIONS = st.tuples(
    st.sampled_from(ORDERS),
    st.sampled_from((("first", "soft"), ("first", "hard"), ("last", "soft"))),
    st.booleans(),
    st.sampled_from(("unit", "depth-adjusted")),
)
"""Move order, (tie-break, fail mode), whether the heuristic scores finished games too, scoring."""


def drawn_spec(depth: int, heuristic: Evaluation, conventions: tuple, order: Sequence[int] | None) -> GameSearchSpec:
    """The spec of a search at ``depth`` under ``heuristic``, ``order`` and the drawn conventions."""
    _, (tie, fail), evaluate_terminals, scoring = conventions
    return GameSearchSpec(depth, heuristic, evaluate_terminals, WIN, order=order, tie=tie, fail=fail, scoring=scoring)


@pytest.mark.parametrize("name", HEURISTICS)
def test_alphabeta_agrees_with_minimax_at_depths_1_to_5(name: str) -> None:
    heuristic = HEURISTICS[name]
    positions = st.one_of(
        played_positions(CONNECT_FOUR, max_plies=30), played_positions(CONNECT_FOUR, max_plies=30, guide=heuristic)
    )

    @settings(PINNED, max_examples=12)
    @given(positions, CONVENTIONS)
    def agree(state: ConnectState, conventions: tuple) -> None:
        for depth in range(1, 6):
            spec = drawn_spec(depth, heuristic, conventions, conventions[0])
            # Minimax's value and counts do not depend on the move order: the recursion checks them all.
            assert_agree(CONNECT_FOUR, state, spec, independent=depth <= 3)

    for state in FINISHED_POSITIONS:
        agree = example(state, (None, ("first", "soft"), False, "unit"))(agree)
        agree = example(state, (None, ("last", "soft"), True, "depth-adjusted"))(agree)
    agree()


@settings(PINNED, max_examples=30)
@given(
    st.sampled_from([ConnectK(4, 4, 3), ConnectK(4, 5, 4), ConnectK(5, 5, 4)]).flatmap(
        lambda game: st.tuples(st.just(game), played_positions(game, max_plies=12))
    ),
    st.sampled_from((CentreColumn, CentrePreference, OpenWindows)),
    CONVENTIONS,
)
def test_alphabeta_agrees_with_minimax_on_smaller_boards(
    game_and_state: tuple, heuristic: type, conventions: tuple
) -> None:
    game, state = game_and_state
    for depth in range(1, 6):
        spec = drawn_spec(depth, heuristic(game), conventions, centre_out_order(game))
        assert_agree(game, state, spec, independent=False)


# -- counts and shapes on the empty board ------------------------------------------------------


@pytest.mark.parametrize("depth", [1, 2, 3, 4])
def test_minimax_counts_the_whole_tree_to_the_limit(depth: int) -> None:
    spec = GameSearchSpec(depth_limit=depth, evaluate=HEURISTICS["centre preference"], win_value=WIN)
    result = minimax_search(CONNECT_FOUR, CONNECT_FOUR.initial_state(), spec)
    assert result.nodes == sum(7**ply for ply in range(depth + 1))
    assert result.evaluations == 7**depth  # no game ends before ply 7
    assert len(result.path) == depth and result.path[0] == result.best_move


def test_alphabeta_at_depth_4_from_the_empty_board() -> None:
    """Measured: what pruning saves under each heuristic, and what the centre-out order adds."""
    start = CONNECT_FOUR.initial_state()
    counts = {}
    for name, heuristic in HEURISTICS.items():
        spec = GameSearchSpec(depth_limit=4, evaluate=heuristic, win_value=WIN)
        ordered = alphabeta_search(
            CONNECT_FOUR, start, GameSearchSpec(4, heuristic, order=centre_out_order(CONNECT_FOUR))
        )
        plain = alphabeta_search(CONNECT_FOUR, start, spec)
        counts[name] = (plain.nodes, plain.evaluations, ordered.nodes, ordered.evaluations)
        assert plain.best_move == ordered.best_move == 3 and plain.value == ordered.value
    assert counts == {
        "centre column": (545, 397, 173, 97),
        "centre preference": (913, 709, 173, 97),
        "open windows": (979, 751, 239, 145),
    }


def test_the_shapes_courses_answer_in() -> None:
    spec = GameSearchSpec(depth_limit=2, evaluate=HEURISTICS["centre preference"])
    result = alphabeta_search(CONNECT_FOUR, played("3"), spec)
    assert result.pair() == (result.best_move, result.value)
    assert result.triple() == (result.path, result.value, result.evaluations)
    assert len(result.path) == 2 and CONNECT_FOUR.to_move(played("3")) == O


def test_progressive_deepening_gives_the_answer_after_each_depth() -> None:
    spec = GameSearchSpec(evaluate=HEURISTICS["open windows"], win_value=WIN)
    state = played("3344")
    answers = deepening(CONNECT_FOUR, state, spec, range(1, 5))
    # X makes three in a row open at both ends: from depth 3 on the search sees the win, and
    # the line stops there.
    assert [len(answer.path) for answer in answers] == [1, 2, 3, 3]
    for depth, answer in enumerate(answers, start=1):
        assert answer == alphabeta_search(CONNECT_FOUR, state, GameSearchSpec(depth, spec.evaluate, win_value=WIN))
    exact = deepening(CONNECT_FOUR, state, spec, range(1, 5), prune=False)
    assert [a.value for a in answers] == [e.value for e in exact]
    assert [a.value for a in answers[2:]] == [WIN, WIN] and answers[2].path[0] in (2, 5)


# -- the knobs ---------------------------------------------------------------------------------


def test_the_tie_break_picks_the_first_or_the_last_equal_move() -> None:
    start = CONNECT_FOUR.initial_state()
    for run in (minimax_search, alphabeta_search):
        first = run(CONNECT_FOUR, start, GameSearchSpec(depth_limit=1))
        last = run(CONNECT_FOUR, start, GameSearchSpec(depth_limit=1, tie="last"))
        assert (first.best_move, last.best_move, first.value, last.value) == (0, 6, 0, 0)
    assert minimax_search(CONNECT_FOUR, start, GameSearchSpec(depth_limit=1)).best_moves == tuple(range(7))
    # Minimax has no window to fail from: its line is the same whatever the fail mode says.
    for state in (start, played("252656554")):
        for depth in (2, 3):
            spec = GameSearchSpec(depth, HEURISTICS["centre column"], win_value=WIN, tie="last")
            soft = minimax_search(CONNECT_FOUR, state, spec)
            assert minimax_search(CONNECT_FOUR, state, replace(spec, fail="hard")) == soft
            assert alphabeta_search(CONNECT_FOUR, state, spec).path == soft.path


def test_finished_games_score_by_utility_or_by_the_evaluation() -> None:
    won = FINISHED_POSITIONS[0]  # X's row
    by_utility = alphabeta_search(CONNECT_FOUR, won, GameSearchSpec(depth_limit=3, win_value=100), player=O)
    assert (by_utility.value, by_utility.best_move, by_utility.nodes, by_utility.evaluations) == (-100, None, 1, 0)
    spec = GameSearchSpec(depth_limit=3, evaluate=HEURISTICS["centre column"], evaluate_terminals=True)
    by_evaluation = minimax_search(CONNECT_FOUR, won, spec, player=X)
    assert (by_evaluation.value, by_evaluation.evaluations, by_evaluation.path) == (1, 1, ())


def test_depth_adjusted_scoring_prefers_the_quicker_win() -> None:
    state = played("112233")  # X has 1, 2, 3 of the bottom row and wins at 0 or 4 now
    unit = GameSearchSpec(depth_limit=3, win_value=100, tie="last")
    quick = replace(unit, scoring="depth-adjusted")
    for run in (minimax_search, alphabeta_search):
        # Under unit scores a move that still wins two plies later is as good: the last is 6.
        assert run(CONNECT_FOUR, state, unit).pair() == (6, 100)
        assert run(CONNECT_FOUR, state, quick).pair() == (4, 99)
    assert minimax_search(CONNECT_FOUR, state, quick).best_moves == (0, 4)
    with pytest.raises(ValueError, match="scoring is 'unit' or 'depth-adjusted'"):
        GameSearchSpec(scoring="quick")  # type: ignore[arg-type]


def test_fail_hard_stays_inside_the_window() -> None:
    state = played("3344")
    spec = GameSearchSpec(depth_limit=3, evaluate=HEURISTICS["centre preference"], win_value=WIN)
    exact = minimax_search(CONNECT_FOUR, state, spec).value
    for window in [(-math.inf, exact - 1), (exact + 1, math.inf), (exact - 1, exact + 1)]:
        hard = alphabeta_search(CONNECT_FOUR, state, replace(spec, fail="hard"), window=window)
        assert window[0] <= hard.value <= window[1]
        assert hard.value == min(max(exact, window[0]), window[1])
    with pytest.raises(ValueError, match="alpha < beta"):
        alphabeta_search(CONNECT_FOUR, state, spec, window=(1, 1))
    with pytest.raises(ValueError, match="cannot keep the last of equal moves"):
        alphabeta_search(CONNECT_FOUR, state, GameSearchSpec(3, tie="last", fail="hard"))
    with pytest.raises(ValueError, match="depth limit is 0 or more"):
        GameSearchSpec(depth_limit=-1)


# -- tic-tac-toe through the game protocol is the seeds' search --------------------------------


@settings(PINNED, max_examples=60)
@given(nonterminal_boards(max_empty=7))
def test_tictactoe_alphabeta_through_the_protocol_matches_the_seed_search(board: Board) -> None:
    mover = board.to_move()
    generic = alphabeta_search(TicTacToe(), board)
    direct = alphabeta(board, SearchSpec(maximizer=mover))
    assert (generic.value, generic.best_move, generic.nodes) == (direct.value, direct.best_move, direct.nodes)
    generic_minimax = minimax_search(TicTacToe(), board)
    assert generic_minimax.nodes == minimax(board, SearchSpec(maximizer=mover)).nodes
    assert generic_minimax.evaluations == generic.evaluations == 0


def test_the_engine_takes_any_game_state() -> None:
    positions = GamePositions(CONNECT_FOUR, GameSearchSpec(depth_limit=2), X)
    search: Search[ConnectState] = Search(positions, X, order=positions.order)
    value, move = search.search(CONNECT_FOUR.initial_state(), X, 0, -math.inf, math.inf)
    # The first reply is valued in full; every later one is cut off by its first grandchild.
    assert (value, move, search.nodes, positions.evaluations) == (0, 0, 1 + 7 + 7 + 6, 7 + 6)
