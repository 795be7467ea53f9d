"""How one assignment writes the boards its checks give the student's code, and reads back
the boards that code makes: through its adapter's ``encode_board``/``decode_board`` when it
has them, else its board encoding (`reference.codecs`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from grader.spec.model import Assignment
from reference import EMPTY, Board, MalformedBoard, O, X

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

    def encode(self, board: Board) -> Any:
        adapter = self.assignment.adapter
        if adapter is not None and self.adapter_encodes:
            return adapter.encode_board(board)
        return self.assignment.encoding.encode(board)

    def decode(self, raw: Any) -> Board:
        """The board an object made by the student's code stands for, in the encoding the
        checks give boards in: the adapter's ``decode_board`` when it has one; where the
        adapter only encodes, the marks its encoding writes for X, O and an empty cell; else
        the codec's. Raises `MalformedBoard` when ``raw`` is no board."""
        adapter = self.assignment.adapter
        if adapter is not None and hasattr(adapter, "decode_board"):
            board = adapter.decode_board(raw)
            if not isinstance(board, Board):
                raise MalformedBoard(f"the adapter's decode_board gave {type(board).__name__}, not a Board")
            return board
        if self.adapter_encodes:
            return self._decode_by_marks(raw)
        return self.assignment.encoding.decode(raw)

    def _decode_by_marks(self, raw: Any) -> Board:
        marks = self._board_marks()
        if marks is None:
            raise MalformedBoard("the adapter's encode_board writes no list of cells: give it a decode_board too")
        x_mark, o_mark, empty_marks = marks
        cells = _flat_cells(raw)
        if cells is None:
            raise MalformedBoard(f"not a board of 9 cells: {raw!r}")
        by_mark = {x_mark: X, o_mark: O, **{mark: EMPTY for mark in empty_marks}}
        unknown = [c for c in cells if c not in by_mark]
        if unknown:
            raise MalformedBoard(f"cell value {unknown[0]!r} is none of the encoding's marks")
        return Board(tuple(by_mark[c] for c in cells))

    def _board_marks(self) -> tuple[Any, Any, tuple[Any, ...]] | None:
        """X's, O's and the empty cells' values as the adapter's ``encode_board`` writes them;
        None if its boards are not lists of cells."""
        try:
            marked = _flat_cells(self.encode(Board.from_string("XO.......")))
            empty = _flat_cells(self.encode(Board.empty()))
        except (TypeError, ValueError):
            return None
        if marked is None or empty is None:
            return None
        return marked[0], marked[1], tuple(dict.fromkeys(empty))


def _flat_cells(encoded: Any) -> list[Any] | None:
    """The nine cells of an encoded board, row by row, as plain values."""
    if hasattr(encoded, "tolist"):
        encoded = encoded.tolist()
    if not isinstance(encoded, (list, tuple)):
        return None
    if len(encoded) == 3 and all(isinstance(row, (list, tuple)) and len(row) == 3 for row in encoded):
        encoded = [cell for row in encoded for cell in row]
    if len(encoded) != 9 or not all(isinstance(c, (str, int)) for c in encoded):
        return None
    return list(encoded)
