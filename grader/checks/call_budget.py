"""Which of a check's calls are made, and with what limit: the check's share of the grading
time, and what earlier calls that ran out of time teach (`grader.execution.hangs`).

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
from grader.execution.channel.calls import Call, CallOutcome, CallStatus
from grader.execution.hangs import HangMemory


class CallsStopped(GraderError):
    """The calls a check asked for were not made: its share of the time was spent, or they
    would reach a function that kept running out of time. ``reason`` says which."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class CallWindow:
    """Until when (``time.monotonic()``) the running check may start calls, and what to say
    about the calls it could not make."""

    until: float
    reason: str


class _Runner(Protocol):
    def call_many(self, calls: Sequence[Call]) -> list[CallOutcome]: ...


class CallBuilder(Protocol):
    """Builds one case's call from its placeholder values, with the limit and the batch's
    fields (``start_within``, ``skip_after_timeout``)."""

    def __call__(self, values: Mapping[str, Any], timeout: float | None = None, **fields: Any) -> Call: ...


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
        start_within = None if window is None else window.until - time.monotonic()
        if allowance.seconds is None:
            return {**outcomes, **_skipped(todo, allowance.reason(hangs.short_limit))}
        if window is not None and start_within is not None and start_within <= 0:
            return {**outcomes, **_skipped(todo, window.reason)}
        limit = min(budget.full_limit, allowance.seconds)
        calls = [build(values, limit, start_within=start_within, skip_after_timeout=True) for values in todo.values()]
        made = 0
        for key, outcome in zip(list(todo), runner.call_many(calls)):
            log.append(outcome)
            if outcome.status is CallStatus.SKIPPED:
                continue
            made += 1
            outcomes[key] = outcome
            del todo[key]
            if outcome.status is CallStatus.TIMEOUT:
                hangs.ran_out(target, allowance, limit, where(key))
        if not made:  # what is left was not started: the time was up
            return {**outcomes, **_skipped(todo, window.reason if window else "the call was not started")}
    return outcomes


def _skipped(keys: Mapping[Any, Any], reason: str) -> dict[Any, CallOutcome]:
    return {key: CallOutcome(CallStatus.SKIPPED, error=reason) for key in keys}


def where_it_ran_out(key: Any, call_text: str) -> str:
    """Where a call ran out of time, for feedback: its board when the key holds one (nine
    characters), else the call."""
    board = key[0] if isinstance(key, tuple) and key else key
    if isinstance(board, str) and len(board) == 9 and set(board) <= set("XO."):
        return "on the empty board" if board == "." * 9 else f"on the board {board}"
    return f"on `{call_text if len(call_text) <= 120 else call_text[:117] + '...'}`"
