"""Reading the student's boards inside the kernel: the position a search node was entered
with (`board_reader`, a snapshot for the exploration recorder), the boards named functions
are asked about (`watch_boards`), and positions packed to cross the channel (`pack_boards`).

This module runs inside the student's kernel and uses the standard library only. A board is
read as nine characters (``X``, ``O``, ``.``) through the marks of the assignment's encoding:
it serves tic-tac-toe alone (its node counts, pruning and self-play traces, its stand-ins, and
init's watch of where a tic-tac-toe solution uses its board functions). Another game's board
is read in the kernel by its grid stand-ins (``next_boards``), and its answers through the
game's own codec in the grader.
"""

from __future__ import annotations

import base64
from collections.abc import Callable, Sequence
from types import CodeType, FrameType
from typing import Any

__all__ = ["board_reader", "board_text", "pack_boards", "unpack_boards", "watch_boards"]


# -- the position a node was entered with ----------------------------------------------------


def board_reader(
    board_global: str | None, marks: Sequence[Any], attribute: str | None = None
) -> Callable[[FrameType], str | None]:
    """A snapshot for :meth:`ExplorationRecorder.start`: the board a frame's search works on,
    as nine characters (``X``, ``O``, ``.``), read from the notebook global ``board_global``,
    or else from the first argument of the call (or variable of an enclosing function)
    that holds a board, or whose ``attribute`` does (``self.board`` for a method).

    ``marks`` is ``[X's cell value, O's, [the values of an empty cell...]]`` in the
    assignment's encoding; a value holding anything else (a list of moves, a score table)
    is not a board. A board is nine cells or three rows of three in a list, tuple, numpy
    array or string, or a dict keyed 1-9.
    """
    text = board_text(marks)

    def held(value: Any) -> str | None:
        board = text(value)
        if board is None and attribute is not None:
            board = text(getattr(value, attribute, None))
        return board

    if board_global is not None:
        name = board_global

        def from_global(frame: FrameType) -> str | None:
            return text(frame.f_globals.get(name))

        return from_global

    # Which variable held the board, per code object: tried first the next time.
    found: dict[CodeType, str] = {}

    def from_arguments(frame: FrameType) -> str | None:
        code = frame.f_code
        given = frame.f_locals
        known = found.get(code)
        if known is not None:
            board = held(given.get(known))
            if board is not None:
                return board
        # A closure's board is often a variable of the enclosing search, not an argument.
        for argument in (*code.co_varnames[: code.co_argcount + code.co_kwonlyargcount], *code.co_freevars):
            board = held(given.get(argument))
            if board is not None:
                found[code] = argument
                return board
        return None

    return from_arguments


def board_text(marks: Sequence[Any]) -> Callable[[Any], str | None]:
    """A reader of one value as a board: nine characters (``X``, ``O``, ``.``) when the value
    holds nine cells (or three rows of three) in a list, tuple, numpy array or string, or a
    dict keyed 1-9, each one of ``marks`` (``[X's cell value, O's, [an empty cell's...]]``);
    else None."""
    symbol = {marks[0]: "X", marks[1]: "O", **{cell: "." for cell in marks[2]}}
    lookup = symbol.__getitem__
    keys = range(1, 10)
    # A search reads the same few thousand boards over and over: a list or tuple of nine
    # cells, or three rows of three, is read once (the reading depends on its cells alone).
    known: dict[Any, str | None] = {}

    def text(value: Any) -> str | None:
        kind = type(value)
        if kind is list or kind is tuple:
            key: Any = None
            if len(value) == 9:
                key = tuple(value)
            elif len(value) == 3 and all(type(row) is list or type(row) is tuple for row in value):
                key = (tuple(value[0]), tuple(value[1]), tuple(value[2]))
            return remembered(key, value)
        if kind.__name__ == "ndarray" and value.dtype.kind in "iubU":  # numbers or text: its bytes tell
            return remembered((value.shape, value.dtype.str, value.tobytes()), value)
        return read(value)

    def remembered(key: Any, value: Any) -> str | None:
        if key is None:
            return read(value)
        try:
            return known[key]
        except KeyError:
            if len(known) >= _KNOWN_BOARDS:
                known.clear()
            board = known[key] = read(value)
            return board
        except TypeError:  # a cell that cannot be hashed (a nested list): never a mark
            return read(value)

    def read(value: Any) -> str | None:
        if isinstance(value, dict):
            if len(value) != 9:
                return None
            try:
                value = [value[key] for key in keys]
            except KeyError:
                return None
        elif not isinstance(value, (list, tuple, str)):
            if not hasattr(value, "tolist"):  # a numpy array
                return None
            value = value.tolist()
            if not isinstance(value, list):
                return None
        if len(value) == 3:
            if not all(isinstance(row, (list, tuple)) and len(row) == 3 for row in value):
                return None
            value = [cell for row in value for cell in row]
        elif len(value) != 9:
            return None
        try:
            return "".join(map(lookup, value))
        except (KeyError, TypeError):  # a cell that is not a mark (unhashable: a nested list)
            return None

    return text


