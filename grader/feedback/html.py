"""HTML feedback: one self-contained report per submission and a class index for a batch.

Everything is rendered through autoescaped Jinja templates (`grader/feedback/templates/`), so text a
notebook printed is shown as text. Templates receive view objects built here, and the two
rules that matter most live here too: in `check_view`, a hidden check seen by a student
shows its title, status and points, never its inputs (no counterexample, call, expected
or actual value, node counts); in `headline`, a student-facing report never claims that
everything passed while hidden checks exist.
"""

from __future__ import annotations

import functools
import math
import re
import statistics
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import jinja2

from grader.execution.session import CellStatus, ExecutionResult
from grader.feedback.search_tree import search_tree_views
from grader.results import CheckResult, CheckStatus, Counterexample, NodeCountRow, SubmissionResult, execution_from_dict
from grader.spec.model import Assignment

STATUS_LABELS = {
    CheckStatus.PASSED: "passed",
    CheckStatus.FAILED: "failed",
    CheckStatus.PARTIAL: "partly passed",
    CheckStatus.ERROR: "error",
    CheckStatus.NOT_RUN: "not run",
    CheckStatus.MANUAL: "marked by hand",
}

HIDDEN_CHECK_MESSAGES = {
    CheckStatus.PASSED: "Passed.",
    CheckStatus.FAILED: "Did not pass. This is a hidden check: its test cases are not shown.",
    CheckStatus.PARTIAL: "Partly passed. This is a hidden check: its test cases are not shown.",
    CheckStatus.ERROR: "Your code raised an error or ran out of time on a hidden test case.",
    CheckStatus.NOT_RUN: (
        "Not run: a function it needs is missing, or the notebook did not run (see the problems above)."
    ),
    CheckStatus.MANUAL: "Marked by your instructor.",
}

TROUBLED_CELL_STATUSES = tuple(s.value for s in (CellStatus.ERROR, CellStatus.TIMEOUT, CellStatus.KILLED))
_ANSI_ESCAPES = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")

NODE_SERIES = (
    ("minimax", "your minimax"),
    ("alphabeta", "your alpha-beta"),
    ("reference_minimax", "reference minimax"),
    ("reference_alphabeta", "reference alpha-beta"),
)


