"""The reference's boards one move away on a Connect-K board, standing in for a course's
``next_boards`` function during a call (a mistake in it costs once: the searches whose state
walks the boards it gives are graded with these in its place); and the lines of ``k`` cells
the other grid stand-ins read a win from.

The board comes as the student's code holds it (rows of cells, a numpy array, or the course's
board object holding one of these at ``board_attribute``). The next boards are the reference's:
the side to move's piece dropped into each column with room, column 0 first, none once someone
has ``k`` in a line or the board is full. Each is a board of the given one's kind, made as the
course makes its board objects when the request carries one (``ConnectFourBoard(board)``: the
assignment's ``[game] board_object``), through the course's own class.

Shipped into the kernel as source after the objects the kernel makes (whose reader and maker
it uses) and before the stand-ins (which call it): standard library only.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

if __name__ != globals().get("KERNEL_NAMESPACE"):  # in the kernel, the sources sent before define these
    from grader.execution.channel.kernel.built_values import Deferred, read_value, realize
    from grader.execution.channel.kernel.names import argument_binder
    from grader.execution.channel.protocol import BOARD_SLOT, StandInRequest

NEXT_BOARDS_ROLE = "grid-next-boards"


def connect_lines(rows: int, cols: int, k: int) -> list[list[int]]:
    """Every line of ``k`` cells of a ``rows`` by ``cols`` board, as flat cell indices."""
    return [
        [(row + i * d_row) * cols + col + i * d_col for i in range(k)]
        for row in range(rows)
        for col in range(cols)
        for d_row, d_col in ((0, 1), (1, 0), (1, 1), (1, -1))
        if 0 <= row + (k - 1) * d_row < rows and 0 <= col + (k - 1) * d_col < cols
    ]


def rows_upward(request: StandInRequest) -> list[int]:
    """The student's rows from the bottom up: where a dropped piece looks for room first."""
    rows = (request.get("grid") or [0, 0, 0])[0]
    return list(range(rows - 1, -1, -1)) if request.get("top_row_first", True) else list(range(rows))


def players(request: StandInRequest) -> tuple[Any, Any]:
    """The first player's mark, then the second's."""
    marks = request["marks"]
    return (marks[0], marks[1]) if request.get("first_player", "X") == "X" else (marks[1], marks[0])


def line_winner(cells: list[Any], lines: list[list[int]], first: Any, second: Any) -> Any:
    """The mark, ``first`` or ``second``, that fills one of ``lines``; None if neither does."""
    for line in lines:
        mark = cells[line[0]]
        if (mark == first or mark == second) and all(cells[i] == mark for i in line):
            return first if mark == first else second
    return None


def next_boards_stand_in(namespace: dict[str, Any], request: StandInRequest, original: Any) -> Callable[..., Any]:
    """A plain function (it binds as a method) answering the boards one move away as the
    reference does, as the list the student's function would give."""
    rows, cols, k = request.get("grid") or [0, 0, 0]
    attribute = request.get("board_attribute") or ""
    first, second = players(request)
    lines = connect_lines(rows, cols, k)
    upward = rows_upward(request)
    made = request.get("board_object")
    template = read_value(made) if made is not None else None
    board_at = request["board_arg"] or 0
    given = argument_binder(original)

    def grid_of(holder: Any) -> Any:
        board = holder
        if attribute and not isinstance(board, (list, tuple)) and not hasattr(board, "tolist"):
            board = getattr(board, attribute, None)
        nested = board.tolist() if hasattr(board, "tolist") else board
        if not isinstance(nested, (list, tuple)) or len(nested) != rows or any(len(row) != cols for row in nested):
            raise TypeError("the reference's stand-in found no board of rows in the arguments")
        return board

    def stand_in(*args: Any, **kwargs: Any) -> Any:
        values = given(args, kwargs)
        board = grid_of(values[board_at] if board_at < len(values) else None)
        cells = [cell for row in (board.tolist() if hasattr(board, "tolist") else board) for cell in row]
        if line_winner(cells, lines, first, second) is not None:
            return []
        mover = first if cells.count(first) == cells.count(second) else second
        boards = []
        for col in range(cols):
            open_rows = [row for row in upward if cells[row * cols + col] not in (first, second)]
            if open_rows:
                after = _dropped(board, open_rows[0], col, mover)
                boards.append(after if template is None else realize(with_board(template, after), namespace))
        return boards

    stand_in.__name__ = stand_in.__qualname__ = getattr(original, "__name__", "stand_in")
    return stand_in


def _dropped(board: Any, row: int, col: int, mark: Any) -> Any:
    """A new board of ``board``'s kind (a numpy array, rows as lists or tuples) with ``mark``
    at ``row``, ``col``; ``board`` unchanged."""
    if hasattr(board, "tolist"):
        new = copy.deepcopy(board)
        new[row][col] = mark
        return new
    rows = [list(cells) for cells in board]
    rows[row][col] = mark
    return type(board)(type(board[n])(cells) for n, cells in enumerate(rows))


def with_board(value: Any, board: Any) -> Any:
    """The object to make (read from the wire) with ``board`` where `BOARD_SLOT` is."""
    if isinstance(value, Deferred):
        if value.args is None:
            return board if value.name == BOARD_SLOT else value
        args = [with_board(a, board) for a in value.args]
        kwargs = {name: with_board(v, board) for name, v in value.kwargs.items()}
        return Deferred(value.name, args, kwargs, value.attributes)
    if isinstance(value, list):
        return [with_board(item, board) for item in value]
    if isinstance(value, tuple):
        return tuple(with_board(item, board) for item in value)
    return value
