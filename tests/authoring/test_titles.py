"""An assignment's title comes from what its author wrote (a heading, a script's docstring),
never from a file's name: every student's report and the class page show it."""

from __future__ import annotations

import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

from grader.authoring.titles import notebook_title, script_title


def test_a_notebook_is_titled_by_its_first_heading_at_any_level() -> None:
    notebook = new_notebook(
        cells=[
            new_code_cell('"""Not this."""'),
            new_markdown_cell("Some words first.\n\n## Lab 3: alpha-beta ##\n# Later"),
        ]
    )
    assert notebook_title(notebook) == "Lab 3: alpha-beta"


def test_without_a_heading_the_first_code_cells_docstring_titles_it() -> None:
    notebook = new_notebook(cells=[new_markdown_cell("no heading"), new_code_cell('"""Week 5.\n\nMore."""\nx = 1')])
    assert notebook_title(notebook) == "Week 5"


@pytest.mark.parametrize(
    ("source", "title"),
    [
        ("# %% [markdown]\n# # Homework 2: never lose\n#\n# words\n\n# %%\nx = 1\n", "Homework 2: never lose"),
        ('"""\nTic Tac Toe Player\n"""\n\nX = "X"\n', "Tic Tac Toe Player"),
        ("X = 'X'\n# # not a heading: a comment\n", None),
    ],
    ids=["percent-markdown", "docstring", "none"],
)
def test_a_script_is_titled_by_its_markdown_heading_or_its_docstring(source: str, title: str | None) -> None:
    assert script_title(source) == title