@functools.lru_cache(maxsize=1)
def _environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("grader.feedback", "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["points"] = format_points
    env.filters["seconds"] = format_seconds
    return env


def format_points(value: float | None) -> str:
    return "" if value is None else f"{value:g}"


def format_seconds(value: float | None) -> str:
    if value is None:
        return ""
    return f"{value * 1000:.0f} ms" if value < 1 else f"{value:.1f} s"


# -- views of one submission -----------------------------------------------------------------


@dataclass(frozen=True)
class BarView:
    label: str
    value: int
    y: float
    width: float
    series: str


@dataclass(frozen=True)
class NodeChartGroup:
    board: str
    y: float
    bars: tuple[BarView, ...]


@dataclass(frozen=True)
class NodeChart:
    """Horizontal bars: nodes visited per position, the student's against the reference's.

    Each bar's label sits above it rather than beside it, so that the chart stays narrow
    enough to fit a phone without shrinking its text."""

    groups: tuple[NodeChartGroup, ...]
    height: float
    bar_area: ClassVar[float] = 330
    bar_height: ClassVar[float] = 14
    label_height: ClassVar[float] = 15
    """Room above each bar for its label."""
    value_width: ClassVar[float] = 64
    """Room right of the longest bar for its count."""
    _caption: ClassVar[float] = 20
    _row: ClassVar[float] = 34
    _gap: ClassVar[float] = 10

    @property
    def width(self) -> float:
        return self.bar_area + self.value_width

    @classmethod
    def from_rows(cls, rows: Sequence[NodeCountRow]) -> NodeChart | None:
        """From a node-counts check's rows; None when no row has a count."""
        numbers = [n for row in rows for key, _ in NODE_SERIES if (n := _count(getattr(row, key))) is not None]
        if not numbers:
            return None
        largest = max(max(numbers), 1)
        groups = []
        y = 0.0
        for row in rows:
            top = y
            y += cls._caption
            bars = []
            for key, label in NODE_SERIES:
                value = _count(getattr(row, key))
                if value is None:
                    continue
                bars.append(BarView(label, value, y, max(1.0, cls.bar_area * value / largest), key))
                y += cls._row
            groups.append(NodeChartGroup(row.board, top, tuple(bars)))
            y += cls._gap
        return cls(tuple(groups), y)


def _count(value: Any) -> int | None:
    return int(value) if isinstance(value, (int, float)) and not isinstance(value, bool) and value >= 0 else None


@dataclass(frozen=True)
class CheckView:
    id: str
    title: str
    status: str
    status_label: str
    score: float
    max_score: float
    manual_points: float | None
    hidden: bool
    zero_weight: bool
    """Counts for nothing toward the maximum (a bonus, or an informational check)."""
    message: str
    counterexample: Counterexample | None
    board: tuple[str, ...] | None
    """The counterexample board as nine cells, `X`, `O` or empty strings."""
    node_chart: NodeChart | None
    duration: float


def check_view(check: CheckResult, *, student_facing: bool) -> CheckView:
    redact = student_facing and check.visibility != "public"
    counterexample = None if redact else check.counterexample
    chart = None if redact else NodeChart.from_rows(check.node_counts)
    return CheckView(
        id=check.check_id,
        title=check.title,
        status=check.status.value.replace(" ", "-"),
        status_label=STATUS_LABELS[check.status],
        score=check.score,
        max_score=check.max_score,
        manual_points=check.manual_points if check.status == CheckStatus.MANUAL else None,
        hidden=check.visibility != "public",
        zero_weight=check.max_score == 0,
        message=HIDDEN_CHECK_MESSAGES[check.status] if redact else check.message,
        counterexample=counterexample,
        board=_board_cells(counterexample.board) if counterexample and counterexample.board else None,
        node_chart=chart,
        duration=check.duration,
    )


def _board_cells(board: str) -> tuple[str, ...] | None:
    if len(board) != 9:
        return None
    return tuple(c if c in "XO" else "" for c in board.upper())


@dataclass(frozen=True)
class StdinView:
    prompt: str
    answer: str | None


@dataclass(frozen=True)
class CellView:
    number: int
    source: str
    status: str
    error: str
    traceback: str
    outputs: str
    output_truncated: bool
    duration: float | None
    stdin: tuple[StdinView, ...]

    @property
    def first_line(self) -> str:
        """The first line of code that says something, for the folded view."""
        lines = [line.strip() for line in self.source.splitlines()]
        return next((line for line in lines if line and not line.startswith("#")), lines[0] if lines else "")


@dataclass(frozen=True)
class ExecutionView:
    cells: tuple[CellView, ...]
    stdin_elsewhere: tuple[StdinView, ...]
    """Scripted input that no cell claims."""
    sandbox: str
    isolation_note: str
    total_duration: float | None
    kernel_restarts: int
    notebook_timed_out: bool

    @property
    def troubled_cells(self) -> int:
        return sum(c.status in TROUBLED_CELL_STATUSES for c in self.cells)

    @classmethod
    def from_record(cls, record: ExecutionResult | Mapping[str, Any] | None) -> ExecutionView | None:
        """The record as the report shows it. A record read from JSON by hand is accepted too
        (read as `SubmissionResult.from_dict` reads it: any record renders)."""
        if record is None:
            return None
        if not isinstance(record, ExecutionResult):
            record = execution_from_dict(record)
        by_cell: dict[int, list[StdinView]] = {}
        for entry in record.stdin_transcript:
            by_cell.setdefault(entry.cell_index, []).append(StdinView(entry.prompt, entry.answer))
        cells = [
            CellView(
                number=cell.index + 1,
                source=cell.source,
                status=cell.status.value,
                error=": ".join(part for part in (cell.error_name, cell.error_message) if part),
                traceback=_ANSI_ESCAPES.sub("", cell.traceback),
                outputs=cell.output,
                output_truncated=cell.output_truncated,
                duration=cell.duration,
                stdin=tuple(by_cell.pop(cell.index, ())),
            )
            for cell in record.cells
        ]
        # input() asked for by a cell the record does not list
        elsewhere = [view for orphans in by_cell.values() for view in orphans]
        return cls(
            cells=tuple(cells),
            stdin_elsewhere=tuple(elsewhere),
            sandbox=record.sandbox_mode.value,
            isolation_note=record.isolation_note or "",
            total_duration=record.total_duration,
            kernel_restarts=record.kernel_restarts,
            notebook_timed_out=record.notebook_timed_out,
        )


@dataclass(frozen=True)
class Headline:
    tone: str
    """good, mixed or bad: only the colour."""
    text: str


def headline(checks: Sequence[CheckView], hidden_not_run: int, nothing_ran: bool) -> Headline:
    """The sentence at the top. It never says that everything passed while hidden checks
    exist, whether they ran (scores shown) or not (self-check)."""
    if nothing_ran:
        return Headline("bad", "Your submission could not be graded: see the problems below.")
    scored = [c for c in checks if c.status != "manual" and not (c.zero_weight and c.status == "not-run")]
    public = [c for c in scored if not c.hidden]
    hidden_exist = hidden_not_run > 0 or any(c.hidden for c in checks)
    public_ok = all(c.status == "passed" for c in public)
    if public_ok and not hidden_exist:
        return Headline("good", f"All {len(public)} checks passed.")
    if public_ok:
        if hidden_not_run:
            return Headline(
                "good",
                f"All {len(public)} public checks passed. {hidden_not_run} hidden check(s) run only "
                "when the assignment is graded, so this is not yet your final score.",
            )
        return Headline(
            "good",
            f"All {len(public)} public checks passed. Hidden checks are scored below; their test cases are not shown.",
        )
    passed = sum(c.status == "passed" for c in public)
    return Headline("mixed" if passed else "bad", f"{passed} of {len(public)} public checks passed.")


@dataclass(frozen=True)
class ScoreCaveat:
    """What a score alone hides: cells that ran out of time or crashed the kernel. A
    notebook whose game loop never ends can still score full marks on its functions."""

    text: str
    cell: int | None
    """The first such cell's number, to link to."""


def score_caveat(execution: ExecutionView | None, *, full_marks: bool) -> ScoreCaveat | None:
    if execution is None:
        return None
    parts = []
    first: int | None = None
    for status, verb in (("timeout", "timed out"), ("killed", "crashed the kernel")):
        numbers = [c.number for c in execution.cells if c.status == status]
        if numbers:
            parts.append(f"{_cells_phrase(numbers)} {verb}")
            first = numbers[0] if first is None else min(first, numbers[0])
    if execution.notebook_timed_out and not any(c.status == "timeout" for c in execution.cells):
        parts.append("the notebook ran out of time")
    if not parts:
        return None
    text = " and ".join(parts)
    return ScoreCaveat(f"but {text}" if full_marks else text, first)


def _cells_phrase(numbers: Sequence[int]) -> str:
    if len(numbers) == 1:
        return f"cell {numbers[0]}"
    return f"cells {', '.join(map(str, numbers[:-1]))} and {numbers[-1]}"


@dataclass(frozen=True)
class HiddenCheckNotRun:
    title: str
    points: float


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
        for c in (assignment.checks if assignment else ())
        if c.hidden and c.id not in graded_ids
    ]
    execution = ExecutionView.from_record(result.execution)
    note = execution.isolation_note if execution else ""
    template = _environment().get_template("student_report.html.j2")
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


