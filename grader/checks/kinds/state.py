"""The successor check, for state-class APIs (a `State` class whose moves create successor
states) and successor functions: the position a move creates, and the moves it refuses. The
self-play table of such an API is `grader.checks.kinds.selfplay`."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from hypothesis import strategies as st

from grader.check_notes import Learnt
from grader.checks.answers import Answer, MoveCodec
from grader.checks.causes.defects import SuccessorObservation, expand_hypotheses, successor_defect
from grader.checks.context import CheckContext
from grader.checks.kind import CheckKind
from grader.checks.line_game import line_game
from grader.checks.positions import positions
from grader.checks.properties import Mismatch
from grader.checks.recipe import PropertyCheck, run_property
from grader.checks.verdicts import explain, local_cause, result_from_property, shape_of
from grader.execution.channel.calls import CallStatus
from grader.results import CheckResult
from grader.spec.call_template import CallTemplate
from grader.spec.model import Check, Count, MoveFormat
from reference import EMPTY, LineGame, MalformedBoard, Position, X

OFF_BOARD: Mapping[MoveFormat, tuple[Any, ...]] = {
    # (-1, 0) and -1 name a cell through Python's negative indexing: the commonest real miss.
    "rowcol": ((3, 3), (-1, 0), (0, 3), (3, 0), (0, -1), (-1, -1)),
    "rowcol1": ((4, 4), (0, 1), (1, 4), (4, 1), (1, 0), (0, 0)),
    "position": (0, 10, -1),
    "index": (-1, 9),
}
"""Moves that name no cell, in each move format: what a successor must refuse."""

Invalid = Literal["occupied", "off-board"]


@dataclass(frozen=True)
class SuccessorParams:
    """A move makes the right new state and leaves the old one unchanged (rows included); a move on an occupied cell
    or off the board is refused the way ``invalid`` says."""

    call: CallTemplate
    """The call that makes the successor, with a ``move`` placeholder, e.g. ``State(board, to_move).expand(move)``,
    ``result(board, move)`` or ``select_space(board, move, to_move)``."""
    board_attribute: str = "gameplan"
    """Where the successor keeps its board ("" when the call returns the board itself)."""
    returns: Literal["state", "played"] = "state"
    """state: the call returns the new state (or board) and leaves the given board unchanged; played: it plays on
    the board it is given and returns True."""
    invalid: Literal["none", "raise", "false"] = "none"
    """What a refused move gives: none (returns None), raise (raises an exception), false (returns False); the
    given board is left unchanged in each case."""
    refuses: tuple[Invalid, ...] = ("occupied", "off-board")
    """The moves tried that must be refused: on an occupied cell, off the board (each format's cells that name no
    cell, e.g. (3, 3) and (-1, 0) for rowcol, 0, 10 and -1 for position)."""
    move: MoveFormat | None = None
    """The format of the moves the call takes; default: the assignment's ``move``."""
    globals: dict = field(default_factory=dict)
    """Student globals set from placeholders before each call, e.g. { current_state = "board" }."""
    examples: Count | None = None
    """Positions drawn beyond the first cases; default: the assignment's ``hypothesis_examples``."""


def _read_board(ctx: CheckContext, raw: Any, attribute: str) -> Position | None:
    """The position a successor holds; `MalformedBoard` when it holds none of the game's."""
    if raw is None:
        return None
    value = getattr(raw, attribute) if attribute else raw
    return ctx.decode_board(value)


@dataclass(frozen=True)
class _Moves:
    """A case's move: a cell 0-8, or 9 + its place in the format's off-board moves (ints keep
    the cases ordered and hashable)."""

    codec: MoveCodec
    off_board: tuple[Any, ...]

    def raw(self, move: int) -> Any:
        return self.codec.write(move) if move < 9 else self.off_board[move - 9]

    def tried(self, refuses: tuple[Invalid, ...]) -> st.SearchStrategy[int]:
        cells = st.integers(0, 8)
        if "off-board" not in refuses:
            return cells
        return st.one_of(cells, st.integers(9, 8 + len(self.off_board)))


def _first_successor_cases(
    game: LineGame[Position], first: str, moves: _Moves, refuses: tuple[Invalid, ...]
) -> list[tuple[Position, int]]:
    """Every cell of the empty board, and of a game in progress (its taken cells too when
    occupied cells are refused); each off-board move on both."""
    empty = game.initial_state()
    started = game.position("X...O..X." if first == X else "O...X..O.")
    marks = game.cells(started)
    cases = [(empty, cell) for cell in range(len(marks))]
    cases += [(started, cell) for cell, mark in enumerate(marks) if "occupied" in refuses or mark == EMPTY]
    if "off-board" in refuses:
        cases += [(board, 9 + n) for n in range(len(moves.off_board)) for board in (empty, started)]
    return cases


