"""`grader validate`: an assignment is usable when its solution scores full marks and its
handout template does not (at most a fifth of the points)."""

from __future__ import annotations

from dataclasses import dataclass

from grader.grading import GradingOptions, grade_submission
from grader.results import CheckStatus, SubmissionResult
from grader.spec.model import Assignment

TEMPLATE_MAX_FRACTION = 0.2


@dataclass(frozen=True)
class ValidationReport:
    assignment: Assignment
    solution: SubmissionResult | None
    template: SubmissionResult | None
    problems: tuple[str, ...]

    @property
    def ok(self) -> bool:
        return not self.problems

    def __str__(self) -> str:
        head = f"{self.assignment.id}: {'valid' if self.ok else 'INVALID'}"
        parts = [head]
        for label, result in (("solution", self.solution), ("template", self.template)):
            if result is not None:
                parts.append(f"  {label}: {result.score:g} / {result.max_score:g}")
        parts += [f"  - {p}" for p in self.problems]
        return "\n".join(parts)


def validate_assignment(assignment: Assignment, options: GradingOptions = GradingOptions()) -> ValidationReport:
    problems: list[str] = []
    solution = template = None
    if not assignment.solution_path.is_file():
        problems.append(f"{assignment.solution_path} is missing")
    else:
        solution = grade_submission(assignment.solution_path, assignment, options)
        for check in solution.checks:
            if check.status not in (CheckStatus.PASSED, CheckStatus.MANUAL):
                problems.append(f"solution: check {check.check_id} is {check.status.value}: {check.message}")
    if not assignment.template_path.is_file():
        problems.append(f"{assignment.template_path} is missing")
    else:
        template = grade_submission(assignment.template_path, assignment, options)
        if template.max_score and template.fraction > TEMPLATE_MAX_FRACTION:
            problems.append(
                f"template scores {template.score:g} / {template.max_score:g} "
                f"(more than {TEMPLATE_MAX_FRACTION:.0%}): the handout gives away too much"
            )
    return ValidationReport(assignment, solution, template, tuple(problems))
