"""What happened when a submission was graded: check results and the submission result.

The spec of a check (`grader.spec.model.Check`) never carries its outcome; outcomes live
here. Scores are derived from the check results and never stored twice. Results stay typed
in the process (the execution record and each kind's `CheckDetail` included) and become JSON
only in `to_dict`; `from_dict` reads back what `to_dict` wrote, including results stored by
earlier versions (a batch resumes from them).
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from grader.check_details import CheckDetail, ManualMarking, read_detail, write_detail
from grader.check_notes import Cause, Learnt, Note, note_from_dict, note_to_dict
from grader.check_wording import cause_line, check_message
from grader.execution.result import ExecutionResult
from grader.spec.model import MANUAL_KIND, Check, Visibility
from reference.drawing import Drawing, Square

__all__ = ["CheckResult", "CheckStatus", "Counterexample", "InstructorMark", "ScoreAdjustment", "SubmissionResult"]

_Detail = TypeVar("_Detail", bound=CheckDetail)


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


MARKED_BY_HAND = "Marked by hand by your instructor."


@dataclass(frozen=True)
class Counterexample:
    """The smallest input found on which the student's answer differs from the reference."""

    board: str | None
    """Nine characters row by row (`X`, `O`, `.`), or None when the input is not a board."""
    call: str
    """The call as the student would write it, e.g. ``minimax(board, 0, False)``."""
    expected: str
    actual: str
    """What the student's code gave: a value, or a phrase such as "no answer: it raised ..."."""
    cause: str | None = None
    """Only read, never kept: the cause sentence of a record written before results kept
    their cause as parts, or of a kind that names it here. `CheckResult` moves it to its
    own ``cause`` (a local one), the one place a cause is held."""
    drawing: Drawing | None = None
    """The position drawn square by square, for a game other than tic-tac-toe (its columns
    numbered, the last move and a completed line marked); ``board`` is then its text."""


@dataclass(frozen=True)
class InstructorMark:
    """The instructor's word on one check (``grader.overrides``): applied when outputs are
    written, never stored in the automatic record."""

    points: float | None
    """The points set by the instructor (None: only a comment, the automatic points stand)."""
    comment: str
    automatic_score: float
    """What the grader gave, still shown beside the instructor's points."""
    by: str = ""
    at: str = ""


@dataclass(frozen=True)
class ScoreAdjustment:
    """Points added to or taken from a whole submission (a late penalty, a bonus), with why."""

    points: float
    reason: str
    by: str = ""
    at: str = ""