def _refusal_cause(params: SuccessorParams, refused: Invalid | None, codec: MoveCodec) -> str:
    how = {"none": "return None", "raise": "raise an exception", "false": "return False"}[params.invalid]
    if refused == "occupied":
        return f"A move on a taken cell must be refused ({how}): check that the cell is empty before placing the mark."
    return (
        f"A move off the board must be refused ({how}): check the bounds, moves go from {codec.write(0)} to "
        f"{codec.write(8)}, and Python reads a negative index from the end of a list."
    )


def _refused_words(params: SuccessorParams) -> str:
    return {"none": "None", "raise": "an exception", "false": "False"}[params.invalid]


def _successor(check: Check[SuccessorParams], ctx: CheckContext) -> CheckResult:
    """A move on a free cell gives the new board; an occupied or off-board cell is refused as
    ``invalid`` says; the state the move is applied to is left unchanged (or, played in
    place, changed by that move alone)."""
    params = check.params
    student = ctx.student_for(params)
    first = ctx.assignment.first_player
    codec = ctx.moves(params.move)
    moves = _Moves(codec, OFF_BOARD[codec.format])
    board_args = params.call.slots_of("board")
    board_arg = board_args[0] if board_args and isinstance(board_args[0], int) else None
    game = line_game(ctx.game)

    def boards(spread: bool) -> st.SearchStrategy[Position]:
        return positions(first, min_empty=1, include_terminal=False, spread=spread)

    def values(board: Position, move: int) -> dict[str, Any]:
        return ctx.placeholders(board, move=moves.raw(move))

    def judge(board: Position, move: int, answer: Answer) -> Mismatch | None:
        legal = move < 9 and game.cells(board)[move] == EMPTY
        if not legal and ("occupied" if move < 9 else "off-board") not in params.refuses:
            return None  # a move the check does not ask to be refused (hypothesis draws any cell)
        expected = game.result(board, move) if legal else None
        refused: Invalid | None = None if legal else "occupied" if move < 9 else "off-board"
        return _judge_successor(ctx, params, codec, board_arg, board, expected, refused, answer)

    prop = PropertyCheck(
        boards,
        moves.tried(params.refuses),
        values,
        judge,
        first=_first_successor_cases(game, first, moves, params.refuses),
        examples=params.examples,
    )
    outcome = run_property(check, ctx, student, prop)
    observations = _successor_observations(ctx, params, moves, board_arg, student.answers())
    if outcome.passed:
        # Right from the root, where the player to move is the maximizer: mistakes about whose
        # mark deeper moves place stay possible, and the searches built on it may show them.
        learnt = Learnt(suspects=tuple(expand_hypotheses(student.label)))
    else:
        learnt = Learnt(defect=None if observations is None else successor_defect(student.label, observations))
    cause = None
    if not outcome.passed:
        cause = explain([lambda: shape_of(student), lambda: local_cause(outcome.mismatch, learnt.defect)])
    return result_from_property(
        check, outcome.board_alone(), f"`{student.label}` makes the right successors", cause=cause, learnt=learnt
    )


