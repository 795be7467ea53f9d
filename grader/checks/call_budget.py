"""Which of a check's calls are made, and with what limit: the check's share of the kernel's
CPU time, and what earlier calls that ran out of time teach (`grader.execution.hangs`).

The share counts the CPU time the check's calls used, as the kernel measured it, so that a
loaded machine makes no check stop sooner; a wall-clock bound several times the share (and
the submission's deadline) is only the safety net for calls that wait without computing.

With the student's own limit a batch stops at its first call that runs out of time (the
kernel leaves the rest unstarted); what that teaches sets the limit of the rest, which go in
the next round trip, or are not made. A call that is not made comes back SKIPPED with the
reason, and is never evidence about the student's code.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from grader.errors import GraderError
from grader.execution.channel.calls import Call, CallOutcome, CallStatus, StopClock
from grader.execution.channel.protocol import wall_bound
from grader.execution.hangs import HangMemory


class CallsStopped(GraderError):
    """The calls a check asked for were not made: its share of the time was spent, or they
    would reach a function that kept running out of time. ``reason`` says which."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class CpuShare:
    """The kernel's CPU time a check's calls may use, run down by the calls as they are made."""

    def __init__(self, seconds: float, reason: str) -> None:
        self.seconds = seconds
        self.reason = reason
        """What to say about the calls not made once it is spent."""
        self.spent = 0.0

    def left(self) -> float:
        return self.seconds - self.spent


@dataclass(frozen=True)
class CallWindow:
    """Until when the running check may start calls: while its CPU share lasts, and before
    ``until`` (``time.monotonic()``) on the wall clock; and what to say about the calls it
    could not make."""

    until: float
    reason: str
    """Why calls stop at ``until``."""
    cpu: CpuShare | None = None
    """None: the wall clock alone."""
    deadline: bool = False
    """``until`` is the submission's deadline, past which a call that waits is interrupted."""

    @classmethod
    def share(cls, seconds: float, reason: str, *, wall_reason: str) -> CallWindow:
        """A window for ``seconds`` of the kernel's CPU time, starting now, whose wall-clock
        safety net is `wall_bound` of it."""
        return cls(time.monotonic() + wall_bound(seconds), wall_reason, CpuShare(seconds, reason))

    @classmethod
    def check_share(cls, seconds: float) -> CallWindow:
        """A check's window: its share of the kernel's CPU time (`Assignment.check_share_seconds`)."""
        return cls.share(
            seconds,
            f"the check's {seconds:g} s share of CPU time was spent",
            wall_reason=f"the check's {wall_bound(seconds):g} s of wall time were spent "
            f"(its share is {seconds:g} s of CPU time)",
        )

    def left(self) -> tuple[float | None, float]:
        """What is left of it: seconds of the kernel's CPU time (None: not counted) and of wall
        time, which the kernel compares with its batch's (``start_within``, ``start_before``)."""
        return (None if self.cpu is None else self.cpu.left()), self.until - time.monotonic()

    def spent_reason(self) -> str:
        """Why no call starts any more (once nothing is left of it)."""
        if self.cpu is not None and self.cpu.left() <= 0:
            return self.cpu.reason
        return self.reason

    def spend(self, outcome: CallOutcome) -> None:
        if self.cpu is not None:
            self.cpu.spent += outcome.duration


class _Runner(Protocol):
    def call_many(self, calls: Sequence[Call]) -> list[CallOutcome]: ...


class CallBuilder(Protocol):
    """Builds one case's call from its key and placeholder values, with the limit and the
    batch's fields (``start_within``, ``start_before``, ``skip_after_timeout``)."""

    def __call__(self, key: Any, values: Mapping[str, Any], timeout: float | None = None, **fields: Any) -> Call: ...


@dataclass(frozen=True)
class BudgetedCalls:
    """How one student function's calls are limited."""

    target: str
    """The notebook name called (a class for chained calls), as hangs are remembered."""
    full_limit: float
    hangs: HangMemory
    window: CallWindow | None


def make_calls(
    runner: _Runner,
    budget: BudgetedCalls,
    pending: Mapping[Any, Mapping[str, Any]],
    *,
    build: CallBuilder,
    where: Callable[[Any], str],
    log: list[CallOutcome],
) -> dict[Any, CallOutcome]:
    """An outcome for each key of ``pending`` (placeholder values): the calls' own, or
    SKIPPED with the reason they were not made. ``where(key)`` says where a call ran out of
    time, for feedback."""
    todo = dict(pending)
    outcomes: dict[Any, CallOutcome] = {}
    hangs, target = budget.hangs, (budget.target,)
    while todo:
        allowance = hangs.allowance(target, budget.full_limit)
        window = budget.window
        if allowance.seconds is None:
            return {**outcomes, **_skipped(todo, allowance.reason(hangs.short_limit))}
        cpu_left: float | None = None
        wall_left: float | None = None
        if window is not None:
            cpu_left, wall_left = window.left()
            if wall_left <= 0 or (cpu_left is not None and cpu_left <= 0):
                return {**outcomes, **_skipped(todo, window.spent_reason())}
        limit = min(budget.full_limit, allowance.seconds)
        fields = {"start_within": cpu_left, "start_before": wall_left, "skip_after_timeout": True}
        if window is not None and window.deadline:
            fields["wait_until"] = wall_left
        calls = [build(key, values, limit, **fields) for key, values in todo.items()]
        made = 0
        for key, outcome in zip(list(todo), runner.call_many(calls)):
            log.append(outcome)
            if outcome.status is CallStatus.SKIPPED:
                continue
            made += 1
            if window is not None:
                window.spend(outcome)
            outcomes[key] = outcome
            del todo[key]
            if outcome.status is CallStatus.TIMEOUT:
                if outcome.stopped_by is StopClock.WALL:
                    hangs.ran_out(target, allowance, round(outcome.wall), where(key), StopClock.WALL)
                else:
                    hangs.ran_out(target, allowance, limit, where(key), StopClock.CPU)
        if not made:  # what is left was not started: the time was up
            return {**outcomes, **_skipped(todo, window.spent_reason() if window else "the call was not started")}
    return outcomes


def _skipped(keys: Mapping[Any, Any], reason: str) -> dict[Any, CallOutcome]:
    return {key: CallOutcome(CallStatus.SKIPPED, error=reason) for key in keys}


def where_it_ran_out(key: Any, call_text: str) -> str:
    """Where a call ran out of time, for feedback: its board when the key holds a tic-tac-toe
    board (nine characters: the tic-tac-toe kinds key their calls by it), else the call: the
    kinds that ask another game key theirs otherwise (a game's moves, a leaf's cells, a tree),
    and the call shows the board as the student's code holds it."""
    board = key[0] if isinstance(key, tuple) and key else key
    if isinstance(board, str) and len(board) == 9 and set(board) <= set("XO."):
        return "on the empty board" if board == "." * 9 else f"on the board {board}"
    return f"on `{call_text if len(call_text) <= 120 else call_text[:117] + '...'}`"
