"""The call tally: every call the checks ask for is made in the kernel, and its kernel time
is added to its function's tally; a random tie-break is asked every time."""

from __future__ import annotations

from grader.checks.call_tally import CallTally, function_label
from grader.execution.channel.call_data import Call, CallStatus, StandIn
from tests.checks.in_process import InProcessRunner

BOARD = ["X", "O", " ", " ", " ", " ", " ", " ", " "]

STUDENT = """
import random

random.seed(0)  # the draws are the same on every run: the test cannot fail by chance

calls = 0

def counting(board):
    global calls
    calls += 1
    return calls

def tie_break(board):
    return random.choice([i for i, cell in enumerate(board) if cell == " "])

def fails(board):
    raise ValueError("no")
"""


def test_every_question_is_asked_in_the_kernel_however_often_it_repeats() -> None:
    tally = CallTally(InProcessRunner(STUDENT))
    answers = [tally.call_many([Call("counting", (BOARD,))])[0].value for _ in range(5)]
    assert answers == [1, 2, 3, 4, 5]
    counted = tally.tallies["counting"]
    assert (counted.calls, counted.made) == (5, 5)


def test_a_random_tie_break_is_drawn_anew_on_every_call() -> None:
    tally = CallTally(InProcessRunner(STUDENT))
    outcomes = tally.call_many([Call("tie_break", (BOARD,))] * 200)
    assert all(outcome.status is CallStatus.OK for outcome in outcomes)
    # Seven empty cells drawn 200 times: every one of them turns up (a memo would repeat one).
    assert {outcome.value for outcome in outcomes} == set(range(2, 9))


def test_kernel_seconds_add_up_the_wall_time_of_the_calls_made() -> None:
    tally = CallTally(InProcessRunner(STUDENT))
    outcomes = tally.call_many([Call("counting", (BOARD,)), Call("fails", (BOARD,))])
    assert outcomes[1].status is CallStatus.RAISED
    assert tally.kernel_seconds == sum(outcome.wall for outcome in outcomes)
    assert set(tally.tallies) == {"counting", "fails"}


def test_a_function_label_names_the_chained_methods_and_the_stand_ins() -> None:
    call = Call("Game", (), then=(("play", (), {}),), stand_ins=(StandIn("check_win", "wins", ("X", "O", (" ",))),))
    assert function_label(call) == "Game.play() [check_win stood in]"
