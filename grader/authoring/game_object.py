"""A Connect-Four solution whose board is held by an object: a class made with no arguments
whose attribute holds the empty board (``ConnectFour().board``), a method that drops a piece
into it (``make_move(col)``, the piece the object's side to move, kept in an attribute or
counted from the board) and one that takes it back (``undo_move(col)``); the searches make and undo moves on the one
object.

Read by calling the methods on objects the kernel makes, each given the board (and the side to
move, when the object keeps it) in its attributes: the method that places one piece in column 0
of a fresh object is the successor, the piece it places X's, the attribute that then changes to
another mark the side to move, and the piece it places next O's. A method told the piece
(``make_move(col, piece)``) is not read yet. The other methods are read as functions of
the board object (``ConnectFour.check_win(board, player)``, which Python calls as
``board.check_win(player)``) by the same role readers as a board passed as an argument
(`grader.authoring.game_roles_connect`), with every board they are given made into the object.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from grader.authoring.discovery import Discovered, Function, Parameter
from grader.authoring.draft import DraftCheck, call, slug
from grader.authoring.game_encoding import (
    ANSWERS_SAID,
    HINTS,
    SCREEN_SECONDS,
    BoardReading,
    SlottedCall,
    SuccessorReading,
    candidate_marks,
    cells_of,
    empty_board_of,
    held_board,
    move_answer,
    slot_orders,
)
from grader.checks.context import CallRunner
from grader.checks.kinds.game_board import GameSuccessorParams, MoveAnswer
from grader.execution.channel.call_data import Call, CallOutcome, KernelMade
from reference.connect4 import ConnectK
from reference.connect_endings import play
from reference.grid_codec import GRID_PRESETS, GridEncoding

__all__ = ["HeldEncoding", "HeldReading", "read_held", "undo_check"]


@dataclass(frozen=True)
class HeldEncoding(GridEncoding):
    """The course's encoding, each board it encodes made into the course's object in the kernel
    (``ConnectFour()``, the board written to its attribute, the side to move to another): what
    the role readers hand the methods as the board."""

    holder: str = ""
    attribute: str = ""
    turn: str = ""

    def encode(self, state: Any) -> Any:
        written = [(self.attribute, super().encode(state))]
        if self.turn:
            counts = (state.cells.count("X"), state.cells.count("O"))
            written.append((self.turn, self.symbol("X" if counts[0] <= counts[1] else "O")))
        return KernelMade(self.holder, attributes=tuple(written))


@dataclass(frozen=True)
class HeldReading:
    reading: BoardReading
    """The board as the course's own encoding (the ``[game]`` table's), its successor the method."""
    probing: HeldEncoding
    holder: str
    attribute: str
    turn: str
    undo: SlottedCall | None
    """The method that takes a piece back, called as the successor is."""
    methods: tuple[Function, ...]
    """The class's methods as functions of the board object (its first parameter)."""
    undo_answers: MoveAnswer | None = None
    """What the take-back returns (`GameSuccessorParams.answers`); None: nothing init knows."""

    def game_fields(self) -> dict[str, str]:
        """The ``[game]`` table's fields that say where the board is."""
        fields = {"board_object": f"{self.holder}()", "board_attribute": self.attribute}
        return fields | ({"turn_attribute": self.turn} if self.turn else {})


def as_function(method: Function) -> Function:
    """A method as a function of the object holding the board, then its own parameters."""
    return dataclasses.replace(method, parameters=(Parameter("board", False), *method.parameters), owner=None)


def _board_first(function: Function, kind: tuple[str, ...]) -> list[tuple[str, ...]]:
    return [order for order in slot_orders(function, kind, HINTS) if order[0] == "board"]


