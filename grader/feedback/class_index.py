"""The class as the instructor's index shows it: one line per student, one cell per check,
and the pass rate of each check over the submissions that were graded. Scores are the final
ones (the instructor's decisions applied); a cell whose points the instructor set says so,
and each manual item says how many students it has been marked for."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from grader.execution.result import SandboxMode
from grader.feedback.views import STATUS_LABELS, format_points
from grader.results import CheckResult, CheckStatus, SubmissionResult


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
class CheckPassRate:
    id: str
    title: str
    hidden: bool
    points: float
    passed: int
    attempted: int
    instructions: str = ""
    """How to mark an item marked by hand (for the instructor: never in a student's report)."""
    manual: bool = False
    marked: int = 0
    """For a manual item: the graded students it has been marked for."""

    @property
    def percent(self) -> float:
        return 100 * self.passed / self.attempted if self.attempted else 0.0


@dataclass(frozen=True)
class IndexCell:
    """One check's outcome in the class table."""

    text: str
    status: CheckStatus
    label: str
    sort: float
    overridden: bool = False
    """The instructor set these points (or marked this manual item)."""


@dataclass(frozen=True)
class IndexRow:
    entry: ClassEntry
    checks: tuple[IndexCell | None, ...]
    """One cell per check of the table, None where this submission has no such check."""
    percent: float

    @property
    def overridden(self) -> bool:
        """Some points of this row were set by the instructor, or its score adjusted."""
        return self.entry.result.adjustment is not None or any(c is not None and c.overridden for c in self.checks)


ZERO_WEIGHT_MARKS = {
    CheckStatus.PASSED: "\u2713",
    CheckStatus.FAILED: "\u2717",
    CheckStatus.ERROR: "\u2717",
    CheckStatus.NOT_RUN: "\u2013",
}


def index_cell(check: CheckResult) -> IndexCell:
    """A check worth no points shows whether it passed, not a "0" that reads as a failure;
    a bonus shows what it added."""
    label = STATUS_LABELS[check.status]
    if check.instructor is not None and check.instructor.points is not None:
        automatic = "" if check.manual else f"; automatic: {format_points(check.instructor.automatic_score)}"
        label = f"{label}; points set by the instructor{automatic}"
        return IndexCell(format_points(check.score), check.status, label, check.score, overridden=True)
    if check.max_score == 0 and check.score == 0:
        mark = ZERO_WEIGHT_MARKS.get(check.status, label)
        return IndexCell(mark, check.status, label, 1.0 if check.status == CheckStatus.PASSED else 0.0)
    text = format_points(check.score)
    return IndexCell(f"+{text}" if check.max_score == 0 else text, check.status, label, check.score)


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
        manual = first.status == CheckStatus.MANUAL
        rates.append(
            CheckPassRate(
                check_id,
                first.title,
                first.visibility != "public",
                first.max_score,
                sum(c.status == CheckStatus.PASSED for c in attempted),
                len(attempted),
                first.instructor_notes,
                manual,
                sum(c.marked for c in outcomes) if manual else 0,
            )
        )
    return tuple(rates)


def index_rows(entries: Sequence[ClassEntry], check_ids: Sequence[str]) -> tuple[IndexRow, ...]:
    """The students table: each entry with its cell for every check in ``check_ids``."""
    rows = []
    for e in entries:
        by_id = {c.check_id: c for c in e.result.checks}
        cells = tuple(None if (c := by_id.get(check_id)) is None else index_cell(c) for check_id in check_ids)
        rows.append(IndexRow(e, cells, 100 * e.result.fraction))
    return tuple(rows)


@dataclass(frozen=True)
class ClassIsolation:
    """How the class's kernels were isolated: how many submissions ran under each mode."""

    counts: tuple[tuple[SandboxMode, int], ...]
    """(mode, submissions run in it), strongest mode first; submissions that never ran are left out."""

    @property
    def reduced(self) -> int:
        """Submissions whose code ran with less than bubblewrap."""
        return sum(count for mode, count in self.counts if mode is not SandboxMode.BWRAP)

    def lines(self) -> tuple[str, ...]:
        """One sentence per mode, for the class page."""
        total = sum(count for _, count in self.counts)
        return tuple(f"{_share(count, total)} ran {ISOLATION_WORDS[mode]}." for mode, count in self.counts)


ISOLATION_WORDS = {
    SandboxMode.BWRAP: "under bubblewrap (no network, only the Python installation visible, resource limits)",
    SandboxMode.LIMITS: "with reduced isolation: resource limits only, without bubblewrap, so their code could "
    "reach the network and read every file its user can read",
    SandboxMode.NONE: "with isolation off: as trusted programs, with no limits at all",
}


def class_isolation(entries: Sequence[ClassEntry]) -> ClassIsolation:
    """The modes the entries' notebooks ran in, from their stored results (so a class graded
    over several runs, or merged from shards, says what each part ran under)."""
    modes = [e.result.execution.sandbox_mode for e in entries if e.result.execution is not None]
    return ClassIsolation(tuple((mode, modes.count(mode)) for mode in SandboxMode if mode in modes))


def _share(count: int, total: int) -> str:
    if count == total:
        return "Every submission" if total > 1 else "The submission"
    return f"{count} of {total} submissions"
