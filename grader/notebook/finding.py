"""Which assignment a student names in a cell: a built-in id, a folder, or an installed package.

A course that wrote its assignments with ``grader init`` hands them out as folders, or as a
Python package its students install beside the grader (each assignment a folder of the package
holding its ``assignment.toml``). All three read the same way:

* ``"lab05"``: a built-in assignment, or one a student bundle installed (`grader.spec.installed`);
* ``"path/to/lab1"`` (or its ``assignment.toml``): a folder on disk;
* ``"cs101_games.lab1"`` or ``"cs101_games/lab1"``: the folder ``lab1`` inside the installed
  package ``cs101_games`` (``"cs101_games"`` alone when the package is the assignment).
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

from grader.errors import GraderError
from grader.spec.installed import installed_assignments
from grader.spec.loader import list_assignments, load_assignment
from grader.spec.model import Assignment, AssignmentError

_PACKAGE_NAME = re.compile(r"^[A-Za-z_]\w*([./][A-Za-z_][\w-]*)*$")


class AssignmentNotFound(GraderError, LookupError):
    """No built-in id, folder or package by that name; the message is the one line shown."""


def find_assignment(name: str | Path) -> Assignment:
    """Load the assignment ``name`` names; raises `AssignmentNotFound` (or `AssignmentError` for
    one that exists but does not load) with a message that fits on one line."""
    text = str(name)
    path = Path(text).expanduser()
    if path.is_dir() or path.is_file():
        return load_assignment(path)
    if text in list_assignments() or text in installed_assignments():
        return load_assignment(text)
    folder = _package_folder(text)
    if folder is not None:
        return load_assignment(folder)
    known = ", ".join(list_assignments() + sorted(installed_assignments())) or "none"
    raise AssignmentNotFound(
        f"no assignment {text!r}: give a built-in id ({known}), the folder of a course's assignment, "
        "or package.assignment for one installed as a package"
    )


def _package_folder(text: str) -> Path | None:
    """The folder of an installed package's assignment, without importing the package."""
    if not _PACKAGE_NAME.match(text):
        return None
    top, *rest = re.split(r"[./]", text)
    try:
        spec = importlib.util.find_spec(top)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    for location in spec.submodule_search_locations:
        folder = Path(location).joinpath(*rest)
        if (folder / "assignment.toml").is_file():
            return folder
    return None


__all__ = ["AssignmentError", "AssignmentNotFound", "find_assignment"]