@dataclass(frozen=True)
class CheckResult:
    check_id: str
    kind: str
    title: str
    status: CheckStatus
    score: float
    max_score: float
    headline: str
    """What the check says first: its verdict in a sentence (the whole message of most kinds)."""
    visibility: Visibility = "public"
    counterexample: Counterexample | None = None
    figures: Mapping[str, Any] = field(default_factory=dict)
    """Measured numbers worth showing (examples tried, tallies): shown, never read back."""
    duration: float = 0.0
    missing_function: str | None = None
    """The function whose absence kept the check from running."""
    detail: CheckDetail | None = None
    """What the check's kind measured beyond the verdict (node counts, a game, ...)."""
    instructor: InstructorMark | None = None
    """The instructor's points or comment, when given: ``score`` is then the final one."""
    cause: Cause | None = None
    """Why it failed, where the kind tells: its source and its defect. The one place the
    sentence is held; stored JSON also writes it as the counterexample's "cause", for old
    readers."""
    notes: tuple[Note, ...] = ()
    """What goes with the headline: positions tried, a regrade with the reference's helpers..."""
    not_run_reason: str | None = None
    """Why a NOT RUN check did not run."""
    learnt: Learnt = field(default_factory=Learnt, compare=False, repr=False)
    """What the checks after it on the same submission need: in the process only."""

    def __post_init__(self) -> None:
        ce = self.counterexample
        if ce is not None and ce.cause is not None:
            # An old record's (or a kind's) cause on the counterexample: held once, here.
            if self.cause is None:
                object.__setattr__(self, "cause", Cause("local", ce.cause))
            object.__setattr__(self, "counterexample", dataclasses.replace(ce, cause=None))

    @property
    def message(self) -> str:
        """The words the student reads, written from the parts (`grader.check_wording`)."""
        return check_message(self)

    @property
    def manual(self) -> bool:
        """An item for the instructor (even when the upload could not be graded at all)."""
        return self.status == CheckStatus.MANUAL or self.kind == MANUAL_KIND

    @property
    def overridden(self) -> bool:
        """The instructor set the points of an automatic check."""
        return self.instructor is not None and self.instructor.points is not None and not self.manual

    @property
    def marked(self) -> bool:
        """A manual item the instructor has marked."""
        return self.instructor is not None and self.instructor.points is not None and self.manual

    @classmethod
    def for_check(
        cls,
        check: Check[Any],
        status: CheckStatus,
        headline: str,
        *,
        score: float | None = None,
        counterexample: Counterexample | None = None,
        figures: Mapping[str, Any] | None = None,
        detail: CheckDetail | None = None,
        cause: Cause | None = None,
        notes: tuple[Note, ...] = (),
        learnt: Learnt | None = None,
    ) -> CheckResult:
        """The result of ``check``; ``score`` defaults to all or nothing by ``status``."""
        if score is None:
            score = check.points if status == CheckStatus.PASSED else 0.0
        return cls(
            check_id=check.id,
            kind=check.kind,
            title=check.title,
            status=status,
            score=round(score, 4),
            max_score=check.max_score,
            headline=headline,
            visibility=check.visibility,
            counterexample=counterexample,
            figures=dict(figures or {}),
            detail=detail,
            cause=cause,
            notes=notes,
            learnt=learnt or Learnt(),
        )

    @classmethod
    def not_run(cls, check: Check[Any], reason: str, *, missing_function: str | None = None) -> CheckResult:
        """NOT RUN because of ``reason`` (a missing function, a notebook that did not run)."""
        result = cls.for_check(check, CheckStatus.NOT_RUN, "")
        return dataclasses.replace(result, missing_function=missing_function, not_run_reason=reason)

    def detail_as(self, kind: type[_Detail]) -> _Detail | None:
        """The detail when it is of type ``kind``."""
        return self.detail if isinstance(self.detail, kind) else None

    @property
    def manual_points(self) -> float | None:
        """The points of an item the instructor marks by hand."""
        marking = self.detail_as(ManualMarking)
        return None if marking is None else marking.points

    @property
    def instructor_notes(self) -> str:
        """How to mark a manual item: for the instructor's eyes only (the class index)."""
        marking = self.detail_as(ManualMarking)
        return "" if marking is None else marking.instructions

    def to_dict(self) -> dict[str, Any]:
        figures = dict(self.figures)
        if self.missing_function is not None:
            figures["missing"] = self.missing_function
        data: dict[str, Any] = {
            "id": self.check_id,
            "kind": self.kind,
            "title": self.title,
            "status": self.status.value,
            "score": self.score,
            "max_score": self.max_score,
            "message": self.message,
            "visibility": self.visibility,
            "counterexample": (
                {**_counterexample_dict(self.counterexample), "cause": cause_line(self)}
                if self.counterexample
                else None
            ),
            "figures": figures,
            "duration": self.duration,
        }
        write_detail(self.detail, figures, data)
        # "message" is what every reader reads; the parts are kept beside it when there are
        # any, so that a result read back is the one written.
        if self.headline != self.message:
            data["headline"] = self.headline
        if self.notes:
            data["notes"] = [note_to_dict(note) for note in self.notes]
        if self.not_run_reason is not None:
            data["not_run_reason"] = self.not_run_reason
        if self.cause is not None:
            data["cause"] = {"source": self.cause.source, "sentence": self.cause.sentence}
        if self.instructor is not None:
            data["instructor"] = dataclasses.asdict(self.instructor)
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> CheckResult:
        figures = dict(data.get("figures") or {})
        missing = figures.pop("missing", None)
        detail = read_detail(data["kind"], figures, data)
        counterexample = data.get("counterexample")
        instructor = data.get("instructor")
        return cls(
            check_id=data["id"],
            kind=data["kind"],
            title=data["title"],
            status=CheckStatus(data["status"]),
            score=data["score"],
            max_score=data["max_score"],
            headline=data.get("headline", data["message"]),
            visibility=data.get("visibility", "public"),
            counterexample=_counterexample_from(counterexample) if counterexample else None,
            figures=figures,
            duration=data.get("duration", 0.0),
            missing_function=missing if isinstance(missing, str) else None,
            detail=detail,
            instructor=InstructorMark(**instructor) if instructor else None,
            cause=Cause(**cause) if (cause := data.get("cause")) else None,
            notes=tuple(note_from_dict(note) for note in data.get("notes", ())),
            not_run_reason=data.get("not_run_reason"),
        )


