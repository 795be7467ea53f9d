"""From a property run's outcome to a check's verdict (the run itself: `grader.checks.recipe`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from grader.checks.causes.shape import Observed, shape_headline
from grader.checks.context import StudentFunction
from grader.checks.properties import Mismatch, PropertyOutcome
from grader.results import CheckResult, CheckStatus, Counterexample
from grader.spec.model import Check
from reference import Board


def result_from_property(
    check: Check[Any],
    outcome: PropertyOutcome,
    passed_message: str,
    *,
    figures: Mapping[str, Any] | None = None,
    headline: str | None = None,
) -> CheckResult:
    """``headline`` replaces the "wrong answer" one when the failure is one of shape (see
    :func:`shape_of`)."""
    all_figures: dict[str, Any] = {"examples": outcome.tried, **(figures or {})}
    if outcome.budget_exhausted:
        all_figures["budget_exhausted"] = True
    if outcome.stopped is not None:
        all_figures["stopped"] = outcome.stopped
    if outcome.passed:
        if outcome.stopped is not None and outcome.tried == 0:
            return CheckResult.not_run(check, outcome.stopped)
        covered = outcome.covered
        if covered is not None and covered.missing:
            return CheckResult.not_run(check, _unseen(covered.missing, outcome.stopped))
        message = passed_message + f" ({outcome.tried} positions tried)"
        if outcome.stopped is not None:
            message += f"; no more were judged: {outcome.stopped}"
        elif outcome.budget_exhausted:
            message += "; the time budget ran out before all planned positions were tried"
        if covered is not None and covered.summary:
            message += ". " + covered.summary
        return CheckResult.for_check(check, CheckStatus.PASSED, message, figures=all_figures)
    board = outcome.failing_input
    mismatch = outcome.mismatch
    assert mismatch is not None
    if headline is not None:
        # The shape accounts for every call: a guess from one answer would only distract.
        mismatch = replace(mismatch, cause=None)
    else:
        headline = (
            f"Wrong answer on a position with {9 - len(board.empty_cells())} pieces"
            if isinstance(board, Board)
            else "Wrong answer"
        )
    return CheckResult.for_check(
        check,
        CheckStatus.FAILED,
        headline,
        counterexample=counterexample_for(board if isinstance(board, Board) else None, mismatch),
        figures=all_figures,
    )


def _unseen(missing: tuple[str, ...], stopped: str | None) -> str:
    """Why a check that saw no wrong answer still does not pass."""
    why = f": {stopped}" if stopped is not None else ""
    return f"the check judged no {', '.join(missing)}, which it must see before it can pass{why}"


def counterexample_for(board: Board | None, mismatch: Mismatch) -> Counterexample:
    return Counterexample(
        board=str(board) if board is not None else None,
        call=mismatch.call,
        expected=mismatch.expected,
        actual=mismatch.actual,
        cause=mismatch.cause,
    )


def shape_of(student: StudentFunction, *, none_ok: bool = False) -> str | None:
    """The shape headline of every call made to ``student`` (a signature the assignment's call
    does not fit, a stub), or ``None`` when its answers are to be judged as answers."""
    outcomes = [Observed.from_outcome(answer.outcome) for _, answer in student.answers()]
    return shape_headline(student.function, student.template, outcomes, none_ok=none_ok)
