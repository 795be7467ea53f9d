"""Asking the student ahead of a property run: answers fetched in batches before the run
judges their inputs, kept out of the evidence until it does.

Two places fetch ahead. `AnswersAside` is the check's side: it asks the student's function
for a batch of inputs with a shortened time limit and keeps the answers aside. The property
run's side, `RunExamplesAhead`, decides which inputs to fetch: the examples that follow a
miss in the run's own (seeded, known) order, as many as the calls' measured cost allows.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from grader.checks.answers import Answer
from grader.checks.context import StudentFunction
from grader.execution.channel.calls import CallOutcome, CallStatus

R = TypeVar("R")

Fetch = Callable[[list[Any]], "Sequence[float | None] | None"]
"""Fetches the student's answers for a list of inputs in one round trip and returns the
seconds each fetched call took (the student's own time), or None when that is not known."""


def example_key(value: object) -> object:
    """A hashable stand-in for an input: itself, or its repr."""
    try:
        hash(value)
        return value
    except TypeError:
        return repr(value)


SPECULATIVE_SECONDS = 2.0
"""The longest a batch of inputs fetched ahead may run if every call in it hangs: each call
gets its share as its time limit (never more than the student's own limit). Blocks are sized
so that the slowest call seen fits dozens of times in that share."""


class AnswersAside:
    """The student's answers to inputs a property run has not asked about yet.

    They are fetched with the student's own calls but kept out of its evidence (what
    diagnoses read) until the run judges their input: a run sees exactly the answers it would
    have seen asking one input at a time. An answer that timed out under the shorter limit of
    speculative calls, or a crash, is dropped: if judged, that input is asked again with the
    student's full limit.
    """

    def __init__(
        self, student: StudentFunction, key: Callable[[Any], Any], values: Callable[[Any], dict[str, Any]]
    ) -> None:
        self.student = student
        self.key = key
        self.values = values
        self.aside: dict[Any, Answer] = {}

    def fetch(self, cases: Sequence[Any]) -> list[float | None]:
        """One batch, cached as usual (the first pass's examples); calls that could not be
        made are left for the judge to ask again (and learn why)."""
        answers = self.student.ask_many(((self.key(c), self.values(c)) for c in cases), partial=True)
        return [_seconds(a.outcome) for a in answers]

    def speculate(self, cases: Sequence[Any]) -> list[float | None]:
        """One batch, kept aside until judged. Each call's time limit is its share of
        `SPECULATIVE_SECONDS` (at most the student's own limit)."""
        requests = {self.key(c): self.values(c) for c in cases if self.key(c) not in self.aside}
        if not requests:
            return []
        answers = self.student.fetch_aside(
            requests.items(), timeout=min(self.student.timeout, SPECULATIVE_SECONDS / len(requests))
        )
        seconds = [_seconds(answer.outcome) for answer in answers.values()]
        for (k, answer), took in zip(answers.items(), seconds):
            if took is not None:  # a hang or crash under the short limit is asked again if judged
                self.aside[k] = answer
        return seconds

    def judging(self, judge: Callable[[Any], R]) -> Callable[[Any], R]:
        """``judge``, with the answer kept aside for its input made evidence first."""

        def judge_with_answer(case: Any) -> R:
            k = self.key(case)
            if k in self.aside:
                self.student.keep(k, self.aside.pop(k))
            return judge(case)

        return judge_with_answer


def _seconds(outcome: CallOutcome) -> float | None:
    """The student's time for a call; None when it hung, crashed or was not made (nothing to
    go by)."""
    if outcome.status in (CallStatus.TIMEOUT, CallStatus.KILLED, CallStatus.SKIPPED):
        return None
    return outcome.duration


LOOKAHEAD_MAX_CALLS = 512
"""The most inputs fetched ahead in one round trip."""
LOOKAHEAD_SECONDS = 0.03
"""What one fetch ahead may cost (a few round trips), judged from the slowest call seen so
far: cheap predicates get blocks of hundreds of inputs, searches of a few milliseconds a
handful, slow code nothing beyond the input asked."""
LOOKAHEAD_BUDGET_SHARE = 0.1
"""...and at most this share of what is left of the check's time budget."""
CALL_OVERHEAD_SECONDS = 0.0001
"""The channel's own cost per call in a batch (encoding, dispatch), on top of the student's."""


class RunExamplesAhead:
    """Fetches the property run's generated examples ahead, before its first failure.

    The first miss fetches only its own input (when the run's simplest example already fails
    there is nothing more to ask); from the second on, the examples that follow it in the run
    come along, as many as the slowest call seen so far lets fit in the allowance. Without
    known call times (or once a call hung or crashed) nothing is fetched ahead.
    """

    def __init__(
        self,
        run_examples: Callable[[], list],
        speculate: Fetch,
        durations: Sequence[float | None] | None,
        *,
        known: set[object],
        allowance: Callable[[], float],
    ) -> None:
        self.run_examples = run_examples
        self.speculate = speculate
        self.known = known
        self.allowance = allowance
        self.seconds: list[float] = []
        self.unknown_time = False
        self.misses = 0
        self.stopped = False
        self._order: tuple[list, list[object]] | None = None
        self._note(durations)

    def _run_order(self) -> tuple[list, list[object]]:
        """The run's examples and their keys, generated once (a miss can come many times)."""
        if self._order is None:
            examples = self.run_examples()
            self._order = (examples, [example_key(v) for v in examples])
        return self._order

    def _note(self, durations: Sequence[float | None] | None) -> None:
        if durations is None or any(d is None for d in durations):  # hung or crashed: nothing to go by
            self.unknown_time = True
        else:
            self.seconds.extend(d for d in durations if d is not None)

    def block_size(self) -> int:
        """How many inputs one fetch ahead may hold (a power of two: jitter in call times
        rarely changes what is fetched)."""
        if self.unknown_time or not self.seconds:
            return 0
        # The slowest call but one when there are enough: a first call that warms the
        # kernel up should not shrink every block.
        ordered = sorted(self.seconds)
        slowest = ordered[-2] if len(ordered) >= 20 else ordered[-1]
        fits = min(LOOKAHEAD_MAX_CALLS, int(self.allowance() / (slowest + CALL_OVERHEAD_SECONDS)))
        return 1 << (fits.bit_length() - 1) if fits >= 1 else 0

    def stop(self) -> None:
        self.stopped = True

    def before(self, value: object) -> None:
        """Called before the run judges ``value``: on a miss, fetch what follows it."""
        if self.stopped or example_key(value) in self.known:
            return
        self.misses += 1
        limit = self.block_size()
        if self.misses < 2 or limit <= 1:
            return  # the judge asks for this one input itself
        examples, keys = self._run_order()
        if example_key(value) not in keys:
            return
        start = keys.index(example_key(value))
        block = []
        for candidate, k in zip(examples[start:], keys[start:]):
            if k not in self.known:
                self.known.add(k)
                block.append(candidate)
            if len(block) >= limit:
                break
        self._note(self.speculate(block))
