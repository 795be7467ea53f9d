"""The class and one student as the review pages show them: the automatic verdict of each
check, the instructor's decision on it, and for a manual item what the student wrote."""

from __future__ import annotations

from dataclasses import dataclass

from grader.class_folder.layout import stored_submission
from grader.feedback.views import STATUS_LABELS
from grader.overrides.apply import FittedDecisions, apply_decisions
from grader.overrides.model import CheckDecision, entry_name
from grader.overrides.refresh import GradedClass
from grader.overrides.store import student_version
from grader.results import CheckStatus, ScoreAdjustment
from grader.review.answers import Answer, find_answer


@dataclass(frozen=True)
class StudentLine:
    student_id: str
    display_name: str
    score: float
    max_score: float
    manual_marked: int
    manual_items: int
    overridden: int
    """Automatic checks whose points the instructor set."""
    adjustment: ScoreAdjustment | None
    failure: str | None


@dataclass(frozen=True)
class ClassPage:
    title: str
    assignment_id: str
    students: tuple[StudentLine, ...]
    problems: tuple[str, ...]
    """Entries of the file that do not fit the class."""

    @property
    def unmarked(self) -> int:
        return sum(s.manual_items - s.manual_marked for s in self.students)


@dataclass(frozen=True)
class CheckForm:
    id: str
    title: str
    manual: bool
    hidden: bool
    status: CheckStatus
    status_label: str
    automatic_score: float
    points: float
    """What the check is worth in the spec: the top of the range the form accepts."""
    final_score: float
    message: str
    instructions: str
    decision: CheckDecision | None
    answer: Answer | None
    """For a manual item: what the student wrote."""


@dataclass(frozen=True)
class StudentPage:
    student_id: str
    display_name: str
    title: str
    score: float
    max_score: float
    automatic_score: float
    checks: tuple[CheckForm, ...]
    adjustment: ScoreAdjustment | None
    version: str
    """The version of the student's entries this page was made from (sent with each form)."""
    failure: str | None
    problems: tuple[str, ...]
    """This student's entries that do not fit (kept in the file, not applied)."""


def class_page(graded: GradedClass, decisions: FittedDecisions) -> ClassPage:
    lines = []
    for student_id, record in sorted(graded.records.items()):
        final = apply_decisions(record.result, decisions.of(student_id), graded.assignment)
        manual = [c for c in final.checks if c.manual]
        lines.append(
            StudentLine(
                student_id,
                record.submission.display_name,
                final.score,
                final.max_score,
                sum(c.marked for c in manual),
                len(manual),
                sum(c.overridden for c in final.checks),
                final.adjustment,
                record.failure,
            )
        )
    return ClassPage(
        graded.assignment.title, graded.assignment.id, tuple(lines), tuple(str(p) for p in decisions.problems)
    )


def student_page(graded: GradedClass, decisions: FittedDecisions, student_id: str) -> StudentPage:
    record = graded.records[student_id]
    mine = decisions.of(student_id)
    final = apply_decisions(record.result, mine, graded.assignment)
    spec = {c.id: c for c in graded.assignment.checks}
    submitted = stored_submission(graded.folder.student(record.submission))
    forms = []
    for automatic, check in zip(record.result.checks, final.checks):
        params = spec[check.check_id].params if check.check_id in spec else None
        starts = tuple(getattr(params, "cells", ()))
        forms.append(
            CheckForm(
                id=check.check_id,
                title=check.title,
                manual=check.manual,
                hidden=check.visibility != "public",
                status=automatic.status,
                status_label=STATUS_LABELS[automatic.status],
                automatic_score=automatic.score,
                points=spec[check.check_id].points if check.check_id in spec else check.max_score,
                final_score=check.score,
                message=check.message,
                instructions=check.instructor_notes,
                decision=mine.checks.get(check.check_id),
                answer=find_answer(submitted, graded.assignment.template_path, starts) if check.manual else None,
            )
        )
    prefix = entry_name("students", student_id)
    return StudentPage(
        student_id=student_id,
        display_name=record.submission.display_name,
        title=graded.assignment.title,
        score=final.score,
        max_score=final.max_score,
        automatic_score=record.result.score,
        checks=tuple(forms),
        adjustment=mine.adjustment,
        version=student_version(graded.folder.overrides, student_id),
        failure=record.failure,
        problems=tuple(str(p) for p in decisions.problems if p.where == prefix or p.where.startswith(prefix + ".")),
    )