def _judge_successor(
    ctx: CheckContext,
    params: SuccessorParams,
    codec: MoveCodec,
    board_arg: int | None,
    board: Position,
    expected: Position | None,
    refused: Invalid | None,
    answer: Answer,
) -> Mismatch | None:
    """One answer: ``expected`` is the new board, None where the move must be ``refused``."""
    played = params.returns == "played"
    if expected is None:
        expected_text = f"{_refused_words(params)} (the move is not allowed), the board unchanged"
    elif played:
        expected_text = f"True, the board now {expected}"
    else:
        expected_text = f"a {'state whose board is' if params.board_attribute else 'new board'} {expected}"
    if expected is None and params.invalid == "raise":
        if answer.outcome.status is CallStatus.RAISED and not answer.outcome.mutated:
            return None
        if answer.outcome.status is CallStatus.RAISED:
            return Mismatch(answer.call_text, expected_text, "it raised, after changing the board it was given")
    elif not answer.ok:
        return Mismatch(answer.call_text, expected_text, answer.given())
    if expected is None:
        if answer.ok and not answer.outcome.mutated:
            if {"none": answer.value is None, "false": answer.value is False}.get(params.invalid, False):
                return None
        given = _given(ctx, params, board_arg, answer) if answer.ok else answer.given()
        return Mismatch(answer.call_text, expected_text, given, _refusal_cause(params, refused, codec))
    if played:
        return _judge_played(ctx, board_arg, board, expected, expected_text, answer)
    if answer.outcome.mutated:
        if params.board_attribute:
            return Mismatch(
                answer.call_text,
                expected_text + ", the original state unchanged",
                "the original state's board was changed",
                "The new state shares its board with the old one: copy the board before placing the mark.",
            )
        return Mismatch(
            answer.call_text,
            expected_text + ", the original board unchanged",
            "the board it was given was changed",
            "The new board shares the given board or its rows: copy it, rows included (copy.deepcopy), "
            "before placing the mark.",
        )
    try:
        actual = _read_board(ctx, answer.value, params.board_attribute)
    except (AttributeError, MalformedBoard) as exc:
        return Mismatch(answer.call_text, expected_text, f"a result whose board cannot be read ({exc})")
    if actual == expected:
        return None
    if actual is None:
        return Mismatch(answer.call_text, expected_text, "None", "A move on a free cell must be played.")
    actual_text = f"a state whose board is {actual}" if params.board_attribute else f"the board {actual}"
    return Mismatch(
        answer.call_text,
        expected_text,
        actual_text,
        "The mark placed is not the mover's, or it is placed on the wrong cell."
        if line_game(ctx.game).cells(actual) != line_game(ctx.game).cells(expected)
        else None,
    )


def _judge_played(
    ctx: CheckContext,
    board_arg: int | None,
    board: Position,
    expected: Position,
    expected_text: str,
    answer: Answer,
) -> Mismatch | None:
    """A move played in place: True returned, and the given board holds the move."""
    after = _board_after(ctx, board_arg, board, answer)
    if answer.value is True and after == expected:
        return None
    shown = f"{answer.value!r}, the board now {after}" if after is not None else f"{answer.value!r}"
    if after == board:
        return Mismatch(answer.call_text, expected_text, shown, "The move is not played on the board it is given.")
    if after != expected:
        return Mismatch(
            answer.call_text, expected_text, shown, "The mark placed is not the mover's, or it is on the wrong cell."
        )
    return Mismatch(answer.call_text, expected_text, shown, "A move that is played must return True.")


def _board_after(ctx: CheckContext, board_arg: int | None, board: Position, answer: Answer) -> Position | None:
    """The given board after the call: unchanged, or as the call left it (None: unreadable)."""
    if not answer.outcome.mutated:
        return board
    if board_arg is None or board_arg not in answer.outcome.changed_args:
        return None
    try:
        return ctx.decode_board(answer.outcome.changed_args[board_arg])
    except MalformedBoard:
        return None


def _given(ctx: CheckContext, params: SuccessorParams, board_arg: int | None, answer: Answer) -> str:
    """What a call that should have been refused did instead."""
    value = answer.value
    if params.returns == "played" or answer.outcome.mutated:
        after = _board_after(ctx, board_arg, ctx.game.initial_state(), answer)
        changed = f", the board it was given now {after}" if answer.outcome.mutated and after is not None else ""
        return f"{value!r}{changed}"
    try:
        board = _read_board(ctx, value, params.board_attribute)
    except (AttributeError, MalformedBoard):
        return f"{value!r}"
    return "None" if board is None else f"the new board {board}"


def _successor_observations(
    ctx: CheckContext, params: SuccessorParams, moves: _Moves, board_arg: int | None, answers: list[tuple[Any, Any]]
) -> list[SuccessorObservation] | None:
    """Every new board made, as cells; ``None`` when some answer cannot be read as one."""
    game = line_game(ctx.game)
    observations = []
    for (board_text, move), answer in answers:
        if not answer.ok or move >= 9:
            continue
        board = game.position(board_text)
        if params.returns == "played":
            result = _board_after(ctx, board_arg, board, answer) if answer.value is True else None
        else:
            try:
                result = _read_board(ctx, answer.value, params.board_attribute)
            except (AttributeError, MalformedBoard):
                return None
        observations.append(SuccessorObservation(board, game.to_move(board), move, result, game))
    return observations


SUCCESSOR = CheckKind("successor", SuccessorParams, _successor)
