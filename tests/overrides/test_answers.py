"""What a manual item points at: the built-in items name cells their handouts have, and a
student's markdown is rendered without its raw HTML."""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest

from grader.review.answers import find_answer
from grader.spec.loader import list_assignments, load_assignment

MANUAL_ITEMS = [
    (assignment_id, check.id)
    for assignment_id in list_assignments()
    for check in load_assignment(assignment_id).checks
    if check.manual
]


@pytest.mark.parametrize(("assignment_id", "check_id"), MANUAL_ITEMS)
def test_every_built_in_manual_item_finds_its_cell_in_the_solution(assignment_id: str, check_id: str) -> None:
    assignment = load_assignment(assignment_id)
    check = next(c for c in assignment.checks if c.id == check_id)
    assert check.params.cells, f"{assignment_id}/{check_id} names no answer cell"
    answer = find_answer(assignment.solution_path, assignment.template_path, check.params.cells)
    assert len(answer.cells) == 1 and answer.cells[0].html is not None, answer.note


def test_added_cells_follow_the_answer_until_a_handout_cell(tmp_path: Path) -> None:
    handout = nbformat.v4.new_notebook(
        cells=[nbformat.v4.new_markdown_cell("## Analysis\n_your text_"), nbformat.v4.new_markdown_cell("## Next task")]
    )
    nbformat.write(handout, tmp_path / "template.ipynb")
    submitted = nbformat.v4.new_notebook(
        cells=[
            nbformat.v4.new_markdown_cell("## Analysis\nb = 9 <img src=x onerror=alert(1)> [x](javascript:alert(1))"),
            nbformat.v4.new_code_cell("print(9 ** 9)"),
            nbformat.v4.new_markdown_cell("## Next task"),
            nbformat.v4.new_markdown_cell("not part of the answer"),
        ]
    )
    nbformat.write(submitted, tmp_path / "submitted.ipynb")
    answer = find_answer(tmp_path / "submitted.ipynb", tmp_path / "template.ipynb", ["## Analysis"])
    assert [(c.number, c.kind) for c in answer.cells] == [(1, "markdown"), (2, "code")]
    html = str(answer.cells[0].html)
    assert "<img" not in html and "&lt;img" in html and 'href="javascript' not in html


def test_a_python_file_or_a_missing_cell_says_so(tmp_path: Path) -> None:
    (tmp_path / "submitted.py").write_text("print(1)")
    assert "not a notebook" in find_answer(tmp_path / "submitted.py", None, ["## Analysis"]).note
    nbformat.write(nbformat.v4.new_notebook(), tmp_path / "submitted.ipynb")
    assert (
        "No cell beginning with '## Analysis'" in find_answer(tmp_path / "submitted.ipynb", None, ["## Analysis"]).note
    )


def test_a_handout_given_as_a_script_ends_the_answer_at_its_cells(tmp_path: Path) -> None:
    handout = tmp_path / "template.py"
    handout.write_text("# %% [markdown]\n# ## Analysis\n\n# %%\nboard = []\n\n# %% [markdown]\n# ## Next task\n")
    submitted = nbformat.v4.new_notebook(
        cells=[
            nbformat.v4.new_markdown_cell("## Analysis\nmy text"),
            nbformat.v4.new_code_cell("print(1)"),
            nbformat.v4.new_code_cell("board = []"),
            nbformat.v4.new_markdown_cell("not part of the answer"),
        ]
    )
    nbformat.write(submitted, tmp_path / "submitted.ipynb")
    answer = find_answer(tmp_path / "submitted.ipynb", handout, ["## Analysis"])
    assert [(c.number, c.kind) for c in answer.cells] == [(1, "markdown"), (2, "code")]
