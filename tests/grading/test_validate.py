"""Every built-in assignment validates: its solution scores full marks, its handout
template at most a fifth of the points."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from grader.results import CheckStatus
from grader.spec.loader import list_assignments, load_assignment
from grader.validation import TEMPLATE_MAX_FRACTION, validate_assignment
from tests.notebook_scripts import as_scripts

pytestmark = [pytest.mark.slow, pytest.mark.kernel]


@pytest.mark.parametrize("assignment_id", list_assignments())
def test_assignment_validates(assignment_id: str) -> None:
    report = validate_assignment(load_assignment(assignment_id))
    assert report.problems == ()
    assert report.ok
    solution, template = report.solution, report.template
    assert solution is not None and template is not None
    assert solution.score >= solution.max_score > 0  # bonus tasks add beyond the maximum
    assert all(c.status in (CheckStatus.PASSED, CheckStatus.MANUAL) for c in solution.checks)
    assert template.score <= TEMPLATE_MAX_FRACTION * template.max_score


def test_validate_reports_a_broken_solution(tmp_path: Path) -> None:
    """A solution that fails a check makes the assignment invalid, naming the check."""
    source = load_assignment("alphabeta-challenges").directory
    copy = tmp_path / "alphabeta-challenges"
    shutil.copytree(source, copy)
    template = copy / "template.ipynb"
    shutil.copyfile(template, copy / "solution.ipynb")  # the handout is no solution
    report = validate_assignment(load_assignment(copy))
    assert not report.ok and report.solution is not None
    failed = [c.check_id for c in report.solution.checks if c.status not in (CheckStatus.PASSED, CheckStatus.MANUAL)]
    assert "alphabeta-max" in failed  # the handout leaves alpha-beta to the student
    named = [p.removeprefix("solution: check ").split()[0] for p in report.problems if p.startswith("solution: check ")]
    assert named == failed


def test_a_solution_and_a_handout_given_as_scripts_are_graded_as_such(tmp_path: Path) -> None:
    copy = as_scripts(load_assignment("experiment04").directory, tmp_path / "experiment04")
    assignment = load_assignment(copy)
    assert (assignment.solution_path.name, assignment.template_path.name) == ("solution.py", "template.py")
    report = validate_assignment(assignment)
    assert report.ok, str(report)
    assert report.solution is not None and report.template is not None
    assert report.solution.score == report.solution.max_score > 0
    assert report.template.score == 0
