"""Search checks: minimax value and best move, depth-limited values; and what every search
check shares (the positions asked, reading an answer, the diagnosis of a failure), which the
pruning-equivalence check (`grader.checks.kinds.pruning`) uses too."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Annotated, Any, Literal

from hypothesis import strategies as st

from grader.check_notes import Cause
from grader.checks.answers import (
    SEARCH_SHAPES,
    Answer,
    MoveCodec,
    ShapeError,
    format_value,
    read_search_result,
    read_value_only,
)
from grader.checks.causes.known_mistakes import is_full_window
from grader.checks.causes.search import SearchAnswer, search_cause
from grader.checks.context import CheckContext, StudentFunction
from grader.checks.kind import CheckKind
from grader.checks.line_game import line_game
from grader.checks.played_moves import played_cell
from grader.checks.positions import Sampling, game_result, results_summary, smallest_finished_positions
from grader.checks.properties import Mismatch, PropertyOutcome
from grader.checks.recipe import Coverage, PropertyCheck, run_property
from grader.checks.reference_answers import reference_answer
from grader.checks.verdicts import explain, local_cause, result_from_property, shape_of
from grader.results import CheckResult
from grader.serialization import OneOrMore
from grader.spec.call_template import CallTemplate
from grader.spec.model import Check, Count, MoveFormat, Side
from reference import Position, SearchSpec, move_values

Shapes = Annotated[tuple[str, ...], OneOrMore(SEARCH_SHAPES)]
"""How a search's result holds its value and move: one of `SEARCH_SHAPES`, or a list of them
(the first that reads wins)."""


JudgeMove = Literal["any-optimal", "first-best", "none"]
"""Which best moves count: any optimal one, the first-best one only, or none is judged."""

OnFinished = Literal["not-asked", "none", "value"]
"""What a search answers on a finished game (`SearchParams.finished`)."""


@dataclass(frozen=True)
class SearchParams:
    """The value and/or the move a search returns equal the reference's. Positions are sampled with few empty cells
    (``min_empty``..``max_empty``), after the named ``include`` positions and the smallest won, lost and drawn
    position for each side to move."""

    call: CallTemplate
    """The call made on each position, in Python with placeholders, e.g. ``minimax(board, 0, is_max)``."""
    returns: Shapes = ("value",)
    """The shape of the answer: one of value, value,move, value,row,col, row,col,value, move, move,value, or a list of
    them (the first that reads wins)."""
    judge_move: JudgeMove = "any-optimal"
    """Any optimal move is accepted unless the assignment pins the tie-break."""
    move: MoveFormat | None = None
    """The format of the moves the function takes and returns; default: the assignment's ``move``."""
    start_depth: int = 0
    """The depth the student's code gives the root (matters for depth-adjusted scores)."""
    globals: dict = field(default_factory=dict)
    """Student globals set from placeholders before each call, e.g. { current_state = "board" }."""
    min_empty: int = 1
    """The fewest empty cells a sampled position has."""
    max_empty: int = 6
    """The most empty cells a sampled position has (few keep a full search cheap)."""
    to_move: Side | None = None
    """Only positions with this side to move (for functions that always play one side); default: either."""
    include: tuple[Position, ...] = ()
    """Named positions always tried (the challenge positions), whatever their size."""
    examples: Count | None = None
    """Positions drawn beyond the first cases; default: the assignment's ``hypothesis_examples``."""
    finished: OnFinished = "not-asked"
    """What it answers on a finished game (won or full), asked on the smallest one of each outcome:
    not-asked (finished games are not judged), none (it returns None: there is no move to make) or
    value (the value it returns is the game's, whatever its move part holds)."""
    in_place: bool = False
    """The function plays its move on the board it is given and returns nothing (``ai_move(board)``): the move is the
    one cell the call changed, which must have been empty and now hold the mark of the side to move, every other cell
    unchanged. Only the move is judged; ``returns`` is not read."""

    @property
    def sampling(self) -> Sampling:
        return Sampling(self.min_empty, self.max_empty, self.to_move)


def side_to_answer(ctx: CheckContext, params: SearchParams, board: Position) -> str:
    return params.to_move or ctx.game.to_move(board)


