"""What happened when a submission was graded: check results and the submission result.

The spec of a check (`grader.spec.model.Check`) never carries its outcome; outcomes live
here. Scores are derived from the check results and never stored twice. Results stay typed
in the process (the execution record included) and become JSON only in `to_dict`; `from_dict`
reads back what `to_dict` wrote, including results stored by earlier versions (a batch
resumes from them).
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from grader.execution.sandbox import SandboxMode
from grader.execution.session import CellRecord, CellStatus, ExecutionResult, StdinExchange
from grader.spec.model import MANUAL_KIND, Check, Visibility
from reference.trace import Divergence


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


NOT_RUN_PREFIX = "Not run: "
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
    """One sentence on the likely cause, when the failure has a recognisable shape."""


@dataclass(frozen=True)
class NodeCountRow:
    """Nodes visited from one position: the student's searches against the reference's."""

    board: str
    minimax: int | None
    """None when the student's counter did not hold a whole number."""
    reference_minimax: int
    minimax_call: str
    minimax_calls_counted: int | None = None
    """The calls the grader counted, when the figure above is the student's own counter."""
    alphabeta: int | None = None
    reference_alphabeta: int | None = None
    alphabeta_call: str | None = None
    """Set when the check also ran alpha-beta (the alpha-beta figures are then meaningful)."""

    def to_dict(self) -> dict[str, Any]:
        data = dataclasses.asdict(self)
        if self.minimax_calls_counted is None:
            del data["minimax_calls_counted"]
        if self.alphabeta_call is None:
            for key in ("alphabeta", "reference_alphabeta", "alphabeta_call"):
                del data[key]
        return data


@dataclass(frozen=True)
class SelfPlayRow:
    """One depth limit of a self-play table: what the student's game reported, and the reference."""

    depth: int
    reference_winner: str
    reference_generated: int
    call: str
    winner: Any
    """As the student's code returned it (compared with the reference's spelling)."""
    generated: Any
    channel_generated: int | None
    """States generated as the grader counted them (search calls minus searches); None where the
    grader did not count (the reported count was right, or the game was not the reference's)."""

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


@dataclass(frozen=True)
class TreeNode:
    """A position of the reference alpha-beta, with the window it was entered with."""

    board: str
    alpha: float
    beta: float
    value: float | None = None
    """What the reference search returned there, when the excerpt needs it (where it cut off)."""


