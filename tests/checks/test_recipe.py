"""The property-check recipe: a passing submission costs one batch, a failing one is shrunk to
its smallest failure, the same inputs every time, within the check's budget."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from hypothesis import strategies as st

from grader.checks.context import CheckContext
from grader.checks.positions import board_size, positions
from grader.checks.properties import Mismatch, RunPlan, find_smallest_failure
from grader.checks.recipe import PropertyCheck, case_key, case_size, run_property
from grader.checks.registry import run_check
from grader.checks.verdicts import result_from_property
from grader.execution.channel.calls import Call, CallOutcome
from grader.results import CheckResult, CheckStatus
from grader.spec.call_template import parse_call
from grader.spec.loader import load_assignment
from reference import Board, TicTacToe, X
from tests.checks.in_process import InProcessRunner
from tests.seed_sources import LAB05_SOLUTION

LAB05 = load_assignment("lab05")
DRAW_SCORED_AS_LOSS = LAB05_SOLUTION.replace(
    "    if check_draw(board):\n        return 0\n    if depth >= max_depth",
    "    if check_draw(board):\n        return -1\n    if depth >= max_depth",
)


class CountingRunner(InProcessRunner):
    """The in-process runner, counting round trips."""

    def __init__(self, source: str) -> None:
        super().__init__(source)
        self.trips: list[list[Call]] = []

    def call_many(self, calls: Sequence[Call]) -> list[CallOutcome]:
        calls = list(calls)
        self.trips.append(calls)
        return super().call_many(calls)


def _context(runner: CountingRunner) -> CheckContext:
    return CheckContext.of(LAB05, runner, frozenset(runner.defined_names()))


def grade(source: str, check_id: str) -> tuple[CheckResult, CountingRunner]:
    runner = CountingRunner(source)
    check = next(c for c in LAB05.checks if c.id == check_id)
    return run_check(check, _context(runner)), runner


def test_a_passing_check_asks_its_whole_batch_in_one_trip() -> None:
    result, runner = grade(LAB05_SOLUTION, "depth-limited")
    assert result.status == CheckStatus.PASSED
    assert len(runner.trips) == 1
    assert f"({len(runner.trips[0])} positions tried)" in result.message


def test_grading_twice_asks_the_same_inputs_and_finds_the_same_failure() -> None:
    first, first_runner = grade(DRAW_SCORED_AS_LOSS, "depth-limited")
    second, second_runner = grade(DRAW_SCORED_AS_LOSS, "depth-limited")
    assert first.status == CheckStatus.FAILED
    assert first.counterexample == second.counterexample
    assert [[c.args for c in trip] for trip in first_runner.trips] == [
        [c.args for c in trip] for trip in second_runner.trips
    ]


def test_each_case_is_asked_once_and_judged_with_its_own_answer() -> None:
    runner = CountingRunner("def f(board, player):\n    return board.count(player) >= 3\n")
    ctx = _context(runner)
    judged: list[tuple[Board, str, Any]] = []

    def judge(board: Board, player: str, answer: Any) -> Mismatch | None:
        judged.append((board, player, answer.value))
        return None

    student = ctx.student(parse_call("f(board, player)"))
    prop = PropertyCheck(
        lambda spread: positions(X, spread=spread),
        st.sampled_from(["X", "O"]),
        lambda board, player: ctx.placeholders(board, player=player),
        judge,
        first=[(Board.empty(), "X")],
        examples=30,
    )
    check = next(c for c in LAB05.checks if c.id == "check-win")
    outcome = run_property(check, ctx, student, prop)
    assert outcome.passed
    assert judged[0] == (Board.empty(), "X", False)  # the first cases come first
    assert all(answer == (str(b).count(p) >= 3) for b, p, answer in judged)
    asked = [c.args for trip in runner.trips for c in trip]
    assert len(asked) == len({case_key((b, p)) for b, p, _ in judged}) == outcome.tried


def test_failures_are_ordered_by_board_then_by_what_goes_with_it() -> None:
    small, large = Board.from_string("X........"), Board.from_string("XO.X.....")
    game = TicTacToe()
    assert case_size((small, 3), game) < case_size((large, 1), game)
    assert case_size((small, 1), game) < case_size((small, 3), game)
    assert case_size((small, None), game) == case_size((small, None), game)
    # the game's own size: the same order as the positions' (`board_size`)
    assert case_size((large, 1), game)[:2] == board_size(large)


def _crowded(board: Board) -> Mismatch | None:
    """Wrong on crowded boards only."""
    return Mismatch("f(board)", "right", "wrong") if 9 - len(board.empty_cells()) >= 6 else None


def test_the_run_shrinks_to_the_smallest_failure() -> None:
    plan = RunPlan(positions(X), examples=60, run_seed=7, budget_seconds=60.0, sample=positions(X, spread=True))
    asked: list[list[Board]] = []
    outcome = find_smallest_failure(plan, _crowded, size=board_size, prefetch=asked.append)
    assert isinstance(outcome.failing_input, Board)
    assert 9 - len(outcome.failing_input.empty_cells()) == 6  # the smallest failure
    assert outcome.mismatch is not None and not outcome.budget_exhausted
    assert len(asked) == 1 and len(asked[0]) == 60  # the batch, in one request


def test_a_spent_budget_keeps_the_failure_found_so_far() -> None:
    plan = RunPlan(positions(X), examples=60, run_seed=7, budget_seconds=0.0, sample=positions(X, spread=True))
    outcome = find_smallest_failure(plan, _crowded, size=board_size, prefetch=lambda batch: None)
    assert outcome.mismatch is not None  # the prefetched batch is judged whatever the time
    assert outcome.budget_exhausted  # the property run could not shrink it


def test_without_a_prefetch_the_budget_bounds_the_batch_too() -> None:
    plan = RunPlan(positions(X), examples=60, run_seed=7, budget_seconds=0.0)
    outcome = find_smallest_failure(plan, _crowded, size=board_size)
    assert outcome.tried == 0 and outcome.passed and outcome.budget_exhausted


def test_the_verdict_asks_the_game_how_many_pieces_the_failing_position_holds() -> None:
    runner = CountingRunner("def f(board):\n    return True\n")
    ctx = _context(runner)
    student = ctx.student(parse_call("f(board)"))
    prop = PropertyCheck(
        lambda spread: positions(X, spread=spread),
        st.none(),
        lambda board, _: ctx.placeholders(board),
        lambda board, _, answer: _crowded(board),
        examples=30,
    )
    check = next(c for c in LAB05.checks if c.id == "check-win")
    outcome = run_property(check, ctx, student, prop).board_alone()
    assert outcome.game == ctx.game and isinstance(outcome.failing_input, Board)
    result = result_from_property(check, outcome, "agrees")
    assert result.message == "Wrong answer on a position with 6 pieces"
    assert result.counterexample is not None and result.counterexample.board == str(outcome.failing_input)
    # an outcome that names no game, or whose failing input is no position of it, gives no size
    assert result_from_property(check, replace(outcome, game=None), "agrees").message == "Wrong answer"
    unboxed = replace(outcome, failing_input=(outcome.failing_input, None))
    shown = result_from_property(check, unboxed, "agrees")
    assert shown.message == "Wrong answer"
    assert shown.counterexample is not None and shown.counterexample.board is None
