"""The successor and the initial state of a solution, read from its answers.

A successor takes the board and a move (and perhaps the mark to place): asked to play moves on
free cells, it either returns the new board and leaves the given one alone, or plays on the
given board and returns True. Asked to play on a taken cell or off the board, it shows how it
refuses such a move: it raises, returns None or returns False, leaving the board alone. Each
behaviour is kept only when every answer of its kind shows it; a check is written for what
was seen, and the evidence says so.

An initial state takes nothing and returns the empty board.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from grader.authoring.draft import DraftCheck, call, slug
from grader.authoring.probes import SCREEN_CALL_TIMEOUT, Conventions, Prober
from grader.authoring.signatures import Signature
from grader.checks.answers import MoveCodec
from grader.checks.kinds.initial import InitialStateParams
from grader.checks.kinds.state import OFF_BOARD, Invalid, SuccessorParams
from grader.execution.channel.calls import CallOutcome, CallStatus
from grader.spec.model import MOVE_FORMATS, MoveFormat
from reference import BoardGame, MalformedBoard, Position

Refusal = Literal["raise", "none", "false"]

_PLAYED = ((), (0, 4), (0, 1, 4, 8), (0, 1, 2, 4, 7))
"""The games whose positions a successor is asked to play every move of the first position on
(tic-tac-toe's ``...../X...O..../XO..X...O/XOX.O..X.`` begun by X, the marks swapped begun by O)."""


@dataclass(frozen=True)
class _Case:
    board: Position
    move: Any
    expected: Position | None
    """The new board; None for a move to refuse."""
    refused: Invalid | None = None


def _played(game: BoardGame[Position, int], moves: tuple[int, ...]) -> Position:
    board = game.initial_state()
    for move in moves:
        board = game.result(board, move)
    return board


def _cases(game: BoardGame[Position, int], move_format: MoveFormat) -> list[_Case]:
    boards = [_played(game, moves) for moves in _PLAYED]
    codec = MoveCodec(move_format)
    every = game.actions(game.initial_state())
    cases = []
    for board in boards:
        legal = game.actions(board)
        for cell in every:
            if cell in legal:
                cases.append(_Case(board, codec.write(cell), game.result(board, cell)))
            else:
                cases.append(_Case(board, codec.write(cell), None, "occupied"))
    cases += [_Case(boards[0], move, None, "off-board") for move in OFF_BOARD[move_format]]
    cases += [_Case(boards[1], move, None, "off-board") for move in OFF_BOARD[move_format]]
    return cases


def _refusal(outcome: CallOutcome) -> Refusal | None:
    """How a call refused a move: None when it did not (it played it, or changed the board)."""
    if outcome.mutated:
        return None
    if outcome.status is CallStatus.RAISED:
        return "raise"
    if outcome.ok and outcome.value is None:
        return "none"
    if outcome.ok and outcome.value is False:
        return "false"
    return None


def _returns(prober: Prober, conventions: Conventions, board_arg: int, case: _Case, outcome: CallOutcome) -> str | None:
    """How a legal move came back: ``state`` (a new board, the given one alone), ``played``
    (True, the given board holding the move), or None (wrong)."""
    ctx = prober.context(conventions)
    if not outcome.ok:
        return None
    try:
        if not outcome.mutated and outcome.value is not None and ctx.decode_board(outcome.value) == case.expected:
            return "state"
        if outcome.value is True and board_arg in outcome.changed_args:
            return "played" if ctx.decode_board(outcome.changed_args[board_arg]) == case.expected else None
    except MalformedBoard:
        return None
    return None


@dataclass(frozen=True)
class Successor:
    signature: Signature
    move_format: MoveFormat
    returns: Literal["state", "played"]
    invalid: Refusal | None
    refuses: tuple[Invalid, ...]
    evidence: str

    def check(self, assignment_move: MoveFormat | None) -> DraftCheck:
        name = self.signature.function.name
        params = SuccessorParams(
            call(self.signature.call_text(player="to_move")),
            board_attribute="",
            returns=self.returns,
            invalid=self.invalid or "none",
            refuses=self.refuses,
            move=None if self.move_format == assignment_move else self.move_format,
        )
        title = f"{name} plays a move" + (" and refuses the moves it may not play" if self.refuses else "")
        return DraftCheck(slug(name), "successor", title, "successor", params, f"{name}: {self.evidence}")


def read_successor(
    prober: Prober, signature: Signature, conventions: Conventions, formats: Sequence[MoveFormat]
) -> Successor | None:
    """The successor ``signature`` is, under the first of ``formats`` (then the others) its
    legal moves fit; None when no format makes every legal move right."""
    if signature.inputs not in (("move",), ("move", "player"), ("player", "move")):
        return None
    board_arg = signature.slots.index("board") if "board" in signature.slots else None
    if board_arg is None or signature.constructor is not None or signature.literal is not None:
        return None
    for move_format in dict.fromkeys([*formats, *MOVE_FORMATS]):
        game = conventions.game
        cases = _cases(game, move_format)
        asked = [{"board": c.board, "player": game.to_move(c.board), "move": c.move} for c in cases]
        outcomes = prober.ask(signature, conventions, asked)
        legal = [(c, o) for c, o in zip(cases, outcomes) if c.expected is not None]
        returned = {_returns(prober, conventions, board_arg, c, o) for c, o in legal}
        if len(returned) != 1 or None in returned:
            continue
        returns: Literal["state", "played"] = "played" if "played" in returned else "state"
        return _successor(signature, move_format, returns, len(legal), cases, outcomes)
    return None


def _successor(
    signature: Signature,
    move_format: MoveFormat,
    returns: Literal["state", "played"],
    legal: int,
    cases: Sequence[_Case],
    outcomes: Sequence[CallOutcome],
) -> Successor:
    """The refusals every answer of a kind shows; the first refusal seen decides the check's
    ``invalid`` when the kinds are refused differently (the other is left out, said)."""
    shown: dict[Invalid, tuple[Refusal | None, int]] = {}
    for kind in ("occupied", "off-board"):
        seen = {_refusal(o) for c, o in zip(cases, outcomes) if c.refused == kind}
        count = sum(c.refused == kind for c in cases)
        shown[kind] = (next(iter(seen)) if len(seen) == 1 else None, count)
    invalid = next((how for how, _ in shown.values() if how is not None), None)
    refuses = tuple(kind for kind, (how, _) in shown.items() if how is not None and how == invalid)
    words = {"raise": "raises", "none": "returns None", "false": "returns False"}
    made = (
        "returns a new board with the mover's mark placed, the given board (rows included) unchanged"
        if returns == "state"
        else "plays the mover's mark on the board it is given and returns True"
    )
    said = [f"{made}, on {legal} {move_format} moves"]
    what = {
        "occupied": "on a taken cell",
        "off-board": "off the board (" + ", ".join(map(str, OFF_BOARD[move_format])) + ")",
    }
    for kind, (how, count) in shown.items():
        if how is not None and kind in refuses:
            said.append(f"{words[how]} on all {count} moves {what[kind]}, the board left alone")
        elif how is not None:
            said.append(f"{words[how]} on the moves {what[kind]}, another way than above: not checked")
        else:
            said.append(f"no one way of refusing the moves {what[kind]}: not checked")
    return Successor(signature, move_format, returns, invalid, refuses, "; ".join(said))


def read_initial_state(prober: Prober, signature: Signature, conventions: Conventions) -> DraftCheck | None:
    """A check of a function that takes nothing and returns the empty board."""
    function = signature.function
    if function.required or function.owner is not None or "input" in function.free_names:
        return None
    empty = conventions.game.initial_state()
    (outcome,) = prober.ask(signature, conventions, [{"board": empty}], call_timeout=SCREEN_CALL_TIMEOUT)
    if not outcome.ok or outcome.value is None:
        return None
    try:
        board = prober.context(conventions).decode_board(outcome.value)
    except MalformedBoard:
        return None
    if board != empty:
        return None
    name = function.name
    params = InitialStateParams(call(f"{name}()"))
    why = f"{name}: {name}() returns the empty board, {conventions.encoding.description}"
    return DraftCheck(slug(name), "initial-state", f"{name} gives the empty board", "initial-state", params, why)