def first_boards(params: SearchParams, ctx: CheckContext) -> list[Position]:
    """The named positions, then the smallest won, lost and drawn one for each side, then the
    finished games when the check judges them."""
    first = ctx.assignment.first_player
    finished = smallest_finished_positions(first, params.to_move) if params.finished != "not-asked" else ()
    return [*params.include, *params.sampling.covering(first), *finished]


FINISHED_CAUSE = "The game is over, so there is no move to make: test for a finished game before searching."


def judge_finished_answer(
    params: SearchParams, board: Position, answer: Answer, spec: SearchSpec, side: str
) -> Mismatch | None:
    """What a search answers on a finished ``board``: None, or the game's value (``params.finished``)."""
    if params.finished == "none":
        expected = "None (the game is over: there is no move)"
    else:
        expected = f"value {format_value(reference_answer(board, spec, side).value)} (the game is over)"
    if not answer.ok:
        return Mismatch(answer.call_text, expected, answer.given(), _mutation_cause(params, answer))
    if params.in_place:  # it answers by playing: on a finished game, by leaving the board alone
        if not answer.outcome.mutated:
            return None
        return Mismatch(answer.call_text, "the board left as it is", "a mark played on it", FINISHED_CAUSE)
    if params.finished == "none":
        return None if answer.value is None else Mismatch(answer.call_text, expected, answer.given(), FINISHED_CAUSE)
    try:
        value = read_value_only(answer.value, params.returns)
    except ShapeError as exc:
        return Mismatch(answer.call_text, expected, exc.given())
    if value == reference_answer(board, spec, side).value:
        return None
    cause = "On a finished game the value is the game's result: score the board before looking for moves."
    return Mismatch(answer.call_text, expected, f"value {format_value(value)}", cause)


def results_coverage(ctx: CheckContext) -> Coverage[Position, Any]:
    """A search is judged on won, lost and drawn positions for each side to move."""
    first = ctx.assignment.first_player
    return Coverage(lambda board, _: [game_result(board, first)], results_summary)


def sampled_boards(params: SearchParams, ctx: CheckContext) -> Callable[[bool], st.SearchStrategy[Position]]:
    """The positions a search check asks about, given ``spread`` (see `PropertyCheck.boards`)."""
    return lambda spread: params.sampling.strategy(ctx, spread=spread)


def read_answer(
    ctx: CheckContext, params: SearchParams, student: StudentFunction, board: Position, answer: Answer, moves: MoveCodec
) -> tuple[float | None, int | None]:
    """The (value, move) an answer on ``board`` gives: read from what it returned, or for a
    function that plays in place, the move from the board it left (`played_cell`)."""
    if params.in_place:
        return None, played_cell(ctx, student, board, side_to_answer(ctx, params, board), answer, moves)
    return read_search_result(answer.value, params.returns, moves)


def judge_search_answer(
    ctx: CheckContext,
    params: SearchParams,
    board: Position,
    answer: Answer,
    spec: SearchSpec,
    *,
    student: StudentFunction,
    moves: MoveCodec,
    judge_move: JudgeMove,
) -> Mismatch | None:
    """Compare one (value, move) answer of ``student``, its moves read with ``moves``, with
    the reference under ``spec``."""
    side = side_to_answer(ctx, params, board)
    ref = reference_answer(board, spec, side)
    wants_value = not params.in_place and any(s != "move" for s in params.returns)
    wants_move = judge_move != "none" and (params.in_place or any(s != "value" for s in params.returns))
    best = ref.best_moves if wants_move else ()
    expected_parts = []
    if wants_value:
        expected_parts.append(f"value {format_value(ref.value)}")
    if wants_move:
        allowed = best if judge_move == "any-optimal" else (ref.best_move,)
        expected_parts.append(
            ("a move in " if len(allowed) > 1 else "move ") + ", ".join(moves.show(c) for c in allowed)
        )
    expected = "; ".join(expected_parts)
    if not answer.ok:
        return Mismatch(answer.call_text, expected, answer.given(), _mutation_cause(params, answer))
    try:
        value, move = read_answer(ctx, params, student, board, answer, moves)
    except ShapeError as exc:
        return Mismatch(answer.call_text, expected, exc.given())
    problems = []
    actual_parts = []
    if value is not None:
        actual_parts.append(f"value {format_value(value)}")
        if wants_value and value != ref.value:
            problems.append("value")
    if move is not None or wants_move:
        actual_parts.append(f"move {moves.show(move)}")
        allowed = best if judge_move == "any-optimal" else (ref.best_move,)
        if wants_move and move not in allowed:
            problems.append("move")
    if not problems:
        return None
    # Facts about this answer alone; a cause every answer shows is looked for afterwards.
    cause = _mutation_cause(params, answer)
    if cause is None and problems == ["move"] and move is not None:
        if move not in ctx.game.actions(board):  # the game goes on: its moves are the empty cells
            cause = "The move is on a cell that is already taken."
        else:
            worth = move_values(board, spec, to_move=side).get(move)
            cause = (
                f"Move {moves.show(move)} leads to a value of {format_value(worth)}, "
                f"while {format_value(ref.value)} is reachable: "
                f"the best move must be the one with the best value for {side}."
            )
    return Mismatch(answer.call_text, expected, "; ".join(actual_parts), cause)


