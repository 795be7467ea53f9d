"""Checks written in Python by the course author, in the assignment's adapter.py (with the
API of `grader.checks.api`)."""

from __future__ import annotations

from dataclasses import dataclass, field

from grader.checks.context import CheckContext
from grader.checks.kind import CheckKind
from grader.results import CheckResult, CheckStatus
from grader.spec.model import Check


@dataclass(frozen=True)
class AdapterParams:
    """A check written in Python in the assignment's ``adapter.py``, with the API of ``grader.checks.api``: ``def
    check_x(check, ctx) -> CheckResult``."""

    function: str
    """The name of a function in the assignment's adapter.py: (check, context) -> CheckResult."""
    needs: tuple[str, ...] = ()
    """Student functions the check calls (a bonus check only runs when they are all defined)."""
    options: dict = field(default_factory=dict)
    """Passed to the adapter function as keyword arguments."""


def _adapter_check(check: Check[AdapterParams], ctx: CheckContext) -> CheckResult:
    params = check.params
    adapter = ctx.assignment.adapter
    function = getattr(adapter, params.function, None) if adapter else None
    if function is None:
        return CheckResult.for_check(
            check, CheckStatus.ERROR, f"The assignment's adapter.py has no function `{params.function}`."
        )
    for name in params.needs:
        ctx.resolve(name)  # NotDefined -> not run, with look-alikes
    result: CheckResult = function(check, ctx, **params.options)
    return result


def _needs(params: AdapterParams) -> tuple[str, ...]:
    return params.needs


ADAPTER = CheckKind("adapter", AdapterParams, _adapter_check, needs=_needs)