def _counterexample_dict(counterexample: Counterexample) -> dict[str, Any]:
    """A counterexample as stored: its drawing only when it has one (a record without it
    reads back the same)."""
    data = dataclasses.asdict(counterexample)
    if counterexample.drawing is None:
        del data["drawing"]
    return data


def _counterexample_from(data: Mapping[str, Any]) -> Counterexample:
    drawing = data.get("drawing")
    squares = tuple(tuple(Square(**square) for square in row) for row in drawing["squares"]) if drawing else None
    return Counterexample(**{**data, "drawing": Drawing(squares) if squares is not None else None})


@dataclass(frozen=True)
class SubmissionResult:
    """Everything the grader learned about one submission."""

    submission: str
    """Path or name of the submitted file."""
    assignment_id: str
    checks: tuple[CheckResult, ...]
    execution: ExecutionResult | None
    """The execution record, or None when nothing ran."""
    problems: tuple[str, ...] = ()
    """Submission-level messages: unreadable file, missing functions, reduced isolation."""
    timings: Mapping[str, float] = field(default_factory=dict)
    adjustment: ScoreAdjustment | None = None
    """The instructor's adjustment of the whole score (never below 0 in total)."""
    machine_fault: bool = False
    """Nothing ran for a reason of the grading machine's, not of the submission (its kernel
    could not be started): a batch counts it as the grader's failure and grades it again."""

    @property
    def score(self) -> float:
        total = sum(c.score for c in self.checks)
        if self.adjustment is not None:
            total = max(0.0, total + self.adjustment.points)
        return round(total, 4)

    @property
    def max_score(self) -> float:
        return round(sum(c.max_score for c in self.checks), 4)

    @property
    def fraction(self) -> float:
        return self.score / self.max_score if self.max_score else 0.0

    @property
    def not_graded_reason(self) -> str | None:
        """Why nothing could be graded (the notebook never ran), or None when it ran."""
        if self.execution is not None:
            return None
        return self.problems[0] if self.problems else "the notebook could not be run"

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
            "execution": None if self.execution is None else self.execution.to_dict(),
        } | (
            ({} if self.adjustment is None else {"adjustment": dataclasses.asdict(self.adjustment)})
            | ({"machine_fault": True} if self.machine_fault else {})
        )

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SubmissionResult:
        execution = data.get("execution")
        adjustment = data.get("adjustment")
        return cls(
            submission=data["submission"],
            assignment_id=data["assignment"],
            checks=tuple(CheckResult.from_dict(c) for c in data["checks"]),
            execution=None if execution is None else ExecutionResult.from_dict(execution),
            problems=tuple(data.get("problems", ())),
            timings=dict(data.get("timings", {})),
            adjustment=ScoreAdjustment(**adjustment) if adjustment else None,
            machine_fault=bool(data.get("machine_fault", False)),
        )
