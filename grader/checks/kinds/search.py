"""Search checks: minimax value and best move, depth-limited values, pruning equivalence."""

from __future__ import annotations

import functools
import math
import time
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from hypothesis import strategies as st

from grader.checks.base import (
    Sampling,
    board_size,
    boards_field,
    call_field,
    find_failure,
    guarded,
    result_from_property,
)
from grader.checks.context import (
    SEARCH_SHAPES,
    Answer,
    CheckContext,
    ShapeError,
    StudentFunction,
    format_value,
    read_search_result,
)
from grader.checks.diagnosis import Observation, explain_alphabeta, explain_minimax, is_full_window
from grader.checks.properties import Mismatch, PropertyOutcome
from grader.results import CheckResult
from grader.spec.call_template import CallTemplate
from grader.spec.model import Check
from reference import Board, SearchSpec, alphabeta, minimax, minimax_nodes, move_values, solve


def _parse_shapes(raw: Any) -> tuple[str, ...]:
    shapes = (raw,) if isinstance(raw, str) else tuple(raw) if isinstance(raw, list) else None
    if not shapes or not all(s in SEARCH_SHAPES for s in shapes):
        raise ValueError(f"must be one or a list of {', '.join(SEARCH_SHAPES)}, not {raw!r}")
    return shapes


def shapes_field(default: tuple[str, ...]) -> Any:
    return field(default=default, metadata={"parse": _parse_shapes})


@dataclass(frozen=True)
class ReferenceAnswer:
    value: float
    best_moves: tuple[int, ...]
    """Every optimal move, in move order: the first is the seeds' first-best move."""

    @property
    def best_move(self) -> int | None:
        return self.best_moves[0] if self.best_moves else None


# Reference answers are pure functions of (board, spec): memoized across the submissions
# of a batch, so the reference cost is paid once per position.
@functools.lru_cache(maxsize=200_000)
def reference_answer(board: Board, spec: SearchSpec, to_move: str) -> ReferenceAnswer:
    """Value and optimal moves; from the solved table when the spec is a full-depth one (a
    lookup), else from a search."""
    solvable = spec.depth_limit is None and not (spec.scoring == "depth-adjusted" and spec.start_depth > 0)
    if solvable and not board.is_terminal() and board.to_move(spec.first_player) == to_move:
        solution = solve(board, spec)
        return ReferenceAnswer(solution.value, tuple(solution.optimal_moves))
    result = minimax(board, spec, to_move=to_move)
    return ReferenceAnswer(result.value, tuple(result.best_moves))


@functools.lru_cache(maxsize=10_000)
def reference_minimax_nodes(board: Board, spec: SearchSpec, to_move: str) -> int:
    """The nodes the reference minimax visits (counted over the game tree, not searched)."""
    return minimax_nodes(board, spec, to_move=to_move)


@functools.lru_cache(maxsize=200_000)
def reference_alphabeta(board: Board, spec: SearchSpec, to_move: str, alpha: float, beta: float):
    return alphabeta(board, spec, alpha=alpha, beta=beta, fail="soft", to_move=to_move)


@dataclass(frozen=True)
class SearchParams:
    call: CallTemplate = call_field()
    returns: tuple[str, ...] = shapes_field(("value",))
    judge_move: Literal["any-optimal", "first-best", "none"] = "any-optimal"
    """Any optimal move is accepted unless the assignment pins the tie-break."""
    move: Literal["index", "rowcol", "position"] | None = None
    start_depth: int = 0
    """The depth the student's code gives the root (matters for depth-adjusted scores)."""
    globals: dict = field(default_factory=dict)
    min_empty: int = 1
    max_empty: int = 6
    to_move: Literal["X", "O"] | None = None
    include: tuple[Board, ...] = boards_field(default=())
    """Named positions always tried (the challenge positions), whatever their size."""
    examples: int | None = None

    @property
    def sampling(self) -> Sampling:
        return Sampling(self.min_empty, self.max_empty, self.to_move)


def _side(ctx: CheckContext, params: Any, board: Board) -> str:
    return params.to_move or board.to_move(ctx.assignment.first_player)


