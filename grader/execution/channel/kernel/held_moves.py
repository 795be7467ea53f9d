"""The reference's move and take-back on a Connect-K board, standing in for the student's
``make_move``/``undo_move`` methods or ``drop_piece`` function during a call (a mistake in them
costs once: the searches that make moves are graded with these in their place).

The board (rows of cells, a numpy array or one flat list, whichever row comes first) is the
argument at ``board_arg``, or a course's object there holds it at ``board_attribute`` and, at
``turn_attribute`` when the course keeps it there, the mark of the side to move: ``grid-drop``
writes that side's mark into the lowest empty cell of the column given and passes the turn, or,
told the row (``drop_piece(board, row, col, piece)``, ``row_arg``), writes it there, as the
course's function does; with ``returns`` ``new-board`` it does so on a copy of the board given,
of the same kind, and returns the copy, the board given left alone; ``grid-undo`` empties the
highest piece of the column and gives the turn back. A course without a turn attribute passes
the piece at ``player_arg``.

Each returns what the course's own method returns (``answers``, read by init from the solution),
so that a search that reads it works as it does with the course's: ``row`` the row the piece
landed in or was taken from, ``none`` None, ``true`` True (and False, the board untouched, for a
full column or an empty one), ``column`` the column, ``object`` the board object itself. Without
it (an assignment written before init read it) a move answers its row and a take-back None.

Shipped into the kernel as source after `next_boards` (whose helpers it uses) and before the
stand-ins (which call it when a call is made): standard library only.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

if __name__ != globals().get("KERNEL_NAMESPACE"):  # in the kernel, the sources sent before define these
    from grader.execution.channel.kernel.names import argument_binder
    from grader.execution.channel.kernel.next_boards import rows_upward
    from grader.execution.channel.protocol import StandInRequest

HELD_MOVE_ROLES = ("grid-drop", "grid-undo")
HELD_MOVE_ANSWERS = ("row", "none", "true", "column", "object")


def held_move_stand_in(request: StandInRequest, original: Any) -> Callable[..., Any]:
    """A plain function (it binds as a method) making or taking back a move as the reference does."""
    rows, cols, _ = request.get("grid") or [0, 0, 0]
    attribute, turn = request.get("board_attribute") or "", request.get("turn_attribute") or ""
    x, o, empties = request["marks"]
    empty = empties[0] if empties else None
    undo = request["role"] == "grid-undo"
    answers = request.get("answers") or ("none" if undo else "row")
    if answers not in HELD_MOVE_ANSWERS:
        raise ValueError(f"a move's stand-in cannot answer {answers!r}")
    upward = rows_upward(request)
    board_at, move_at, player_at = request["board_arg"] or 0, request["move_arg"], request["player_arg"]
    row_at = None if undo else request.get("row_arg")
    new_board = not undo and not attribute and request.get("returns") == "new-board"
    given = argument_binder(original)

    def at(values: tuple[Any, ...], position: int | None, what: str) -> Any:
        if position is None or position >= len(values):
            raise TypeError(f"the reference's stand-in found no {what} in the arguments")
        return values[position]

    def stand_in(*args: Any, **kwargs: Any) -> Any:
        values = given(args, kwargs)
        holder = at(values, board_at, "board object" if attribute else "board")
        board: Any = getattr(holder, attribute, None) if attribute else holder
        if board is None:
            raise TypeError(f"the reference's stand-in found no board in the object's {attribute!r}")
        kind = None
        if new_board:
            board, kind = _copied(board)
        raw_col = at(values, move_at, "column")
        col = operator.index(raw_col)
        if isinstance(raw_col, bool) or not 0 <= col < cols:
            raise ValueError(f"column {raw_col!r} is outside the board: its columns are 0 to {cols - 1}")
        nested = getattr(board, "ndim", None) == 2 or (
            isinstance(board, (list, tuple)) and isinstance(board[0], (list, tuple))
        )

        def get(row: int) -> Any:
            return board[row][col] if nested else board[row * cols + col]

        def put(row: int, mark: Any) -> None:
            if nested:
                board[row][col] = mark
            else:
                board[row * cols + col] = mark

        if row_at is not None:
            raw_row = at(values, row_at, "row")
            row = operator.index(raw_row)
            if isinstance(raw_row, bool) or not 0 <= row < rows:
                raise ValueError(f"row {raw_row!r} is outside the board: its rows are 0 to {rows - 1}")
        else:
            taken = [row for row in upward if get(row) in (x, o)]
            if len(taken) == (0 if undo else rows):
                if answers == "true":
                    return False
                raise ValueError(f"column {col} is {'empty' if undo else 'full'}")
            row = taken[-1] if undo else upward[len(taken)]
        mover = getattr(holder, turn) if turn else at(values, player_at, "piece")
        other = o if mover == x else x
        put(row, empty if undo else mover)
        if turn:
            setattr(holder, turn, other)
        if kind is not None:
            return kind(board)
        return {"row": row, "none": None, "true": True, "column": raw_col, "object": holder}[answers]

    stand_in.__name__ = stand_in.__qualname__ = getattr(original, "__name__", "stand_in")
    return stand_in


def _copied(board: Any) -> tuple[Any, Callable[[Any], Any]]:
    """A copy of the board to write into (a numpy array's copy, else lists), and what makes the
    written copy a board of the kind given (rows or a flat sequence, lists or tuples)."""
    if hasattr(board, "copy") and getattr(board, "ndim", None) is not None:
        return board.copy(), lambda written: written
    if isinstance(board, (list, tuple)) and board and isinstance(board[0], (list, tuple)):
        outer, inner = type(board), type(board[0])
        return [list(row) for row in board], lambda written: outer(inner(row) for row in written)
    return list(board), lambda written: type(board)(written)
