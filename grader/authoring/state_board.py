"""The course's own board object, for `grader init`: a class of the course's support modules
that, made with no arguments, holds an empty board of 16 cells or more in an attribute, and,
made from a board, holds that board there (``ConnectFourBoard(board)``, read back through
``board_array``). The pieces, which of them moves first and which row is the top come from the
solution's own function that answers the boards one move away: the cell each of its boards
fills, from the empty board and from the first of them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import nbformat

from grader.authoring.discovery import Discovered, Function, discover
from grader.authoring.game_encoding import SCREEN_SECONDS, cells_of
from grader.checks.context import CallRunner
from grader.execution.channel.call_data import Call, DefinedNames, KernelMade, RemoteObject
from reference.connect4 import ConnectK
from reference.grid_codec import GridContainer, GridEncoding


@dataclass(frozen=True)
class BoardObject:
    """The course's board class, where it holds the board, and the encoding of that board."""

    factory: str
    """The class, as the kernel names it."""
    parameter: str | None
    """The constructor's parameter that takes the board; None: the first, by position."""
    attribute: str
    encoding: GridEncoding
    next_boards: Function
    """The solution's function that answered the boards one move away."""
    evidence: str

    @property
    def made_text(self) -> str:
        return f"{self.factory}({'board' if self.parameter is None else self.parameter + '=board'})"

    def make(self, grid: Any) -> KernelMade:
        """The board object, made in the kernel from ``grid``."""
        if self.parameter is None:
            return KernelMade(self.factory, (grid,))
        return KernelMade(self.factory, (), ((self.parameter, grid),))

    def grid_of(self, value: Any) -> Any | None:
        """The board a returned object holds, or None for what is not one of the course's boards."""
        if not isinstance(value, RemoteObject) or value.type_name != self.factory.rsplit(".", 1)[-1]:
            return None
        return (value.attributes or {}).get(self.attribute)

    def game_table(self, game: ConnectK) -> dict[str, Any]:
        """The ``[game]`` table: the size, the encoding field by field, the object."""
        encoding = self.encoding
        return {
            "name": "connect-four",
            "rows": game.rows,
            "cols": game.cols,
            "k": game.k,
            "layout": "rows",
            "container": encoding.container,
            "empty": encoding.empty,
            "x": encoding.x,
            "o": encoding.o,
            "top_row_first": encoding.top_row_first,
            "board_object": self.made_text,
            "board_attribute": self.attribute,
        }


def course_definitions(sources: Sequence[str], defined: DefinedNames) -> Discovered:
    """The classes and functions the course's support modules define that the solution's kernel
    holds (``from game_api import *``)."""
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(source) for source in sources])
    return discover(notebook, defined)


def read_board_object(runner: CallRunner, course: Discovered, functions: Sequence[Function]) -> BoardObject | str:
    """The course's board object and its encoding, or why none was found. ``functions``: the
    solution's functions of one board, among which the one that answers the boards one move away."""
    tried = []
    for name, parameters in course.classes.items():
        if any(not p.has_default for p in parameters):
            continue
        (made,) = runner.call_many([Call(name, timeout=SCREEN_SECONDS, check_mutation=False)])
        if not made.ok or not isinstance(made.value, RemoteObject) or not made.value.attributes:
            continue
        for attribute, value in made.value.attributes.items():
            empty = _empty_grid(value)
            if empty is None:
                continue
            tried.append(f"{name}().{attribute}")
            found = _made_from_board(runner, name, parameters, attribute, value)
            if found is False:
                continue
            board = BoardObject(
                name, None if found is True else str(found), attribute, empty, functions[0] if functions else _NONE, ""
            )
            read = _read_pieces(runner, board, functions)
            if read is not None:
                return read
    if not tried:
        return "no class of the course's modules, made with no arguments, holds an empty board of 16 cells or more"
    return f"{', '.join(tried)} holds an empty board, but no function of the solution answers the boards one move away"


_NONE = Function("", ())


def _empty_grid(value: Any) -> GridEncoding | None:
    """The encoding's shape of a list of rows of one scalar symbol, 16 cells or more."""
    cells = cells_of(value)
    if not cells or len(cells) < 16 or len(set(map(repr, cells))) != 1:
        return None
    if not isinstance(value, (list, tuple)) or not isinstance(value[0], (list, tuple)):
        return None
    empty = cells[0]
    if isinstance(empty, bool) or not isinstance(empty, (str, int)):
        return None
    container: GridContainer = "list" if isinstance(value, list) else "tuple"
    return GridEncoding(len(value), len(value[0]), "rows", container, empty, "?x", "?o")


