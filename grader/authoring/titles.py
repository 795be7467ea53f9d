"""An assignment's title, from what its author wrote: the first heading of the solution or of
the handout, never a file's name (every student's report and the class page show it)."""

from __future__ import annotations

import ast
import re

from nbformat import NotebookNode

from grader.submission.reader import SubmissionUnreadable, notebook_from_script

_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+(\S.*?)[\s#]*$")


def notebook_title(notebook: NotebookNode) -> str | None:
    """The first markdown heading; without one, the first line of the docstring that opens the
    first code cell (a script's title)."""
    for cell in notebook.cells:
        if cell.cell_type == "markdown":
            for line in cell.source.splitlines():
                heading = _HEADING.match(line)
                if heading:
                    return heading[1]
    for cell in notebook.cells:
        if cell.cell_type == "code" and cell.source.strip():
            return _docstring_title(cell.source)
    return None


def script_title(source: str) -> str | None:
    """A script's title: its first ``# %% [markdown]`` heading, else its docstring's first line."""
    try:
        return notebook_title(notebook_from_script(source))
    except SubmissionUnreadable:
        return _docstring_title(source)


def _docstring_title(source: str) -> str | None:
    try:
        docstring = ast.get_docstring(ast.parse(source))
    except SyntaxError:
        return None
    lines = (docstring or "").strip().splitlines()
    return lines[0].strip().rstrip(".") or None if lines else None
