"""`grader init` on real notebooks: each course fixture becomes an assignment that validates
untouched, finds the board where the course keeps it, judges a move played in place by the board
it leaves, and catches every mutant in the check of the function it breaks; a solution that is
not tic-tac-toe, is wrong, crashes or hangs gets one message, exit status 1 and no folder."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest

from grader.authoring.create import InitRequest, create_assignment
from grader.cli import main
from grader.grading import GradingOptions, grade_submission
from grader.results import CheckStatus
from grader.spec.loader import load_assignment
from grader.spec.model import Assignment, Check
from grader.validation import validate_assignment
from tests.courses.manifest import Course, load_courses

BAD = Path(__file__).parent / "bad"
COURSES = load_courses()


def _functions_called(check: Check[Any]) -> set[str]:
    """The notebook functions (methods by their own name) and globals a check calls or reads."""
    names = set()
    for field in ("call", "minimax_call", "alphabeta_call"):
        template = getattr(check.params, field, None)
        if template is not None:
            names.add(template.function.rsplit(".", 1)[-1])
            names.update(step.name for step in template.chain)
    counter = getattr(check.params, "counter", None)
    if counter:
        names.add(counter)
    return names


def _checks_of(assignment: Assignment, function: str) -> list[str]:
    return [c.id for c in assignment.checks if function in _functions_called(c)]


@pytest.mark.kernel
@pytest.mark.slow
@pytest.mark.parametrize("course", COURSES, ids=[c.id for c in COURSES])
def test_a_course_becomes_an_assignment_that_catches_its_mutants(course: Course, tmp_path: Path) -> None:
    out = tmp_path / course.id
    report = create_assignment(InitRequest(course.solution, out))
    assert report.return_code == 0, str(report)
    assignment = load_assignment(out)
    validation = validate_assignment(assignment)
    assert validation.ok, str(validation)
    if course.location == "attribute":  # found by what the object holds, wherever the class sets it
        assert (assignment.board.where, assignment.board.name) == ("attribute", course.attribute)
    for function in course.functions:
        if function.returns == "in-place":  # judged by the board it leaves, in a search and in games
            played = [c.kind for c in assignment.checks if c.id in _checks_of(assignment, function.name)]
            assert {"search-value", "random-opponent"} <= set(played), played
            assert all(c.params.in_place for c in assignment.checks if c.id in _checks_of(assignment, function.name))
    for mutant in course.mutants:
        broken = _checks_of(assignment, mutant.function)
        assert broken, f"{mutant.name}: no check calls {mutant.function}"
        # What is asserted is that the checks of the broken function catch it, so only they are
        # graded: the others would only be regraded with the reference standing in for it.
        own = dataclasses.replace(assignment, checks=tuple(c for c in assignment.checks if c.id in broken))
        result = grade_submission(course.mutant_path(mutant), own, GradingOptions())
        assert [c.check_id for c in result.checks] == broken
        assert result.score < result.max_score, f"{mutant.name} scores full marks"
        failed = {c.check_id for c in result.checks if c.status is not CheckStatus.PASSED}
        assert failed & set(broken), f"{mutant.name}: none of {broken} fails; failed: {sorted(failed)}"


@pytest.mark.kernel
@pytest.mark.parametrize(
    ("fixture", "words"),
    [
        ("not_tictactoe.py", "not a tic-tac-toe solution"),
        ("wrong.py", "the solution is wrong: `check_win` answers like a win test on"),
        ("crashes.py", "the solution crashes: cell 4 stopped with IndexError"),
        ("hangs.py", "the solution hangs: `minimax` did not return within"),
    ],
)
def test_bad_input_gets_one_message_and_no_folder(
    fixture: str, words: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "assignment"
    status = main(["init", str(BAD / fixture), "--out", str(out)])
    captured = capsys.readouterr()
    assert status == 1
    assert captured.out == ""
    assert captured.err.count("\n") == 1 and captured.err.startswith("grader init: ")
    assert words in captured.err
    assert not out.exists() and list(tmp_path.iterdir()) == []
