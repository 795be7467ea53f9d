"""A master notebook (or script) read into its two versions: the answer key and the student's.

Each cell is read for its markers (`grader.release.markers`); nbgrader's cell metadata counts as
well (``"nbgrader": {"solution": true}`` on a cell with no markers makes the whole cell the
solution, ``"locked": true`` makes it one to leave as it is), and otter's raw cells that frame
a question (``# BEGIN QUESTION``, ``# BEGIN SOLUTION``, ``# BEGIN TESTS``, their ENDs, and
the settings cell ``# ASSIGNMENT CONFIG``) are left out of both versions, with the test cells
they frame: the assignment's checks take their place. The master's settings for its assignment
(``# GRADER CONFIG`` cells, `grader.release.master_settings`) are read and left out of both
versions. A locked cell reaches students with Jupyter's own ``editable`` and ``deletable`` set
to false; outputs are cleared in both versions.
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass
from pathlib import Path

import nbformat
from nbformat import NotebookNode

from grader.authoring.titles import notebook_title, script_title
from grader.release.markers import ANSWER_PLACEHOLDER, DEFAULT_STUB, MarkerError, split_source
from grader.release.master_settings import SettingsPiece, cell_settings, is_settings_cell, script_settings

_OTTER_FRAME = re.compile(r"^\s*#\s*((BEGIN|END)\s+(ASSIGNMENT|QUESTION|SOLUTION|TESTS)\b|ASSIGNMENT CONFIG\b)")


@dataclass(frozen=True)
class Master:
    """A master read into its two versions."""

    solution: NotebookNode
    """The answer key: every cell as the master has it, marker lines taken out."""
    student: NotebookNode
    """The student's version: solutions replaced by the stub, hidden tests left out."""
    script: bool
    """The master is a ``.py`` file: both versions are written back as scripts."""
    title: str | None
    """The master's first heading: a markdown cell's, or a script's docstring's first line."""
    notes: tuple[str, ...] = ()
    """What was left out or locked, for the release's report."""
    settings: tuple[SettingsPiece, ...] = ()
    """The master's settings for its assignment, in order (`grader.release.master_settings`)."""


def read_master(path: Path, stub: str = DEFAULT_STUB) -> Master:
    """Read ``path`` (``.ipynb`` or ``.py``); raises `MarkerError` with the cell and line of a
    marker that cannot be read, or when the master marks no solution at all."""
    if path.suffix.lower() not in (".ipynb", ".py"):
        raise MarkerError(f"{path}: a master is a notebook (.ipynb) or a script (.py)")
    if not path.is_file():
        raise MarkerError(f"{path}: no such file")
    if path.suffix.lower() == ".py":
        return _read_script(path, stub)
    try:
        notebook = nbformat.read(path, as_version=4)
    except (OSError, ValueError) as exc:
        raise MarkerError(f"{path}: not a notebook that can be read: {exc}") from None
    return _read_notebook(notebook, stub, path)


def script_text(notebook: NotebookNode) -> str:
    """A script version's text (a script master is held as one code cell)."""
    return str(notebook.cells[0].source)


def _read_script(path: Path, stub: str) -> Master:
    try:
        source = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise MarkerError(f"{path}: not a script that can be read: {exc}") from None
    source, settings = script_settings(source, path.name)
    split = split_source(source, where=path.name, stub=stub)
    if not split.marked:
        raise MarkerError(_no_markers(path))
    notes = ("a script cannot lock lines: its # LOCKED markers were taken out",) if split.locked else ()
    solution = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(split.solution)])
    student = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(split.student)])
    return Master(solution, student, True, script_title(split.solution), notes, settings)


def _read_notebook(notebook: NotebookNode, stub: str, path: Path) -> Master:
    solution = copy.deepcopy(notebook)
    student = copy.deepcopy(notebook)
    solution.cells, student.cells = [], []
    notes: list[str] = []
    frames: list[tuple[str, int]] = []
    settings: list[SettingsPiece] = []
    marked = False
    for number, cell in enumerate(notebook.cells, start=1):
        where = f"cell {number}"
        if is_settings_cell(cell.cell_type, cell.source, where):
            settings.append(cell_settings(cell.source, where))
            continue
        if cell.cell_type == "raw" and _OTTER_FRAME.match(cell.source):
            _follow_frame(cell.source, where, frames)
            continue
        if frames and frames[-1][0] == "TESTS":
            notes.append(f"{where}: a test cell of the master, left out (the assignment's checks replace it)")
            continue
        kept, handed, solved = _split_cell(cell, where, stub)
        marked = marked or solved
        if handed.metadata.get("editable") is False:
            notes.append(f"{where}: locked (students cannot edit or delete it)")
        solution.cells.append(kept)
        student.cells.append(handed)
    if frames:
        what, number = frames[-1]
        raise MarkerError(f"cell {number}: BEGIN {what} is never closed by END {what}")
    if not marked:
        raise MarkerError(_no_markers(path))
    return Master(solution, student, False, notebook_title(solution), tuple(notes), tuple(settings))


def _follow_frame(source: str, where: str, frames: list[tuple[str, int]]) -> None:
    """Open or close one of otter's framing raw cells; raises on an END that closes nothing."""
    _, edge, what = _OTTER_FRAME.match(source).groups()  # type: ignore[union-attr]
    number = int(where.split()[-1])
    if edge is None:  # the assignment's settings (ASSIGNMENT CONFIG) open no block
        return
    if edge == "BEGIN":
        if what != "ASSIGNMENT":  # the assignment's settings cell opens no block
            frames.append((what, number))
        return
    if not frames or frames[-1][0] != what:
        inside = f" inside BEGIN {frames[-1][0]} of cell {frames[-1][1]}" if frames else ""
        raise MarkerError(f"{where}: END {what} with no BEGIN {what} before it{inside}")
    frames.pop()


def _split_cell(cell: NotebookNode, where: str, stub: str) -> tuple[NotebookNode, NotebookNode, bool]:
    """The cell in the solution and in the student's version, and whether it held a solution."""
    if cell.cell_type not in ("code", "markdown"):
        return _cleared(cell, cell.source), _cleared(cell, cell.source), False
    meta = cell.metadata.get("nbgrader", {})
    markdown = cell.cell_type == "markdown"
    split = split_source(cell.source, where=where, stub=stub, markdown=markdown)
    whole = bool(meta.get("solution")) and not split.marked  # nbgrader: the whole cell is the solution
    locked = split.locked or bool(meta.get("locked"))
    if locked and (split.marked or whole):
        raise MarkerError(f"{where} is locked and holds a solution: students cannot write it")
    handed = _cleared(cell, (ANSWER_PLACEHOLDER if markdown else stub) if whole else split.student)
    if locked:
        handed.metadata.update({"editable": False, "deletable": False})
    return _cleared(cell, split.solution), handed, split.marked or whole


def _cleared(cell: NotebookNode, source: str) -> NotebookNode:
    """A copy of ``cell`` holding ``source``, without outputs."""
    fresh = copy.deepcopy(cell)
    fresh.source = source
    if fresh.cell_type == "code":
        fresh.outputs = []
        fresh.execution_count = None
    return fresh


def _no_markers(path: Path) -> str:
    return (
        f"{path.name} marks no solution: put the answer key between '### BEGIN SOLUTION' and "
        "'### END SOLUTION' lines (or '# BEGIN SOLUTION' / '# END SOLUTION', or end a line with '# SOLUTION')"
    )