# -- the class index ------------------------------------------------------------------------------


@dataclass(frozen=True)
class ClassEntry:
    """One student's line in the class index (built by the batch from its records)."""

    student_id: str
    display_name: str
    late: bool
    result: SubmissionResult
    report_href: str
    failure: str | None
    """Why the submission could not be graded, or None."""
    seconds: float
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class HistogramBin:
    label: str
    count: int
    x: float
    height: float


@dataclass(frozen=True)
class CheckPassRate:
    id: str
    title: str
    hidden: bool
    points: float
    passed: int
    attempted: int
    instructions: str = ""
    """How to mark an item marked by hand (for the instructor: never in a student's report)."""

    @property
    def percent(self) -> float:
        return 100 * self.passed / self.attempted if self.attempted else 0.0


@dataclass(frozen=True)
class IndexCell:
    """One check's outcome in the class table."""

    text: str
    status: str
    label: str
    sort: float


ZERO_WEIGHT_MARKS = {
    CheckStatus.PASSED: "\u2713",
    CheckStatus.FAILED: "\u2717",
    CheckStatus.ERROR: "\u2717",
    CheckStatus.NOT_RUN: "\u2013",
}


def index_cell(check: CheckResult) -> IndexCell:
    """A check worth no points shows whether it passed, not a "0" that reads as a failure;
    a bonus shows what it added."""
    status = check.status.value.replace(" ", "-")
    label = STATUS_LABELS[check.status]
    if check.max_score == 0 and check.score == 0:
        mark = ZERO_WEIGHT_MARKS.get(check.status, label)
        return IndexCell(mark, status, label, 1.0 if check.status == CheckStatus.PASSED else 0.0)
    text = format_points(check.score)
    return IndexCell(f"+{text}" if check.max_score == 0 else text, status, label, check.score)


