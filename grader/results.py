"""What happened when a submission was graded: check results and the submission result.

The spec of a check (`grader.spec.model.Check`) never carries its outcome; outcomes live
here. Scores are derived from the check results and never stored twice.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any


class CheckStatus(str, enum.Enum):
    PASSED = "passed"
    FAILED = "failed"
    PARTIAL = "partial"
    ERROR = "error"
    """The grader could not complete the check (a fault on the grader's side, never the
    student's: a student's crash or timeout is a FAILED check that says so)."""
    NOT_RUN = "not run"
    """A prerequisite was missing (function not defined, notebook unreadable)."""
    MANUAL = "manual"
    """For the instructor: no automatic score."""


@dataclass(frozen=True)
class Counterexample:
    """The smallest input found on which the student's answer differs from the reference."""

    board: str | None
    """Nine characters row by row (`X`, `O`, `.`), or None when the input is not a board."""
    call: str
    """The call as the student would write it, e.g. ``minimax(board, 0, False)``."""
    expected: str
    actual: str
    cause: str | None = None
    """One sentence on the likely cause, when the failure has a recognisable shape."""


@dataclass(frozen=True)
class CheckResult:
    check_id: str
    kind: str
    title: str
    status: CheckStatus
    score: float
    max_score: float
    message: str
    visibility: str = "public"
    counterexample: Counterexample | None = None
    figures: Mapping[str, Any] = field(default_factory=dict)
    """Measured numbers worth showing (node counts, examples tried, tallies)."""
    duration: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["id"] = data.pop("check_id")
        data["status"] = self.status.value
        data["figures"] = dict(self.figures)
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> CheckResult:
        values = dict(data)
        values["check_id"] = values.pop("id")
        values["status"] = CheckStatus(values["status"])
        if values.get("counterexample"):
            values["counterexample"] = Counterexample(**values["counterexample"])
        return cls(**values)


@dataclass(frozen=True)
class SubmissionResult:
    """Everything the grader learned about one submission."""

    submission: str
    """Path or name of the submitted file."""
    assignment_id: str
    checks: tuple[CheckResult, ...]
    execution: Mapping[str, Any] | None
    """The execution record (`ExecutionResult.to_dict()`), or None when nothing ran."""
    problems: tuple[str, ...] = ()
    """Submission-level messages: unreadable file, missing functions, reduced isolation."""
    timings: Mapping[str, float] = field(default_factory=dict)

    @property
    def score(self) -> float:
        return round(sum(c.score for c in self.checks), 4)

    @property
    def max_score(self) -> float:
        return round(sum(c.max_score for c in self.checks), 4)

    @property
    def fraction(self) -> float:
        return self.score / self.max_score if self.max_score else 0.0

    def check(self, check_id: str) -> CheckResult:
        for result in self.checks:
            if result.check_id == check_id:
                return result
        raise KeyError(check_id)

    def to_dict(self) -> dict[str, Any]:
        return {
            "submission": self.submission,
            "assignment": self.assignment_id,
            "score": self.score,
            "max_score": self.max_score,
            "checks": [c.to_dict() for c in self.checks],
            "problems": list(self.problems),
            "timings": dict(self.timings),
            "execution": self.execution,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SubmissionResult:
        return cls(
            submission=data["submission"],
            assignment_id=data["assignment"],
            checks=tuple(CheckResult.from_dict(c) for c in data["checks"]),
            execution=data.get("execution"),
            problems=tuple(data.get("problems", ())),
            timings=dict(data.get("timings", {})),
        )
