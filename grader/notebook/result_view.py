"""The in-notebook check's result as a notebook shows it: rich HTML below the cell (the
report's look, compact: badges, drawn counterexample boards, node charts), and plain text
for a console or a front end that shows only text.

The HTML goes through the report's autoescaped Jinja environment and its macros, with a
style sheet scoped to the result's own element, so it neither leaks into the notebook's page
nor depends on it (a dark theme included).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import Any

from grader.feedback.html import environment
from grader.feedback.text import format_submission
from grader.feedback.views import HiddenCheckNotRun, check_view, headline
from grader.results import SubmissionResult


@dataclass(frozen=True)
class NotebookCheck:
    """What one in-notebook check found."""

    assignment_id: str
    title: str
    result: SubmissionResult | None
    """None when nothing could be checked (`problem` says why)."""
    problem: str = ""
    """One line: an unknown assignment or check, or a session the checks cannot run in."""
    hidden_not_run: tuple[HiddenCheckNotRun, ...] = ()
    left_to_grader_check: tuple[str, ...] = ()
    """Titles of the checks that judge the notebook run top to bottom (``grader check``)."""
    seconds: float = 0.0
    element_id: str = field(default_factory=lambda: "grader-check-" + secrets.token_hex(4), compare=False)

    @classmethod
    def problem_only(cls, assignment_id: str, problem: str, *, title: str = "") -> NotebookCheck:
        return cls(assignment_id=assignment_id, title=title or assignment_id, result=None, problem=problem)

    @property
    def passed(self) -> bool:
        """Every public check that ran passed (hidden ones may still fail when graded)."""
        return self.result is not None and self.result.max_score > 0 and self.result.score >= self.result.max_score

    def headline(self) -> str:
        if self.result is None:
            return f"The check could not run: {self.problem}"
        views = [check_view(c, student_facing=True) for c in self.result.checks]
        return headline(views, len(self.hidden_not_run), nothing_ran=False).text

    def __repr__(self) -> str:
        if self.result is None:
            return self.headline()
        lines = [self.headline(), format_submission(self.result)]
        lines += [
            f"  NOT RUN  {title}: judged on the whole notebook run, by grader check"
            for title in self.left_to_grader_check
        ]
        lines += [f"  HIDDEN   {h.title}: runs only when the assignment is graded" for h in self.hidden_not_run]
        lines.append(f"Checked in {self.seconds:.1f} s; your variables are as they were before the check.")
        return "\n".join(lines)

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        printer.text(repr(self))

    def _repr_html_(self) -> str:
        views = [] if self.result is None else [check_view(c, student_facing=True) for c in self.result.checks]
        summary = None if self.result is None else headline(views, len(self.hidden_not_run), nothing_ran=False)
        template = environment().get_template("notebook_check.html.j2")
        return template.render(
            element_id=self.element_id,
            assignment_id=self.assignment_id,
            title=self.title,
            problem=self.problem,
            result=self.result,
            summary=summary,
            checks=views,
            problems=[] if self.result is None else list(self.result.problems),
            hidden_not_run=self.hidden_not_run,
            left_to_grader_check=self.left_to_grader_check,
            seconds=self.seconds,
        )
