"""The files a batch writes into a class's folder (`grader.class_folder.layout` says where):
per student, the submitted copy, the report and results.json, then the stored record; per
class, the index, grades.csv, similarity.csv and class.json. Every file is written atomically.

The instructor's decisions (``OUT/overrides.toml``, `grader.overrides`) are applied to the
report, results.json, grades.csv and the index as they are written; the stored record keeps
the automatic result, so that a regrade never loses them.

The class's similarity is computed from the stored copies, never from the input: a resumed
batch, or shards merged by ``grader merge``, compare exactly the files an uninterrupted run
compares, and so list the same pairs.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from pathlib import Path

from grader.atomic_write import write_atomic, write_atomic_if_changed
from grader.class_folder.layout import (
    GRADESCOPE_FILE,
    REPORT_FILE,
    RESULT_FILE,
    SUBMITTED_STEM,
    ClassFolder,
    ClassSettings,
    stored_submission,
    submitted_copy_names,
)
from grader.class_folder.records import GradingRecord
from grader.feedback.class_index import ClassEntry
from grader.feedback.gradebook import GradebookRow, grades_csv
from grader.feedback.gradescope import results_json
from grader.feedback.html import render_class_index, render_student_report
from grader.overrides.apply import NO_DECISIONS, FittedDecisions, apply_decisions
from grader.similarity.compare import SimilarityReport, compare_submissions
from grader.similarity.view import similar_pairs_view, similarity_csv
from grader.spec.model import Assignment
from grader.submission.inputs import StudentSubmission
from grader.submission.reader import DEFAULT_MAX_BYTES, SubmissionUnreadable

_log = logging.getLogger(__name__)


def write_student_outputs(
    out_dir: Path, record: GradingRecord, assignment: Assignment, decisions: FittedDecisions = NO_DECISIONS
) -> None:
    """The submitted copy, the report and results.json first, the stored record last."""
    folder = ClassFolder(out_dir).student(record.submission)
    write_submitted_copy(folder, record.submission)
    write_student_feedback(folder, record, assignment, decisions)
    write_atomic(folder / RESULT_FILE, record.to_json())


def write_student_feedback(
    folder: Path, record: GradingRecord, assignment: Assignment, decisions: FittedDecisions = NO_DECISIONS
) -> None:
    """The report and results.json with the instructor's decisions applied, each written only
    when it changed."""
    s = record.submission
    result = apply_decisions(record.result, decisions.of(s.student_id), assignment)
    html = render_student_report(
        result,
        submission_name=s.original_name,
        student_id=s.student_id,
        display_name=s.display_name,
        late=s.late,
        assignment=assignment,
    )
    write_atomic_if_changed(folder / REPORT_FILE, html)
    write_atomic_if_changed(folder / GRADESCOPE_FILE, results_json(result, failure=record.failure))


def write_submitted_copy(folder: Path, submission: StudentSubmission, max_bytes: int = DEFAULT_MAX_BYTES) -> None:
    """Copy the graded file into the student's folder, keeping its suffix (which says how it
    is read); a copy with the other suffix, left by an earlier hand-in, goes. An identical
    copy is left alone. A file over the reader's size limit was refused unread: only its
    first ``max_bytes`` are kept, enough to see what it was, not a class's worth of disk.
    A file left out of the zip has no copy: one left by an earlier hand-in goes (it is not
    what this record is about, and would be compared for similarity)."""
    if submission.refused is not None:
        for other in submitted_copy_names():
            (folder / other).unlink(missing_ok=True)
        return
    name = SUBMITTED_STEM + submission.path.suffix.lower()
    with submission.path.open("rb") as handed_in:
        content = handed_in.read(max_bytes)
    target = folder / name
    if not target.is_file() or target.read_bytes() != content:
        write_atomic(target, content)
    for other in submitted_copy_names():
        if other != name:
            (folder / other).unlink(missing_ok=True)


def write_class_outputs(
    out_dir: Path,
    records: Sequence[GradingRecord],
    assignment: Assignment,
    skipped: Iterable[tuple[str, str]],
    complete: bool,
    similarity_threshold: float | None,
    decisions: FittedDecisions = NO_DECISIONS,
) -> None:
    """``grades.csv``, ``similarity.csv`` and ``index.html``, rebuilt from the stored records
    with the instructor's decisions applied (``similarity_threshold`` None: no comparison,
    and no ``similarity.csv``); ``class.json`` records what they were built with."""
    skipped = tuple(skipped)
    folder = ClassFolder(out_dir)
    ordered = sorted(records, key=lambda r: r.submission.student_id)
    final = {
        r.submission.student_id: apply_decisions(r.result, decisions.of(r.submission.student_id), assignment)
        for r in ordered
    }
    rows = [
        GradebookRow(r.submission.student_id, r.submission.display_name, final[r.submission.student_id], r.grader_fault)
        for r in ordered
    ]
    write_atomic(folder.grades, grades_csv(rows))
    similarity = class_similarity(out_dir, ordered, assignment, similarity_threshold)
    if similarity is None:
        folder.similarity.unlink(missing_ok=True)  # never leave an earlier run's list behind
    else:
        write_atomic(folder.similarity, similarity_csv(similarity))
    entries = [
        ClassEntry(
            r.submission.student_id,
            r.submission.display_name,
            r.submission.late,
            final[r.submission.student_id],
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
        decision_problems=[str(p) for p in decisions.problems],
    )
    write_atomic(folder.index, html)
    settings = ClassSettings(assignment.id, skipped, complete, similarity_threshold)
    write_atomic_if_changed(folder.settings_file, settings.to_json())


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
        if (copy := stored_submission(ClassFolder(out_dir).student(r.submission))) is not None
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
        _log.warning(f"{assignment.id}: similar submissions not compared: {exc}")
        return None


def class_output_lines(out_dir: Path) -> list[str]:
    """Where the instructor finds the class's outputs, as a summary ends."""
    folder = ClassFolder(out_dir)
    lines = [f"Class report: {folder.index}", f"Gradebook:    {folder.grades}"]
    if folder.similarity.is_file():
        lines.append(f"Similarity:   {folder.similarity}")
    return lines
