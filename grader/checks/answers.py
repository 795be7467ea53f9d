"""What a student's function answered, and how a search function's answer is read: a value,
a move or both, in the shapes assignments ask for (see `read_search_result`)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from grader.execution.channel.calls import CallOutcome, CallStatus
from grader.spec.model import MoveFormat


class MoveDecoder(Protocol):
    """What reading a move needs: the assignment's move format (a `CheckContext`)."""

    def decode_move(self, raw: Any, move_format: MoveFormat | None = None) -> int: ...

    def pair_format(self, move_format: MoveFormat | None = None) -> MoveFormat: ...


class ShapeError(ValueError):
    """The student's function returned something of the wrong shape or type."""

    def given(self) -> str:
        """The answer, as feedback's "actual" shows it."""
        return f"an answer of the wrong shape ({self})"


@dataclass(frozen=True)
class Answer:
    """One call's outcome, as the check sees it."""

    outcome: CallOutcome
    call_text: str

    @property
    def ok(self) -> bool:
        return self.outcome.status == CallStatus.OK

    @property
    def value(self) -> Any:
        return self.outcome.value

    def failure_text(self) -> str:
        status = self.outcome.status
        if status == CallStatus.RAISED:
            return f"raised {self.outcome.error}"
        if status == CallStatus.TIMEOUT:
            return "did not return within its time limit"
        if status == CallStatus.KILLED:
            return "crashed the kernel"
        if status == CallStatus.MISSING:
            return f"could not be called: {self.outcome.error}"
        if status == CallStatus.UNSERIALIZABLE:
            return f"returned something that is not plain data ({self.outcome.error})"
        if status == CallStatus.SKIPPED:
            return f"was not run ({self.outcome.error})"
        return "ok"

    def given(self) -> str:
        """What the call gave, as feedback's "actual" shows it: the value, or why there was none."""
        if self.outcome.status == CallStatus.UNSERIALIZABLE:
            return f"something that is not plain data ({self.outcome.error})"
        if not self.ok:
            return f"no answer: it {self.failure_text()}"
        return repr(self.value)


# -- reading what search functions return ------------------------------------

SEARCH_SHAPES = ("value", "value,move", "value,row,col", "move", "move,value")


def read_search_result(
    raw: Any, shapes: Sequence[str], ctx: MoveDecoder, move_format: MoveFormat | None = None
) -> tuple[float | None, int | None]:
    """(value, move) from what the student returned, trying each accepted shape in turn."""
    for shape in shapes:
        try:
            return _read_shape(raw, shape, ctx, move_format)
        except ShapeError:
            continue
    expected = " or ".join(_shape_words(s) for s in shapes)
    raise ShapeError(f"expected {expected}, got {_brief(raw)}")


def _read_shape(
    raw: Any, shape: str, ctx: MoveDecoder, move_format: MoveFormat | None
) -> tuple[float | None, int | None]:
    if shape == "value":
        return _number(raw), None
    if shape == "move":
        return None, ctx.decode_move(raw, move_format)
    if not isinstance(raw, (list, tuple)):
        raise ShapeError(f"expected a tuple, got {_brief(raw)}")
    if shape == "value,move" and len(raw) == 2:
        return _number(raw[0]), (None if raw[1] is None else ctx.decode_move(raw[1], move_format))
    if shape == "move,value" and len(raw) == 2:
        return _number(raw[1]), (None if raw[0] is None else ctx.decode_move(raw[0], move_format))
    if shape == "value,row,col" and len(raw) == 3:
        pair = ctx.pair_format(move_format)
        move = None if raw[1] is None or raw[2] is None else ctx.decode_move((raw[1], raw[2]), pair)
        return _number(raw[0]), move
    raise ShapeError(f"expected {_shape_words(shape)}, got {_brief(raw)}")


def _number(raw: Any) -> float:
    if isinstance(raw, bool) or not isinstance(raw, (int, float)):
        raise ShapeError(f"expected a number, got {_brief(raw)}")
    return raw


def _shape_words(shape: str) -> str:
    return {
        "value": "a number",
        "value,move": "(score, move)",
        "value,row,col": "(score, row, col)",
        "move": "a move",
        "move,value": "(move, score)",
    }[shape]


def _brief(raw: Any) -> str:
    text = repr(raw)
    return f"{type(raw).__name__} {text if len(text) < 60 else text[:57] + '...'}"


def format_value(value: Any) -> str:
    if isinstance(value, float):
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        if value.is_integer():
            return str(int(value))
    return repr(value) if isinstance(value, str) else str(value)
