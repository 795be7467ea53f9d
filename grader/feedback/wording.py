"""The one place a check's message is written: from its headline, its notes and why it did
not run (`grader.check_notes`). Kinds and the registry return parts; nothing edits the
words afterwards, and nothing reads them back.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from grader.check_notes import BudgetRanOut, CutsOff, KindsSeen, NoMoreJudged, Note, PositionsTried, Regraded

if TYPE_CHECKING:
    from grader.results import CheckResult

NOT_RUN_PREFIX = "Not run: "


def check_message(result: CheckResult) -> str:
    """What the student reads for ``result``: "Not run: why", or the headline with each note
    written in the order the check made them."""
    if result.not_run_reason is not None:
        return NOT_RUN_PREFIX + result.not_run_reason
    text = result.headline
    for note in result.notes:
        text = _with_note(text, note)
    return text


def _with_note(text: str, note: Note) -> str:
    if isinstance(note, PositionsTried):
        return f"{text} ({note.count} positions tried)"
    if isinstance(note, NoMoreJudged):
        return f"{text}; no more were judged: {note.reason}"
    if isinstance(note, BudgetRanOut):
        return f"{text}; the time budget ran out before all planned positions were tried"
    if isinstance(note, KindsSeen):
        return f"{text}. {note.summary}" if note.summary else text
    if isinstance(note, CutsOff):
        return f"{text.rstrip('.')}. It cuts off: {'; '.join(note.seen)}."
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
