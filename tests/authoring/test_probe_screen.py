"""Probe calls asked a few first: a function whose first answers fit no reading is not asked the
rest, and one whose first answers fit gets every answer, in order, as in one batch."""

from __future__ import annotations

from collections.abc import Sequence

from grader.authoring.probe_screen import asked_in_turn
from grader.execution.channel.call_data import Call, CallOutcome, CallStatus


class Counting:
    """A runner whose function answers twice its argument, keeping each batch it was asked."""

    def __init__(self) -> None:
        self.batches: list[list[int]] = []

    def call_many(self, calls: Sequence[Call]) -> list[CallOutcome]:
        self.batches.append([call.args[0] for call in calls])
        return [CallOutcome(CallStatus.OK, value=2 * call.args[0]) for call in calls]


CALLS = [Call("double", (n,)) for n in range(20)]


def test_answers_that_fit_from_the_first_are_all_asked_in_order() -> None:
    runner = Counting()
    outcomes = asked_in_turn(runner, CALLS, lambda head: all(o.value in range(0, 40, 2) for o in head))
    assert outcomes is not None and [o.value for o in outcomes] == [2 * n for n in range(20)]
    assert runner.batches == [list(range(7)), list(range(7, 20))]


def test_first_answers_that_fit_no_reading_stop_the_rest() -> None:
    runner = Counting()
    assert asked_in_turn(runner, CALLS, lambda head: all(o.value in range(10) for o in head)) is None
    assert runner.batches == [list(range(7))]


def test_calls_no_more_than_the_first_few_go_in_one_batch() -> None:
    runner = Counting()
    outcomes = asked_in_turn(runner, CALLS[:5], lambda head: True)
    assert outcomes is not None and len(outcomes) == 5 and runner.batches == [list(range(5))]
