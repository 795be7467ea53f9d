"""HTML feedback: one self-contained report per submission and a class index for a batch.

Everything is rendered through autoescaped Jinja templates (`grader/feedback/templates/`), so
text a notebook printed is shown as text. The templates receive view objects: a result as a
student sees it (`grader.feedback.views`), charts (`grader.feedback.charts`), the class
(`grader.feedback.class_index`) and similar submissions (`grader.similarity.view`).
"""

from __future__ import annotations

import functools
import statistics
from collections.abc import Iterable, Sequence
from pathlib import Path

import jinja2

from grader.feedback.charts import histogram
from grader.feedback.class_index import ClassEntry, class_isolation, index_rows, pass_rates
from grader.feedback.search_tree import search_tree_views
from grader.feedback.views import (
    TROUBLED_CELL_STATUSES,
    ExecutionView,
    HiddenCheckNotRun,
    check_view,
    format_points,
    format_seconds,
    headline,
    score_caveat,
    status_class,
)
from grader.results import CheckStatus, SubmissionResult
from grader.similarity.view import SimilarityView
from grader.spec.hidden_checks import hidden_checks
from grader.spec.model import Assignment


@functools.lru_cache(maxsize=1)
def environment() -> jinja2.Environment:
    """The one environment every report is rendered with: autoescaped, strict, trimmed."""
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("grader.feedback", "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["points"] = format_points
    env.filters["seconds"] = format_seconds
    env.filters["status_class"] = status_class
    env.globals["CheckStatus"] = CheckStatus
    return env


def render_student_report(
    result: SubmissionResult,
    *,
    submission_name: str | None = None,
    student_id: str | None = None,
    display_name: str = "",
    late: bool = False,
    assignment: Assignment | None = None,
) -> str:
    """The student-facing report: hidden checks' inputs are never shown.

    ``assignment`` lets the report name the hidden checks a self-check did not run.
    """
    checks = [check_view(c, student_facing=True) for c in result.checks]
    graded_ids = {c.check_id for c in result.checks}
    hidden_not_run = [
        HiddenCheckNotRun(c.title, c.points)
        for c in (hidden_checks(assignment) if assignment else ())
        if c.id not in graded_ids
    ]
    execution = ExecutionView.from_record(result.execution)
    note = execution.isolation_note if execution else ""
    template = environment().get_template("student_report.html.j2")
    return template.render(
        title=f"{assignment.title if assignment else result.assignment_id}",
        assignment_id=result.assignment_id,
        submission_name=submission_name or Path(result.submission).name,
        student_id=student_id,
        display_name=display_name,
        late=late,
        score=result.score,
        max_score=result.max_score,
        fraction=result.fraction,
        adjustment=result.adjustment,
        headline=headline(checks, len(hidden_not_run), result.execution is None),
        caveat=score_caveat(execution, full_marks=result.max_score > 0 and result.score >= result.max_score),
        checks=checks,
        search_trees=search_tree_views(result.checks, student_facing=True),
        hidden_not_run=hidden_not_run,
        problems=[p for p in result.problems if p != note],
        execution=execution,
        troubled_statuses=TROUBLED_CELL_STATUSES,
        timings=[
            (name.replace("_", " "), seconds)
            for name, seconds in result.timings.items()
            if isinstance(seconds, (int, float))
        ],
    )


def render_class_index(
    entries: Sequence[ClassEntry],
    *,
    assignment_id: str,
    title: str,
    skipped: Iterable[tuple[str, str]] = (),
    slowest: int = 5,
    complete: bool = True,
    similarity: SimilarityView | None = None,
    decision_problems: Sequence[str] = (),
) -> str:
    """The instructor's page: every student, a score histogram, pass rate per check and,
    when ``similarity`` is given, the similar submissions; ``decision_problems`` names the
    instructor's decisions that do not fit the class."""
    graded = [e for e in entries if e.failure is None]
    rates = pass_rates(entries)
    template = environment().get_template("class_index.html.j2")
    return template.render(
        title=title,
        assignment_id=assignment_id,
        complete=complete,
        rows=index_rows(entries, [r.id for r in rates]),
        rates=rates,
        histogram=histogram([e.result.fraction for e in graded]),
        graded=len(graded),
        failed=[e for e in entries if e.failure is not None],
        mean=statistics.fmean(e.result.score for e in graded) if graded else None,
        median=statistics.median(e.result.score for e in graded) if graded else None,
        max_score=max((e.result.max_score for e in graded), default=0.0),
        slowest=sorted(entries, key=lambda e: e.seconds, reverse=True)[:slowest],
        skipped=list(skipped),
        similarity=similarity,
        decision_problems=list(decision_problems),
        adjusted=any(e.result.adjustment is not None for e in entries),
        isolation=class_isolation(entries),
    )
