"""A graded class as its output folder holds it, and its outputs rendered anew after the
instructor's decisions changed (by `grader override` or the review page): the students
concerned get their report and results.json again, the class its grades.csv and index.html.
Nothing is regraded: everything comes from the stored records."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from grader.class_folder.layout import ClassFolder, ClassSettings, UnknownAssignment, assignment_of_records
from grader.class_folder.outputs import write_class_outputs, write_student_feedback
from grader.class_folder.records import GradingRecord
from grader.errors import UsageError
from grader.overrides.apply import FittedDecisions, class_decisions
from grader.similarity.compare import DEFAULT_THRESHOLD
from grader.spec.model import Assignment


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
        folder = ClassFolder(out_dir)
        stamp = folder.stamp()
        records = folder.records()
        if not records:
            raise NotAGradedClass(f"{out_dir}: no graded students here (run grader batch --out {out_dir} first)")
        try:
            assignment = assignment or assignment_of_records(list(records.values()))
        except UnknownAssignment as exc:
            raise NotAGradedClass(str(exc)) from None
        settings = folder.settings() or ClassSettings(assignment.id, (), True, DEFAULT_THRESHOLD)
        return cls(out_dir, assignment, records, settings, stamp)

    @property
    def folder(self) -> ClassFolder:
        return ClassFolder(self.out_dir)

    def current(self) -> GradedClass:
        """This class, or read again when a batch or merge has rewritten its records since."""
        return self if self.folder.stamp() == self.stamp else GradedClass.load(self.out_dir, self.assignment)

    def decisions(self) -> FittedDecisions:
        """The decisions that fit the class now (`MalformedOverrides` when unreadable)."""
        return class_decisions(self.out_dir, self.assignment, set(self.records))

    def refresh(self, student_ids: Iterable[str]) -> FittedDecisions:
        """Render those students' outputs and the class files anew with the decisions as they
        stand in the file; returns them (their problems name what did not apply)."""
        decisions = self.decisions()
        for student_id in student_ids:
            record = self.records[student_id]
            write_student_feedback(self.folder.student(record.submission), record, self.assignment, decisions)
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
