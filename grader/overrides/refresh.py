"""A graded class as its output folder holds it, and its outputs rendered anew after the
instructor's decisions changed (by `grader override` or the review page): the students
concerned get their report and results.json again, the class its grades.csv and index.html.
Nothing is regraded: everything comes from the stored records."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from grader.batch.merge import MergeError, assignment_of_records, read_record
from grader.class_folder.outputs import RESULT_FILE, ClassSettings, write_class_outputs, write_student_feedback
from grader.class_folder.records import GradingRecord
from grader.errors import UsageError
from grader.overrides.apply import FittedDecisions, class_decisions
from grader.similarity.compare import DEFAULT_THRESHOLD
from grader.spec.model import Assignment


def records_stamp(out_dir: Path) -> tuple[tuple[str, int], ...]:
    """What says whether the stored records changed: their paths and modification times."""
    stamp = []
    for path in sorted(out_dir.glob(f"*/{RESULT_FILE}")):
        try:
            stamp.append((path.parent.name, path.stat().st_mtime_ns))
        except OSError:
            continue
    return tuple(stamp)


class NotAGradedClass(UsageError, ValueError):
    """The folder holds no graded class (no stored records), or its assignment is unknown."""


@dataclass(frozen=True)
class GradedClass:
    out_dir: Path
    assignment: Assignment
    records: Mapping[str, GradingRecord]
    """By student id."""
    settings: ClassSettings
    stamp: tuple[tuple[str, int], ...] = field(default=(), compare=False)
    """The stored records' names and modification times when they were read."""

    @classmethod
    def load(cls, out_dir: Path, assignment: Assignment | None = None) -> GradedClass:
        stamp = records_stamp(out_dir)
        records: dict[str, GradingRecord] = {}
        for path in sorted(out_dir.glob(f"*/{RESULT_FILE}")):
            record = read_record(path)
            if record is not None:
                records[record.submission.student_id] = record
        if not records:
            raise NotAGradedClass(f"{out_dir}: no graded students here (run grader batch --out {out_dir} first)")
        try:
            assignment = assignment or assignment_of_records(list(records.values()))
        except MergeError as exc:
            raise NotAGradedClass(str(exc)) from None
        settings = ClassSettings.read(out_dir) or ClassSettings(assignment.id, (), True, DEFAULT_THRESHOLD)
        return cls(out_dir, assignment, records, settings, stamp)

    def current(self) -> GradedClass:
        """This class, or read again when a batch or merge has rewritten its records since."""
        return self if records_stamp(self.out_dir) == self.stamp else GradedClass.load(self.out_dir, self.assignment)

    def decisions(self) -> FittedDecisions:
        """The decisions that fit the class now (`MalformedOverrides` when unreadable)."""
        return class_decisions(self.out_dir, self.assignment, set(self.records))

    def refresh(self, student_ids: Iterable[str]) -> FittedDecisions:
        """Render those students' outputs and the class files anew with the decisions as they
        stand in the file; returns them (their problems name what did not apply)."""
        decisions = self.decisions()
        for student_id in student_ids:
            record = self.records[student_id]
            write_student_feedback(self.out_dir / record.submission.folder_name, record, self.assignment, decisions)
        s = self.settings
        write_class_outputs(
            self.out_dir,
            list(self.records.values()),
            self.assignment,
            s.skipped,
            s.complete,
            s.similarity_threshold,
            decisions,
        )
        return decisions