@dataclass(frozen=True)
class SearchTreeExcerpt:
    """The search tree where a student's alpha-beta first parts from the reference's."""

    path: tuple[TreeNode, ...]
    """From the root to the node whose children the searches disagree on (the last)."""
    elided: int
    """Ancestors left out between the root and the rest of the path."""
    explored: tuple[str, ...]
    """That node's children both searches explored, in order."""
    student: str | None
    """The child the student explored next there (None: not a child of that node)."""
    reference: str | None
    """The child the reference explores next there (None: it explores no more of them)."""
    reference_cut_off: bool
    """The reference cut the node off where the student went on."""

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SearchTreeExcerpt:
        return cls(
            path=tuple(TreeNode(**node) for node in data["path"]),
            elided=data["elided"],
            explored=tuple(data["explored"]),
            student=data["student"],
            reference=data["reference"],
            reference_cut_off=data["reference_cut_off"],
        )


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
    message: str
    visibility: Visibility = "public"
    counterexample: Counterexample | None = None
    figures: Mapping[str, Any] = field(default_factory=dict)
    """Measured numbers worth showing (examples tried, tallies, moves played)."""
    duration: float = 0.0
    missing_function: str | None = None
    """The function whose absence kept the check from running."""
    manual_points: float | None = None
    """The points of an item the instructor marks by hand."""
    instructor_notes: str = ""
    """How to mark a manual item: for the instructor's eyes only (the class index)."""
    node_counts: tuple[NodeCountRow, ...] = ()
    selfplay: tuple[SelfPlayRow, ...] = ()
    divergence: Divergence | None = None
    """Where an alpha-beta's exploration first parts from the reference's (node-counts)."""
    search_tree: SearchTreeExcerpt | None = None
    """The search tree around that divergence, for the report."""
    instructor: InstructorMark | None = None
    """The instructor's points or comment, when given: ``score`` is then the final one."""

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
        message: str,
        *,
        score: float | None = None,
        counterexample: Counterexample | None = None,
        figures: Mapping[str, Any] | None = None,
        missing_function: str | None = None,
        manual_points: float | None = None,
        instructor_notes: str = "",
        node_counts: tuple[NodeCountRow, ...] = (),
        selfplay: tuple[SelfPlayRow, ...] = (),
        divergence: Divergence | None = None,
        search_tree: SearchTreeExcerpt | None = None,
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
            message=message,
            visibility=check.visibility,
            counterexample=counterexample,
            figures=dict(figures or {}),
            missing_function=missing_function,
            manual_points=manual_points,
            instructor_notes=instructor_notes,
            node_counts=node_counts,
            selfplay=selfplay,
            divergence=divergence,
            search_tree=search_tree,
        )

    @classmethod
    def not_run(cls, check: Check[Any], reason: str, *, missing_function: str | None = None) -> CheckResult:
        """NOT RUN because of ``reason`` (a missing function, a notebook that did not run)."""
        return cls.for_check(check, CheckStatus.NOT_RUN, NOT_RUN_PREFIX + reason, missing_function=missing_function)

    @property
    def not_run_reason(self) -> str:
        return self.message.removeprefix(NOT_RUN_PREFIX)

    def to_dict(self) -> dict[str, Any]:
        """As JSON, with the typed figures under the ``figures`` keys earlier versions used."""
        figures = dict(self.figures)
        if self.missing_function is not None:
            figures["missing"] = self.missing_function
        if self.manual_points is not None:
            figures["points"] = self.manual_points
        if self.node_counts:
            figures["positions"] = [row.to_dict() for row in self.node_counts]
        if self.selfplay:
            figures["rows"] = [row.to_dict() for row in self.selfplay]
        if self.divergence is not None:
            figures["divergence"] = self.divergence.as_dict()
        if self.search_tree is not None:
            figures["search_tree"] = self.search_tree.to_dict()
        data: dict[str, Any] = {
            "id": self.check_id,
            "kind": self.kind,
            "title": self.title,
            "status": self.status.value,
            "score": self.score,
            "max_score": self.max_score,
            "message": self.message,
            "visibility": self.visibility,
            "counterexample": dataclasses.asdict(self.counterexample) if self.counterexample else None,
            "figures": figures,
            "duration": self.duration,
        }
        if self.instructor_notes:
            data["instructor_notes"] = self.instructor_notes
        if self.instructor is not None:
            data["instructor"] = dataclasses.asdict(self.instructor)
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> CheckResult:
        figures = dict(data.get("figures") or {})
        missing = figures.pop("missing", None)
        points = figures.pop("points", None)
        positions = figures.pop("positions", None) if data["kind"] == "node-counts" else None
        rows = figures.pop("rows", None) if data["kind"] == "selfplay-table" else None
        divergence = figures.pop("divergence", None) if data["kind"] == "node-counts" else None
        tree = figures.pop("search_tree", None) if data["kind"] == "node-counts" else None
        counterexample = data.get("counterexample")
        instructor = data.get("instructor")
        return cls(
            check_id=data["id"],
            kind=data["kind"],
            title=data["title"],
            status=CheckStatus(data["status"]),
            score=data["score"],
            max_score=data["max_score"],
            message=data["message"],
            visibility=data.get("visibility", "public"),
            counterexample=Counterexample(**counterexample) if counterexample else None,
            figures=figures,
            duration=data.get("duration", 0.0),
            missing_function=missing if isinstance(missing, str) else None,
            manual_points=points if isinstance(points, (int, float)) and not isinstance(points, bool) else None,
            instructor_notes=data.get("instructor_notes", ""),
            node_counts=tuple(NodeCountRow(**row) for row in positions or ()),
            selfplay=tuple(SelfPlayRow(**row) for row in rows or ()),
            divergence=Divergence(**divergence) if divergence else None,
            search_tree=SearchTreeExcerpt.from_dict(tree) if tree else None,
            instructor=InstructorMark(**instructor) if instructor else None,
        )


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
        } | ({} if self.adjustment is None else {"adjustment": dataclasses.asdict(self.adjustment)})

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SubmissionResult:
        execution = data.get("execution")
        adjustment = data.get("adjustment")
        return cls(
            submission=data["submission"],
            assignment_id=data["assignment"],
            checks=tuple(CheckResult.from_dict(c) for c in data["checks"]),
            execution=None if execution is None else execution_from_dict(execution),
            problems=tuple(data.get("problems", ())),
            timings=dict(data.get("timings", {})),
            adjustment=ScoreAdjustment(**adjustment) if adjustment else None,
        )


