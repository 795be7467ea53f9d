"""An assignment `grader init` wrote, named by its folder, checks in the notebook as a built-in
does: here a course whose functions play on one global board, with a mistake that leaves the
board changed. What the check cell shows is what ``grader check`` finds, and the student's
board is as it was once the check is done."""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest

from grader.authoring.create import InitRequest, create_assignment
from grader.grading import GradingOptions, grade_submission
from grader.spec.loader import load_assignment
from tests.courses.manifest import load_courses
from tests.notebook.notebook_runs import ShownChecks, displayed, execute, printed, with_cells

pytestmark = [pytest.mark.kernel, pytest.mark.slow]

COURSE = next(course for course in load_courses() if course.id == "digits-global")
MUTANT = next(mutant for mutant in COURSE.mutants if mutant.name == "undo-writes-space")


def test_an_init_written_assignment_checks_in_the_notebook_and_the_global_board_is_put_back(tmp_path: Path) -> None:
    folder = tmp_path / "digits-lab"
    report = create_assignment(InitRequest(COURSE.solution, folder))
    assert report.return_code == 0, str(report)
    assignment = load_assignment(folder)
    assert assignment.board.board_global == "board"  # the functions read the global board

    cells = (
        "board_before = list(board)",
        f"from grader import notebook\nnotebook.check({str(folder)!r})",
        "print(board == board_before, board)",
    )
    notebook = with_cells(COURSE.mutant_path(MUTANT), *cells)
    path = tmp_path / "student.ipynb"
    nbformat.write(notebook, path)
    graded = grade_submission(path, assignment, GradingOptions(public_only=True))

    executed = execute(notebook, tmp_path)
    shown = ShownChecks.read(displayed(executed.cells[-2], "text/html"))
    by_id = {c.check_id: c for c in graded.checks}
    assert shown.checks and any(check.status == "failed" for check in shown.checks.values())
    for check_id, seen in shown.checks.items():
        assert seen.status == by_id[check_id].status.value, check_id
        assert seen.points == f"{by_id[check_id].score:g} / {by_id[check_id].max_score:g}", check_id
    assert printed(executed.cells[-1]).startswith("True ")
