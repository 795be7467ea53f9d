"""Lines of the in-notebook check are set aside when a notebook is graded, and nothing else."""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest

from grader.submission.reader import read_submission
from grader.submission.self_check_lines import without_self_check


@pytest.mark.parametrize(
    ("line", "becomes"),
    [
        ("from grader import notebook", "pass  # not run when graded: from grader import notebook"),
        ('notebook.check("lab05")', 'pass  # not run when graded: notebook.check("lab05")'),
        (
            "result = notebook.check('lab05', 'minimax-value')",
            "result = None  # not run when graded: result = notebook.check('lab05', 'minimax-value')",
        ),
        ("    grader.notebook.check('lab05')", "    pass  # not run when graded: grader.notebook.check('lab05')"),
        ("%pip install gamesearch-grader", "pass  # not run when graded: %pip install gamesearch-grader"),
        (
            "!pip install -q gamesearch-grader==0.1",
            "pass  # not run when graded: !pip install -q gamesearch-grader==0.1",
        ),
        (
            "%pip install --find-links https://course.example/w5/ gamesearch-assignment-w5",
            "pass  # not run when graded: %pip install --find-links https://course.example/w5/ gamesearch-assignment-w5",
        ),
        (
            "!pip install gamesearch_grader-0.1.0-py3-none-any.whl gamesearch_assignment_w5-1-py3-none-any.whl",
            "pass  # not run when graded: !pip install gamesearch_grader-0.1.0-py3-none-any.whl "
            "gamesearch_assignment_w5-1-py3-none-any.whl",
        ),
        ("%load_ext grader", "pass  # not run when graded: %load_ext grader"),
        ("%check lab05 best-move", "pass  # not run when graded: %check lab05 best-move"),
    ],
)
def test_a_line_of_the_check_is_set_aside(line: str, becomes: str) -> None:
    assert without_self_check(line) == becomes


@pytest.mark.parametrize(
    "line",
    [
        "from grader import grade_submission",
        "notebook = make_notebook()",
        "my_notebook.check(board)",
        'notebook.check(\n    "lab05")',
        "%pip install numpy",
        "%pip install gamesearch-tools",
        "%checkpoint",
        "check_win(board, 'X')",
    ],
)
def test_other_code_is_left_as_it_is(line: str) -> None:
    assert without_self_check(line) == line


def test_a_cell_of_the_check_runs_as_a_no_op_and_the_reader_says_so(tmp_path: Path) -> None:
    notebook = nbformat.v4.new_notebook(
        cells=[
            nbformat.v4.new_code_cell("x = 1"),
            nbformat.v4.new_code_cell(
                '%pip install gamesearch-grader\nfrom grader import notebook\nnotebook.check("lab05")'
            ),
        ]
    )
    path = tmp_path / "student.ipynb"
    nbformat.write(notebook, path)
    submission = read_submission(path)
    first, second = (cell.source for cell in submission.notebook.cells)
    assert first == "x = 1"
    compile(second, "<cell>", "exec")  # plain Python now, no magic
    exec(compile(second, "<cell>", "exec"), {})
    assert submission.notes == ("the in-notebook check (cell 2) is not run when graded",)