def read_held(runner: CallRunner, discovered: Discovered, literals: Iterable[str]) -> HeldReading | str:
    """How the solution's object holds the board, or why it could not be read (empty when no
    object holds one)."""
    held = held_board(runner, discovered.classes, discovered.attributes)
    if not held:
        return ""
    holder, _, attribute = held.partition("().")
    fields = discovered.attributes.get(holder, ())
    fresh = runner.call_many(
        [Call(holder, then=(("__getattribute__", (f,), {}),), timeout=SCREEN_SECONDS) for f in fields]
    )
    start = {f: o.value for f, o in zip(fields, fresh) if o.ok}
    empty = empty_board_of(f"{holder}().{attribute}", start[attribute])
    if empty is None:
        return f"{held} holds a board init cannot read"
    methods = [as_function(f) for f in discovered.functions if f.owner == holder]
    marks = candidate_marks(empty.empty, literals)
    found = _successor(runner, holder, attribute, methods, empty.value)
    if found is None:
        return f"{held} holds the board, but no method of {holder} drops a piece into it"
    successor, first_cell, x_mark, after, first_value = found
    turn = next(
        (
            f
            for f in fields
            if f != attribute
            and repr(start.get(f)) == repr(x_mark)
            and any(repr(getattr(after, f, None)) == repr(m) for m in marks if repr(m) != repr(x_mark))
        ),
        "",
    )
    once = getattr(after, attribute)
    twice, second_value = _drop(
        runner, holder, successor, {attribute: once, **({turn: getattr(after, turn)} if turn else {})}
    )
    cells = cells_of(once)
    second = _one_changed(cells, getattr(twice, attribute, None)) if twice is not None and cells else None
    if second is None or repr(placed := cells_of(getattr(twice, attribute))[second]) == repr(x_mark):  # type: ignore[index]
        return f"{successor.function} does not drop the other side's piece onto the first"
    o_mark: Any = placed
    cols = abs(second - first_cell) if empty.rows is None else empty.cells // empty.rows
    if cols < 1 or empty.cells % cols or first_cell % cols or abs(second - first_cell) != cols:
        return f"{successor.function} drops pieces in column 0 into cells {first_cell} and {second}: no column"
    rows = empty.cells // cols
    grid = GridEncoding(
        rows,
        cols,
        empty.layout,
        empty.container,
        empty.empty,
        x_mark,
        o_mark,
        top_row_first=first_cell // cols == rows - 1,
    )
    preset = next((name for name, p in GRID_PRESETS.items() if p.sized(rows, cols) == grid), "")
    grid = dataclasses.replace(grid, name=preset)
    probing = HeldEncoding(
        **{f.name: getattr(grid, f.name) for f in dataclasses.fields(GridEncoding)},
        holder=holder,
        attribute=attribute,
        turn=turn,
    )
    answers = move_answer([first_value, second_value], [first_cell // cols, second // cols], [0, 0], holder)
    successor = dataclasses.replace(successor, answers=answers)
    found_undo = _undo(runner, probing, successor, methods)
    undo, undo_answers = found_undo if found_undo is not None else (None, None)
    evidence = (
        f"{held} gives {grid.description}; {successor.call_text} drops a piece into row {first_cell // cols} of "
        f"column 0, then the next on top of it"
        + (f", and returns {ANSWERS_SAID[answers]}" if answers else "")
        + (f"; {turn} says who moves, {x_mark!r} then {o_mark!r}" if turn else "")
        + (f"; {undo.call_text} takes a piece back" if undo is not None else "")
        + (f" and returns {ANSWERS_SAID[undo_answers]}" if undo_answers else "")
    )
    reading = BoardReading(empty, successor, grid, evidence)
    others = tuple(m for m in methods if m.name not in (successor.function, undo.function if undo else ""))
    return HeldReading(reading, probing, holder, attribute, turn, undo, others, undo_answers)


def _made(holder: str, written: dict[str, Any]) -> KernelMade:
    return KernelMade(holder, attributes=tuple(written.items()))


def _drop(runner: CallRunner, holder: str, successor: SlottedCall, written: dict[str, Any]) -> tuple[Any, Any]:
    """The object after ``successor`` dropped a piece into column 0 of one made with ``written``
    (None if the call failed), and what the call returned."""
    values = {"board": _made(holder, written), "move": 0}
    call = Call(successor.function, tuple(values[s] for s in successor.slots), read_after=(0,), timeout=SCREEN_SECONDS)
    (outcome,) = runner.call_many([call])
    return (outcome.after.get(0), outcome.value) if outcome.ok else (None, None)


def _one_changed(before: list[Any], board: Any) -> int | None:
    cells = cells_of(board)
    if cells is None or len(cells) != len(before):
        return None
    changed = [i for i, (a, b) in enumerate(zip(before, cells)) if repr(a) != repr(b)]
    return changed[0] if len(changed) == 1 else None


def _successor(
    runner: CallRunner, holder: str, attribute: str, methods: Sequence[Function], empty: Any
) -> tuple[SuccessorReading, int, Any, Any, Any] | None:
    """The method that drops one piece into column 0 of a fresh object: its reading, the cell,
    the piece (X's), the object after and what the call returned."""
    before = cells_of(empty)
    assert before is not None
    for method in methods:
        for slots in _board_first(method, ("board", "move")):
            after, value = _drop(runner, holder, SlottedCall(method.name, slots), {})
            board = getattr(after, attribute, None)
            cell = _one_changed(before, board)
            if cell is not None:
                piece = cells_of(board)[cell]  # type: ignore[index]
                return SuccessorReading(method.name, slots, "in-place"), cell, piece, after, value
    return None


def _undo(
    runner: CallRunner, encoding: HeldEncoding, successor: SlottedCall, methods: Sequence[Function]
) -> tuple[SlottedCall, MoveAnswer | None] | None:
    """The method that, called as the successor is on the position after a move, gives back the
    position before it (the board, and the side to move), and what it returns."""
    game = ConnectK(encoding.rows, encoding.cols, 4)
    asked = [((0,), 0), ((0, 0), 0), ((3, 0, 1), 1)]
    heights = (0, 1, 0)  # of the piece each takes back, counted from the bottom
    rows = [encoding.rows - 1 - h if encoding.top_row_first else h for h in heights]
    for method in methods:
        if method.name == successor.function:
            continue
        for slots in _board_first(method, successor.slots):
            calls = [
                Call(
                    method.name,
                    _args(slots, encoding.encode(play(game, moves)), col),
                    read_after=(0,),
                    timeout=SCREEN_SECONDS,
                )
                for moves, col in asked
            ]
            outcomes = runner.call_many(calls)
            if all(_restored(encoding, play(game, moves[:-1]), o) for (moves, _), o in zip(asked, outcomes)):
                values = [o.value for o in outcomes]
                return SlottedCall(method.name, slots), move_answer(
                    values, rows, [c for _, c in asked], encoding.holder
                )
    return None


def _args(slots: Sequence[str], board: Any, col: int) -> tuple[Any, ...]:
    return tuple({"board": board, "move": col}[s] for s in slots)


def _restored(encoding: HeldEncoding, state: Any, outcome: CallOutcome) -> bool:
    after = outcome.after.get(0) if outcome.ok else None
    wanted = encoding.encode(state)
    return after is not None and all(
        repr(getattr(after, name, None)) == repr(value) for name, value in wanted.attributes
    )


def undo_check(undo: SlottedCall, evidence: str, answers: MoveAnswer | None = None) -> DraftCheck:
    """The check of the method that takes a piece back: asked on the position after a move, it
    must leave the object as it was before it (the board, and the side to move); ``answers``:
    what it returns."""
    return DraftCheck(
        slug(undo.function),
        "undo",
        f"{undo.function} takes the piece back, the object as it was before the move",
        "game-successor",
        GameSuccessorParams(call(undo.call_text), "undone", answers=answers),
        f"{evidence}; {undo.call_text} on the position after a move gives back the one before it",
    )