MUTATION_CAUSE = "The call changed the board it was given: a move that is tried is not undone afterwards."


def _mutation_cause(params: SearchParams, answer: Answer) -> str | None:
    """A changed board is the answer of a function that plays in place, else a mistake."""
    return MUTATION_CAUSE if answer.outcome.mutated and not params.in_place else None


def _search_run(check: Check[SearchParams], ctx: CheckContext, *, depth_limits: tuple[int, ...] = ()) -> CheckResult:
    params = check.params
    cutoff_value = _cutoff(params)
    student = ctx.student_for(params, read_board=params.in_place)
    moves = ctx.moves(params.move)
    limits: tuple[int | None, ...] = depth_limits or (None,)

    def spec_for(board: Position, limit: int | None) -> SearchSpec:
        extra: dict[str, Any] = {"start_depth": params.start_depth}
        if limit is not None:
            extra.update(depth_limit=limit, cutoff_value=cutoff_value)
        return ctx.spec(board, to_move=side_to_answer(ctx, params, board), **extra)

    def values(board: Position, limit: int | None) -> dict[str, Any]:
        return ctx.placeholders(board, to_move=side_to_answer(ctx, params, board), depth_limit=limit)

    def judge(board: Position, limit: int | None, answer: Answer) -> Mismatch | None:
        spec = spec_for(board, limit)
        if ctx.game.is_terminal(board):
            return judge_finished_answer(params, board, answer, spec, side_to_answer(ctx, params, board))
        return judge_search_answer(
            ctx, params, board, answer, spec, student=student, moves=moves, judge_move=params.judge_move
        )

    prop = PropertyCheck(
        sampled_boards(params, ctx),
        st.sampled_from(limits),
        values,
        judge,
        first=[(b, lim) for b in first_boards(params, ctx) for lim in limits],
        examples=params.examples,
        coverage=results_coverage(ctx),
    )
    outcome, cause = diagnosed(
        run_property(check, ctx, student, prop), ctx, check.id, params, student, moves, windows=False
    )
    judges_value = not params.in_place and any(s != "move" for s in params.returns)
    judges_move = params.judge_move != "none" and (params.in_place or any(s != "value" for s in params.returns))
    what = " and ".join(w for w, on in (("values", judges_value), ("moves", judges_move)) if on)
    if depth_limits:
        what += f" at depth limits {', '.join(map(str, depth_limits))}"
    return result_from_property(check, outcome, f"`{student.label}` gives the reference {what}", cause=cause)


def _search_value(check: Check[SearchParams], ctx: CheckContext) -> CheckResult:
    """Minimax value and/or best move equal the reference's."""
    return _search_run(check, ctx)


SEARCH_VALUE = CheckKind("search-value", SearchParams, _search_value)


@dataclass(frozen=True)
class DepthParams(SearchParams):
    """The value at each of ``depth_limits`` equals the reference's depth-limited value."""

    depth_limits: tuple[int, ...] = (1, 2, 3)
    """The depth limits tried (the ``depth_limit`` placeholder); each position is asked at each."""
    cutoff_value: float = 0
    """What the reference gives a position cut off by the depth limit (not won, lost or full)."""
    judge_move: JudgeMove = "none"
    """Which best moves count: any-optimal, first-best (the first in row-major order), or none (the value alone is
    judged)."""

    def __post_init__(self) -> None:
        judges_values(self, "depth-limited")


