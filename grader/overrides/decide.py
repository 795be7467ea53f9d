"""Take one decision of the instructor (from `grader override` or the review page): check it
against the class and its spec, write it into ``overrides.toml``, and render the student's
outputs and the class files anew. A decision refused leaves everything as it was."""

from __future__ import annotations

import math
from collections.abc import Callable

from grader.errors import UsageError
from grader.overrides.apply import FittedDecisions, points_problem
from grader.overrides.model import MalformedOverrides
from grader.overrides.refresh import GradedClass
from grader.overrides.store import Author, VersionConflict, overrides_path, record_adjustment, record_check


class DecisionRefused(UsageError, ValueError):
    """The decision does not fit (unknown student or check, points out of range, a file that
    cannot be read, or entries changed meanwhile); one line says why."""


class EditConflict(DecisionRefused):
    """The student's entries changed since the editor read them: nothing was written."""


def parse_points(text: str, *, signed: bool = False) -> float | None:
    """Points as typed in a form or on the command line; None for an empty field."""
    text = text.strip()
    if not text:
        return None
    try:
        value = float(text)
    except ValueError:
        raise DecisionRefused(f"points must be a number, not {text!r}") from None
    if not math.isfinite(value):
        raise DecisionRefused(f"points must be a number, not {text!r}")
    if value < 0 and not signed:
        raise DecisionRefused(f"points {value:g} out of range: they must be 0 or more")
    return value


def decide_check(
    graded: GradedClass,
    student_id: str,
    check_id: str,
    points: float | None,
    comment: str,
    author: Author,
    expected_version: str | None = None,
) -> FittedDecisions:
    """Set (or, with neither points nor comment, remove) the decision on one check."""
    _known(graded, student_id)
    check = next((c for c in graded.assignment.checks if c.id == check_id), None)
    problem = points_problem(check, check_id, points, graded.assignment.id)
    if problem:
        raise DecisionRefused(problem)
    return _write(
        graded,
        student_id,
        lambda: record_check(
            overrides_path(graded.out_dir), student_id, check_id, points, comment.strip(), author, expected_version
        ),
    )


def decide_adjustment(
    graded: GradedClass,
    student_id: str,
    points: float | None,
    reason: str,
    author: Author,
    expected_version: str | None = None,
) -> FittedDecisions:
    """Set (or, with points None, remove) the adjustment of a student's whole score."""
    _known(graded, student_id)
    if points is not None and not reason.strip():
        raise DecisionRefused("an adjustment needs a reason (a late penalty, a bonus)")
    return _write(
        graded,
        student_id,
        lambda: record_adjustment(
            overrides_path(graded.out_dir), student_id, points, reason.strip(), author, expected_version
        ),
    )


def _known(graded: GradedClass, student_id: str) -> None:
    if student_id not in graded.records:
        raise DecisionRefused(f"no student {student_id!r} in {graded.out_dir}")


def _write(graded: GradedClass, student_id: str, write: Callable[[], None]) -> FittedDecisions:
    try:
        graded.decisions()  # a file that cannot be read is refused before anything is written
        write()
    except VersionConflict as exc:
        raise EditConflict(str(exc)) from None
    except MalformedOverrides as exc:
        raise DecisionRefused(str(exc)) from None
    return graded.refresh([student_id])
