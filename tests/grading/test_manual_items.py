"""Items marked by hand: students see the title and that the instructor marks it; the notes on
how to mark it reach the instructor only (the class index)."""

from __future__ import annotations

from collections.abc import Sequence

from grader.checks.context import CheckContext
from grader.checks.registry import run_check
from grader.execution.channel.calls import Call, CallOutcome
from grader.execution.result import ExecutionResult
from grader.feedback.class_index import ClassEntry
from grader.feedback.gradescope import results_json
from grader.feedback.html import render_class_index, render_student_report
from grader.feedback.text import format_submission
from grader.results import CheckStatus, SubmissionResult
from grader.spec.loader import load_assignment

NOTES = "space O(d) for the recursion stack"


class NoCalls:
    def call_many(self, calls: Sequence[Call]) -> list[CallOutcome]:
        raise AssertionError("a manual item calls nothing")


def _graded() -> SubmissionResult:
    experiment04 = load_assignment("experiment04")
    check = next(c for c in experiment04.checks if c.kind == "manual")
    assert NOTES in check.params.instructions
    result = run_check(check, CheckContext.of(experiment04, NoCalls(), frozenset()))
    assert result.status == CheckStatus.MANUAL and result.manual_points == 15
    return SubmissionResult("alice.ipynb", experiment04.id, (result,), ExecutionResult.from_dict({"cells": []}))


def test_students_see_the_title_and_that_it_is_marked_by_hand() -> None:
    result = _graded()
    text = format_submission(result)  # what `grader check` prints
    html = render_student_report(result)
    gradescope = results_json(result)
    for output in (text, html, gradescope):
        assert NOTES not in output and "recursion stack" not in output
        assert "by your instructor" in output
    assert "Output analysis" in html and "Output analysis" in gradescope


def test_the_notes_are_stored_apart_and_shown_in_the_class_index() -> None:
    result = _graded()
    stored = result.to_dict()["checks"][0]
    assert NOTES not in stored["message"] and NOTES in stored["instructor_notes"]
    assert SubmissionResult.from_dict(result.to_dict()) == result
    entry = ClassEntry("alice", "Alice", False, result, "alice/report.html", None, 1.0)
    index = render_class_index([entry], assignment_id="experiment04", title="Experiment 04")
    assert NOTES in index
