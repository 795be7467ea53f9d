"""A correct notebook whose last cell breaks the builtins the kernel itself needs is graded
as the correct notebook it is: full marks, every cell run, no kernel lost to a time limit."""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest

from grader.execution.result import CellStatus
from grader.grading import grade_submission
from grader.results import CheckStatus
from grader.spec.loader import load_assignment

pytestmark = pytest.mark.kernel

ROOT = Path(__file__).resolve().parents[2]
SABOTAGE = {
    "import-none": "import builtins\nbuiltins.__import__ = None\n",
    "deleted": (
        "import builtins\n"
        "for name in ('print', 'len', 'isinstance', 'getattr', 'type', '__build_class__'):\n"
        "    delattr(builtins, name)\n"
    ),
}


@pytest.mark.parametrize("sabotage", SABOTAGE)
def test_a_correct_notebook_that_breaks_builtins_last_scores_full_marks(tmp_path: Path, sabotage: str) -> None:
    notebook = nbformat.read(ROOT / "examples" / "lab05" / "ada-solution.ipynb", as_version=4)
    notebook.cells.append(nbformat.v4.new_code_cell(SABOTAGE[sabotage]))
    path = tmp_path / f"{sabotage}.ipynb"
    nbformat.write(notebook, path)
    assignment = load_assignment("lab05")
    result = grade_submission(path, assignment)
    assert result.execution is not None
    last = result.execution.cells[-1]
    assert last.status is CellStatus.OK, last  # it used to run until its time limit
    assert result.execution.kernel_restarts == 0
    assert {c.check_id: c.status for c in result.checks if c.status is not CheckStatus.PASSED} == {}
    assert result.score == assignment.max_score
