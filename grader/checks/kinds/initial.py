"""The initial state: a function that takes nothing and returns the game's starting position (the
empty board) in the assignment's encoding."""

from __future__ import annotations

from dataclasses import dataclass

from grader.check_notes import Cause
from grader.checks.context import CheckContext
from grader.checks.kind import CheckKind
from grader.results import CheckResult, CheckStatus, Counterexample
from grader.spec.call_template import CallTemplate
from grader.spec.model import Check
from reference import MalformedBoard


@dataclass(frozen=True)
class InitialStateParams:
    """The call returns the empty board, written in the assignment's encoding."""

    call: CallTemplate
    """The call that makes the starting board, e.g. ``initial_state()``."""


def _initial_state(check: Check[InitialStateParams], ctx: CheckContext) -> CheckResult:
    student = ctx.student(check.params.call)
    answer = student.ask("initial", {})
    expected = f"the empty board, written {ctx.assignment.encoding.description}"
    if not answer.ok:
        return _failed(
            check, f"`{answer.call_text}` {answer.failure_text()}", answer.call_text, expected, answer.given()
        )
    try:
        board = ctx.decode_board(answer.value)
    except MalformedBoard as exc:
        return _failed(
            check,
            f"`{answer.call_text}` returned {answer.value!r}, which is not a board written this way: {exc}",
            answer.call_text,
            expected,
            repr(answer.value),
        )
    if board != ctx.game.initial_state():
        return _failed(
            check,
            f"`{answer.call_text}` returned a board with marks on it: {board}",
            answer.call_text,
            expected,
            str(board),
            "A game starts with every cell empty.",
        )
    return CheckResult.for_check(check, CheckStatus.PASSED, f"`{student.label}` returns the empty board")


def _failed(
    check: Check[InitialStateParams], headline: str, call: str, expected: str, actual: str, cause: str | None = None
) -> CheckResult:
    return CheckResult.for_check(
        check,
        CheckStatus.FAILED,
        headline,
        counterexample=Counterexample(None, call, expected, actual),
        cause=None if cause is None else Cause("local", cause),
    )


INITIAL_STATE = CheckKind("initial-state", InitialStateParams, _initial_state)
