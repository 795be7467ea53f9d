"""Every wrong fixture and course mutant graded, written as JSON without a single time, so that
two trees' outputs can be compared byte for byte (a speed-up must leave every one unchanged).

    PYTHONPATH=<tree> .venv/bin/python bench/regrade_outputs.py OUT.json [--only fixtures|courses]

Grades each notebook of tests/submissions/<assignment>/ under its built-in assignment (but
``minimax-never-returns`` and ``best-move-takes-5-seconds``, which only wait on time limits) and
each mutant of every course of tests/courses (the course's solution inited once, as
`grader init` writes it). Keys that hold a measured time (durations, timings, seconds, wall,
cpu) are dropped at every depth (``notebook_timed_out`` and a ``timeout`` are kept), and so is
what the notebook's cells printed (a student's own timings); the tree's and the temporary
folders' paths are written as ``<tree>`` and ``<tmp>``. Two trees' files are then the same, byte
for byte, when no result changed.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

import grader
from grader.authoring.create import InitRequest, create_assignment
from grader.grading import GradingOptions, grade_submission
from grader.spec.loader import load_assignment
from tests.courses.manifest import load_courses

REPO = Path(grader.__file__).resolve().parent.parent
"""The tree graded: the one ``grader`` is imported from (``PYTHONPATH``), the base of a comparison too."""
SKIPPED = {"minimax-never-returns", "best-move-takes-5-seconds"}
TIME_KEY = re.compile(r"(^|_)(duration|timings|seconds|wall|cpu|elapsed|time)$")
"""A key that holds a measured time (``duration``, ``kernel_start_seconds``, ``timings``), not one
that merely mentions time (``notebook_timed_out``, ``timeout``), which is compared."""


def timeless(value: Any) -> Any:
    """``value`` with every key that holds a measured time left out, at every depth."""
    if isinstance(value, dict):
        return {k: timeless(v) for k, v in value.items() if not TIME_KEY.search(str(k).lower())}
    if isinstance(value, list | tuple):
        return [timeless(v) for v in value]
    return value


def written(result: Any, *folders: Path) -> Any:
    """A result as compared: no times, no cell's printed output, no tree's own path."""
    data = timeless(result.to_dict())
    for cell in (data.get("execution") or {}).get("cells") or []:
        cell.pop("output", None)
    text = json.dumps(data, default=str).replace(str(REPO), "<tree>")
    for folder in folders:
        text = text.replace(str(folder), "<tmp>")
    return json.loads(text)


def fixtures() -> dict[str, Any]:
    results = {}
    for folder in sorted(p for p in (REPO / "tests" / "submissions").iterdir() if p.is_dir()):
        assignment = load_assignment(folder.name)
        for notebook in sorted(folder.glob("*.ipynb")):
            if notebook.stem in SKIPPED:
                continue
            result = grade_submission(notebook, assignment, GradingOptions())
            results[f"{folder.name}/{notebook.stem}"] = written(result)
            print(folder.name, notebook.stem, result.score, flush=True)
    return results


def courses() -> dict[str, Any]:
    results = {}
    for course in load_courses():
        out = Path(tempfile.mkdtemp()) / course.id
        create_assignment(InitRequest(course.solution, out))
        assignment = load_assignment(out)
        for mutant in course.mutants:
            result = grade_submission(course.mutant_path(mutant), assignment, GradingOptions())
            results[f"{course.id}/{mutant.name}"] = written(result, out.parent)
            print(course.id, mutant.name, result.score, flush=True)
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--only", choices=("fixtures", "courses"))
    args = parser.parse_args()
    results = {}
    if args.only != "courses":
        results.update(fixtures())
    if args.only != "fixtures":
        results.update(courses())
    args.out.write_text(json.dumps(results, indent=1, sort_keys=True, default=str) + "\n")
    print(f"{len(results)} results written to {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
