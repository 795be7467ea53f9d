"""From a property run's outcome to a check's verdict (the run itself: `grader.checks.recipe`)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from typing import Any

from grader.check_notes import BudgetRanOut, Cause, KindsSeen, Learnt, NoMoreJudged, Note, PositionsTried
from grader.checks.causes.defects import Defect
from grader.checks.causes.shape import Observed, shape_headline
from grader.checks.context import StudentFunction
from grader.checks.properties import Mismatch, PropertyOutcome
from grader.results import CheckResult, CheckStatus, Counterexample
from grader.spec.model import Check
from reference import BoardGame, MalformedBoard, Position


def result_from_property(
    check: Check[Any],
    outcome: PropertyOutcome,
    passed_headline: str,
    *,
    figures: Mapping[str, Any] | None = None,
    cause: Cause | None = None,
    learnt: Learnt | None = None,
) -> CheckResult:
    """The verdict of a property run. ``cause``: the failure's, when the kind picked one
    (`explain`; else the failing answer's own, `local_cause`); a cause of shape is the
    headline itself (the shape accounts for every call: a guess from one answer would only
    distract). The failing position's size is its game's count of pieces (`PropertyOutcome.game`)."""
    all_figures: dict[str, Any] = {"examples": outcome.tried, **(figures or {})}
    if outcome.budget_exhausted:
        all_figures["budget_exhausted"] = True
    if outcome.stopped is not None:
        all_figures["stopped"] = outcome.stopped
    if outcome.passed:
        covered = outcome.covered
        not_run = None
        if outcome.stopped is not None and outcome.tried == 0:
            not_run = outcome.stopped
        elif covered is not None and covered.missing:
            not_run = _unseen(covered.missing, outcome.stopped)
        if not_run is not None:
            return replace(CheckResult.not_run(check, not_run), learnt=learnt or Learnt())
        notes: list[Note] = [PositionsTried(outcome.tried)]
        if outcome.stopped is not None:
            notes.append(NoMoreJudged(outcome.stopped))
        elif outcome.budget_exhausted:
            notes.append(BudgetRanOut())
        if covered is not None and covered.summary:
            notes.append(KindsSeen(covered.summary))
        return CheckResult.for_check(
            check, CheckStatus.PASSED, passed_headline, figures=all_figures, notes=tuple(notes), learnt=learnt
        )
    board = outcome.failing_input
    pieces = _pieces(outcome.game, board)
    mismatch = outcome.mismatch
    assert mismatch is not None
    cause = cause or local_cause(mismatch)
    ran_out: tuple[Note, ...] = ()
    if cause is not None and cause.source == "shape":
        headline = cause.sentence
    elif mismatch.ran_out is not None:
        on = f" on a position with {pieces} pieces" if pieces is not None else ""
        headline, ran_out = f"No answer{on}", (mismatch.ran_out,)
    else:
        headline = f"Wrong answer on a position with {pieces} pieces" if pieces is not None else "Wrong answer"
    return CheckResult.for_check(
        check,
        CheckStatus.FAILED,
        headline,
        counterexample=counterexample_for(board if pieces is not None else None, mismatch),
        figures=all_figures,
        cause=cause,
        notes=ran_out,
        learnt=learnt,
    )


def _pieces(game: BoardGame[Position, int] | None, failing: object) -> int | None:
    """The pieces on the failing position; None when the failing input is no position of the
    game (nothing failed, or a whole case was kept) or the outcome names no game."""
    if game is None:
        return None
    try:
        return game.pieces(failing)
    except MalformedBoard:
        return None


def explain(explainers: Iterable[Callable[[], Cause | None]]) -> Cause | None:
    """The cause of the first explainer that names one: the list's order says which
    explanation wins (the shape of every call, then a lower-level function's defect, then a
    convention, then the one wrong answer)."""
    for explainer in explainers:
        cause = explainer()
        if cause is not None:
            return cause
    return None


def local_cause(mismatch: Mismatch | None, defect: Defect | None = None) -> Cause | None:
    """What the failing answer alone suggests, when its judge said (the last explainer);
    ``defect``: the function's, when its answers showed one."""
    return None if mismatch is None or mismatch.cause is None else Cause("local", mismatch.cause, defect)


def _unseen(missing: tuple[str, ...], stopped: str | None) -> str:
    """Why a check that saw no wrong answer still does not pass."""
    why = f": {stopped}" if stopped is not None else ""
    return f"the check judged no {', '.join(missing)}, which it must see before it can pass{why}"


def counterexample_for(board: Position | None, mismatch: Mismatch) -> Counterexample:
    return Counterexample(
        board=str(board) if board is not None else None,
        call=mismatch.call,
        expected=mismatch.expected,
        actual=mismatch.actual,
    )


def shape_of(student: StudentFunction, *, none_ok: bool = False) -> Cause | None:
    """The shape of every call made to ``student`` (a signature the assignment's call does not
    fit, a stub) as the failure's cause, or ``None`` when its answers are to be judged as answers."""
    outcomes = [Observed.from_outcome(answer.outcome) for _, answer in student.answers()]
    headline = shape_headline(student.function, student.template, outcomes, none_ok=none_ok)
    return None if headline is None else Cause("shape", headline)
