"""Never ask a student's function the same question twice within a submission, once its
answers are seen to be repeatable.

The checks of one submission ask the same functions about the same boards again and again
(a predicate check and the search that calls it, a game and the next game, a check graded
again with a stand-in bound). `AnswerMemo` sits between the checks and the call channel: a
question is the whole call as the kernel receives it (function, encoded arguments, the
methods chained, the globals and attributes set, the object made, the stand-ins bound),
apart from its time limits. A question is only answered from the memo once it was really
asked twice and answered identically both times, and only while its function has never
answered any question two ways: a random tie-break or a function reading a counter it
changes shows a difference sooner or later, and from then on every call of it is made.

Calls whose effects are what the check measures are always made: counted calls (node
counts), recorded explorations, calls that read globals back. An answer is only kept when
the call returned normally without changing its arguments or the globals it set; a time-out,
an error, a kernel death or a skipped call is never kept, so hangs are still learnt and a
mutation is always seen.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, fields, is_dataclass
from typing import Any, Protocol

from grader.execution.channel.call_data import Call, CallOutcome, CallStatus

_NOT_PART_OF_THE_QUESTION = ("timeout", "start_within", "skip_after_timeout")


class _Runner(Protocol):
    def call_many(self, calls: Sequence[Call]) -> list[CallOutcome]: ...


@dataclass
class FunctionTally:
    """What the memo saw of one function (its target, chained methods and stand-ins bound)."""

    calls: int = 0
    """Calls the checks asked for."""
    made: int = 0
    """Calls really made in the kernel."""
    served: int = 0
    """Calls answered from the memo."""
    repeats: int = 0
    """Calls that asked a question already asked in this submission."""
    seconds: float = 0.0
    """Kernel time of the calls made (``CallOutcome.duration``)."""
    saved: float = 0.0
    """Kernel time the served answers took when they were asked."""
    differed: bool = False
    """The function once answered one question two ways: it is never answered from the memo."""

    def add(self, other: FunctionTally) -> None:
        """Count ``other``'s calls in too (another submission's, for a profile of a class)."""
        self.calls += other.calls
        self.made += other.made
        self.served += other.served
        self.repeats += other.repeats
        self.seconds += other.seconds
        self.saved += other.saved
        self.differed |= other.differed


@dataclass
class _Question:
    first: CallOutcome
    confirmed: bool = False


class AnswerMemo:
    """The call runner for one submission's checks, answering repeated questions of
    repeatable functions from what the kernel said before."""

    def __init__(self, runner: _Runner, *, enabled: bool = True) -> None:
        self._runner = runner
        self.enabled = enabled
        self._questions: dict[str, _Question] = {}
        self.tallies: dict[str, FunctionTally] = {}

    @property
    def kernel_seconds(self) -> float:
        """Time the calls really made spent in the student's code, by the kernel's clock."""
        return sum(tally.seconds for tally in self.tallies.values())

    def call_many(self, calls: Sequence[Call]) -> list[CallOutcome]:
        keys = [question_key(call) for call in calls]
        outcomes: list[CallOutcome | None] = [None] * len(calls)
        for index, (call, key) in enumerate(zip(calls, keys)):
            tally = self._tally(call)
            tally.calls += 1
            known = self._questions.get(key) if key is not None else None
            if known is not None:
                tally.repeats += 1
                if self.enabled and known.confirmed and not tally.differed:
                    outcomes[index] = known.first
                    tally.served += 1
                    tally.saved += known.first.duration
        todo = [index for index, outcome in enumerate(outcomes) if outcome is None]
        if todo:
            for index, outcome in zip(todo, self._runner.call_many([calls[i] for i in todo])):
                outcomes[index] = outcome
                self._learn(calls[index], keys[index], outcome)
        return [outcome for outcome in outcomes if outcome is not None]

    def _tally(self, call: Call) -> FunctionTally:
        return self.tallies.setdefault(function_label(call), FunctionTally())

    def _learn(self, call: Call, key: str | None, outcome: CallOutcome) -> None:
        tally = self._tally(call)
        if outcome.status is not CallStatus.SKIPPED:
            tally.made += 1
            tally.seconds += outcome.duration
        if key is None or outcome.status is not CallStatus.OK or outcome.mutated:
            return
        known = self._questions.get(key)
        if known is None:
            self._questions[key] = _Question(outcome)
        elif same_outcome(known.first, outcome):
            known.confirmed = True
        else:
            tally.differed = True


def question_key(call: Call) -> str | None:
    """The question a call asks, as text; None for a call that must always be made (it is
    counted, recorded or reads globals back: its effects are what is measured)."""
    if call.count or call.count_all or call.explore is not None or call.read_globals:
        return None
    request = {name: value for name, value in call.to_request().items() if name not in _NOT_PART_OF_THE_QUESTION}
    return json.dumps(request, sort_keys=True, separators=(",", ":"))


def function_label(call: Call) -> str:
    """The function a call asks, with the methods chained and the stand-ins bound:
    repeatability is judged per label."""
    label = call.target + "".join(f".{name}()" for name, _, _ in call.then)
    if call.stand_ins:
        label += " [" + ", ".join(stand_in.name for stand_in in call.stand_ins) + " stood in]"
    return label


def same_outcome(first: CallOutcome, second: CallOutcome) -> bool:
    """Two outcomes say the same thing (their durations aside)."""
    return (
        first.status is second.status
        and first.error == second.error
        and first.mutated == second.mutated
        and first.stdout == second.stdout
        and _same(dict(first.counts), dict(second.counts))
        and _same(dict(first.globals_after), dict(second.globals_after))
        and _same(first.value, second.value)
    )


def _same(a: Any, b: Any) -> bool:
    """Equal values of the same types all the way down (numpy arrays by shape, type and
    content; NaN equal to NaN)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, float):
        return a == b or (math.isnan(a) and math.isnan(b))
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict):
        return list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, (set, frozenset)):
        return bool(a == b)
    if hasattr(a, "shape") and hasattr(a, "dtype") and hasattr(a, "tolist"):  # a numpy array
        return bool(a.shape == b.shape and a.dtype == b.dtype and _same(a.tolist(), b.tolist()))
    if is_dataclass(a):
        return all(_same(getattr(a, f.name), getattr(b, f.name)) for f in fields(a))
    if a is None or isinstance(a, (bool, int, str, bytes, complex)):
        return bool(a == b)
    return False
