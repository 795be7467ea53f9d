"""The files a batch writes: per student, and per class.

``OUT/<student>/``: ``submitted.ipynb`` or ``submitted.py`` (a copy of the file graded, for
comparing the class), ``report.html`` (returned to the student), ``results.json``
(Gradescope format) and, last, ``submission_result.json`` (the stored record). ``OUT/``:
``index.html`` (the class, for the instructor), ``grades.csv`` and ``similarity.csv``. Every
file is written atomically.

The class's similarity is computed from the stored copies, never from the input: a resumed
batch, or shards merged by ``grader merge``, compare exactly the files an uninterrupted run
compares, and so list the same pairs.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

from grader.atomic_write import write_atomic
from grader.batch.progress import log_line
from grader.batch.records import GradingRecord
from grader.feedback.class_index import ClassEntry
from grader.feedback.gradebook import GradebookRow, grades_csv
from grader.feedback.gradescope import results_json
from grader.feedback.html import render_class_index, render_student_report
from grader.similarity.compare import SimilarityReport, compare_submissions
from grader.similarity.view import similar_pairs_view, similarity_csv
from grader.spec.model import Assignment
from grader.submission.inputs import SUBMISSION_SUFFIXES, StudentSubmission
from grader.submission.reader import SubmissionUnreadable

RESULT_FILE = "submission_result.json"
REPORT_FILE = "report.html"
GRADESCOPE_FILE = "results.json"
SUBMITTED_STEM = "submitted"
INDEX_FILE = "index.html"
GRADES_FILE = "grades.csv"
SIMILARITY_FILE = "similarity.csv"
STUDENT_FILES = (REPORT_FILE, GRADESCOPE_FILE, RESULT_FILE)
"""A student's files after the submitted copy, in the order they are written: the stored
record last, so that a record on disk means everything for that student is."""


def write_student_outputs(out_dir: Path, record: GradingRecord, assignment: Assignment) -> None:
    """The submitted copy, the report and results.json first, the stored record last."""
    folder = out_dir / record.submission.folder_name
    s = record.submission
    write_submitted_copy(folder, s)
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


def submitted_copy_names() -> tuple[str, ...]:
    """The names a student's copy can have: one per readable suffix."""
    return tuple(SUBMITTED_STEM + suffix for suffix in SUBMISSION_SUFFIXES)


def write_submitted_copy(folder: Path, submission: StudentSubmission) -> None:
    """Copy the graded file into the student's folder, keeping its suffix (which says how it
    is read); a copy with the other suffix, left by an earlier hand-in, goes. An identical
    copy is left alone."""
    name = SUBMITTED_STEM + submission.path.suffix.lower()
    content = submission.path.read_bytes()
    target = folder / name
    if not target.is_file() or target.read_bytes() != content:
        write_atomic(target, content)
    for other in submitted_copy_names():
        if other != name:
            (folder / other).unlink(missing_ok=True)


def stored_submission(folder: Path) -> Path | None:
    """The copy of what was graded in a student's output folder, if any."""
    return next((path for name in submitted_copy_names() if (path := folder / name).is_file()), None)


def write_class_outputs(
    out_dir: Path,
    records: Sequence[GradingRecord],
    assignment: Assignment,
    skipped: Iterable[tuple[str, str]],
    complete: bool,
    similarity_threshold: float | None,
) -> None:
    """``grades.csv``, ``similarity.csv`` and ``index.html``, rebuilt from the stored records
    (``similarity_threshold`` None: no comparison, and no ``similarity.csv``)."""
    ordered = sorted(records, key=lambda r: r.submission.student_id)
    rows = [
        GradebookRow(r.submission.student_id, r.submission.display_name, r.result, withheld=r.grader_fault)
        for r in ordered
    ]
    write_atomic(out_dir / GRADES_FILE, grades_csv(rows))
    similarity = class_similarity(out_dir, ordered, assignment, similarity_threshold)
    if similarity is None:
        (out_dir / SIMILARITY_FILE).unlink(missing_ok=True)  # never leave an earlier run's list behind
    else:
        write_atomic(out_dir / SIMILARITY_FILE, similarity_csv(similarity))
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
        entries,
        assignment_id=assignment.id,
        title=assignment.title,
        skipped=skipped,
        complete=complete,
        similarity=similar_pairs_view(similarity) if similarity is not None else None,
    )
    write_atomic(out_dir / INDEX_FILE, html)


def class_similarity(
    out_dir: Path, records: Sequence[GradingRecord], assignment: Assignment, threshold: float | None
) -> SimilarityReport | None:
    """Every stored record's submitted copy compared with the others, the assignment's
    handout (``template.ipynb``) and solution set aside; None when switched off, or when the
    handout or solution cannot be read (then it says why)."""
    if threshold is None:
        return None
    submissions = [
        (r.submission.student_id, copy)
        for r in records
        if (copy := stored_submission(out_dir / r.submission.folder_name)) is not None
    ]
    handout, solution = assignment.template_path, assignment.solution_path
    try:
        return compare_submissions(
            submissions,
            handout=handout if handout.is_file() else None,
            solution=solution if solution.is_file() else None,
            threshold=threshold,
        )
    except SubmissionUnreadable as exc:
        log_line(f"{assignment.id}: similar submissions not compared: {exc}")
        return None


def class_output_lines(out_dir: Path) -> list[str]:
    """Where the instructor finds the class's outputs, as a summary ends."""
    lines = [f"Class report: {out_dir / INDEX_FILE}", f"Gradebook:    {out_dir / GRADES_FILE}"]
    if (out_dir / SIMILARITY_FILE).is_file():
        lines.append(f"Similarity:   {out_dir / SIMILARITY_FILE}")
    return lines
