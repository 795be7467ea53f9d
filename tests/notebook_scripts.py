"""A notebook written as the percent-format script a student or an author may hand in instead
(`grader.submission.reader.notebook_from_script` reads it back into the same cells)."""

from __future__ import annotations

import shutil
from pathlib import Path

import nbformat
from nbformat import NotebookNode


def script_of(notebook: NotebookNode) -> str:
    cells = []
    for cell in notebook.cells:
        if cell.cell_type == "code":
            cells.append(f"# %%\n{cell.source}")
        else:
            cells.append("# %% [markdown]\n" + "\n".join(f"# {line}".rstrip() for line in cell.source.splitlines()))
    return "\n\n".join(cells) + "\n"


def as_scripts(assignment: Path, copy: Path) -> Path:
    """A copy of the assignment folder whose solution and handout are scripts, not notebooks."""
    shutil.copytree(assignment, copy)
    for stem in ("solution", "template"):
        notebook = copy / f"{stem}.ipynb"
        (copy / f"{stem}.py").write_text(script_of(nbformat.read(notebook, as_version=4)), encoding="utf-8")
        notebook.unlink()
    return copy
