"""A real class, graded from its own course: `grader init` on one correct hand-in plus the course's
handout, with no edit, then every other hand-in graded and set beside the oracle's verdict
(`expected.toml`, which `test_oracle.py` keeps true).

- every function of the course's API has a check, and no check tests a function the handout does not
  define;
- every correct hand-in scores full marks;
- every function the oracle finds wrong on its own loses a check of it; a function that is wrong only
  through another one (`through` in expected.toml) is not required to, since a mistake costs once;
- no check of a function the oracle finds correct loses points, nor one of a function wrong only
  through another;
- a hand-in that does not import does not score full marks.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.classes.init_on_class import ClassOutcome, functions_called, grade_class
from tests.classes.oracle import COURSES

# One correct hand-in per course as the instructor's solution: a fast one, so init's own check of its
# draft stays short; the slow correct hand-ins are among the graded.
SOLUTIONS = {"cs50": "bruno", "codecademy": "dev"}


@pytest.fixture(scope="module", params=sorted(SOLUTIONS))
def graded(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> ClassOutcome:
    course = request.param
    outcome = grade_class(course, SOLUTIONS[course], tmp_path_factory.mktemp(course))
    print(outcome.figures())  # the figures a course author reads, kept in the test log
    return outcome


pytestmark = [pytest.mark.kernel, pytest.mark.slow]


def test_every_function_of_the_api_has_a_check_and_nothing_else_does(graded: ClassOutcome) -> None:
    api = set(COURSES[graded.course].functions)
    assert graded.unchecked_functions == []
    for check in graded.assignment.checks:
        assert functions_called(check) <= api, f"{check.id} tests {functions_called(check) - api}"


def test_every_correct_handin_scores_full_marks(graded: ClassOutcome) -> None:
    below = {s.name: (s.score, s.max_score, sorted(s.failed_checks)) for s in graded.correct if s.score < s.max_score}
    assert below == {}


def test_every_own_defect_loses_a_check_of_its_function(graded: ClassOutcome) -> None:
    assert {s.name: s.missed for s in graded.students if s.missed} == {}
    assert graded.defects > 0


def test_no_correct_function_is_failed(graded: ClassOutcome) -> None:
    assert graded.correct_functions_failed == []


def test_a_mistake_costs_once(graded: ClassOutcome) -> None:
    """A function wrong only through another one is graded again with the reference's version of
    that one, and passes: the mistake is charged where it is made."""
    assert sum(len(s.inherited_defects) for s in graded.students) > 0
    assert graded.inherited_charged == []


def test_a_handin_that_does_not_import_is_not_at_full_marks(graded: ClassOutcome) -> None:
    assert graded.not_importing, "each class holds one hand-in that imports a module it did not hand in"
    for student in graded.not_importing:
        assert student.score < student.max_score, student.name


def test_the_solution_is_not_graded_and_the_rest_are(graded: ClassOutcome) -> None:
    names = {s.name for s in [*graded.students, *graded.not_importing]}
    assert graded.solution not in names
    assert len(names) == len(list((Path(__file__).parent / graded.course / "handins").glob("*.py"))) - 1
