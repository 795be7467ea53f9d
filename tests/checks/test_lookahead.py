"""Fetching the property run's examples ahead: fewer round trips into the student's kernel,
the same judged inputs, the same counterexample, and nothing fetched ahead for slow code."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import pytest

import grader.checks.lookahead as lookahead
from grader.checks.context import CheckContext
from grader.checks.lookahead import LOOKAHEAD_SECONDS, AnswersAside, RunExamplesAhead
from grader.checks.positions import board_size, positions
from grader.checks.properties import Mismatch, find_smallest_failure
from grader.checks.registry import run_check
from grader.execution.channel.calls import Call, CallOutcome, CallStatus
from grader.results import CheckStatus
from grader.spec.loader import load_assignment
from reference import Board, X
from tests.checks.in_process import InProcessRunner
from tests.seed_sources import LAB05_SOLUTION, variant

LAB05 = load_assignment("lab05")
MISSING_ANTI_DIAGONAL = variant("[0, 4, 8], [2, 4, 6]]", "[0, 4, 8]]")
DRAW_SCORED_AS_LOSS = LAB05_SOLUTION.replace(
    "    if check_draw(board):\n        return 0\n    if depth >= max_depth",
    "    if check_draw(board):\n        return -1\n    if depth >= max_depth",
)


class CountingRunner(InProcessRunner):
    """The in-process runner, counting round trips and reporting a fixed time per call (so
    that how much is fetched ahead does not depend on the machine running the tests)."""

    def __init__(self, source: str, seconds: float = 1e-5) -> None:
        super().__init__(source)
        self.seconds = seconds
        self.trips: list[list[Call]] = []

    def call_many(self, calls: Sequence[Call]) -> list[CallOutcome]:
        calls = list(calls)
        self.trips.append(calls)
        return [replace(o, duration=self.seconds) for o in super().call_many(calls)]


def grade(source: str, check_id: str, runner: CountingRunner | None = None):
    runner = runner or CountingRunner(source)
    ctx = CheckContext(LAB05, runner, frozenset(runner.defined_names()))
    check = next(c for c in LAB05.checks if c.id == check_id)
    return run_check(check, ctx), runner


def feedback(result) -> tuple:
    ce = result.counterexample
    return result.status, result.score, result.message, ce and (ce.board, ce.call, ce.expected, ce.actual, ce.cause)


# -- whole checks --------------------------------------------------------------


@pytest.mark.parametrize(
    "source, check_id, at_most, saved",
    [
        (DRAW_SCORED_AS_LOSS, "depth-limited", 26, 25),
    ],
)
def test_the_run_examples_come_in_one_trip_and_the_counterexample_is_the_same(
    source: str, check_id: str, at_most: int, saved: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    fast, fast_runner = grade(source, check_id)
    assert fast.status == CheckStatus.FAILED
    assert len(fast_runner.trips) <= at_most
    monkeypatch.setattr(AnswersAside, "speculate", lambda self, cases: None)  # one input per trip, as before
    slow, slow_runner = grade(source, check_id)
    # Same board, call, answers and diagnosis: the answers fetched ahead changed nothing.
    assert feedback(fast) == feedback(slow)
    assert fast.figures == slow.figures
    assert len(slow_runner.trips) >= len(fast_runner.trips) + saved


def test_a_slow_student_is_never_fetched_ahead() -> None:
    result, runner = grade(DRAW_SCORED_AS_LOSS, "depth-limited", CountingRunner(DRAW_SCORED_AS_LOSS, seconds=1.0))
    assert result.status == CheckStatus.FAILED
    assert len(runner.trips) > 10
    assert all(len(trip) == 1 for trip in runner.trips[1:])  # after the first batch: one input per trip


def test_milliseconds_per_call_get_small_blocks() -> None:
    seconds = 0.004
    result, runner = grade(DRAW_SCORED_AS_LOSS, "depth-limited", CountingRunner(DRAW_SCORED_AS_LOSS, seconds=seconds))
    assert result.status == CheckStatus.FAILED
    assert max(len(trip) for trip in runner.trips[1:]) <= 1 + LOOKAHEAD_SECONDS / seconds
    assert max(len(trip) for trip in runner.trips[1:]) > 1


def test_grading_twice_fetches_the_same_inputs() -> None:
    first, first_runner = grade(DRAW_SCORED_AS_LOSS, "depth-limited")
    second, second_runner = grade(DRAW_SCORED_AS_LOSS, "depth-limited")
    assert feedback(first) == feedback(second)
    assert [[c.args for c in trip] for trip in first_runner.trips] == [
        [c.args for c in trip] for trip in second_runner.trips
    ]


# -- the answers kept aside ----------------------------------------------------


def _depth_limited_evidence(monkeypatch: pytest.MonkeyPatch, runner: CountingRunner):
    """depth-limited's result, with the StudentFunctions it made, to look at their evidence."""
    made: list = []
    ask = CheckContext.student

    def student(self: CheckContext, *args: Any, **kwargs: Any):
        made.append(ask(self, *args, **kwargs))
        return made[-1]

    monkeypatch.setattr(CheckContext, "student", student)
    result, _ = grade(DRAW_SCORED_AS_LOSS, "depth-limited", runner)
    return result, [[k for k, _ in s.answers()] for s in made]


