"""A value the notebook sets, compared with the course's (`answer`): a multiple-choice or short
answer a handout asks for as a global (``ANSWER_1 = None`` in the handout, ``ANSWER_1 = "B"`` in
the solution). The value is read in the kernel once the notebook has run; the course's answer is
never shown in the report."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from grader.check_notes import Cause
from grader.checks.context import CheckContext
from grader.checks.kind import CheckKind
from grader.execution.channel.call_data import Call, CallStatus, KernelName
from grader.results import CheckResult, CheckStatus, Counterexample
from grader.spec.model import Check

_READ_SECONDS = 2.0
_ONE_OF = "builtins.max"
"""Called on a tuple holding only the notebook's global, it answers the value itself, read as any
answer is; through the module, so that a notebook's own ``max`` or ``copy`` changes nothing."""


@dataclass(frozen=True)
class AnswerParams:
    """A global the notebook sets equals the course's answer: a string equal once both are stripped of spaces at
    the ends and of case (``"b"`` is ``"B"``), a number equal within 1e-9, a boolean the same boolean."""

    name: str
    """The global, e.g. ``ANSWER_1``."""
    expected: str | int | float | bool
    """The course's answer: a string, a number or a boolean (``expected = "B"``)."""

    def __post_init__(self) -> None:
        if not self.name.isidentifier():
            raise ValueError(f"name must be a global's name such as ANSWER_1, not {self.name!r}")
        if not isinstance(self.expected, (str, int, float, bool)):
            raise ValueError(f"expected must be a string, a number or a boolean, not {self.expected!r}")


def same_answer(given: Any, expected: Any) -> bool:
    """Whether ``given`` is the answer ``expected``, as `AnswerParams` says."""
    if isinstance(expected, bool) or isinstance(given, bool):
        return given is expected
    if isinstance(expected, str):
        return isinstance(given, str) and given.strip().casefold() == expected.strip().casefold()
    if isinstance(given, (int, float)):
        try:
            return math.isclose(given, expected, rel_tol=1e-9, abs_tol=1e-9)
        except OverflowError:  # an int no float holds is the answer only when it is that int
            return given == expected
    return False


def reading_global(name: str) -> Call:
    """The call that reads the notebook's global ``name`` as any answer is read."""
    return Call(_ONE_OF, ((KernelName(name),),), timeout=_READ_SECONDS, check_mutation=False)


def _answer(check: Check[AnswerParams], ctx: CheckContext) -> CheckResult:
    name = check.params.name
    (outcome,) = ctx.runner.call_many([reading_global(name)])
    if outcome.status is CallStatus.UNSERIALIZABLE:  # set, but to what no answer is (``...``, a function)
        return _wrong(check, f"`{name}` is not answered with a string, a number or a boolean", "no such value")
    if not outcome.ok:
        return _wrong(check, f"`{name}` is not set", "no value")
    if outcome.value is None:
        return _wrong(check, f"`{name}` is None: not answered yet", "None")
    if not same_answer(outcome.value, check.params.expected):
        return _wrong(check, f"`{name}` is not the right answer", repr(outcome.value))
    return CheckResult.for_check(check, CheckStatus.PASSED, f"`{name}` is the right answer")


def _wrong(check: Check[AnswerParams], headline: str, given: str) -> CheckResult:
    return CheckResult.for_check(
        check,
        CheckStatus.FAILED,
        headline,
        counterexample=Counterexample(None, check.params.name, "the course's answer", given),
        cause=Cause("local", f"Set `{check.params.name}` to your answer."),
    )


ANSWER = CheckKind("answer", AnswerParams, _answer, any_game=True)
