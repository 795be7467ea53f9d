"""The one place a check's message is written: from its headline, its notes and why it did
not run (`grader.check_notes`). Kinds and the registry return parts; nothing edits the
words afterwards, and nothing reads them back.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Protocol

from grader.check_notes import (
    BudgetRanOut,
    Cause,
    CutsOff,
    KindsSeen,
    NoMoreJudged,
    Note,
    PositionsTried,
    RanOutOfTime,
    Regraded,
    SlowerThan,
)
from grader.execution.channel.stop_clock import StopClock


class Worded(Protocol):
    """The parts of a check's result its words are written from (a `grader.results.CheckResult`)."""

    @property
    def not_run_reason(self) -> str | None: ...

    @property
    def headline(self) -> str: ...

    @property
    def notes(self) -> Sequence[Note]: ...

    @property
    def cause(self) -> Cause | None: ...


NOT_RUN_PREFIX = "Not run: "


def check_message(result: Worded) -> str:
    """What the student reads for ``result``: "Not run: why", or the headline with each note
    written in the order the check made them."""
    if result.not_run_reason is not None:
        return NOT_RUN_PREFIX + result.not_run_reason
    text, closed = result.headline, False
    for kind, group in itertools.groupby(result.notes, key=type):
        if kind is CutsOff:
            text, closed = _cut_offs(text, closed, [note for note in group if isinstance(note, CutsOff)]), True
            continue
        for note in group:
            if isinstance(note, SlowerThan):
                text, closed = _slower_than(text, closed, note), True
                continue
            text, closed = _with_note(text, note), _ends_sentence(note, closed)
    return text


def _slower_than(text: str, closed: bool, note: SlowerThan) -> str:
    """Said after everything the check saw: right, but slow, and what that cost."""
    closed = closed or text.endswith((".", "!", "?"))
    cost = f": that costs {note.cost:.0%} of the points" if note.cost else ", which costs nothing here"
    slow = (
        f"Correct, but slower than {note.limit:g} s of CPU time (the slowest answer took {note.seconds:.1f} s){cost}."
    )
    return f"{text}{' ' if closed else '. '}{slow}"


def _ends_sentence(note: Note, closed: bool) -> bool:
    """Whether the text ends with a full sentence once ``note`` is written (``closed``: before it)."""
    if isinstance(note, Regraded):  # written before the text: its end is as it was
        return closed
    return isinstance(note, KindsSeen) and bool(note.summary)


def _cut_offs(text: str, closed: bool, notes: Sequence[CutsOff]) -> str:
    """``closed``: ``text`` ends with a sentence of its own (what a passing check saw); so does
    a reason that brings its own full stop."""
    closed = closed or text.endswith((".", "!", "?"))
    entered = "; ".join(
        f"from {note.board} `{note.call}` entered {note.nodes} positions where minimax enters {note.minimax}"
        for note in notes
    )
    return f"{text}{' ' if closed else '. '}It cuts off: {entered}."


def cause_line(result: Worded) -> str | None:
    """The likely cause the student reads beside the counterexample; none when the cause is
    the shape of every call, which the headline already says."""
    cause = result.cause
    return None if cause is None or cause.source == "shape" else cause.sentence


def _with_note(text: str, note: Note) -> str:
    if isinstance(note, PositionsTried):
        return f"{text} ({note.count} positions tried)"
    if isinstance(note, NoMoreJudged):
        return f"{text}; no more were judged: {note.reason}"
    if isinstance(note, BudgetRanOut):
        return f"{text}; the time budget ran out before all planned positions were tried"
    if isinstance(note, KindsSeen):
        return f"{text}. {note.summary}" if note.summary else text
    if isinstance(note, RanOutOfTime):
        if note.clock is StopClock.WALL:
            return (
                f"{text}: the call was still running after {note.limit:g} s of wall time, having used less "
                "than its limit of CPU time, and was stopped"
            )
        return f"{text}: the call was still running at {note.limit:g} s of CPU time, the time limit, and was stopped"
    assert isinstance(note, Regraded)  # a group of CutsOff is written by `_cut_offs`
    return f"{_regraded(note)} {text}"


def _regraded(note: Regraded) -> str:
    helpers = _words(note.helpers)
    if not note.passed:
        return f"Graded with the reference {helpers} in place of yours."
    are = "is" if len(note.built) == 1 else "are"
    helpers_are = "is" if len(note.helpers) == 1 else "are"
    graded = f"graded with the reference {helpers} in place of yours."
    return f"{_words(note.built)} {are} right once {helpers} {helpers_are}: {graded}"


def _words(names: Sequence[str]) -> str:
    quoted = [f"`{name}`" for name in dict.fromkeys(names)]
    return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " and " + quoted[-1]
