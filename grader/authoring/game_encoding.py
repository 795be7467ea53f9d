"""Which game a solution plays and how it holds the board, read from its answers.

The empty board comes from a function that takes nothing: its shape (a list of rows, a flat
list, a numpy array) and the one symbol of its cells. The successor is the function that, given
that board, a column and a mark, places the mark in exactly one cell (in a new board it returns,
or in the one it is given): the marks it places are the pieces, the cell the first piece lands
in says which row is the top, and a second piece in the same column says, on a flat board, how
many columns a row holds. How many in a line win is left to the board tests
(`grader.authoring.game_inference`).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal, get_args

import numpy as np

from grader.authoring.discovery import Function
from grader.checks.context import CallRunner
from grader.checks.kinds.game_board import MoveAnswer
from grader.execution.channel.call_data import Call, CallOutcome, RemoteObject
from reference.grid_codec import GRID_PRESETS, GridContainer, GridEncoding, GridLayout

WINDOW: dict[str, int] = {"alpha": -(10**9), "beta": 10**9}
"""The full window an alpha-beta that takes one as arguments is called with: wider than any
value a course gives a position (the game-search check fills no ``alpha``/``beta``)."""
LITERALS: dict[str, Any] = {**WINDOW, "maximizing": True}
"""The arguments written as literals in a call: the full window, and the flag of a search that
always plays one side, saying that side is to move (the side is then the check's ``to_move``)."""
SCREEN_SECONDS = 2.0
"""A screening call places one piece or searches one ply: longer is not the function sought."""

_MARK_PAIRS: tuple[tuple[Any, Any], ...] = (("X", "O"), ("x", "o"), ("R", "Y"), ("B", "W"), (1, 2), (1, -1))
"""Pieces courses use, X's first; marks seen in the solution's source outside these pairs come after."""

Returns = Literal["new-board", "in-place"]
RETURNS: tuple[Returns, ...] = get_args(Returns)

ANSWERS_SAID: dict[MoveAnswer, str] = {
    "row": "the row",
    "none": "None",
    "true": "True",
    "column": "the column",
    "object": "the object",
}
"""How init's evidence says what a method that makes or takes back a move returns."""


@dataclass(frozen=True)
class EmptyBoard:
    """The board a function of no arguments returns, before its geometry is known."""

    function: str
    layout: GridLayout
    container: GridContainer
    rows: int | None
    """None for a flat board: the successor tells how the cells fold into rows."""
    cells: int
    empty: Any
    value: Any


@dataclass(frozen=True)
class SlottedCall:
    """A function of the solution and the placeholder each of its parameters takes."""

    function: str
    slots: tuple[str, ...]
    """Placeholders in the order of its parameters: ``("board", "move", "to_move")``."""

    @property
    def call_text(self) -> str:
        return f"{self.function}({', '.join(str(LITERALS.get(slot, slot)) for slot in self.slots)})"


@dataclass(frozen=True)
class SuccessorReading(SlottedCall):
    """The successor, its argument order, and what it does with the board."""

    returns: Returns
    row_function: SlottedCall | None = None
    """For a successor told the row (``drop_piece(board, row, col, piece)``): the function of
    the board and a column that answers it (``get_next_open_row(board, col)``)."""
    answers: MoveAnswer | None = None
    """What one that changes the board in place returns (`GameSuccessorParams.answers`)."""


@dataclass(frozen=True)
class BoardReading:
    empty_board: EmptyBoard
    successor: SuccessorReading
    encoding: GridEncoding
    evidence: str


def cells_of(value: Any) -> list[Any] | None:
    """The cells of a board answer row by row, or None for what is not a board."""
    if isinstance(value, np.ndarray):
        return list(value.reshape(-1).tolist()) if value.ndim in (1, 2) else None
    if not isinstance(value, (list, tuple)) or not value:
        return None
    if all(isinstance(row, (list, tuple)) for row in value):
        if len({len(row) for row in value}) != 1:
            return None
        return [cell for row in value for cell in row]
    return list(value)


def _scalar(cell: Any) -> bool:
    return isinstance(cell, (str, int)) and not isinstance(cell, bool)


def read_empty_board(runner: CallRunner, functions: Sequence[Function]) -> EmptyBoard | None:
    """The first function of no arguments that returns a board of one symbol, 16 cells or more."""
    makers = [f for f in functions if not f.required and f.owner is None and "input" not in f.free_names]
    outcomes = runner.call_many([Call(f.name, timeout=SCREEN_SECONDS, check_mutation=False) for f in makers])
    for function, outcome in zip(makers, outcomes):
        found = empty_board_of(function.name, outcome.value) if outcome.ok else None
        if found is not None:
            return found
    return None


def empty_board_of(source: str, value: Any) -> EmptyBoard | None:
    """``value`` as an empty board of one symbol, 16 cells or more (``source`` gave it); None
    when it is not one."""
    cells = cells_of(value)
    if not cells or len(cells) < 16 or len(set(map(repr, cells))) != 1 or not _scalar(cells[0]):
        return None
    if isinstance(value, np.ndarray):
        container: GridContainer = "numpy"
        nested = value.ndim == 2
    else:
        assert isinstance(value, (list, tuple))  # `cells_of` reads nothing else
        container = "list" if isinstance(value, list) else "tuple"
        nested = isinstance(value[0], (list, tuple))
    rows = len(value) if nested else None
    layout: GridLayout = "rows" if nested else "flat"
    return EmptyBoard(source, layout, container, rows, len(cells), cells[0], value)


def held_board(runner: CallRunner, classes: dict[str, tuple[Any, ...]], attributes: dict[str, tuple[str, ...]]) -> str:
    """``Game().board`` when an object a class makes with no arguments holds an empty board of
    16 cells or more in an attribute; empty otherwise."""
    for name, parameters in classes.items():
        if any(not p.has_default for p in parameters):
            continue
        fields = attributes.get(name, ())
        calls = [Call(name, then=(("__getattribute__", (field,), {}),), timeout=SCREEN_SECONDS) for field in fields]
        for field, outcome in zip(fields, runner.call_many(calls)):
            if outcome.ok and empty_board_of(name, outcome.value) is not None:
                return f"{name}().{field}"
    return ""


def slot_orders(function: Function, slots: tuple[str, ...], hints: dict[str, tuple[str, ...]]) -> list[tuple[str, ...]]:
    """Every order of ``slots`` over the function's required parameters, those its parameter
    names suggest first (``col`` for the move, ``depth`` for the depth limit)."""
    names = [p.name.lower() for p in function.required]
    if len(names) != len(slots) or function.owner is not None:
        return []

    def fit(order: tuple[str, ...]) -> int:
        return -sum(any(h in name for h in hints.get(slot, ())) for name, slot in zip(names, order))

    orders = [o for o in itertools.permutations(slots) if "alpha" not in o or o.index("alpha") < o.index("beta")]
    return sorted(orders, key=fit)[:MOST_ORDERS]


MOST_ORDERS = 12
"""The argument orders a function is tried with, those its parameter names suggest first."""

HINTS: dict[str, tuple[str, ...]] = {
    "alpha": ("alpha", "lower", "low"),
    "beta": ("beta", "upper", "high"),
    "board": ("board", "state", "grid", "position"),
    "move": ("col", "move", "action", "column"),
    "to_move": ("piece", "player", "mark", "turn", "who", "side"),
    "player": ("piece", "player", "mark", "turn", "who", "side"),
    "depth_limit": ("depth", "limit", "ply", "plies"),
    "row": ("row",),
    "maximizing": ("maximiz", "is_max", "ismax", "max_player", "maxplayer"),
}


def candidate_marks(empty: Any, literals: Iterable[str]) -> list[Any]:
    """The pieces a successor is tried with: the course pairs' of the empty cell's type, then the
    one-character strings of the solution's source."""
    if isinstance(empty, str):
        known = [m for pair in _MARK_PAIRS for m in pair if isinstance(m, str)]
        return list(dict.fromkeys([*known, *sorted(s for s in literals if s.strip() and s != empty)]))
    return [m for m in dict.fromkeys(m for pair in _MARK_PAIRS for m in pair) if isinstance(m, int) and m != empty]


def _placed(before: list[Any], after: Any) -> tuple[int, Any] | None:
    """The one cell ``after`` changed from ``before`` and what it holds; None otherwise."""
    cells = cells_of(after)
    if cells is None or len(cells) != len(before):
        return None
    changed = [i for i, (a, b) in enumerate(zip(before, cells)) if repr(a) != repr(b)]
    return (changed[0], cells[changed[0]]) if len(changed) == 1 else None


def _board_after(outcome: CallOutcome, board_arg: int, returns: Returns) -> Any:
    return outcome.value if returns == "new-board" else outcome.changed_args.get(board_arg)


def _landing(runner: CallRunner, row_function: SlottedCall | None, board: Any, col: int) -> Any:
    """The row ``row_function`` says a piece dropped into ``col`` lands in; None without one."""
    if row_function is None:
        return None
    values = {"board": board, "move": col}
    call = Call(row_function.function, tuple(values[s] for s in row_function.slots), timeout=SCREEN_SECONDS)
    (outcome,) = runner.call_many([call])
    return outcome.value if outcome.ok else None


def _drop(runner: CallRunner, reading: SuccessorReading, board: Any, col: int, mark: Any) -> CallOutcome:
    row = _landing(runner, reading.row_function, board, col)
    values = {"board": board, "move": col, "to_move": mark, "row": row}
    return runner.call_many([Call(reading.function, tuple(values[s] for s in reading.slots), timeout=SCREEN_SECONDS)])[
        0
    ]


def read_row_function(runner: CallRunner, functions: Sequence[Function], empty: EmptyBoard) -> SlottedCall | None:
    """A function of the board and a column answering, for every column of the empty board, the
    same row, the first or the last: the row a piece dropped there lands in."""
    if empty.rows is None:
        return None
    cols = empty.cells // empty.rows
    for function in functions:
        for slots in slot_orders(function, ("board", "move"), HINTS):
            values = [{"board": empty.value, "move": col} for col in range(cols)]
            calls = [Call(function.name, tuple(v[s] for s in slots), timeout=SCREEN_SECONDS) for v in values]
            answers = {
                o.value
                for o in runner.call_many(calls)
                if o.ok and not o.mutated and isinstance(o.value, int) and not isinstance(o.value, bool)
            }
            if len(answers) == 1 and answers <= {0, empty.rows - 1}:
                return SlottedCall(function.name, slots)
    return None


def read_successor(
    runner: CallRunner, functions: Sequence[Function], empty: EmptyBoard, marks: Sequence[Any]
) -> tuple[SuccessorReading, list[Any], int] | None:
    """The successor, the marks it places and the cell the first piece in column 0 lands in. One
    that is told the row is given the row the solution's own function of a column answers."""
    before = cells_of(empty.value)
    assert before is not None
    row_function = read_row_function(runner, functions, empty)
    row = _landing(runner, row_function, empty.value, 0)
    kinds = [("board", "move", "to_move")] + ([("board", "row", "move", "to_move")] if row is not None else [])
    for function in functions:
        for slots in (order for kind in kinds for order in slot_orders(function, kind, HINTS)):
            values = [{"board": empty.value, "move": 0, "to_move": mark, "row": row} for mark in marks]
            calls = [Call(function.name, tuple(v[s] for s in slots), timeout=SCREEN_SECONDS) for v in values]
            outcomes = runner.call_many(calls)
            for returns in RETURNS:
                board_arg = slots.index("board")
                placed = [
                    (mark, found)
                    for mark, outcome in zip(marks, outcomes)
                    if outcome.ok
                    and (returns == "in-place" or not outcome.mutated)
                    and (found := _placed(before, _board_after(outcome, board_arg, returns))) is not None
                    and repr(found[1]) == repr(mark)
                ]
                if len(placed) >= 2 and len({cell for _, (cell, _) in placed}) == 1:
                    told = row_function if "row" in slots else None
                    reading = SuccessorReading(function.name, slots, returns, told)
                    return reading, [mark for mark, _ in placed], placed[0][1][0]
    return None


def _pieces(placed: Sequence[Any]) -> tuple[Any, Any]:
    """X's mark and O's among those the successor placed: a course pair when one fits."""
    for x, o in _MARK_PAIRS:
        if any(repr(m) == repr(x) for m in placed) and any(repr(m) == repr(o) for m in placed):
            return x, o
    return placed[0], placed[1]


def read_board(runner: CallRunner, functions: Sequence[Function], literals: Iterable[str]) -> BoardReading | str:
    """The board's encoding, or why it could not be read."""
    empty = read_empty_board(runner, functions)
    if empty is None:
        return "no function of no arguments returns an empty board of 16 cells or more"
    found = read_successor(runner, functions, empty, candidate_marks(empty.empty, literals))
    if found is None:
        return f"{empty.function}() gives an empty board, but no function drops a piece into it"
    successor, placed, first_cell = found
    x, o = _pieces(placed)
    board_arg = successor.slots.index("board")
    first = _drop(runner, successor, empty.value, 0, x)
    once = _board_after(first, board_arg, successor.returns)
    second_drop = _drop(runner, successor, once, 0, o)
    twice = _board_after(second_drop, board_arg, successor.returns)
    start = cells_of(once)
    second = _placed(start, twice) if start is not None else None
    if second is None:
        return f"{successor.function} does not drop a second piece onto the first"
    cols = abs(second[0] - first_cell) if empty.rows is None else empty.cells // empty.rows
    if cols < 1 or empty.cells % cols or first_cell % cols or abs(second[0] - first_cell) != cols:
        return f"{successor.function} drops pieces in column 0 into cells {first_cell} and {second[0]}: no column"
    rows = empty.cells // cols
    top_row_first = first_cell // cols == rows - 1
    encoding = GridEncoding(rows, cols, empty.layout, empty.container, empty.empty, x, o, top_row_first=top_row_first)
    preset = next((name for name, p in GRID_PRESETS.items() if p.sized(rows, cols) == encoding), "")
    told = successor.row_function
    if successor.returns == "in-place":
        values = [first.value, second_drop.value]
        successor = replace(successor, answers=move_answer(values, [first_cell // cols, second[0] // cols], [0, 0]))
    evidence = (
        f"{empty.function}() gives {encoding.description}; {successor.call_text} drops a piece into row "
        f"{first_cell // cols} of column 0, then the next on top of it"
        + (f", told the row by {told.call_text}" if told is not None else "")
        + (f", and returns {ANSWERS_SAID[successor.answers]}" if successor.answers else "")
    )
    return BoardReading(empty, successor, replace(encoding, name=preset), evidence)


def move_answer(values: Sequence[Any], rows: Sequence[int], cols: Sequence[int], holder: str = "") -> MoveAnswer | None:
    """What a function or method that makes or takes back a move returned on each call, the
    piece's row and column given (`GameSuccessorParams.answers`); None when it is none of the
    kinds a stand-in can answer alike."""
    if all(value is None for value in values):
        return "none"
    if all(value is True for value in values):
        return "true"
    if holder and all(isinstance(v, RemoteObject) and v.type_name == holder.rpartition(".")[2] for v in values):
        return "object"
    if all(isinstance(value, int) and not isinstance(value, bool) for value in values):
        return "row" if list(values) == list(rows) else "column" if list(values) == list(cols) else None
    return None
