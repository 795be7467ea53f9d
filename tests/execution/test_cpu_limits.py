"""A call's limit is the kernel's CPU time: a call that computes past it is stopped with those
words, one that waits without computing is ended by the wall-clock safety net, and a correct
search judged while other processes load every core keeps its verdict and its speed."""

from __future__ import annotations

import dataclasses
import math
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

import nbformat
import pytest

from grader.check_notes import SlowerThan
from grader.execution.channel.calls import Call, CallOutcome, CallStatus, DefinedNames, StopClock
from grader.execution.channel.protocol import wall_bound
from grader.execution.session import ExecutionOptions, NotebookSession
from grader.grading import FunctionCalls, run_checks
from grader.results import CheckStatus
from grader.spec.loader import load_assignment

pytestmark = pytest.mark.kernel

LAB05 = load_assignment("lab05")
# lab05's solution with `check_win` slowed down by a loop (still right), so that its searches
# take long enough (about a second of CPU) for a scheduler tick or a collection not to matter.
SLOWED = """
_right_check_win = check_win


def check_win(board, player):
    for _ in range(1000):
        pass
    return _right_check_win(board, player)
"""
BUSY_PROCESSES = 6
"""With the kernel, seven processes on two cores: each gets at most 2/7 of one, so a call takes
3.5 times its CPU time on the wall clock, or more when other work shares the machine."""


def test_a_call_that_computes_past_its_cpu_limit_is_stopped_with_the_cpu_wording(open_session) -> None:
    session = open_session("calls_hostile")
    session.execute()
    spin, after = session.calls.call_many([Call("spin", timeout=1.0), Call("increment", (1,))])
    assert spin.status is CallStatus.TIMEOUT and spin.stopped_by is StopClock.CPU
    assert spin.error == "the call took longer than 1 s of CPU time and was stopped"
    assert 1.0 <= spin.duration < 2.0 and spin.wall >= spin.duration - 0.05
    assert after.value == 2 and session.kernel_restarts == 0


def test_a_call_that_sleeps_is_ended_by_the_wall_clock_safety_net(open_session) -> None:
    session = open_session("calls_hostile")
    session.execute()
    doze, after = session.calls.call_many([Call("doze", (1000,), timeout=0.5), Call("increment", (1,))])
    assert doze.status is CallStatus.TIMEOUT and doze.stopped_by is StopClock.WALL
    assert doze.duration < 0.5 and wall_bound(0.5) <= doze.wall < 120
    assert "of wall time, having used less than its 0.5 s of CPU time, and was stopped" in (doze.error or "")
    assert after.value == 2 and session.kernel_restarts == 0


@pytest.mark.slow
def test_a_call_that_swallows_its_cpu_alarm_is_interrupted_by_its_cpu_time(open_session) -> None:
    session = open_session("calls_hostile", ExecutionOptions(interrupt_grace=1.0))
    session.execute()
    swallowing, after = session.calls.call_many([Call("swallow_the_alarm", timeout=0.5), Call("increment", (1,))])
    assert swallowing.status is CallStatus.TIMEOUT and swallowing.stopped_by is StopClock.CPU
    assert "0.5 s of CPU time and did not stop when interrupted; the kernel was restarted" in (swallowing.error or "")
    assert after.value == 2 and session.kernel_restarts == 1


class RecordedCalls:
    """The session's calls, each outcome kept: the CPU and wall time of every call."""

    def __init__(self, inner: FunctionCalls) -> None:
        self.inner = inner
        self.outcomes: list[CallOutcome] = []

    def call_many(self, calls: Sequence[Call]) -> list[CallOutcome]:
        outcomes = self.inner.call_many(calls)
        self.outcomes += outcomes
        return outcomes

    def defined_names(self) -> DefinedNames:
        return self.inner.defined_names()


@dataclasses.dataclass
class Recorded:
    calls: RecordedCalls


@pytest.fixture
def busy_cores() -> Iterator[list[subprocess.Popen[bytes]]]:
    """Processes that keep the cores busy, each in a session of its own so that the scheduler
    shares the cores among processes rather than among sessions."""
    busy: list[subprocess.Popen[bytes]] = []
    try:
        yield busy
    finally:
        for process in busy:
            process.kill()
            process.wait()


def spinning(process: subprocess.Popen[bytes]) -> bool:
    """Whether the process has used CPU time yet (its user time, in clock ticks)."""
    try:
        fields = Path(f"/proc/{process.pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return False
    return int(fields[11]) > 0


@pytest.mark.slow
def test_a_correct_search_judged_on_loaded_cores_keeps_its_verdict_and_speed(busy_cores) -> None:
    check = next(c for c in LAB05.checks if c.id == "node-reduction")  # full searches from X........
    quiet = dataclasses.replace(LAB05, checks=(check,), call_timeout=60.0)
    options = ExecutionOptions(stdin=LAB05.stdin, cell_timeout=LAB05.cell_timeout)
    notebook = nbformat.read(LAB05.solution_path, as_version=4)
    notebook.cells.append(nbformat.v4.new_code_cell(SLOWED))
    with NotebookSession(notebook, options) as session:
        session.execute()
        recorded = Recorded(RecordedCalls(session.calls))
        _, (first,) = run_checks(recorded, None, quiet, math.inf, math.inf)
        assert first.status is CheckStatus.PASSED
        slowest = max(outcome.duration for outcome in recorded.calls.outcomes)
        # Limits the search keeps within by a factor of two in CPU time; on the loaded cores it
        # takes longer than the hard one on the wall clock.
        loaded = dataclasses.replace(
            quiet, call_timeout=round(2.5 * slowest, 2), slow_after=round(2 * slowest, 2), slow_cost=0.5
        )
        busy_cores += [
            subprocess.Popen([sys.executable, "-c", "while True: pass"], start_new_session=True)
            for _ in range(BUSY_PROCESSES)
        ]
        while not all(spinning(process) for process in busy_cores):
            time.sleep(0.01)
        recorded.calls.outcomes.clear()
        _, (result,) = run_checks(recorded, None, loaded, math.inf, math.inf)
    outcomes = recorded.calls.outcomes
    assert max(outcome.wall for outcome in outcomes) > loaded.call_timeout, "the cores were not loaded"
    assert all(outcome.ok and outcome.duration < loaded.call_timeout for outcome in outcomes)
    assert result.status is CheckStatus.PASSED and result.score == result.max_score
    assert not any(isinstance(note, SlowerThan) for note in result.notes)
