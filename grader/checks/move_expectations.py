"""Predicate expectations about moves and turns: the legal moves, whether a move is valid, and
whose turn it is (`grader.checks.expectations` holds the registry of all of them)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from hypothesis import strategies as st

from grader.checks.answers import ShapeError, format_value
from grader.checks.causes.defects import Defect, EmptyCellsObservation, empty_cells_defect
from grader.checks.expectation import Boards, Cases, Expectation, Read, Reading
from grader.execution.channel.kernel.predicate_truths import PREDICATE_TRUTHS
from reference import EMPTY, LineGame, O, Position, X, cell_to_rowcol

__all__ = ["LegalMoves", "ToMove", "ValidMove"]


class LegalMoves(Expectation):
    """The free cells as moves, in row-major order when ``ordered``."""

    name = "legal-moves"
    truth = PREDICATE_TRUTHS["legal-moves"]
    title = "lists the empty cells"
    draft_role = "moves"

    def read(self, raw: Any, reading: Reading) -> Any:
        if not isinstance(raw, (list, tuple, set, frozenset)):
            raise ShapeError(f"expected a list of moves, got {type(raw).__name__} {raw!r}")
        cells = [reading.moves.decode(m) for m in raw]
        return cells if reading.ordered and not isinstance(raw, (set, frozenset)) else sorted(cells)

    def show(self, value: Any, reading: Reading) -> str:
        if isinstance(value, list):
            return "[" + ", ".join(reading.moves.show(c) for c in value) + "]"
        return format_value(value)

    def answer_kinds(self, game: LineGame[Position], board: Position, extra: Any, maximizer: str) -> list[str]:
        return ["boards with free cells" if EMPTY in game.cells(board) else "full boards"]

    def local_cause(
        self, game: LineGame[Position], function: str, board: Position, player: str | None, expected: Any, actual: Any
    ) -> str | None:
        if isinstance(actual, list) and sorted(actual) == sorted(expected):
            return "The moves are all there, but not in row-major order (row by row, left to right)."
        if isinstance(actual, list) and set(actual) < set(expected):
            missing = sorted(set(expected) - set(actual))
            return "Free cells are missing from the list: " + ", ".join(str(cell_to_rowcol(c)) for c in missing) + "."
        return None

    def defect(self, game: LineGame[Position], function: str, seen: Sequence[Read]) -> Defect | None:
        listed = [EmptyCellsObservation(r.board, tuple(r.read), game) for r in seen if isinstance(r.read, list)]
        return empty_cells_defect(function, listed)


class ValidMove(Expectation):
    """Whether a 1-based position is a free cell."""

    name = "valid-move"
    truth = PREDICATE_TRUTHS["valid-move"]
    stands_in = False
    title = "tells a free cell"

    def extras(self) -> st.SearchStrategy[Any]:
        return st.integers(0, 10)

    def position(self, extra: Any) -> int | None:
        return extra

    def first_cases(self, game: LineGame[Position], lines: Boards, drawn: Boards, near_full: Boards) -> Cases:
        return [(b, pos) for b in lines[:2] for pos in (0, 1, 5, 9, 10)]

    def answer_kinds(self, game: LineGame[Position], board: Position, extra: Any, maximizer: str) -> list[str]:
        valid = self.expected(board, None, extra, maximizer, game)
        return ["moves on a free cell" if valid else "moves on a taken or out-of-range cell"]

    def local_cause(
        self, game: LineGame[Position], function: str, board: Position, player: str | None, expected: Any, actual: Any
    ) -> str | None:
        if not expected and actual:
            return "It accepts a move on an occupied or out-of-range cell."
        if expected and not actual:
            return "It rejects a move on a free cell: check how the position maps to a row and a column."
        return None


class ToMove(Expectation):
    """The mark of the side to move, on games in progress (who moves on a finished game is
    each course's own convention)."""

    name = "to-move"
    truth = PREDICATE_TRUTHS["to-move"]
    player_is_first = True
    title = "names the side to move"
    draft_role = "turn"
    draft_boards = "unfinished"

    def first_cases(self, game: LineGame[Position], lines: Boards, drawn: Boards, near_full: Boards) -> Cases:
        # The empty board (the first player's turn) and a drawn board with each cell emptied
        # in turn: a side to move counted from the empty cells or one mark shows on them.
        return [(b, None) for b in dict.fromkeys([game.initial_state(), *near_full])]

    def read(self, raw: Any, reading: Reading) -> Any:
        for side in (X, O):
            mark = reading.marks[side]
            if raw == mark and type(raw) is type(mark):
                return side
        raise ShapeError(f"returned {raw!r}, which is neither mark ({reading.marks[X]!r} or {reading.marks[O]!r})")

    def show(self, value: Any, reading: Reading) -> str:
        return repr(reading.marks.get(value, value))

    def answer_kinds(self, game: LineGame[Position], board: Position, extra: Any, maximizer: str) -> list[str]:
        cells = game.cells(board)
        xs, os = cells.count(X), cells.count(O)
        return ["positions with as many X as O" if xs == os else "positions with one mark more for one side"]

    def local_cause(
        self, game: LineGame[Position], function: str, board: Position, player: str | None, expected: Any, actual: Any
    ) -> str | None:
        cells = game.cells(board)
        if cells.count(X) == cells.count(O):
            return f"With as many X as O on the board, it is {expected}'s turn: {expected} moves first."
        return f"{expected} has one mark fewer than the other side, so it is {expected}'s turn."
