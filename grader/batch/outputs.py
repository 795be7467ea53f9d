"""The files a batch writes: per student, and per class.

``OUT/<student>/``: ``report.html`` (returned to the student), ``results.json`` (Gradescope
format) and, last, ``submission_result.json`` (the stored record). ``OUT/``: ``index.html``
(the class, for the instructor) and ``grades.csv``. Every file is written atomically.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

from grader.atomic_write import write_atomic
from grader.batch.records import GradingRecord
from grader.feedback.class_index import ClassEntry
from grader.feedback.gradebook import GradebookRow, grades_csv
from grader.feedback.gradescope import results_json
from grader.feedback.html import render_class_index, render_student_report
from grader.spec.model import Assignment

RESULT_FILE = "submission_result.json"
REPORT_FILE = "report.html"
GRADESCOPE_FILE = "results.json"
INDEX_FILE = "index.html"
GRADES_FILE = "grades.csv"
STUDENT_FILES = (REPORT_FILE, GRADESCOPE_FILE, RESULT_FILE)
"""A student's files in the order they are written: the stored record last, so that a record
on disk means everything for that student is."""


def write_student_outputs(out_dir: Path, record: GradingRecord, assignment: Assignment) -> None:
    """The report and results.json first, the stored record last."""
    folder = out_dir / record.submission.folder_name
    s = record.submission
    html = render_student_report(
        record.result,
        submission_name=s.original_name,
        student_id=s.student_id,
        display_name=s.display_name,
        late=s.late,
        assignment=assignment,
    )
    write_atomic(folder / REPORT_FILE, html)
    write_atomic(folder / GRADESCOPE_FILE, results_json(record.result, failure=record.failure))
    write_atomic(folder / RESULT_FILE, record.to_json())


def write_class_outputs(
    out_dir: Path,
    records: Sequence[GradingRecord],
    assignment: Assignment,
    skipped: Iterable[tuple[str, str]],
    complete: bool,
) -> None:
    """``grades.csv`` and ``index.html``, rebuilt from the stored records."""
    ordered = sorted(records, key=lambda r: r.submission.student_id)
    rows = [
        GradebookRow(r.submission.student_id, r.submission.display_name, r.result, withheld=r.grader_fault)
        for r in ordered
    ]
    write_atomic(out_dir / GRADES_FILE, grades_csv(rows))
    entries = [
        ClassEntry(
            r.submission.student_id,
            r.submission.display_name,
            r.submission.late,
            r.result,
            f"{r.submission.folder_name}/{REPORT_FILE}",
            r.failure,
            r.seconds,
            r.submission.notes,
        )
        for r in ordered
    ]
    html = render_class_index(
        entries, assignment_id=assignment.id, title=assignment.title, skipped=skipped, complete=complete
    )
    write_atomic(out_dir / INDEX_FILE, html)


def class_output_lines(out_dir: Path) -> list[str]:
    """Where the instructor finds the class's outputs, as a summary ends."""
    return [f"Class report: {out_dir / INDEX_FILE}", f"Gradebook:    {out_dir / GRADES_FILE}"]
