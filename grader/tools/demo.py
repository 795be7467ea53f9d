"""`grader demo` / `make demo`: batch-grade the bundled example classes.

Every ``examples/<assignment-id>/`` folder whose id names a built-in assignment is graded
into ``<out>/<assignment-id>/``, all classes through one pool of workers; folders without a
matching assignment are listed and left.
"""

from __future__ import annotations

from pathlib import Path

from grader.batch.plan import BatchJob, BatchOptions, run_batches
from grader.class_folder.layout import ClassFolder
from grader.spec.loader import BUILTIN_ASSIGNMENTS, list_assignments, load_assignment

EXAMPLES = BUILTIN_ASSIGNMENTS.parent / "examples"


def example_classes(examples: Path = EXAMPLES) -> tuple[list[Path], list[Path]]:
    """Example folders with a matching built-in assignment, and those without one."""
    known = set(list_assignments())
    folders = (
        sorted(p for p in examples.iterdir() if p.is_dir() and not p.name.startswith(".")) if examples.is_dir() else []
    )
    return [p for p in folders if p.name in known], [p for p in folders if p.name not in known]


def run_demo(out: Path, jobs: int | None = None, examples: Path = EXAMPLES) -> int:
    classes, unmatched = example_classes(examples)
    for folder in unmatched:
        print(f"(skipping {folder}: no built-in assignment named {folder.name!r})")
    if not classes:
        print(f"No example classes found under {examples}.")
        return 1
    batch_jobs = [BatchJob(folder, load_assignment(folder.name), out / folder.name) for folder in classes]
    # The examples ship with the grader: where bubblewrap cannot run, they are graded with
    # resource limits, and the terminal and each class page say so.
    results = run_batches(batch_jobs, BatchOptions(jobs=jobs, fall_back=True))
    for job, result in zip(batch_jobs, results):
        print(f"== {job.assignment.id}: {job.assignment.title}")
        print(result, end="\n\n")
    print("Class reports (open in a browser):")
    for job in batch_jobs:
        print(f"  {ClassFolder(job.out_dir).index.resolve()}")
    return max(result.return_code for result in results)