def _made_from_board(
    runner: CallRunner, name: str, parameters: Sequence[Any], attribute: str, empty: Any
) -> str | bool:
    """The constructor's parameter that takes the board (True: the first, by position), or
    False when no parameter's board is the one the attribute then holds. The board given holds
    one piece in a corner of the first row, then of the last (whichever is the bottom row, for
    a class that refuses a floating piece): a board other than the default one."""
    for row in (0, len(empty) - 1):
        grid = [list(cells) for cells in empty]
        grid[row][0] = _other(empty[row][0])
        calls = [Call(name, (grid,), timeout=SCREEN_SECONDS, check_mutation=False)]
        calls += [Call(name, kwargs={p.name: grid}, timeout=SCREEN_SECONDS, check_mutation=False) for p in parameters]
        for index, outcome in enumerate(runner.call_many(calls)):
            value = outcome.value if outcome.ok and isinstance(outcome.value, RemoteObject) else None
            held = (value.attributes or {}).get(attribute) if value is not None else None
            if held is not None and cells_of(held) == [cell for cells in grid for cell in cells]:
                return True if index == 0 else parameters[index - 1].name
    return False


def _other(cell: Any) -> Any:
    return cell + 1 if isinstance(cell, int) else cell + "?"


def _read_pieces(runner: CallRunner, board: BoardObject, functions: Sequence[Function]) -> BoardObject | None:
    """The board object with its pieces and orientation, read from the first function that
    answers the boards one move away: one per column of the empty board, each one cell filled in
    the column's bottom row, then the second side's from the first of them."""
    rows, cols, empty = board.encoding.rows, board.encoding.cols, board.encoding.empty
    blank = [[empty] * cols for _ in range(rows)]
    for function in functions:
        first = _children(runner, board, function, blank)
        if first is None or len(first) != cols:
            continue
        changes = [_changed(blank, grid) for grid in first]
        if any(c is None for c in changes) or [c[1] for c in changes] != list(range(cols)):  # type: ignore[index]
            continue
        landing = {c[0] for c in changes}  # type: ignore[index]
        pieces = {c[2] for c in changes}  # type: ignore[index]
        if len(landing) != 1 or len(pieces) != 1 or landing.isdisjoint({0, rows - 1}):
            continue
        (row,), (x,) = landing, pieces
        second = _children(runner, board, function, [list(r) for r in first[0]])
        replies = [_changed(first[0], grid) for grid in second or []]
        marks = {c[2] for c in replies if c is not None}
        if len(marks) != 1 or x in marks:
            continue
        (o,) = marks
        encoding = GridEncoding(rows, cols, "rows", board.encoding.container, empty, x, o, row == rows - 1)
        where = "the bottom row, the last" if row == rows - 1 else "the bottom row, the first"
        evidence = (
            f"`{board.made_text}` keeps the board in `.{board.attribute}` ({rows} rows of {cols}, "
            f"{empty!r} empty); `{function.name}` answers a board of the course's class for each column, "
            f"the first piece {x!r} in {where}, the reply {o!r}"
        )
        return BoardObject(board.factory, board.parameter, board.attribute, encoding, function, evidence)
    return None


def _children(runner: CallRunner, board: BoardObject, function: Function, grid: Any) -> list[Any] | None:
    (outcome,) = runner.call_many(
        [Call(function.name, (board.make(grid),), timeout=SCREEN_SECONDS, check_mutation=False)]
    )
    if not outcome.ok or not isinstance(outcome.value, (list, tuple)):
        return None
    grids = [board.grid_of(item) for item in outcome.value]
    return None if any(g is None for g in grids) else grids


def _changed(before: Any, after: Any) -> tuple[int, int, Any] | None:
    """(row, col, mark) of the one cell ``after`` fills, or None."""
    found = [
        (r, c, after[r][c])
        for r in range(len(before))
        for c in range(len(before[r]))
        if len(after) > r and len(after[r]) > c and after[r][c] != before[r][c]
    ]
    return found[0] if len(found) == 1 else None
