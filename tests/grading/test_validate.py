"""Every built-in assignment validates: its solution scores full marks, its handout
template at most a fifth of the points."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from grader.results import CheckStatus
from grader.spec.loader import list_assignments, load_assignment
from grader.validation import validate_assignment
from tests.grading.validated import VALIDATED_ELSEWHERE, assert_validates
from tests.notebook_scripts import as_scripts

pytestmark = [pytest.mark.slow, pytest.mark.kernel]


@pytest.mark.parametrize("assignment_id", [a for a in list_assignments() if a not in VALIDATED_ELSEWHERE])
def test_assignment_validates(assignment_id: str) -> None:
    assert_validates(validate_assignment(load_assignment(assignment_id)))


def test_an_assignment_validated_elsewhere_is_asserted_there() -> None:
    """A built-in left out above is validated, and asserted alike, by the module named."""
    root = Path(__file__).resolve().parents[2]
    assert set(VALIDATED_ELSEWHERE) <= set(list_assignments())
    for assignment_id, module in VALIDATED_ELSEWHERE.items():
        source = (root / module).read_text(encoding="utf-8")
        assert f'load_assignment("{assignment_id}")' in source, (assignment_id, module)
        assert "validate_assignment(" in source and "assert_validates(" in source, (assignment_id, module)


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