_KNOWN_BOARDS = 20_000
"""Boards a reader remembers (5,478 positions are reachable; beyond these it starts again)."""


# -- the boards named functions are asked about ----------------------------------------------


def watch_boards(
    namespace: dict[str, Any], names: Sequence[str], marks: Sequence[Any]
) -> tuple[Callable[[], None], dict[str, dict[str | None, int]]]:
    """Wrap the notebook globals ``names`` so that each call records the board it is given
    (its first argument, or a ``board`` keyword, read with ``marks`` as in `board_text`), for
    one call of the grader's. Returns the undo and ``{name: {board: calls}}`` (``None``: an
    argument that holds no board). Calls through the global name are seen, so a recursive
    function's own calls count; a name that is not a plain function is left alone.

    A wrapper, not the profile hook: the recorder may be using that, and a wrapper costs only
    the calls it watches."""
    text = board_text(marks)
    seen: dict[str, dict[str | None, int]] = {}
    undo: list[Callable[[], None]] = []

    def wrap(name: str, original: Callable[..., Any]) -> Callable[..., Any]:
        boards = seen[name] = {}

        def watched(*args: Any, **kwargs: Any) -> Any:
            given = args[0] if args else kwargs.get("board")
            try:
                board = text(given)
            except Exception:  # reading must never break the student's call
                board = None
            boards[board] = boards.get(board, 0) + 1
            return original(*args, **kwargs)

        return watched

    for name in names:
        original = namespace.get(name)
        if not callable(original) or isinstance(original, type):
            continue
        wrapper = wrap(name, original)
        namespace[name] = wrapper

        def put_back(name: str = name, original: Any = original, wrapper: Any = wrapper) -> None:
            if namespace.get(name) is wrapper:
                namespace[name] = original

        undo.append(put_back)

    def restore() -> None:
        for step in undo:
            step()

    return restore, seen


# -- positions across the channel: two bytes a board -----------------------------------------

_CELL_VALUE = {".": 0, "X": 1, "O": 2}
_CELL_SYMBOL = ".XO"
_NO_BOARD = 0xFFFF


def pack_boards(boards: Sequence[str | None]) -> str:
    """9-character boards (``X``, ``O``, ``.``; ``None`` for a failed snapshot) as ASCII.

    3**9 boards fit in two bytes: 200,000 steps cross the channel as about 530 kB.
    """
    out = bytearray()
    for board in boards:
        number = _NO_BOARD
        if board is not None and len(board) == 9 and all(c in _CELL_VALUE for c in board):
            number = 0
            for cell in board:
                number = number * 3 + _CELL_VALUE[cell]
        out += number.to_bytes(2, "big")
    return base64.b64encode(bytes(out)).decode("ascii")


def unpack_boards(packed: str) -> list[str | None]:
    raw = base64.b64decode(packed)
    boards: list[str | None] = []
    for i in range(0, len(raw), 2):
        number = int.from_bytes(raw[i : i + 2], "big")
        if number == _NO_BOARD:
            boards.append(None)
            continue
        cells = []
        for _ in range(9):
            number, cell = divmod(number, 3)
            cells.append(_CELL_SYMBOL[cell])
        boards.append("".join(reversed(cells)))
    return boards