def test_answers_fetched_ahead_stay_out_of_the_evidence(monkeypatch: pytest.MonkeyPatch) -> None:
    runner = CountingRunner(DRAW_SCORED_AS_LOSS)
    result, evidence = _depth_limited_evidence(monkeypatch, runner)
    fetched = sum(len(trip) for trip in runner.trips)
    monkeypatch.setattr(AnswersAside, "speculate", lambda self, cases: None)
    plain, plain_evidence = _depth_limited_evidence(monkeypatch, CountingRunner(DRAW_SCORED_AS_LOSS))
    assert feedback(result) == feedback(plain)  # same inputs judged, same smallest failure
    assert evidence == plain_evidence  # the diagnosis read the same answers, in the same order
    assert fetched > sum(map(len, evidence))  # more was fetched than the evidence shows


class HangingRunner(CountingRunner):
    """Calls on boards with a mark in the centre hang unless given the full time limit."""

    def call_many(self, calls: Sequence[Call]) -> list[CallOutcome]:
        calls = list(calls)
        outcomes = super().call_many(calls)
        return [
            CallOutcome(CallStatus.TIMEOUT, error="too slow", duration=call.timeout)
            if call.timeout < LAB05.call_timeout and call.args[0][4] != " "
            else outcome
            for call, outcome in zip(calls, outcomes)
        ]


def test_a_speculative_call_that_times_out_is_asked_again_with_the_full_limit() -> None:
    runner = HangingRunner(DRAW_SCORED_AS_LOSS)
    result, _ = grade(DRAW_SCORED_AS_LOSS, "depth-limited", runner)
    plain, _ = grade(DRAW_SCORED_AS_LOSS, "depth-limited", CountingRunner(DRAW_SCORED_AS_LOSS))
    assert feedback(result) == feedback(plain)  # no "did not return within its time limit"
    short = [c for trip in runner.trips for c in trip if c.timeout < LAB05.call_timeout]
    assert short and all(c.timeout <= lookahead.SPECULATIVE_SECONDS for c in short)
    # The first timeout stops fetching ahead: later trips ask one input each.
    first_hang = next(
        i
        for i, trip in enumerate(runner.trips)
        if any(c.timeout < LAB05.call_timeout and c.args[0][4] != " " for c in trip)
    )
    assert all(len(trip) == 1 for trip in runner.trips[first_hang + 1 :])


# -- the property driver on its own -------------------------------------------


class FakeStudent:
    """Answers from a Python function, with the round trips a kernel would cost."""

    def __init__(self, wrong, seconds: float | None = 1e-5) -> None:
        self.wrong = wrong
        self.seconds = seconds
        self.answers: dict[Board, bool] = {}
        self.aside: dict[Board, bool] = {}
        self.trips: list[int] = []

    def prefetch(self, cases: list[Board]) -> list[float | None]:
        self.trips.append(len(cases))
        self.answers.update((b, self.wrong(b)) for b in cases)
        return [self.seconds] * len(cases)

    def speculate(self, cases: list[Board]) -> list[float | None]:
        self.trips.append(len(cases))
        self.aside.update((b, self.wrong(b)) for b in cases if b not in self.answers)
        return [self.seconds] * len(cases)

    def judge(self, board: Board) -> Mismatch | None:
        if board in self.aside:
            self.answers[board] = self.aside.pop(board)
        elif board not in self.answers:
            self.trips.append(1)
            self.answers[board] = self.wrong(board)
        return Mismatch("f(board)", "right", "wrong") if self.answers[board] else None


def _run(student: FakeStudent, *, speculate: bool, budget: float = 60.0):
    return find_smallest_failure(
        positions(X),
        student.judge,
        size=board_size,
        examples=60,
        run_seed=7,
        budget_seconds=budget,
        prefetch=student.prefetch,
        speculate=student.speculate if speculate else None,
        sample=positions(X, spread=True),
    )


def _crowded(board: Board) -> bool:
    """Wrong on crowded boards only, which the property run's own examples (smallest
    first) rarely meet: without fetching ahead, every one of them is a round trip."""
    return 9 - len(board.empty_cells()) >= 6


def test_the_property_runs_own_examples_come_in_one_block() -> None:
    fast, slow = FakeStudent(_crowded), FakeStudent(_crowded)
    with_lookahead, without = _run(fast, speculate=True), _run(slow, speculate=False)
    assert with_lookahead == without
    assert 9 - len(with_lookahead.failing_input.empty_cells()) == 6  # the smallest failure
    assert len(slow.trips) >= 20 and len(fast.trips) <= len(slow.trips) - 5
    assert max(fast.trips[1:]) > 1  # the run's examples came in a block


def test_unknown_call_times_fetch_nothing_ahead() -> None:
    student = FakeStudent(_crowded, seconds=None)
    plain = FakeStudent(_crowded)
    assert _run(student, speculate=True) == _run(plain, speculate=False)
    assert all(n == 1 for n in student.trips[1:])


def test_block_sizes() -> None:
    def block(seconds: Sequence[float | None] | None, *, budget: float = 60.0, spent: float = 0.0) -> int:
        started = time.monotonic() - spent
        ahead = RunExamplesAhead(
            list,
            lambda cases: None,
            seconds,
            known=set(),
            allowance=lambda: min(0.03, 0.1 * (budget - (time.monotonic() - started))),
        )
        return ahead.block_size()

    assert block([1e-5] * 60) == 256  # cheap predicates: hundreds
    assert block([1e-5] * 59 + [0.5]) == 256  # one slow first call is forgiven
    assert block([0.004] * 60) == 4
    assert block([1.0] * 60) == 0  # slow searches: nothing ahead
    assert block([1e-5] * 59 + [None]) == 0  # a call hung or crashed
    assert block(None) == 0
    assert block([1e-5] * 60, budget=20.0, spent=19.99) < 16  # a share of what is left of the budget