def judge_search_answer(
    ctx: CheckContext,
    params: Any,
    board: Board,
    answer: Answer,
    spec: SearchSpec,
    *,
    judge_move: str,
    full_value: float | None = None,
) -> Mismatch | None:
    """Compare one (value, move) answer with the reference under ``spec``."""
    side = _side(ctx, params, board)
    ref = reference_answer(board, spec, side)
    wants_value = any(s != "move" for s in params.returns)
    wants_move = judge_move != "none" and any(s != "value" for s in params.returns)
    best = ref.best_moves if wants_move else ()
    expected_parts = []
    if wants_value:
        expected_parts.append(f"value {format_value(ref.value)}")
    if wants_move:
        allowed = best if judge_move == "any-optimal" else (ref.best_move,)
        expected_parts.append(
            ("a move in " if len(allowed) > 1 else "move ") + ", ".join(ctx.show_move(c, params.move) for c in allowed)
        )
    expected = "; ".join(expected_parts)
    if not answer.ok:
        return Mismatch(answer.call_text, expected, answer.failure_text(), _mutation_cause(answer))
    try:
        value, move = read_search_result(answer.value, params.returns, ctx, params.move)
    except ShapeError as exc:
        return Mismatch(answer.call_text, expected, str(exc))
    problems = []
    actual_parts = []
    if value is not None:
        actual_parts.append(f"value {format_value(value)}")
        if wants_value and value != ref.value:
            problems.append("value")
    if move is not None or wants_move:
        actual_parts.append(f"move {ctx.show_move(move, params.move)}")
        allowed = best if judge_move == "any-optimal" else (ref.best_move,)
        if wants_move and move not in allowed:
            problems.append("move")
    if not problems:
        return None
    cause = _mutation_cause(answer) or _value_cause(board, side, spec, ref.value, value, full_value)
    if cause is None and problems == ["move"] and move is not None:
        if move not in board.empty_cells():
            cause = "The move is on a cell that is already taken."
        else:
            worth = move_values(board, spec, to_move=side).get(move)
            cause = (
                f"Move {ctx.show_move(move, params.move)} leads to a value of {format_value(worth)}, "
                f"while {format_value(ref.value)} is reachable: "
                f"the best move must be the one with the best value for {side}."
            )
    return Mismatch(answer.call_text, expected, "; ".join(actual_parts), cause)


def _mutation_cause(answer: Answer) -> str | None:
    if answer.outcome.mutated:
        return "The call changed the board it was given: a move that is tried is not undone afterwards."
    return None


def _value_cause(
    board: Board, side: str, spec: SearchSpec, expected: float, actual: float | None, full_value: float | None
) -> str | None:
    """Name the likely bug by testing explanations: does a known mistake reproduce the value?"""
    if actual is None:
        return None
    if full_value is not None and actual == full_value and expected != full_value:
        return (
            "The value is the full-depth one: the depth limit is never reached "
            "(is depth increased in the recursive call?)."
        )
    if spec.scoring == "unit" and isinstance(actual, (int, float)) and abs(actual) > 1:
        if math.isinf(actual):
            return "The value is infinite: no move was ever tried (are terminal positions and empty cells found?)."
        return (
            f"{format_value(actual)} is not a possible game value (+1, 0 or -1): the starting best value is returned "
            "unchanged, so check its initial value and the comparison that updates it."
        )
    if (
        spec.scoring == "depth-adjusted"
        and isinstance(actual, (int, float))
        and abs(actual) == 10
        and abs(expected) != 10
    ):
        return "The score ignores depth: a win should score 10 - depth and a loss depth - 10."
    return None


