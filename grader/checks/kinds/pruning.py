"""The pruning-equivalence check: alpha-beta gives the minimax value on the full window,
keeps the fail-soft or fail-hard bound rules on narrowed windows and, when asked, really cuts
off (`grader.checks.kinds.cut_offs`)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Literal

from hypothesis import strategies as st

from grader.checks.answers import Answer, ShapeError, format_value
from grader.checks.causes.known_mistakes import is_full_window
from grader.checks.context import CheckContext
from grader.checks.kind import CheckKind
from grader.checks.kinds.cut_offs import CutOffs, PrunePosition, judge_cut_offs
from grader.checks.kinds.search import (
    JudgeMove,
    SearchParams,
    diagnosed,
    first_boards,
    judge_finished_answer,
    judge_search_answer,
    judges_values,
    read_answer,
    results_coverage,
    sampled_boards,
    side_to_answer,
)
from grader.checks.properties import Mismatch
from grader.checks.recipe import PropertyCheck, run_property
from grader.checks.reference_answers import reference_answer
from grader.checks.verdicts import result_from_property
from grader.results import CheckResult, CheckStatus
from grader.spec.model import Check
from reference import Position, TicTacToe

__all__ = ["PRUNING_EQUIVALENCE", "PruneParams", "PruningParams"]


@dataclass(frozen=True)
class PruneParams:
    """How a pruning-equivalence check also judges that the search cuts off."""

    positions: tuple[Position, ...] = (TicTacToe().position("X...O...X"),)
    """Small positions (a full minimax is cheap there, and a correct alpha-beta enters a
    fraction of it)."""
    window: tuple[float, float] = (-math.inf, math.inf)
    """The window the recorded call starts with. One bound beyond every value isolates one
    side's cut-off: (-2, 0) on unit scores prunes only where MAX nodes reach beta."""
    ratio: float = 0.9
    """Counting conventions differ by a node or so; a search that never cuts off enters all."""


@dataclass(frozen=True)
class PruningParams(SearchParams):
    """Alpha-beta gives the minimax value on the full window, and keeps the fail-soft or fail-hard bound rules on
    narrowed windows. Values cannot tell alpha-beta from a search that never cuts off: a ``prune`` table also records
    the search and fails it (0 points) when it enters more than ``prune.ratio`` of the positions the reference
    minimax enters; how much it prunes is ``node-counts``' job. A window with one bound beyond every value isolates
    one side's cut-off."""

    windows: tuple[tuple[float, float], ...] = ((-math.inf, math.inf),)
    """Windows (alpha, beta) to start from. The full window must give the exact value; a narrower
    one must respect the bound rules: exact inside, and on the right side of the bound outside."""
    fail: Literal["soft", "hard", "either"] = "either"
    """soft: a bound may go beyond the window, never beyond the true value; hard: the result stays inside [alpha,
    beta]; either: both are accepted."""
    judge_move: JudgeMove = "none"
    """Which best moves count: any-optimal, first-best (the first in row-major order), or none (the value alone is
    judged)."""
    prune: PruneParams | None = None
    """Values alone cannot tell alpha-beta from a search that never cuts off (it gives the
    exact value on every window): with a ``prune`` table (``prune = {}`` for its defaults),
    once the values agree the search is also recorded from each of its ``positions`` with its
    ``window``, and must enter at most ``ratio`` of the positions minimax enters there."""

    def __post_init__(self) -> None:
        judges_values(self, "pruning-equivalence")


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


def _pruning_equivalence(check: Check[PruningParams], ctx: CheckContext) -> CheckResult:
    """Alpha-beta gives the minimax value, and honours the bound rules on narrowed windows."""
    params = check.params
    student = ctx.student_for(params, read_board=params.in_place)
    moves = ctx.moves(params.move)
    windows = params.windows

    def values(board: Position, window: tuple[float, float]) -> dict[str, Any]:
        alpha, beta = window
        return ctx.placeholders(board, to_move=side_to_answer(ctx, params, board), alpha=alpha, beta=beta)

    def judge(board: Position, window: tuple[float, float], answer: Answer) -> Mismatch | None:
        alpha, beta = window
        spec = ctx.spec(board, to_move=side_to_answer(ctx, params, board), start_depth=params.start_depth)
        if ctx.game.is_terminal(board):
            return judge_finished_answer(params, board, answer, spec, side_to_answer(ctx, params, board))
        if is_full_window(spec, alpha, beta) or not answer.ok:
            return judge_search_answer(
                ctx, params, board, answer, spec, student=student, moves=moves, judge_move=params.judge_move
            )
        true = reference_answer(board, spec, side_to_answer(ctx, params, board)).value
        try:
            value, _ = read_answer(ctx, params, student, board, answer, moves)
        except ShapeError as exc:
            return Mismatch(answer.call_text, f"a result consistent with value {format_value(true)}", exc.given())
        problem = _bound_problem(value, true, alpha, beta, params.fail) if value is not None else None
        if problem is None:
            return None
        return Mismatch(
            answer.call_text,
            f"a result consistent with the true value {format_value(true)} ({problem})",
            f"value {format_value(value)}",
        )

    prop = PropertyCheck(
        sampled_boards(params, ctx),
        st.sampled_from(windows),
        values,
        judge,
        first=[(b, w) for b in first_boards(params, ctx) for w in windows],
        examples=params.examples,
        coverage=results_coverage(ctx),
    )
    outcome, cause = diagnosed(
        run_property(check, ctx, student, prop), ctx, check.id, params, student, moves, windows=True
    )
    result = result_from_property(check, outcome, f"`{student.label}` agrees with minimax", cause=cause)
    if params.prune is None or result.status is not CheckStatus.PASSED:
        return result
    positions = []
    for board in params.prune.positions:
        side = side_to_answer(ctx, params, board)
        positions.append(PrunePosition(board, side, ctx.spec(board, to_move=side, start_depth=params.start_depth)))
    recorded = ctx.student_for(params, explore=ctx.explore())
    return judge_cut_offs(check, ctx, recorded, CutOffs(positions, params.prune.window, params.prune.ratio), result)


PRUNING_EQUIVALENCE = CheckKind("pruning-equivalence", PruningParams, _pruning_equivalence)