def histogram(fractions: Sequence[float], bins: int = 10, height: float = 120) -> tuple[HistogramBin, ...]:
    counts = [0] * bins
    for f in fractions:
        counts[min(bins - 1, max(0, int(math.floor(f * bins + 1e-9))))] += 1
    top = max(counts, default=0) or 1
    width = 100 / bins
    return tuple(
        HistogramBin(f"{int(n * width)}–{int((n + 1) * width)}%", count, n * 36, height * count / top)
        for n, count in enumerate(counts)
    )


def pass_rates(entries: Sequence[ClassEntry]) -> tuple[CheckPassRate, ...]:
    graded = [e.result for e in entries if e.failure is None]
    order: dict[str, CheckResult] = {}
    for result in graded:
        for check in result.checks:
            order.setdefault(check.check_id, check)
    rates = []
    for check_id, first in order.items():
        outcomes = [r.check(check_id) for r in graded if any(c.check_id == check_id for c in r.checks)]
        attempted = [c for c in outcomes if c.status != CheckStatus.MANUAL]
        rates.append(
            CheckPassRate(
                check_id,
                first.title,
                first.visibility != "public",
                first.max_score,
                sum(c.status == CheckStatus.PASSED for c in attempted),
                len(attempted),
                first.instructor_notes,
            )
        )
    return tuple(rates)


def render_class_index(
    entries: Sequence[ClassEntry],
    *,
    assignment_id: str,
    title: str,
    skipped: Iterable[tuple[str, str]] = (),
    slowest: int = 5,
    complete: bool = True,
) -> str:
    """The instructor's page: every student, a score histogram, pass rate per check."""
    graded = [e for e in entries if e.failure is None]
    fractions = [e.result.fraction for e in graded]
    rates = pass_rates(entries)
    check_ids = [r.id for r in rates]
    rows = []
    for e in entries:
        by_id = {c.check_id: c for c in e.result.checks}
        cells = []
        for check_id in check_ids:
            c = by_id.get(check_id)
            cells.append(None if c is None else index_cell(c))
        rows.append({"entry": e, "checks": cells, "percent": 100 * e.result.fraction})
    template = _environment().get_template("class_index.html.j2")
    return template.render(
        title=title,
        assignment_id=assignment_id,
        complete=complete,
        rows=rows,
        rates=rates,
        histogram=histogram(fractions),
        graded=len(graded),
        failed=[e for e in entries if e.failure is not None],
        mean=statistics.fmean(e.result.score for e in graded) if graded else None,
        median=statistics.median(e.result.score for e in graded) if graded else None,
        max_score=max((e.result.max_score for e in graded), default=0.0),
        slowest=sorted(entries, key=lambda e: e.seconds, reverse=True)[:slowest],
        skipped=list(skipped),
    )