def _search_run(check: Check, ctx: CheckContext, *, depth_limits: tuple[int, ...] | None) -> CheckResult:
    started = time.monotonic()
    params = check.params
    student = ctx.student(params.call, globals_from=params.globals)
    limits: tuple[int | None, ...] = depth_limits or (None,)

    def cases(spread: bool) -> st.SearchStrategy[tuple[Board, int | None]]:
        return st.tuples(params.sampling.strategy(ctx, spread=spread), st.sampled_from(limits))

    def spec_for(board: Board, limit: int | None) -> SearchSpec:
        extra: dict[str, Any] = {"start_depth": params.start_depth}
        if limit is not None:
            extra.update(depth_limit=limit, cutoff_value=params.cutoff_value)
        return ctx.spec(board, to_move=_side(ctx, params, board), **extra)

    def values(case: tuple[Board, int | None]) -> dict[str, Any]:
        board, limit = case
        return ctx.placeholders(board, to_move=_side(ctx, params, board), depth_limit=limit)

    def key(case: tuple[Board, int | None]) -> tuple:
        return (str(case[0]), case[1])

    def judge(case: tuple[Board, int | None]) -> Mismatch | None:
        board, limit = case
        answer = student.ask(key(case), values(case))
        full = None
        if limit is not None:
            full = reference_answer(board, spec_for(board, None), _side(ctx, params, board)).value
        mismatch = judge_search_answer(
            ctx, params, board, answer, spec_for(board, limit), judge_move=params.judge_move, full_value=full
        )
        return mismatch

    outcome = find_failure(
        check,
        ctx,
        student,
        cases(spread=False),
        judge,
        key=key,
        values=values,
        sample=cases(spread=True),
        size=lambda c: (*board_size(c[0]), c[1] or 0),
        explicit=[(b, lim) for b in params.include for lim in limits],
        examples=params.examples,
    )
    outcome = _diagnosed(outcome, ctx, params, student, windows=False)
    judges_value = any(s != "move" for s in params.returns)
    judges_move = params.judge_move != "none" and any(s != "value" for s in params.returns)
    what = " and ".join(w for w, on in (("values", judges_value), ("moves", judges_move)) if on)
    if depth_limits:
        what += f" at depth limits {', '.join(map(str, depth_limits))}"
    return result_from_property(check, outcome, f"`{student.label}` gives the reference {what}", started=started)


class SearchValue:
    """Minimax value and/or best move equal the reference's."""

    Params = SearchParams

    @staticmethod
    @guarded
    def run(check: Check, ctx: CheckContext) -> CheckResult:
        return _search_run(check, ctx, depth_limits=None)


@dataclass(frozen=True)
class DepthParams(SearchParams):
    depth_limits: tuple[int, ...] = (1, 2, 3)
    cutoff_value: float = 0
    judge_move: Literal["any-optimal", "first-best", "none"] = "none"


class DepthLimited:
    """The value at each depth limit equals the reference's depth-limited value."""

    Params = DepthParams

    @staticmethod
    @guarded
    def run(check: Check, ctx: CheckContext) -> CheckResult:
        return _search_run(check, ctx, depth_limits=check.params.depth_limits)


@dataclass(frozen=True)
class PruningParams(SearchParams):
    windows: tuple[tuple[float, float], ...] = ((-math.inf, math.inf),)
    """Windows (alpha, beta) to start from. The full window must give the exact value; a narrower
    one must respect the bound rules: exact inside, and on the right side of the bound outside."""
    fail: Literal["soft", "hard", "either"] = "either"
    judge_move: Literal["any-optimal", "first-best", "none"] = "none"


def _bound_problem(value: float, true: float, alpha: float, beta: float, fail: str) -> str | None:
    if alpha < true < beta and value != true:
        return f"inside the window the exact value {format_value(true)} is required"
    if true <= alpha and value > alpha:
        return f"the true value is at most alpha={format_value(alpha)}, so the result must be <= alpha"
    if true >= beta and value < beta:
        return f"the true value is at least beta={format_value(beta)}, so the result must be >= beta"
    if fail == "hard" and not (alpha <= value <= beta):
        return "fail-hard alpha-beta must return a value inside [alpha, beta]"
    if fail == "soft" and (true <= alpha and value < true or true >= beta and value > true):
        return "a fail-soft bound can never be beyond the true value"
    return None


