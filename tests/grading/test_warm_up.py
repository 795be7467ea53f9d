"""What an assignment's checks compute whatever the student wrote is computed once per
process, while its first notebook runs, and changes no verdict."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from grader.grading import AssignmentWarmUp, grade_submission
from grader.results import CheckResult, CheckStatus, SubmissionResult
from grader.spec.loader import load_assignment
from grader.spec.model import Assignment

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _verdicts(result: SubmissionResult) -> list[CheckResult]:
    return [dataclasses.replace(check, duration=0.0) for check in result.checks]


def test_an_assignment_is_warmed_up_once_per_process(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(AssignmentWarmUp, "_warm", set())
    assignment = load_assignment("alphabeta-challenges")
    first = AssignmentWarmUp.start(assignment)
    second = AssignmentWarmUp.start(assignment)
    first.wait()
    assert first.started and not second.started
    fewer = dataclasses.replace(assignment, checks=assignment.checks[:-1])
    another = AssignmentWarmUp.start(fewer)  # another rubric: warmed on its own
    another.wait()
    assert another.started


@pytest.mark.kernel
def test_verdicts_are_the_same_with_the_warm_up_and_without(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(AssignmentWarmUp, "_warm", set())
    assignment = load_assignment("alphabeta-challenges")
    path = EXAMPLES / "alphabeta-challenges" / "cleo-horizontal-win-missing.ipynb"
    started = []
    original = AssignmentWarmUp.start

    def start(assignment: Assignment) -> AssignmentWarmUp:
        warm_up = original(assignment)
        started.append(warm_up.started)
        return warm_up

    monkeypatch.setattr(AssignmentWarmUp, "start", start)
    warmed_while_running = grade_submission(path, assignment)
    already_warm = grade_submission(path, assignment)
    assert started == [True, False]
    assert _verdicts(warmed_while_running) == _verdicts(already_warm)
    assert any(check.status is CheckStatus.FAILED for check in already_warm.checks)  # the bug is found either way
