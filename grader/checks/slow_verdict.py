"""Slow is not wrong: a check whose answers were all right, one of them after the assignment's
soft limit (``slow_after``) and before its hard one (``call_timeout``, past which a call is
stopped and has no answer), is "correct, but slower than" the soft limit, and loses the
check's ``slow_cost`` share of its points (the assignment's, unless the check sets its own).

Read from the times the kernel reported for the check's own calls, so that every kind gets
it alike and none has to measure: a kind judges the answers, this judges their time.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from grader.check_notes import SlowerThan
from grader.execution.channel.calls import CallOutcome
from grader.results import CheckResult, CheckStatus
from grader.spec.model import Assignment, Check


def slow_cost(check: Check[Any], assignment: Assignment) -> float:
    return assignment.slow_cost if check.slow_cost is None else check.slow_cost


def with_speed(
    result: CheckResult, check: Check[Any], assignment: Assignment, calls: Sequence[CallOutcome]
) -> CheckResult:
    """``result`` with the slow verdict when it passed and one of ``calls`` answered after
    the soft limit; any other result as it is (a wrong answer is wrong however fast, and a
    call past the hard limit has no answer to be slow with)."""
    limit = assignment.slow_after
    if limit is None or result.status is not CheckStatus.PASSED:
        return result
    slowest = max((call.duration for call in calls if call.ok), default=0.0)
    if slowest <= limit:
        return result
    cost = slow_cost(check, assignment)
    note = SlowerThan(limit, round(slowest, 1), cost)
    status = CheckStatus.PARTIAL if cost else CheckStatus.PASSED
    return replace(result, status=status, score=round(result.score * (1 - cost), 4), notes=(*result.notes, note))


def is_slow_only(result: CheckResult) -> bool:
    """The result lost points for its speed alone: its answers were right."""
    return any(isinstance(note, SlowerThan) for note in result.notes)
