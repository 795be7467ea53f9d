"""`grader init` with a handout grades the course's API, not the solution's helpers, and keeps
a handout or solution given as a script a script: run on a CS50 hand-in with the course's
`.py` handout, and again on each built-in's solution with its own handout."""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import nbformat
import pytest

from grader.authoring.create import InitRequest, create_assignment
from grader.similarity.compare import compare_submissions
from grader.spec.call_template import CallTemplate
from grader.spec.loader import list_assignments, load_assignment
from grader.spec.model import Assignment
from grader.validation import validate_assignment
from tests.authoring.shared_init import shared_init

pytestmark = [pytest.mark.kernel, pytest.mark.slow]

CS50 = Path(__file__).parents[1] / "classes" / "cs50"


def _defined_by(handout: nbformat.NotebookNode) -> set[str]:
    """The functions a handout defines, methods as ``Class.method``: read here on its own, not
    through init's reading."""
    names: set[str] = set()
    for cell in handout.cells:
        if cell.cell_type != "code":
            continue
        try:
            tree = ast.parse(cell.source)
        except SyntaxError:
            continue
        for node in tree.body:
            if isinstance(node, ast.FunctionDef):
                names.add(node.name)
            elif isinstance(node, ast.ClassDef):
                names.add(node.name)
                names.update(f"{node.name}.{item.name}" for item in node.body if isinstance(item, ast.FunctionDef))
    return names


def _called(assignment: Assignment) -> dict[str, set[str]]:
    """Check id -> the functions its calls need (a method as ``Class.method``)."""
    called: dict[str, set[str]] = {}
    for check in assignment.checks:
        names = called.setdefault(check.id, set())
        for field in dataclasses.fields(check.params):
            value = getattr(check.params, field.name)
            if isinstance(value, CallTemplate):
                names.add(value.target.name)
                names.update(f"{value.target.name}.{step.name}" for step in value.chain)
    return called


def test_a_cs50_hand_in_with_the_course_handout_grades_the_handout_functions_only(
    tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    out = tmp_path / "cs50"
    report = shared_init(
        InitRequest(CS50 / "handins" / "abigail.py", out, template=CS50 / "handout.py"), tmp_path_factory
    )
    assert report.return_code == 0, str(report)
    assert sorted(p.name for p in out.iterdir()) == ["assignment.toml", "solution.py", "template.py"]
    assert (out / "template.py").read_bytes() == (CS50 / "handout.py").read_bytes()
    assignment = load_assignment(out)
    assert assignment.title == "Tic Tac Toe Player"  # the answer key's docstring, not its file name
    called = set().union(*_called(assignment).values())
    assert {"minimax", "winner", "terminal", "actions"} <= called
    assert not called & {"max_value", "min_value"}, called
    assert "minimax-no-mutation" in _called(assignment)  # the helper's check, moved to the API's search
    text = (out / "assignment.toml").read_text(encoding="utf-8")
    assert "# Helpers of the solution, not graded: max_value, min_value\n" in text
    assert "Helpers of the solution, not graded: max_value, min_value" in str(report)
    assert not {"max_value", "min_value"} & set(assignment.aliases)

    validation = validate_assignment(assignment)
    assert validation.ok, str(validation)
    assert validation.solution is not None and validation.template is not None
    assert validation.solution.score == validation.solution.max_score > 0
    # The handout gives `initial_state` written out; its stubs earn nothing.
    given = sum(c.points for c in assignment.checks if c.id == "initial-state")
    assert validation.template.score == given < validation.solution.score
    # The handout is read as the script it is, so its code is set aside.
    alike = compare_submissions(
        [("abigail", CS50 / "handins" / "abigail.py"), ("copy", assignment.solution_path)],
        handout=assignment.template_path,
        solution=None,
    )
    assert [(p.student_a, p.student_b, p.similarity) for p in alike.pairs] == [("abigail", "copy", 1.0)]


# init reads tic-tac-toe solutions: a built-in on another game is written by hand
TIC_TAC_TOE_BUILT_INS = [a for a in list_assignments() if load_assignment(a).game is None]


@pytest.mark.parametrize("assignment_id", TIC_TAC_TOE_BUILT_INS)
def test_init_on_a_built_in_writes_no_check_for_a_function_its_handout_does_not_define(
    assignment_id: str, tmp_path: Path
) -> None:
    built_in = load_assignment(assignment_id)
    stdin = built_in.directory / "STDIN.txt"
    request = InitRequest(
        built_in.solution_path,
        tmp_path / assignment_id,
        template=built_in.template_path,
        stdin=stdin if stdin.is_file() else None,
    )
    report = create_assignment(request)
    assert report.return_code == 0, str(report)
    defined = _defined_by(nbformat.read(built_in.template_path, as_version=4))
    written = load_assignment(tmp_path / assignment_id)
    outside = {check: names - defined for check, names in _called(written).items() if names - defined}
    assert not outside, f"checks of functions the handout does not define: {outside}"
    assert any(names for names in _called(written).values()), "init wrote no check of a function"
