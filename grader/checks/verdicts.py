"""From a property run to a check's verdict: the run with the assignment's budget and the
check's own seed and example cache, and the result it becomes."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from hypothesis import strategies as st

from grader.checks.causes.shape import Observed, shape_headline
from grader.checks.context import CheckContext, StudentFunction
from grader.checks.lookahead import AnswersAside
from grader.checks.positions import board_size, check_key, check_seed
from grader.checks.properties import Mismatch, PropertyOutcome, find_smallest_failure
from grader.results import CheckResult, CheckStatus, Counterexample
from grader.spec.model import Check
from reference import Board


def find_failure(
    check: Check[Any],
    ctx: CheckContext,
    student: StudentFunction,
    strategy: st.SearchStrategy[Any],
    judge: Callable[[Any], Mismatch | None],
    *,
    key: Callable[[Any], Any],
    values: Callable[[Any], dict[str, Any]],
    size: Callable[[Any], tuple[Any, ...]] = board_size,
    explicit: Sequence[Any] = (),
    examples: int | None = None,
    sample: st.SearchStrategy[Any] | None = None,
) -> PropertyOutcome:
    """A check's property run with the assignment's budget, the check's own seed and example
    cache, and the student's answers fetched in batches (``key`` and ``values`` say how a
    case becomes a call)."""
    aside = AnswersAside(student, key, values)
    return find_smallest_failure(
        strategy,
        aside.judging(judge),
        size=size,
        examples=examples or ctx.assignment.hypothesis_examples,
        run_seed=check_seed(ctx, check),
        cache_key=check_key(ctx, check),
        budget_seconds=ctx.assignment.check_budget_seconds,
        prefetch=aside.fetch,
        speculate=aside.speculate,
        explicit=explicit,
        sample=sample,
    )


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
        message = passed_message + f" ({outcome.tried} positions tried)"
        if outcome.stopped is not None:
            message += f"; no more were judged: {outcome.stopped}"
        elif outcome.budget_exhausted:
            message += "; the time budget ran out before all planned positions were tried"
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
