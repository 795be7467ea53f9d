"""The files a batch writes: per student, and per class.

``OUT/<student>/``: ``submitted.ipynb`` or ``submitted.py`` (a copy of the file graded, for
comparing the class), ``report.html`` (returned to the student), ``results.json``
(Gradescope format) and, last, ``submission_result.json`` (the stored record). ``OUT/``:
``index.html`` (the class, for the instructor), ``grades.csv``, ``similarity.csv`` and
``class.json`` (what the class files were built with, to rebuild them). Every file is
written atomically.

The instructor's decisions (``OUT/overrides.toml``, `grader.overrides`) are applied to the
report, results.json, grades.csv and the index as they are written; the stored record keeps
the automatic result, so that a regrade never loses them.

The class's similarity is computed from the stored copies, never from the input: a resumed
batch, or shards merged by ``grader merge``, compare exactly the files an uninterrupted run
compares, and so list the same pairs.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from grader.atomic_write import write_atomic, write_atomic_if_changed
from grader.batch.progress import log_line
from grader.batch.records import GradingRecord
from grader.feedback.class_index import ClassEntry
from grader.feedback.gradebook import GradebookRow, grades_csv
from grader.feedback.gradescope import results_json
from grader.feedback.html import render_class_index, render_student_report
from grader.overrides.apply import NO_DECISIONS, FittedDecisions, apply_decisions
from grader.similarity.compare import SimilarityReport, compare_submissions
from grader.similarity.view import similar_pairs_view, similarity_csv
from grader.spec.model import Assignment
from grader.submission.inputs import SUBMISSION_SUFFIXES, StudentSubmission
from grader.submission.reader import DEFAULT_MAX_BYTES, SubmissionUnreadable

RESULT_FILE = "submission_result.json"
REPORT_FILE = "report.html"
GRADESCOPE_FILE = "results.json"
SUBMITTED_STEM = "submitted"
INDEX_FILE = "index.html"
GRADES_FILE = "grades.csv"
SIMILARITY_FILE = "similarity.csv"
CLASS_FILE = "class.json"
STUDENT_FILES = (REPORT_FILE, GRADESCOPE_FILE, RESULT_FILE)
"""A student's files after the submitted copy, in the order they are written: the stored
record last, so that a record on disk means everything for that student is."""


def write_student_outputs(
    out_dir: Path, record: GradingRecord, assignment: Assignment, decisions: FittedDecisions = NO_DECISIONS
) -> None:
    """The submitted copy, the report and results.json first, the stored record last."""
    folder = out_dir / record.submission.folder_name
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


def submitted_copy_names() -> tuple[str, ...]:
    """The names a student's copy can have: one per readable suffix."""
    return tuple(SUBMITTED_STEM + suffix for suffix in SUBMISSION_SUFFIXES)


def write_submitted_copy(folder: Path, submission: StudentSubmission, max_bytes: int = DEFAULT_MAX_BYTES) -> None:
    """Copy the graded file into the student's folder, keeping its suffix (which says how it
    is read); a copy with the other suffix, left by an earlier hand-in, goes. An identical
    copy is left alone. A file over the reader's size limit was refused unread: only its
    first ``max_bytes`` are kept, enough to see what it was, not a class's worth of disk."""
    name = SUBMITTED_STEM + submission.path.suffix.lower()
    with submission.path.open("rb") as handed_in:
        content = handed_in.read(max_bytes)
    target = folder / name
    if not target.is_file() or target.read_bytes() != content:
        write_atomic(target, content)
    for other in submitted_copy_names():
        if other != name:
            (folder / other).unlink(missing_ok=True)


def stored_submission(folder: Path) -> Path | None:
    """The copy of what was graded in a student's output folder, if any."""
    return next((path for name in submitted_copy_names() if (path := folder / name).is_file()), None)


@dataclass(frozen=True)
class ClassSettings:
    """What the class files were last built with, beyond the stored records: kept in
    ``class.json`` so that they can be rebuilt alone (after an instructor's decision)."""

    assignment_id: str
    skipped: tuple[tuple[str, str], ...]
    complete: bool
    similarity_threshold: float | None

    def to_json(self) -> str:
        data = {
            "assignment": self.assignment_id,
            "skipped": [list(pair) for pair in self.skipped],
            "complete": self.complete,
            "similarity_threshold": self.similarity_threshold,
        }
        return json.dumps(data, indent=2, ensure_ascii=False) + "\n"

    @classmethod
    def read(cls, out_dir: Path) -> ClassSettings | None:
        try:
            data: Any = json.loads((out_dir / CLASS_FILE).read_text(encoding="utf-8"))
            threshold = data["similarity_threshold"]
            return cls(
                str(data["assignment"]),
                tuple((str(path), str(reason)) for path, reason in data["skipped"]),
                bool(data["complete"]),
                None if threshold is None else float(threshold),
            )
        except (OSError, ValueError, KeyError, TypeError):
            return None


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
    ordered = sorted(records, key=lambda r: r.submission.student_id)
    final = {
        r.submission.student_id: apply_decisions(r.result, decisions.of(r.submission.student_id), assignment)
        for r in ordered
    }
    rows = [
        GradebookRow(r.submission.student_id, r.submission.display_name, final[r.submission.student_id], r.grader_fault)
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
    write_atomic(out_dir / INDEX_FILE, html)
    settings = ClassSettings(assignment.id, skipped, complete, similarity_threshold)
    write_atomic_if_changed(out_dir / CLASS_FILE, settings.to_json())


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
