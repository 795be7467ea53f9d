"""The course's support modules for `grader init`: those given with ``--support``, else those the
handout or the solution imports that sit beside it and no package installs.

A module found that way is taken with the modules it imports in turn from the same folders
(``game_api`` importing ``toytree``). Each is checked before anything runs: a file that is
missing, is not a ``.py`` module or does not compile is refused with its own message.
"""

from __future__ import annotations

import ast
import importlib.machinery
import os
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from nbformat import NotebookNode

from grader.spec.support import module_problem


@dataclass(frozen=True)
class SupportChoice:
    """The support modules init takes, and one line for each saying why."""

    modules: tuple[Path, ...] = ()
    summary: tuple[str, ...] = ()

    @property
    def names(self) -> tuple[str, ...]:
        """As the spec's ``support`` key lists them."""
        return tuple(path.name for path in self.modules)


@dataclass(frozen=True)
class HandedFile:
    """A file init was given (the handout, the solution) and its code as read."""

    role: str
    """``handout`` or ``solution``: how the summary names it."""
    path: Path
    notebook: NotebookNode


def choose_support(given: Sequence[Path], handed: Sequence[HandedFile]) -> SupportChoice | str:
    """The modules ``given``, else those found beside ``handed``; or the first problem with one."""
    if given:
        return _given(given)
    return _found(handed)


def _given(given: Sequence[Path]) -> SupportChoice | str:
    names: dict[str, Path] = {}
    for path in given:
        problem = module_problem(path)
        if problem is not None:
            return f"--support {problem}"
        if path.name in names and names[path.name].resolve() != path.resolve():
            return f"--support names two modules called {path.name}: {names[path.name]} and {path}"
        names.setdefault(path.name, path)
    modules = tuple(names.values())
    return SupportChoice(modules, tuple(f"support: {path.name} (given with --support)" for path in modules))


def _found(handed: Sequence[HandedFile]) -> SupportChoice | str:
    folders = list(dict.fromkeys(file.path.resolve().parent for file in handed))
    taken: dict[str, Path] = {}
    why: dict[str, str] = {}
    todo = [(name, file.role) for file in handed for name in imported_names(_sources(file.notebook))]
    while todo:
        name, importer = todo.pop(0)
        if name in taken:
            continue
        path = next((folder / f"{name}.py" for folder in folders if (folder / f"{name}.py").is_file()), None)
        if path is None or _installed(name, folders):
            continue
        problem = module_problem(path)
        if problem is not None:
            return f"the {importer} imports {name}, found beside it, but {problem}"
        taken[name] = path
        why[name] = f"support: took {path.name} (imported by the {importer}, found in {path.parent})"
        source = path.read_text(encoding="utf-8", errors="replace")
        todo += [(imported, path.name) for imported in imported_names([source])]
    return SupportChoice(tuple(taken.values()), tuple(why.values()))


def _sources(notebook: NotebookNode) -> list[str]:
    return [cell.source for cell in notebook.cells if cell.cell_type == "code"]


def imported_names(sources: Iterable[str]) -> list[str]:
    """The top-level names of the modules ``sources`` import absolutely, in order; a cell that
    does not parse (IPython's ``%magic`` lines) is read without its magic and shell lines."""
    names: dict[str, None] = {}
    for source in sources:
        tree = _parsed(source)
        for node in ast.walk(tree) if tree is not None else ():
            if isinstance(node, ast.Import):
                names.update(dict.fromkeys(alias.name.split(".")[0] for alias in node.names))
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names[node.module.split(".")[0]] = None
    return list(names)


def _parsed(source: str) -> ast.Module | None:
    for text in (source, "\n".join(line for line in source.splitlines() if not line.lstrip().startswith(("%", "!")))):
        try:
            return ast.parse(text)
        except (SyntaxError, ValueError):
            continue
    return None


def _installed(name: str, folders: Sequence[Path]) -> bool:
    """Whether ``name`` is importable without the handed files' folders: the standard library
    or an installed package (the working directory, which may be one of those folders, does
    not count)."""
    if name in sys.builtin_module_names or name in sys.stdlib_module_names:
        return True
    here = {Path(os.getcwd()).resolve(), *folders}
    path = [p for p in sys.path if p and Path(p).resolve() not in here]
    return importlib.machinery.PathFinder.find_spec(name, path) is not None