def judges_values(params: SearchParams, kind: str) -> None:
    """A kind that judges values has nothing to judge in a function that returns none."""
    if params.in_place:
        raise ValueError(f"in_place: {kind} judges the values a search returns; a move played in place gives none")


def _depth_limited(check: Check[DepthParams], ctx: CheckContext) -> CheckResult:
    """The value at each depth limit equals the reference's depth-limited value."""
    return _search_run(check, ctx, depth_limits=check.params.depth_limits)


DEPTH_LIMITED = CheckKind("depth-limited", DepthParams, _depth_limited)


GENERIC_PRUNING_CAUSE = {
    True: "With a narrowed window the bounds are not honoured: alpha and beta may be swapped, or a cut-off "
    "happens on the wrong side.",
    False: "Pruning changed the result: look at the cut-off comparison and at which bound each node updates "
    "(alpha in MAX nodes, beta in MIN nodes).",
}


def diagnosed(
    outcome: PropertyOutcome,
    ctx: CheckContext,
    check_id: str,
    params: SearchParams,
    student: StudentFunction,
    moves: MoveCodec,
    *,
    windows: bool,
) -> tuple[PropertyOutcome, Cause | None]:
    """The failing board alone, and the likely cause, from all the student's answers: every
    call's shape, a board the call changed, a cause every answer follows (`search_cause`),
    the failing answer's own, a generic word on the windows."""
    if outcome.failing_input is None:
        return outcome, None
    failing = outcome.failing_input
    assert isinstance(failing, tuple)
    board, extra = failing
    mismatch = outcome.mismatch
    assert mismatch is not None
    failing_full = not windows or is_full_window(ctx.spec(board, to_move=side_to_answer(ctx, params, board)), *extra)

    def every_answer() -> Cause | None:
        answers, complete = _search_answers(ctx, params, student, moves, windows=windows)
        return search_cause(
            ctx,
            check_id,
            answers,
            complete=complete,
            returns=params.returns,
            move_format=moves.format,
            judge_moves=params.judge_move != "none",
            windows=windows,
            failing_full=failing_full,
        )

    mutated = mismatch.cause == MUTATION_CAUSE
    cause = explain(
        [
            lambda: shape_of(student, none_ok=params.in_place),
            lambda: local_cause(mismatch) if mutated else None,
            every_answer,
            lambda: local_cause(mismatch),
            lambda: Cause("local", GENERIC_PRUNING_CAUSE[not failing_full]) if windows else None,
        ]
    )
    return replace(outcome, failing_input=board, mismatch=replace(mismatch, cause=None)), cause


def _search_answers(
    ctx: CheckContext, params: SearchParams, student: StudentFunction, moves: MoveCodec, *, windows: bool
) -> tuple[list[SearchAnswer], bool]:
    """Every answer that returned, with its conventions and the reference; and whether every
    call returned an answer that reads."""
    answers = []
    complete = True
    game = line_game(ctx.game)
    for (board_text, case_extra), answer in student.answers():
        if not answer.ok:
            complete = False
            continue
        board = game.position(board_text)
        if game.is_terminal(board):
            continue  # judged against the finished-game rule alone, not the search's conventions
        side = side_to_answer(ctx, params, board)
        spec = ctx.spec(board, to_move=side, start_depth=params.start_depth)
        window, limit = (case_extra, None) if windows else ((-math.inf, math.inf), case_extra)
        full_value = None
        if limit is not None:
            full_value = reference_answer(board, spec, side).value
            spec = replace(spec, depth_limit=limit, cutoff_value=_cutoff(params))
        try:
            value, move = read_answer(ctx, params, student, board, answer, moves)
            readable = True
        except ShapeError:
            value, move, readable = None, None, False
            complete = False
        expected = reference_answer(board, spec, side).value
        answers.append(
            SearchAnswer(board, side, spec, answer.value, value, move, readable, expected, window, full_value)
        )
    return answers, complete


def _cutoff(params: SearchParams) -> float:
    """The value a depth-limited search gives at the cut-off (0 for the other kinds)."""
    return params.cutoff_value if isinstance(params, DepthParams) else 0
