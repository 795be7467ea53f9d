"""A course's support modules: the ``.py`` files its handout imports (``from game_api import *``)
that no package installs, stored in the assignment's ``support/`` folder and named by its
``support`` key.

Every kernel that runs a notebook of the assignment imports them from a read-only copy, first
on ``sys.path`` and found by name whatever the notebook does to ``sys.path`` (`grader.execution.sandbox`),
so that the course's copy is the one its notebooks use, whatever a student hands in beside theirs.
"""

from __future__ import annotations

import hashlib
import keyword
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

SUPPORT_FOLDER = "support"
"""Where an assignment folder keeps its support modules."""


@dataclass(frozen=True)
class SupportModule:
    """One support module as loaded: compared by content, so that a folder whose copy was
    edited since it was loaded differs from it (`grader.spec.loader.differences_from_folder`)."""

    path: Path
    digest: str
    """SHA-256 of the file's bytes."""

    @property
    def file_name(self) -> str:
        return self.path.name

    @property
    def module(self) -> str:
        """The name a notebook imports it by."""
        return self.path.stem


def module_problem(path: Path) -> str | None:
    """Why ``path`` cannot be a support module (missing, not a ``.py`` file, a name no
    ``import`` can spell or that the standard library has, a syntax error), or None when it can."""
    if not path.is_file():
        return f"{path} does not exist" if not path.exists() else f"{path} is not a file"
    if path.suffix != ".py":
        return f"{path} is not a Python module (a support module is a .py file)"
    if not path.stem.isidentifier() or keyword.iskeyword(path.stem):
        return f"{path.name} cannot be imported: {path.stem!r} is not a module name"
    if path.stem in sys.stdlib_module_names or path.stem in sys.builtin_module_names:
        return f"{path.name} would hide the standard library's {path.stem} in every kernel: rename it"
    try:
        source = path.read_bytes()
        compile(source, str(path), "exec", dont_inherit=True)
    except SyntaxError as error:
        return f"{path} has a syntax error on line {error.lineno}: {error.msg}"
    except (OSError, ValueError) as error:
        return f"{path} cannot be read: {error}"
    return None


def read_support(directory: Path, names: Sequence[str]) -> tuple[SupportModule, ...] | str:
    """The modules ``names`` (file names) in ``directory``'s support folder, or the first
    problem with one of them."""
    seen: set[str] = set()
    modules = []
    for name in names:
        if Path(name).name != name:
            return f"{name!r} must be a file name in {SUPPORT_FOLDER}/, without a folder"
        if name in seen:
            return f"{name} is named twice"
        seen.add(name)
        path = directory / SUPPORT_FOLDER / name
        problem = module_problem(path)
        if problem is not None:
            return problem
        modules.append(SupportModule(path, hashlib.sha256(path.read_bytes()).hexdigest()))
    return tuple(modules)


def ignored_copies(submission: Path, support: Sequence[SupportModule]) -> list[str]:
    """A sentence for each support module the student handed in beside ``submission`` with
    other contents than the course's: the kernel never sees that copy."""
    lines = []
    for module in support:
        theirs = submission.parent / module.file_name
        try:
            differs = theirs.is_file() and hashlib.sha256(theirs.read_bytes()).hexdigest() != module.digest
        except OSError:
            differs = True
        if differs and theirs.resolve() != module.path.resolve():
            lines.append(
                f"Your {module.file_name} was ignored: the course's own {module.file_name} is what your "
                f"notebook imports when it is graded, so edits to that file count for nothing."
            )
    return lines