# -- the execution record, read back from JSON ------------------------------------------------


def execution_from_dict(data: Any) -> ExecutionResult:
    """The execution record from its JSON form (`ExecutionResult.to_dict`).

    Tolerant: a field that is missing or of the wrong type gets a neutral value, so that any
    stored record, however old or damaged, can still be shown.
    """
    record = data if isinstance(data, Mapping) else {}
    cells = [c for c in _list(record.get("cells")) if isinstance(c, Mapping)]
    return ExecutionResult(
        cells=tuple(_cell(c, n) for n, c in enumerate(cells)),
        stdin_transcript=tuple(
            StdinExchange(
                cell_index=e["cell_index"] if isinstance(e.get("cell_index"), int) else -1,
                prompt=_text(e.get("prompt")),
                answer=None if e.get("answer") is None else _text(e.get("answer")),
            )
            for e in _list(record.get("stdin_transcript"))
            if isinstance(e, Mapping)
        ),
        sandbox_mode=_enum(SandboxMode, record.get("sandbox_mode"), SandboxMode.NONE),
        isolation_note=record.get("isolation_note") if isinstance(record.get("isolation_note"), str) else None,
        kernel_restarts=_number(record.get("kernel_restarts"), int, 0),
        total_duration=_number(record.get("total_duration"), float, 0.0),
        kernel_start_seconds=_number(record.get("kernel_start_seconds"), float, 0.0),
        notebook_timed_out=bool(record.get("notebook_timed_out")),
    )


def _cell(data: Mapping[str, Any], position: int) -> CellRecord:
    known = {f.name: f for f in dataclasses.fields(CellRecord)}
    values: dict[str, Any] = {k: v for k, v in data.items() if k in known}
    values.update(
        index=data["index"] if isinstance(data.get("index"), int) else position,
        # Records written before cells carried their number: the recorded cells are the
        # non-empty code cells, so their position is the number Jupyter shows.
        number=data["number"] if isinstance(data.get("number"), int) else position + 1,
        source=_text(data.get("source")),
        status=_enum(CellStatus, data.get("status"), CellStatus.NOT_RUN),
        error_name=data.get("error_name") if isinstance(data.get("error_name"), str) else None,
        error_message=data.get("error_message") if isinstance(data.get("error_message"), str) else None,
        output=_text(data.get("output")) if isinstance(data.get("output"), str) else "",
        output_truncated=bool(data.get("output_truncated")),
        duration=_number(data.get("duration"), float, 0.0),
        traceback=_text(data.get("traceback")),
    )
    return CellRecord(**values)


def _list(value: Any) -> list[Any]:
    return list(value) if isinstance(value, (list, tuple)) else []


def _text(value: Any) -> str:
    return value if isinstance(value, str) else "" if value is None else str(value)


def _number(value: Any, kind: type[int] | type[float], default: Any) -> Any:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return default
    return kind(value)


def _enum(kind: Any, value: Any, default: Any) -> Any:
    try:
        return kind(value)
    except ValueError:
        return default
