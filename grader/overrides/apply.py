"""Which of the instructor's decisions fit the class and its spec, and a submission's final
result with them applied.

The automatic result a batch stores is never changed: the decisions are applied each time
an output is written (a student's report and results.json, grades.csv, the class index,
``grade --json``), so a regrade keeps them and the automatic verdict stays visible beside
them. A decision that does not fit (an unknown student or check, points out of range) is
named in `FittedDecisions.problems` and left out; the others apply.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from grader.overrides.model import CheckDecision, Decisions, EntryProblem, StudentDecisions, entry_name
from grader.overrides.store import overrides_path, read_decisions
from grader.results import CheckResult, InstructorMark, SubmissionResult
from grader.spec.model import Assignment, Check


@dataclass(frozen=True)
class FittedDecisions:
    """The decisions that apply to this class, and the entries that do not (kept in the file)."""

    students: Mapping[str, StudentDecisions] = field(default_factory=dict)
    problems: tuple[EntryProblem, ...] = ()

    def of(self, student_id: str) -> StudentDecisions:
        return self.students.get(student_id) or StudentDecisions(student_id)


NO_DECISIONS = FittedDecisions()


def points_problem(check: Check[object] | None, check_id: str, points: float | None, assignment_id: str) -> str | None:
    """Why points cannot be set on a check (None: they can)."""
    if check is None:
        return f"{assignment_id} has no check {check_id!r} (removed from the spec?)"
    if points is not None and not 0 <= points <= check.points:
        return f"points {points:g} out of range 0..{check.points:g} for {check_id!r}"
    return None


def fit_decisions(
    decisions: Decisions, assignment: Assignment, students: Collection[str] | None = None
) -> FittedDecisions:
    """The decisions that fit ``assignment`` and, when given, the class's ``students``."""
    checks = {c.id: c for c in assignment.checks}
    problems = list(decisions.unreadable)
    fitted: dict[str, StudentDecisions] = {}
    for student_id, student in decisions.students.items():
        where = entry_name("students", student_id)
        if students is not None and student_id not in students:
            problems.append(EntryProblem(where, "no such student in this class"))
            continue
        kept: dict[str, CheckDecision] = {}
        for check_id, decision in student.checks.items():
            problem = points_problem(checks.get(check_id), check_id, decision.points, assignment.id)
            if problem:
                problems.append(EntryProblem(entry_name("students", student_id, "checks", check_id), problem))
            else:
                kept[check_id] = decision
        fitted[student_id] = StudentDecisions(student_id, kept, student.adjustment)
    return FittedDecisions(fitted, tuple(problems))


def apply_decisions(result: SubmissionResult, student: StudentDecisions, assignment: Assignment) -> SubmissionResult:
    """``result`` with the student's fitting decisions applied (the same object when none)."""
    if not student.checks and student.adjustment is None:
        return result
    points = {c.id: c.points for c in assignment.checks}
    checks = tuple(_applied(c, student.checks.get(c.check_id), points.get(c.check_id)) for c in result.checks)
    return dataclasses.replace(result, checks=checks, adjustment=student.adjustment)


def _applied(check: CheckResult, decision: CheckDecision | None, spec_points: float | None) -> CheckResult:
    if decision is None:
        return check
    mark = InstructorMark(decision.points, decision.comment, check.score, decision.by, decision.at)
    if decision.points is None:
        return dataclasses.replace(check, instructor=mark)
    if check.manual:  # marked: it now counts, toward the score and the maximum
        maximum = spec_points if spec_points is not None else decision.points
        return dataclasses.replace(check, score=decision.points, max_score=maximum, instructor=mark)
    return dataclasses.replace(check, score=decision.points, instructor=mark)


def class_decisions(out_dir: Path, assignment: Assignment, students: Collection[str] | None = None) -> FittedDecisions:
    """The decisions of ``OUT/overrides.toml`` that fit the class (`MalformedOverrides` when
    the file cannot be read at all: then nothing should be written)."""
    return fit_decisions(read_decisions(overrides_path(out_dir)), assignment, students)
