"""The answer memo: a question a function answered the same way twice is not asked again
within the submission; a function whose answers differ is asked every time, and calls whose
effects are measured (mutations, counts, explorations, time-outs) are always made."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import pytest

from grader.checks.answer_memo import AnswerMemo, question_key, same_outcome
from grader.checks.context import CheckContext
from grader.checks.registry import run_check
from grader.execution.channel.call_data import Call, CallOutcome, CallStatus, Explore, StandIn
from grader.spec.loader import load_assignment
from tests.checks.in_process import InProcessRunner, solution_definitions
from tests.seed_sources import variant

BOARD = ["X", "O", " ", " ", " ", " ", " ", " ", " "]

STUDENT = """
import random

def best(board):
    return board.index(" ")

calls = 0

def counting(board):
    global calls
    calls += 1
    return calls

def tie_break(board):
    return random.choice([i for i, cell in enumerate(board) if cell == " "])

flip = [0]

def alternating(board):
    flip[0] = 1 - flip[0]
    return flip[0]

def marks(board):
    board[board.index(" ")] = "X"
    return 1

def fails(board):
    raise ValueError("no")
"""


def ask(memo: AnswerMemo, call: Call, times: int) -> list[CallOutcome]:
    return [memo.call_many([call])[0] for _ in range(times)]


def test_a_repeatable_function_is_asked_a_question_twice_then_answered_from_the_memo() -> None:
    runner = InProcessRunner(STUDENT)
    memo = AnswerMemo(runner)
    outcomes = ask(memo, Call("best", (BOARD,)), 5)
    assert [o.value for o in outcomes] == [2] * 5
    assert runner.calls_made == 2  # asked, asked again and compared, then never
    tally = memo.tallies["best"]
    assert (tally.calls, tally.made, tally.repeats, tally.served) == (5, 2, 4, 3)


@pytest.mark.parametrize("function", ["counting", "alternating"])
def test_a_function_answering_one_question_two_ways_is_asked_every_time(function: str) -> None:
    runner = InProcessRunner(STUDENT)
    memo = AnswerMemo(runner)
    outcomes = ask(memo, Call(function, (BOARD,)), 6)
    assert runner.calls_made == 6
    assert memo.tallies[function].differed and memo.tallies[function].served == 0
    expected = list(range(1, 7)) if function == "counting" else [1, 0, 1, 0, 1, 0]
    assert [o.value for o in outcomes] == expected


def test_a_random_tie_break_is_asked_every_time_once_it_answered_two_ways() -> None:
    runner = InProcessRunner(STUDENT)
    memo = AnswerMemo(runner)
    empty = [" "] * 9
    outcomes = ask(memo, Call("tie_break", (empty,)), 40)
    assert len({o.value for o in outcomes}) > 1  # nine choices: 40 draws the same are 1 in 9**39
    differed_at = next(i for i, o in enumerate(outcomes) if o.value != outcomes[0].value)
    assert memo.tallies["tie_break"].differed
    # Only repeats of the first answer before the first difference may have been served.
    assert runner.calls_made >= 40 - differed_at
    assert memo.tallies["tie_break"].served <= max(0, differed_at - 2)


def test_one_function_answering_two_ways_does_not_stop_another_being_remembered() -> None:
    runner = InProcessRunner(STUDENT)
    memo = AnswerMemo(runner)
    ask(memo, Call("alternating", (BOARD,)), 3)
    ask(memo, Call("best", (BOARD,)), 3)
    assert memo.tallies["best"].served == 1 and memo.tallies["alternating"].served == 0


def test_a_call_that_changes_its_board_is_made_and_reported_every_time() -> None:
    runner = InProcessRunner(STUDENT)
    memo = AnswerMemo(runner)
    outcomes = ask(memo, Call("marks", (BOARD,)), 4)
    assert runner.calls_made == 4
    assert all(o.mutated for o in outcomes)


@pytest.mark.parametrize(
    "measured",
    [
        {"count": ("best",)},
        {"count_all": True},
        {"explore": Explore()},
        {"read_globals": ("calls",)},
    ],
    ids=["counted", "counted-all", "explored", "reads-globals"],
)
def test_calls_whose_effects_are_measured_are_always_made(measured: dict[str, object]) -> None:
    runner = InProcessRunner(STUDENT)
    memo = AnswerMemo(runner)
    call = replace(Call("best", (BOARD,)), **measured)  # type: ignore[arg-type]
    assert question_key(call) is None
    ask(memo, call, 4)
    assert runner.calls_made == 4


def test_errors_are_asked_again() -> None:
    runner = InProcessRunner(STUDENT)
    memo = AnswerMemo(runner)
    outcomes = ask(memo, Call("fails", (BOARD,)), 3)
    assert runner.calls_made == 3 and all(o.status is CallStatus.RAISED for o in outcomes)


class _TimingOut:
    def __init__(self) -> None:
        self.calls_made = 0

    def call_many(self, calls: Sequence[Call]) -> list[CallOutcome]:
        self.calls_made += len(calls)
        return [CallOutcome(CallStatus.TIMEOUT, error="the call took longer than 1 s", duration=1.0) for _ in calls]


def test_a_time_out_is_never_remembered() -> None:
    runner = _TimingOut()
    memo = AnswerMemo(runner)
    outcomes = ask(memo, Call("best", (BOARD,), timeout=1.0), 3)
    assert runner.calls_made == 3 and all(o.status is CallStatus.TIMEOUT for o in outcomes)


def test_the_question_holds_the_globals_and_stand_ins_but_not_the_time_limits() -> None:
    call = Call("best", (BOARD,))
    stand_in = StandIn("check_win", "wins", ("X", "O", (" ",)))
    assert question_key(call) == question_key(replace(call, timeout=3.0, start_within=1.0, skip_after_timeout=True))
    assert question_key(call) != question_key(replace(call, set_globals={"board": BOARD}))
    assert question_key(call) != question_key(replace(call, stand_ins=(stand_in,)))
    assert question_key(call) != question_key(replace(call, args=(BOARD[::-1],)))


def test_switched_off_every_call_is_made() -> None:
    runner = InProcessRunner(STUDENT)
    ask(AnswerMemo(runner, enabled=False), Call("best", (BOARD,)), 4)
    assert runner.calls_made == 4


def test_outcomes_compare_by_type_and_content() -> None:
    assert same_outcome(CallOutcome(CallStatus.OK, value=(1, 2.0)), CallOutcome(CallStatus.OK, value=(1, 2.0)))
    assert not same_outcome(CallOutcome(CallStatus.OK, value=(1, 2)), CallOutcome(CallStatus.OK, value=[1, 2]))
    assert not same_outcome(CallOutcome(CallStatus.OK, value=1), CallOutcome(CallStatus.OK, value=True))
    assert not same_outcome(CallOutcome(CallStatus.OK, value=1, stdout="a"), CallOutcome(CallStatus.OK, value=1))


LAB05 = load_assignment("lab05")


def _grade(source: str, memo: bool) -> list[tuple[str, str, float, str]]:
    runner = InProcessRunner(source)
    ctx = CheckContext.of(
        LAB05, AnswerMemo(runner, enabled=memo), frozenset(runner.defined_names()), hangs=runner.hang_memory(LAB05)
    )
    results = [run_check(check, ctx) for check in LAB05.checks]
    return [(r.check_id, r.status.value, r.score, r.message) for r in results]


@pytest.mark.parametrize(
    "source",
    [
        solution_definitions(LAB05),
        variant("[0, 4, 8], [2, 4, 6]]", "[0, 4, 8]]"),
    ],
    ids=["solution", "missing-anti-diagonal"],
)
def test_the_memo_changes_no_verdict(source: str) -> None:
    assert _grade(source, True) == _grade(source, False)
