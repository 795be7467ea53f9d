"""The parts of a check's verdict besides its headline: the cause of a failure and the notes
that go with it, as data. The words a student reads are written from them in one place
(`grader.check_wording`), never edited afterwards.

Light on purpose, like `grader.check_details`: a stored result is read back without the
checks' machinery.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from grader.execution.channel.stop_clock import StopClock

if TYPE_CHECKING:
    from grader.checks.causes.defects import Defect

CauseSource = Literal["shape", "convention", "root-cause", "known-mistake", "local"]
"""Where a cause was read: every call's shape (a stub, a signature that does not fit), a
convention the answers follow instead of the assignment's, a lower-level function's defect
another check found, a known mistake of the catalogue, or the one wrong answer alone."""


@dataclass(frozen=True)
class Cause:
    """The likely cause of a check's failure: the one place its sentence is held. A cause of
    shape is the check's headline; any other is written beside the counterexample
    (`grader.check_wording.cause_line`)."""

    source: CauseSource
    sentence: str
    """The sentence the student reads."""
    defect: Defect | None = field(default=None, compare=False)
    """The model of the wrong function the sentence names, when there is one: kept in the
    process (for tests and the checks after this one), not stored."""


@dataclass(frozen=True)
class PositionsTried:
    """How many positions a property check judged."""

    name: ClassVar[str] = "tried"
    count: int


@dataclass(frozen=True)
class NoMoreJudged:
    """Why a property check judged fewer positions than planned."""

    name: ClassVar[str] = "stopped"
    reason: str


@dataclass(frozen=True)
class BudgetRanOut:
    """The time budget ran out before all planned positions were tried."""

    name: ClassVar[str] = "budget"


@dataclass(frozen=True)
class KindsSeen:
    """What a passing property check saw among the positions it judged ("16 draws and ...")."""

    name: ClassVar[str] = "seen"
    summary: str


@dataclass(frozen=True)
class CutsOff:
    """A position from which an alpha-beta search entered fewer positions than minimax (one
    note per position; the notes of a check's positions are written as one sentence)."""

    name: ClassVar[str] = "cuts-off"
    board: str
    call: str
    nodes: int
    """The positions the search entered."""
    minimax: int
    """The positions minimax enters from there."""


@dataclass(frozen=True)
class Regraded:
    """The check was graded again with the reference's versions of wrong lower-level
    functions (``helpers``) in place of the student's; ``built``: the functions the check
    calls, right once the helpers are when ``passed``."""

    name: ClassVar[str] = "regraded"
    helpers: tuple[str, ...]
    built: tuple[str, ...]
    passed: bool


@dataclass(frozen=True)
class SlowerThan:
    """Every answer was right, and one came after the assignment's soft limit (before the
    hard one, past which a call has no answer): correct, but slow, at ``cost``."""

    name: ClassVar[str] = "slower-than"
    limit: float
    """The soft limit, in seconds (``slow_after``)."""
    seconds: float
    """The slowest answer's time."""
    cost: float
    """The share of the check's points it cost (0: said, not charged)."""


@dataclass(frozen=True)
class RanOutOfTime:
    """The failing call had no answer: it was stopped at the hard limit. Not a wrong answer,
    and not a slow one (`SlowerThan`): none came."""

    name: ClassVar[str] = "ran-out-of-time"
    limit: float
    """The limit it was stopped at, in seconds of ``clock``."""
    clock: StopClock = StopClock.CPU
    """``CPU``: its limit, the kernel's CPU time; ``WALL``: the wall-clock safety net, for a
    call that waited rather than computed."""


Note = PositionsTried | NoMoreJudged | BudgetRanOut | KindsSeen | CutsOff | Regraded | SlowerThan | RanOutOfTime
_NOTES: Mapping[str, type[Note]] = {
    t.name: t
    for t in (PositionsTried, NoMoreJudged, BudgetRanOut, KindsSeen, CutsOff, Regraded, SlowerThan, RanOutOfTime)
}


def _stored(value: Any) -> Any:
    """A note's field as JSON holds it: a list for a tuple, the value of an enum."""
    if isinstance(value, tuple):
        return list(value)
    return value.value if isinstance(value, enum.Enum) else value


def note_to_dict(note: Note) -> dict[str, Any]:
    data: dict[str, Any] = {"note": note.name}
    data.update({k: _stored(v) for k, v in vars(note).items()})
    return data


def note_from_dict(data: Mapping[str, Any]) -> Note:
    fields: dict[str, Any] = {k: tuple(v) if isinstance(v, list) else v for k, v in data.items() if k != "note"}
    if data["note"] == RanOutOfTime.name and "clock" in fields:
        fields["clock"] = StopClock(fields["clock"])
    return _NOTES[data["note"]](**fields)


@dataclass(frozen=True)
class Learnt:
    """What a check learnt about its function for the checks after it on the same submission
    (`grader.checks.causes.findings`); kept in the process, never stored."""

    defect: Defect | None = None
    """The defect its own answers show (a win test missing the anti-diagonal)."""
    suspects: tuple[Defect, ...] = ()
    """Mistakes its answers could not show, to be tested against the searches built on it."""
    spellings: Mapping[str, Any] = field(default_factory=dict)
    """How its function spells an answer it may spell several ways (``{"ongoing": ""}``), for
    the reference's version to answer alike."""
