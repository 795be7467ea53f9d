"""How long the student's own functions ran, per function, of the calls the checks made.

`CallTally` sits between the checks and the call channel and passes every call through: it
answers nothing itself, it only counts. The timings of a result report its total as the
student's share of the checks' time (``student_code``), and ``bench/profile_class.py`` reads
it per function.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from grader.execution.channel.call_data import Call, CallOutcome, CallStatus


class _Runner(Protocol):
    def call_many(self, calls: Sequence[Call]) -> list[CallOutcome]: ...


@dataclass
class FunctionTally:
    """What the checks asked of one function (its target, chained methods and stand-ins bound)."""

    calls: int = 0
    """Calls the checks asked for."""
    made: int = 0
    """Calls made in the kernel (a skipped call, after a hang, is not)."""
    seconds: float = 0.0
    """Wall time of the calls made in the kernel (``CallOutcome.wall``): their share of the
    checks' own wall time. Their CPU time, what their limits count, is ``CallOutcome.duration``."""

    def add(self, other: FunctionTally) -> None:
        """Count ``other``'s calls in too (another submission's, for a profile of a class)."""
        self.calls += other.calls
        self.made += other.made
        self.seconds += other.seconds


class CallTally:
    """The call runner for one submission's checks: every call goes to ``runner``, and its
    kernel time is added to its function's tally."""

    def __init__(self, runner: _Runner) -> None:
        self._runner = runner
        self.tallies: dict[str, FunctionTally] = {}

    @property
    def kernel_seconds(self) -> float:
        """Wall time the calls made spent in the student's code, as the kernel measured it."""
        return sum(tally.seconds for tally in self.tallies.values())

    def call_many(self, calls: Sequence[Call]) -> list[CallOutcome]:
        outcomes = self._runner.call_many(calls)
        for call, outcome in zip(calls, outcomes):
            tally = self.tallies.setdefault(function_label(call), FunctionTally())
            tally.calls += 1
            if outcome.status is not CallStatus.SKIPPED:
                tally.made += 1
                tally.seconds += outcome.wall
        return outcomes


def function_label(call: Call) -> str:
    """The function a call asks, with the methods chained and the stand-ins bound."""
    label = call.target + "".join(f".{name}()" for name, _, _ in call.then)
    if call.stand_ins:
        label += " [" + ", ".join(stand_in.name for stand_in in call.stand_ins) + " stood in]"
    return label