class PruningEquivalence:
    """Alpha-beta gives the minimax value, and honours the bound rules on narrowed windows."""

    Params = PruningParams

    @staticmethod
    @guarded
    def run(check: Check, ctx: CheckContext) -> CheckResult:
        started = time.monotonic()
        params: PruningParams = check.params
        student = ctx.student(params.call, globals_from=params.globals)
        windows = params.windows

        def cases(spread: bool) -> st.SearchStrategy[tuple[Board, tuple[float, float]]]:
            return st.tuples(params.sampling.strategy(ctx, spread=spread), st.sampled_from(windows))

        def values(case: tuple[Board, tuple[float, float]]) -> dict[str, Any]:
            board, (alpha, beta) = case
            return ctx.placeholders(board, to_move=_side(ctx, params, board), alpha=alpha, beta=beta)

        def key(case: tuple[Board, tuple[float, float]]) -> tuple:
            return (str(case[0]), case[1])

        def judge(case: tuple[Board, tuple[float, float]]) -> Mismatch | None:
            board, (alpha, beta) = case
            answer = student.ask(key(case), values(case))
            spec = ctx.spec(board, to_move=_side(ctx, params, board), start_depth=params.start_depth)
            if is_full_window(spec, alpha, beta) or not answer.ok:
                return judge_search_answer(ctx, params, board, answer, spec, judge_move=params.judge_move)
            true = reference_answer(board, spec, _side(ctx, params, board)).value
            try:
                value, _ = read_search_result(answer.value, params.returns, ctx, params.move)
            except ShapeError as exc:
                return Mismatch(answer.call_text, f"a result consistent with value {format_value(true)}", str(exc))
            problem = _bound_problem(value, true, alpha, beta, params.fail) if value is not None else None
            if problem is None:
                return None
            return Mismatch(
                answer.call_text,
                f"a result consistent with the true value {format_value(true)} ({problem})",
                f"value {format_value(value)}",
            )

        outcome = find_failure(
            check,
            ctx,
            student,
            cases(spread=False),
            judge,
            key=key,
            values=values,
            sample=cases(spread=True),
            size=lambda c: (*board_size(c[0]), c[1]),
            explicit=[(b, w) for b in params.include for w in windows],
            examples=params.examples,
        )
        outcome = _diagnosed(outcome, ctx, params, student, windows=True)
        return result_from_property(check, outcome, f"`{student.label}` agrees with minimax", started=started)


GENERIC_PRUNING_CAUSE = {
    True: "With a narrowed window the bounds are not honoured: alpha and beta may be swapped, or a cut-off "
    "happens on the wrong side.",
    False: "Pruning changed the result: look at the cut-off comparison and at which bound each node updates "
    "(alpha in MAX nodes, beta in MIN nodes).",
}


def _diagnosed(
    outcome: PropertyOutcome, ctx: CheckContext, params: Any, student: StudentFunction, *, windows: bool
) -> PropertyOutcome:
    """Report the failing board alone, with the likely cause found from all the student's answers."""
    if outcome.failing_input is None:
        return outcome
    board, extra = outcome.failing_input
    mismatch = outcome.mismatch
    assert mismatch is not None
    if mismatch.cause is None:
        observations = []
        spec = ctx.spec(board, to_move=_side(ctx, params, board), start_depth=params.start_depth)
        for (board_text, case_extra), answer in student.answers():
            if not answer.ok:
                continue
            try:
                value, _ = read_search_result(answer.value, params.returns, ctx, params.move)
            except ShapeError:
                continue
            if value is None:
                continue
            seen = Board.from_string(board_text)
            alpha, beta = case_extra if windows else (-math.inf, math.inf)
            limit = None if windows else case_extra
            side = _side(ctx, params, seen)
            seen_spec = ctx.spec(seen, to_move=side, start_depth=params.start_depth)
            if limit is not None:
                seen_spec = replace(seen_spec, depth_limit=limit, cutoff_value=getattr(params, "cutoff_value", 0))
            expected = reference_answer(seen, seen_spec, side).value
            observations.append(
                Observation(seen, side, value, alpha, beta, limit, params.start_depth, expected, seen_spec.maximizer)
            )
        if windows:
            spec = replace(spec, cutoff_value=0)
        else:
            spec = replace(spec, cutoff_value=getattr(params, "cutoff_value", 0))
        failing_is_full = not windows or is_full_window(spec, *extra)
        cause = explain_alphabeta(observations, spec) if windows else None
        if cause is None and failing_is_full:
            cause = explain_minimax([o for o in observations if is_full_window(spec, o.alpha, o.beta)], spec)
        if cause is None and windows:
            cause = GENERIC_PRUNING_CAUSE[not failing_is_full]
        mismatch = replace(mismatch, cause=cause)
    return replace(outcome, failing_input=board, mismatch=mismatch)
