"""What the searches handed a heuristic share (`game-search`, `state-search`, `tree-search`): the
checks of their parameters when the assignment loads, the heuristic's values asked in one batch,
and the failure when the heuristic the search is handed gives no number where the search
evaluates."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from typing import Any, TypeVar

from grader.check_notes import Cause
from grader.checks.answers import Answer
from grader.checks.context import StudentFunction
from grader.checks.kinds.game_heuristic import number
from grader.results import CheckResult, CheckStatus
from grader.spec.call_template import CallTemplate
from grader.spec.model import Check


def check_search_call(
    call: CallTemplate,
    heuristic: CallTemplate | None,
    *,
    heuristic_example: str,
    to_the_end: bool,
    depth_limits: tuple[int, ...],
    path_field: str,
    path: str,
) -> None:
    """Raise ValueError naming the first mistake: a call not given the state, a heuristic handed
    but not named (``heuristic_example`` shows how), depth limits that are none or negative (read
    unless searched to the end), a ``path_field`` that is not attribute names joined by dots."""
    placeholders = call.placeholders
    if "state" not in placeholders:
        raise ValueError(f"{call.text!r} is not given the state: write state among its arguments")
    if "heuristic" in placeholders and heuristic is None:
        raise ValueError(f'the call is handed the heuristic: say which with heuristic = "{heuristic_example}"')
    if not to_the_end and (not depth_limits or any(d < 0 for d in depth_limits)):
        raise ValueError(f"depth_limits must list depths of 0 or more, not {list(depth_limits)}")
    if not all(part.isidentifier() for part in path.split(".")):
        raise ValueError(f"{path_field} must be attribute names joined by dots, not {path!r}")


Key = TypeVar("Key", bound=Hashable)

ASKED_FIRST = 16
"""How many of the leaves are asked before the rest. A heuristic that gives no number on one
leaf mostly gives none on any (a stub raises on every position): the rest are asked only once
these all answered a number, so that a stub costs 16 calls instead of thousands (the handout of
a Connect-Four course: 3,400 leaves a search, each raising), and the first leaf without a number
is the same either way."""


def heuristic_values(
    heuristic: StudentFunction,
    requests: Mapping[Key, Any],
    placeholders: Callable[[Any], Mapping[str, Any]] = lambda values: values,
) -> tuple[dict[Key, float], Answer | None]:
    """The heuristic's value for each request, asked in two batches (`ASKED_FIRST`), and None;
    or, where an answer is not a number (or the call failed), no values and the first such
    answer in the requests' order. ``placeholders`` makes a request's placeholder values, when
    its batch is asked (default: the request is its values)."""
    values: dict[Key, float] = {}
    keys = list(requests)
    for batch in (keys[:ASKED_FIRST], keys[ASKED_FIRST:]):
        if not batch:
            continue
        asked = [(key, placeholders(requests[key])) for key in batch]
        for key, answer in zip(batch, heuristic.ask_many(asked)):
            value = number(answer.value) if answer.ok else None
            if value is None:
                return {}, answer
            values[key] = value
    return values, None


def depths_text(limits: tuple[int, ...]) -> str:
    """``at depth 3``, or ``at depths 2, 3``."""
    return f"at depth {limits[0]}" if len(limits) == 1 else f"at depths {', '.join(map(str, limits))}"


def gives_no_number(check: Check[Any], answer: Answer, where: str = "a position") -> CheckResult:
    """The failure when the heuristic answered ``answer``, no number, on ``where`` the search
    evaluates: the search cannot be judged without its values."""
    return CheckResult.for_check(
        check,
        CheckStatus.FAILED,
        f"The heuristic gives no number on {where} the search evaluates: {answer.given()}",
        cause=Cause("local", f"`{answer.call_text}` must answer a number for the search to be judged"),
    )
