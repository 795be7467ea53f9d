"""What a student's function answered, and how it is read: a move in the check's format
(`MoveCodec`), and a search function's answer, a value, a move or both, in the shapes
assignments ask for (see `read_search_result`)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from grader.errors import GraderError
from grader.execution.channel.calls import CallOutcome, CallStatus
from grader.spec.model import MoveFormat
from reference.codecs import cell_to_position, cell_to_rowcol, position_to_cell, rowcol_to_cell

__all__ = ["Answer", "MoveCodec", "ShapeError", "format_value", "read_search_result"]


class ShapeError(GraderError, ValueError):
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
        if status == CallStatus.NODE_CAP:
            return f"was stopped: {self.outcome.error}"
        return "ok"

    def given(self) -> str:
        """What the call gave, as feedback's "actual" shows it: the value, or why there was none."""
        if self.outcome.status == CallStatus.UNSERIALIZABLE:
            return f"something that is not plain data ({self.outcome.error})"
        if not self.ok:
            return f"no answer: it {self.failure_text()}"
        return repr(self.value)


# -- moves -------------------------------------------------------------------


@dataclass(frozen=True)
class MoveCodec:
    """How one check's calls write a move: its ``move`` format, else the assignment's,
    resolved once (`CheckContext.moves`). It reads the moves the student's function returns
    and writes cells the way feedback shows them."""

    format: MoveFormat

    def decode(self, raw: Any) -> int:
        """The cell ``raw`` names; ShapeError when it names none."""
        try:
            if self.format == "index":
                if isinstance(raw, bool) or not isinstance(raw, (int, float)) or int(raw) != raw:
                    raise ShapeError(f"expected a cell index 0-8, got {raw!r}")
                cell = int(raw)
                if not 0 <= cell <= 8:
                    raise ShapeError(f"cell index {cell} is outside 0-8")
                return cell
            if self.format == "position":
                return position_to_cell(int(raw))
            if isinstance(raw, (list, tuple)) and len(raw) == 2:
                base = 1 if self.format == "rowcol1" else 0
                return rowcol_to_cell(int(raw[0]) - base, int(raw[1]) - base)
            raise ShapeError(f"expected a move (row, col), got {raw!r}")
        except ShapeError:
            raise
        except (TypeError, ValueError) as exc:
            raise ShapeError(f"could not read {raw!r} as a move: {exc}") from None

    def write(self, cell: int) -> Any:
        """``cell`` as a move the student's function takes: the inverse of `decode`."""
        if self.format == "index":
            return cell
        if self.format == "position":
            return cell_to_position(cell)
        row, col = cell_to_rowcol(cell)
        return (row + 1, col + 1) if self.format == "rowcol1" else (row, col)

    def show(self, cell: int | None) -> str:
        if cell is None:
            return "None"
        if self.format == "index":
            return str(cell)
        if self.format == "position":
            return str(cell_to_position(cell))
        row, col = cell_to_rowcol(cell)
        return str((row + 1, col + 1)) if self.format == "rowcol1" else str((row, col))

    @property
    def pairs(self) -> MoveCodec:
        """How a (row, col) pair returned beside the value counts: from 1 where these moves
        are (row, col) counted from 1, else from 0."""
        return MoveCodec("rowcol1" if self.format == "rowcol1" else "rowcol")


# -- reading what search functions return ------------------------------------

SEARCH_SHAPES = ("value", "value,move", "value,row,col", "row,col,value", "move", "move,value")


def read_search_result(raw: Any, shapes: Sequence[str], moves: MoveCodec) -> tuple[float | None, int | None]:
    """(value, move) from what the student returned, trying each accepted shape in turn; its
    moves read with the check's codec ``moves``."""
    for shape in shapes:
        try:
            return _read_shape(raw, shape, moves)
        except ShapeError:
            continue
    expected = " or ".join(_shape_words(s) for s in shapes)
    raise ShapeError(f"expected {expected}, got {_brief(raw)}")


def read_value_only(raw: Any, shapes: Sequence[str]) -> float:
    """The value part of an answer, whatever its move part holds: on a finished game a search
    has no move to give, and says so its own way (``None``, ``""``, ``-1``)."""
    for shape in shapes:
        parts = shape.split(",")
        if "value" not in parts:
            continue
        if len(parts) == 1:
            try:
                return _number(raw)
            except ShapeError:
                continue
        if isinstance(raw, (list, tuple)) and len(raw) == len(parts):
            try:
                return _number(raw[parts.index("value")])
            except ShapeError:
                continue
    expected = " or ".join(_shape_words(s) for s in shapes if "value" in s.split(","))
    raise ShapeError(f"expected {expected or 'a value'}, got {_brief(raw)}")


def _read_shape(raw: Any, shape: str, moves: MoveCodec) -> tuple[float | None, int | None]:
    if shape == "value":
        return _number(raw), None
    if shape == "move":
        return None, moves.decode(raw)
    if not isinstance(raw, (list, tuple)):
        raise ShapeError(f"expected a tuple, got {_brief(raw)}")
    if shape == "value,move" and len(raw) == 2:
        return _number(raw[0]), (None if raw[1] is None else moves.decode(raw[1]))
    if shape == "move,value" and len(raw) == 2:
        return _number(raw[1]), (None if raw[0] is None else moves.decode(raw[0]))
    if shape == "value,row,col" and len(raw) == 3:
        move = None if raw[1] is None or raw[2] is None else moves.pairs.decode((raw[1], raw[2]))
        return _number(raw[0]), move
    if shape == "row,col,value" and len(raw) == 3:
        move = None if raw[0] is None or raw[1] is None else moves.pairs.decode((raw[0], raw[1]))
        return _number(raw[2]), move
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
        "row,col,value": "[row, col, score]",
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
