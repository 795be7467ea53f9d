"""A spec with a described board grades notebooks end to end in a kernel: the board lives in
a `Game` object ('-' empty, lower-case marks, squares (row, col) from 1)."""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_notebook

from grader.grading import grade_submission
from grader.results import CheckStatus
from grader.spec.loader import load_assignment
from tests.checks.open_courses import GAME_CLASS, GAME_CLASS_SPEC

pytestmark = pytest.mark.kernel

WORST_MOVE = ('(score > best if player == "x"', '(score < best if player == "x"')


def write_notebook(path: Path, source: str) -> Path:
    nbformat.write(
        new_notebook(cells=[new_code_cell(source), new_code_cell("game = Game()\ngame.best_move('x')")]), path
    )
    return path


def test_a_described_board_grades_a_solution_and_a_mutant_in_a_kernel(tmp_path: Path) -> None:
    (tmp_path / "assignment.toml").write_text(GAME_CLASS_SPEC)
    assignment = load_assignment(tmp_path)
    solution = grade_submission(write_notebook(tmp_path / "solution.ipynb", GAME_CLASS), assignment)
    assert {c.check_id: c.status for c in solution.checks if c.status != CheckStatus.PASSED} == {}
    assert solution.score == solution.max_score > 0
    mutant = grade_submission(write_notebook(tmp_path / "worst.ipynb", GAME_CLASS.replace(*WORST_MOVE)), assignment)
    failed = {c.check_id for c in mutant.checks if c.status == CheckStatus.FAILED}
    assert failed == {"best-move"}
    (best_move,) = (c for c in mutant.checks if c.check_id == "best-move")
    assert best_move.counterexample is not None and best_move.counterexample.call.startswith("Game().best_move(")
