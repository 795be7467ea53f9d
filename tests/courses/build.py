"""Writes the course fixtures' notebooks from their sources.

Each course's ``source.py`` is its solution as percent-format Python (``# %%`` starts a code cell,
``# %% [markdown]`` a markdown cell whose lines are comments); each mutant in ``manifest.toml`` is a
list of text edits of that source. After editing either, run from the repository root::

    .venv/bin/python -m tests.courses.build

``--check`` writes nothing and exits 1 when a notebook is missing or out of date.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path

import nbformat
from nbformat import NotebookNode

from tests.courses.manifest import Course, Mutant, load_courses

_CELL_MARK = re.compile(r"^# %%(?P<markdown> \[markdown\])?[ \t]*$", re.MULTILINE)


def _markdown_text(chunk: str) -> str:
    lines = []
    for line in chunk.strip("\n").splitlines():
        if line != "#" and not line.startswith("# "):
            raise ValueError(f"a markdown cell's lines are comments, got {line!r}")
        lines.append(line[2:])
    return "\n".join(lines)


def cells_of(source: str) -> list[NotebookNode]:
    """The notebook cells a percent-format source describes, with stable ids."""
    marks = list(_CELL_MARK.finditer(source))
    if not marks or source[: marks[0].start()].strip():
        raise ValueError("a course source starts with a '# %%' line")
    cells = []
    for number, mark in enumerate(marks):
        end = marks[number + 1].start() if number + 1 < len(marks) else len(source)
        chunk = source[mark.end() : end]
        if mark.group("markdown"):
            cell = nbformat.v4.new_markdown_cell(_markdown_text(chunk))
        else:
            cell = nbformat.v4.new_code_cell(chunk.strip("\n"))
        cell["id"] = f"cell-{number}"
        cells.append(cell)
    return cells


def notebook_text(source: str, fixture: dict[str, object] | None = None) -> str:
    """The notebook of a source; ``fixture`` goes into its metadata as ``grader_fixture``, the
    key the fixture submissions under tests/submissions/ use to say what is wrong."""
    metadata: dict[str, object] = {
        "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
        "language_info": {"name": "python"},
    }
    if fixture is not None:
        metadata["grader_fixture"] = fixture
    notebook = nbformat.v4.new_notebook(cells=cells_of(source), metadata=metadata)
    nbformat.validate(notebook)
    return nbformat.writes(notebook) + "\n"


def mutated(source: str, mutant: Mutant) -> str:
    """The solution's source with the mutant's edits, each matching exactly once in the original."""
    return edited(source, mutant.name, mutant.edits)


def edited(source: str, name: str, edits: Iterable[Sequence[str]]) -> str:
    """``source`` with each ``(old, new)`` of ``edits`` made, each old text matching exactly once
    in the original, none overlapping; ``name`` (the mutant's) is named when one does not."""
    spans = []
    for old, new in edits:
        found = source.count(old)
        if found != 1:
            raise ValueError(f"mutant {name}: {old!r} occurs {found} times in the source, not once")
        start = source.index(old)
        spans.append((start, start + len(old), new))
    spans.sort()
    pieces, end = [], 0
    for start, stop, new in spans:
        if start < end:
            raise ValueError(f"mutant {name}: two edits overlap")
        pieces += [source[end:start], new]
        end = stop
    return "".join(pieces) + source[end:]


def rendered(course: Course) -> dict[Path, str]:
    """Every notebook of a course, by path."""
    source = course.source.read_text(encoding="utf-8")
    files = {course.solution: notebook_text(source)}
    for mutant in course.mutants:
        functions = sorted({key.split(":")[0] for key in mutant.broken})
        fixture: dict[str, object] = {"bug": mutant.mistake, "role": mutant.role, "functions": functions}
        files[course.mutant_path(mutant)] = notebook_text(mutated(source, mutant), fixture)
    return files


def stale_files(courses: tuple[Course, ...]) -> list[Path]:
    """Notebooks that are missing or differ from what their source gives."""
    stale = []
    for course in courses:
        for path, text in rendered(course).items():
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                stale.append(path)
    return stale


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only report notebooks that are out of date")
    args = parser.parse_args(argv)
    courses = load_courses()
    stale = stale_files(courses)
    if args.check:
        for path in stale:
            print(f"out of date: {path}")
        return 1 if stale else 0
    for course in courses:
        for path, text in rendered(course).items():
            if path in stale:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(text, encoding="utf-8")
                print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
