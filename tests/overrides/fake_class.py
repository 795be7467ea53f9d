"""A small depth-limits class graded by the fake grader (fast), with its manual item as the
real grader leaves it: for the instructor to mark."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import nbformat

from grader.batch.plan import BatchOptions, BatchResult, run_batch
from grader.check_details import ManualMarking
from grader.class_folder.outputs import write_class_outputs, write_student_outputs
from grader.class_folder.records import GradingRecord
from grader.grading import GradingOptions
from grader.results import CheckResult, CheckStatus, SubmissionResult
from grader.spec.model import Assignment
from grader.submission.inputs import StudentSubmission
from tests.batch.fake_grading import grade_by_content

MANUAL = "observation"
AUTOMATIC = "possible-actions"


def grade_with_manual_items(path: Path, assignment: Assignment, options: GradingOptions) -> SubmissionResult:
    """`grade_by_content`, with each manual item left for the instructor as the real kind leaves it."""
    result = grade_by_content(path, assignment, options)
    manual = {c.id: c for c in assignment.checks if c.manual}
    checks = tuple(
        CheckResult.for_check(
            manual[c.check_id],
            CheckStatus.MANUAL,
            "Marked by hand by your instructor.",
            score=0.0,
            detail=ManualMarking(manual[c.check_id].points, manual[c.check_id].params.instructions),
        )
        if c.check_id in manual and result.execution is not None
        else c
        for c in result.checks
    )
    return dataclasses.replace(result, checks=checks)


def write_class(folder: Path, assignment: Assignment) -> Path:
    """Three notebooks: ana passes everything and answers the observation, ben passes one
    check and answers with a script tag, cleo's notebook is not one."""
    ids = " ".join(c.id for c in assignment.checks)
    answers = {
        "ana": (ids, "**Observations.** Shallower limits generate far fewer states; the result changes."),
        "ben": (AUTOMATIC, "**Observations.** <script>alert('x')</script> it is *faster*"),
    }
    for student, (code, observation) in answers.items():
        notebook = nbformat.v4.new_notebook()
        notebook.cells = [
            nbformat.v4.new_code_cell(f"# {code}"),
            nbformat.v4.new_markdown_cell(observation),
            nbformat.v4.new_markdown_cell("I also timed it: about 10 s for the full search."),
        ]
        nbformat.write(notebook, folder / f"{student}.ipynb")
    (folder / "cleo.ipynb").write_text("UNREADABLE", encoding="utf-8")
    return folder


def batch(source: Path, out: Path, assignment: Assignment, **options: object) -> BatchResult:
    settings = {"jobs": 1, "progress": False, **options}
    return run_batch(source, assignment, out, BatchOptions(**settings), grade=grade_with_manual_items)  # type: ignore[arg-type]


def graded_in_process(source: Path, out: Path, assignment: Assignment) -> Path:
    """The outputs a batch of ``source`` writes, graded in this process (no workers): for the
    unit tests of what is done with a graded class."""
    records = []
    for path in sorted(source.glob("*.ipynb")):
        submission = StudentSubmission(path.stem, path, path.name)
        result = grade_with_manual_items(path, assignment, GradingOptions())
        failure = result.problems[0] if result.execution is None else None
        record = GradingRecord(submission, result, "fingerprint", failure)
        write_student_outputs(out, record, assignment)
        records.append(record)
    write_class_outputs(out, records, assignment, (), True, None)
    return out
