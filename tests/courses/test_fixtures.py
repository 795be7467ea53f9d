"""The course fixtures are what the manifest says: correct solutions and mutants that each break
what they claim to, checked in-process against the reference engine (no kernel)."""

from __future__ import annotations

import pytest

from tests.courses.build import stale_files
from tests.courses.judge import judge
from tests.courses.manifest import MOVE_FORMATS, ROLES, Course, Mutant, load_courses
from tests.courses.student import StudentCode

COURSES = load_courses()
MUTANTS = [(course, mutant) for course in COURSES for mutant in course.mutants]


def _answers(course: Course) -> list[str]:
    if not course.stdin_file.exists():
        return []
    return course.stdin_file.read_text(encoding="utf-8").splitlines()


def test_notebooks_are_built_from_the_sources() -> None:
    assert stale_files(COURSES) == [], "run: .venv/bin/python -m tests.courses.build"


def test_the_manifest_is_complete() -> None:
    assert len(COURSES) >= 8
    assert len({course.id for course in COURSES}) == len(COURSES)
    conventions = {
        (c.layout, c.container, repr(c.empty), repr(c.x), c.location, c.maximizer, c.scoring, c.move) for c in COURSES
    }
    assert len(conventions) == len(COURSES), "two courses share every convention"
    for course in COURSES:
        assert course.source.exists(), course.id
        assert course.move in MOVE_FORMATS, course.id
        assert len(course.mutants) >= 4, course.id
        keys = {function.key for function in course.functions}
        assert {function.role for function in course.functions} <= set(ROLES), course.id
        for mutant in course.mutants:
            assert mutant.broken <= keys, f"{course.id}/{mutant.name} names a function the course does not have"


@pytest.mark.parametrize("course", COURSES, ids=lambda course: course.id)
def test_solution_runs_and_agrees_with_the_reference(course: Course) -> None:
    code = StudentCode(course.solution, course, _answers(course))
    assert code.errors == [], f"{course.id}: a cell fails: {code.errors}"
    if course.stdin_file.exists():
        assert code.input.prompts, f"{course.id} has STDIN.txt but never calls input()"
        assert code.input.unused == 0, f"{course.id}: the game ended before STDIN.txt was used up"
    else:
        assert code.input.prompts == [], f"{course.id} asks for input but has no STDIN.txt"
    disagreements = {function.key: judge(code, function) for function in course.functions}
    assert disagreements == {function.key: None for function in course.functions}


@pytest.mark.parametrize("course, mutant", MUTANTS, ids=lambda item: getattr(item, "name", getattr(item, "id", "")))
def test_mutant_breaks_exactly_what_the_manifest_says(course: Course, mutant: Mutant) -> None:
    code = StudentCode(course.mutant_path(mutant), course, _answers(course))
    for function in course.functions:
        disagreement = judge(code, function)
        if function.key in mutant.broken:
            assert disagreement is not None, f"{mutant.name} does not break {function.key}"
        else:
            assert disagreement is None, f"{mutant.name} also breaks {function.key}: {disagreement}"
