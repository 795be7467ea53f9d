"""How one assignment writes the boards its checks give the student's code, and reads back
the boards that code makes: through its adapter's ``encode_board``/``decode_board`` when it
has them, else its board encoding (`reference.codecs`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from grader.spec.model import Assignment
from reference import MalformedBoard, Position
from reference.adapter_marks import adapter_marks, decode_by_marks

__all__ = ["AssignmentBoards"]


@dataclass(frozen=True)
class AssignmentBoards:
    """The board codec of one assignment."""

    assignment: Assignment

    @property
    def adapter_encodes(self) -> bool:
        """The assignment's adapter writes the boards (its ``encode_board``), not its encoding:
        the kernel then cannot read them, nor the reference stand in for a function of them."""
        return self.assignment.adapter is not None and hasattr(self.assignment.adapter, "encode_board")

    def encode(self, board: Position) -> Any:
        adapter = self.assignment.adapter
        if adapter is not None and self.adapter_encodes:
            return adapter.encode_board(board)
        return self.assignment.encoding.encode(board)

    def decode(self, raw: Any) -> Position:
        """The board an object made by the student's code stands for, in the encoding the
        checks give boards in: the adapter's ``decode_board`` when it has one; where the
        adapter only encodes, the marks its encoding writes for X, O and an empty cell
        (`reference.adapter_marks`); else the codec's. Raises `MalformedBoard` when ``raw``
        is no board."""
        adapter = self.assignment.adapter
        if adapter is not None and hasattr(adapter, "decode_board"):
            board = adapter.decode_board(raw)
            game = self.assignment.board_game
            try:  # the game refuses a position that is not its own
                game.pieces(board)
            except MalformedBoard:
                raise MalformedBoard(f"the adapter's decode_board gave {type(board).__name__}, not a Board") from None
            return board
        if self.adapter_encodes:
            marks = adapter_marks(self.encode)
            if marks is None:
                raise MalformedBoard("the adapter's encode_board writes no list of cells: give it a decode_board too")
            return decode_by_marks(raw, marks)
        return self.assignment.encoding.decode(raw)
