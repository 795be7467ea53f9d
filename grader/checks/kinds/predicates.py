"""Board predicates (win, winner, draw, full, terminal, legal moves, valid move) against the
reference, by hypothesis over reachable or arbitrary boards; the first cases are the boards that
show each kind of answer (`reference.reachable.line_boards`). A board is read through the game:
its cells, its lines and their names."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from hypothesis import strategies as st

from grader.check_notes import Cause, Learnt
from grader.checks.answers import Answer, MoveCodec, ShapeError
from grader.checks.causes.predicates import EveryAnswer
from grader.checks.context import CheckContext
from grader.checks.expectations import EXPECTATIONS, Expectation, Reading, line_kinds
from grader.checks.kind import CheckKind
from grader.checks.line_game import line_game
from grader.checks.positions import finished_positions, positions
from grader.checks.properties import Mismatch
from grader.checks.recipe import Coverage, PropertyCheck, kinds_phrase, list_kinds, run_property
from grader.checks.verdicts import explain, result_from_property, shape_of
from grader.results import CheckResult
from grader.spec.call_template import CallTemplate
from grader.spec.model import Check, Count, MoveFormat
from reference import LineGame, O, Position, X
from reference.reachable import drawn_boards, line_boards, near_full_boards
from reference.strategies import arbitrary_boards

ExpectName = Literal[
    "wins", "winner", "outcome", "score", "draw", "full", "terminal", "legal-moves", "valid-move", "to-move"
]
"""The names of `grader.checks.expectations.EXPECTATIONS`, as an assignment writes them."""


@dataclass(frozen=True)
class Params:
    """Compares a board function with the reference's (``expect`` names what it answers) over reachable or arbitrary
    boards, always including the smallest position for each of the 8 lines for each player."""

    call: CallTemplate
    """The call of the board function, e.g. ``check_win(board, player)``."""
    expect: ExpectName = "wins"
    """What the function answers: wins (True when ``player`` has a line), winner (the winner's mark, or no winner),
    outcome (the winner, tie, or an unfinished game), score (+1/-1/0 for the maximizer), draw (full with no line),
    full, terminal (won or full), legal-moves (the empty cells), valid-move (``position``, 1-9, is a free cell),
    to-move (the mark of the side to move)."""
    boards: Literal["reachable", "unfinished", "finished", "arbitrary"] = "reachable"
    """reachable: only positions a game can reach; unfinished: only reachable games in progress (for a function the
    program never asks about a finished game, such as a list of moves a course leaves open there); finished: only
    reachable won or full boards (a score asked only at the end of a game); arbitrary: any mix of marks (for functions
    that must not assume a legal game)."""
    codes: dict = field(default_factory=dict)
    """How the student spells outcomes, e.g. { X = 1, O = 2, tie = -1, ongoing = 0 }."""
    globals: dict = field(default_factory=dict)
    """Student globals to set from placeholders before each call, e.g. { current_state = "board" }."""
    ordered: bool = False
    """legal-moves only: the moves must come in row-major order (a set is always read unordered)."""
    move: MoveFormat | None = None
    """The format of the moves the function takes and returns; default: the assignment's ``move``."""
    examples: Count | None = None
    """Positions drawn beyond the first cases; default: the assignment's ``hypothesis_examples``."""

    def __post_init__(self) -> None:
        unknown = set(self.codes) - {"X", "O", "tie", "ongoing"}
        if unknown:
            raise ValueError(f"codes: unknown outcome(s) {sorted(unknown)}; use X, O, tie, ongoing")

    @property
    def expectation(self) -> Expectation:
        return EXPECTATIONS[self.expect]


def _first_cases(params: Params, game: LineGame[Position], first_player: str) -> list[tuple[Position, Any]]:
    """Every line complete for each player (see `line_boards`), every drawn board and a drawn
    board with each cell emptied in turn, as the expectation takes them, tried before any
    generated board: together they show each kind of answer."""
    reachable = params.boards != "arbitrary"
    cases = params.expectation.first_cases(
        game,
        line_boards(reachable, first_player),
        drawn_boards(first_player),
        near_full_boards(reachable, first_player),
    )
    return [(board, extra) for board, extra in cases if in_domain(params, game, board)]


def in_domain(params: Params, game: LineGame[Position], board: Position) -> bool:
    """Whether ``board`` is one the check's ``boards`` asks about (its first cases are drawn
    from every kind of position, then kept to the domain)."""
    if params.boards == "unfinished":
        return not game.is_terminal(board)
    if params.boards == "finished":
        return game.is_terminal(board)
    return True


def _summary(every_line: frozenset[str], counts: Mapping[str, int]) -> str:
    """The kinds seen, with the wins on each line for each player (``every_line``) named together."""
    lines = {kind: n for kind, n in counts.items() if kind in every_line}
    rest = {kind: n for kind, n in counts.items() if kind not in every_line}
    if not lines:
        return list_kinds(rest)
    every = len(lines) == len(every_line)
    which = "every line for X and for O" if every else f"{len(lines)} of the {len(every_line)} lines and players"
    listed = kinds_phrase(rest)
    return f"Among them: wins on {which}" + (f", and {listed}." if listed else ".")


def _reading(params: Params, ctx: CheckContext, moves: MoveCodec) -> Reading:
    marks = {X: ctx.encode_player(X), O: ctx.encode_player(O)}  # the winners as the student's code writes them
    return Reading(marks, ctx.assignment.encoding.empty, params.codes, moves, params.ordered)


def _property(params: Params, ctx: CheckContext, moves: MoveCodec) -> PropertyCheck[Position, Any]:
    expectation, reading = params.expectation, _reading(params, ctx, moves)
    game = line_game(ctx.game)

    def boards(spread: bool) -> st.SearchStrategy[Position]:
        if params.boards == "arbitrary":
            return arbitrary_boards()
        first = ctx.assignment.first_player
        if params.boards == "unfinished":
            return positions(first, include_terminal=False, spread=spread)
        if params.boards == "finished":
            return finished_positions(first, spread=spread)
        return positions(first, spread=spread)

    def values(board: Position, extra: Any) -> dict[str, Any]:
        player, position = expectation.player(extra), expectation.position(extra)
        named: dict[str, Any] = {}
        if player:
            named["player"] = ctx.encode_player(player)
        if position is not None:
            named["position"] = position
        return ctx.placeholders(board, **named)

    def asked(extra: Any) -> str | None:
        """The player the truth is told about: who began, or the one the call is given."""
        return ctx.assignment.first_player if expectation.player_is_first else expectation.player(extra)

    def judge(board: Position, extra: Any, answer: Answer) -> Mismatch | None:
        player = asked(extra)
        expected = expectation.expected(board, player, expectation.position(extra), ctx.maximizer_for(board), game)
        shown = expectation.show(expected, reading)
        if not answer.ok:
            return Mismatch(answer.call_text, shown, answer.given())
        try:
            actual = expectation.read(answer.value, reading)
        except ShapeError as exc:
            return Mismatch(answer.call_text, shown, exc.given())
        if actual == expected:
            return None
        cause = expectation.local_cause(game, params.call.function, board, player, expected, actual)
        return Mismatch(answer.call_text, shown, expectation.show(actual, reading), cause)

    def kinds(board: Position, extra: Any) -> list[str]:
        return expectation.answer_kinds(game, board, extra, ctx.maximizer_for(board))

    return PropertyCheck(
        boards,
        expectation.extras(),
        values,
        judge,
        first=_first_cases(params, game, ctx.assignment.first_player),
        examples=params.examples,
        coverage=Coverage(kinds, functools.partial(_summary, line_kinds(game))),
    )


def run(check: Check[Params], ctx: CheckContext) -> CheckResult:
    params = check.params
    student = ctx.student_for(params)
    moves = ctx.moves(params.move)
    outcome = run_property(check, ctx, student, _property(params, ctx, moves)).board_alone()
    passed = f"`{student.label}` agrees with the reference"
    if outcome.mismatch is None:
        return result_from_property(check, outcome, passed)
    expectation, reading, game = params.expectation, _reading(params, ctx, moves), line_game(ctx.game)
    every = EveryAnswer.read(
        student.label,
        expectation,
        game,
        [(game.position(board), expectation.player(extra), answer) for (board, extra), answer in student.answers()],
        lambda raw: expectation.read(raw, reading),
    )
    shape = shape_of(student, none_ok=expectation.none_ok)
    learnt = Learnt(defect=every.defect(stub=shape is not None), spellings=_no_winner_spelling(params, every))
    local = outcome.mismatch.cause
    marks = {p: params.codes.get(p, ctx.encode_player(p)) for p in (X, O)}
    cause = explain(
        [
            lambda: shape,
            lambda: every.root_cause(ctx.findings, check.id),
            lambda: every.convention(marks),
            lambda: None if local is None else Cause("local", local, learnt.defect),
        ]
    )
    return result_from_property(check, outcome, passed, cause=cause, learnt=learnt)


def _no_winner_spelling(params: Params, every: EveryAnswer) -> dict[str, Any]:
    """How a winner or outcome function the assignment lets spell "no winner" several ways
    (None, False, "", the empty cell) spells it, when every such answer spells it alike: what
    the reference's version answers in its place (`grader.checks.reference_helpers`)."""
    if not params.expectation.none_ok or "ongoing" in params.codes:
        return {}
    spelled = set()
    for read in every.seen:
        if read.readable and read.read is None:
            try:
                spelled.add((type(read.answer.value), read.answer.value))
            except TypeError:  # an unhashable answer
                continue
    return {"ongoing": next(iter(spelled))[1]} if len(spelled) == 1 else {}


PREDICATE = CheckKind("predicate", Params, run)
