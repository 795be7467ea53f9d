"""Hygiene: the board argument is not mutated, the notebook runs top to bottom, and manual
items that only the instructor can mark."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from hypothesis import strategies as st

from grader.check_details import ManualMarking
from grader.checks.answers import Answer
from grader.checks.context import CheckContext
from grader.checks.kind import CheckKind
from grader.checks.positions import Sampling
from grader.checks.properties import Mismatch
from grader.checks.recipe import PropertyCheck, run_property
from grader.checks.verdicts import result_from_property
from grader.execution.result import CellRecord, CellStatus
from grader.results import MARKED_BY_HAND, CheckResult, CheckStatus
from grader.spec.call_template import CallTemplate
from grader.spec.model import Check, Count, Side
from reference import Position


@dataclass(frozen=True)
class NoMutationParams:
    """The function leaves its board argument (and the globals it is given) unchanged."""

    call: CallTemplate
    """The call made on each position, in Python with placeholders, e.g. ``minimax(board, 0, is_max)``."""
    globals: dict = field(default_factory=dict)
    """Student globals set from placeholders before each call, e.g. { current_state = "board" }."""
    min_empty: int = 2
    """The fewest empty cells a sampled position has."""
    max_empty: int = 6
    """The most empty cells a sampled position has (few keep a full search cheap)."""
    to_move: Side | None = None
    """Only positions with this side to move (for functions that always play one side); default: either."""
    examples: Count = 20
    """Positions drawn beyond the first cases."""


def _no_mutation(check: Check[NoMutationParams], ctx: CheckContext) -> CheckResult:
    params = check.params
    student = ctx.student_for(params)
    sampling = Sampling(params.min_empty, params.max_empty, params.to_move)

    def values(board: Position, _: None) -> dict[str, Any]:
        return ctx.placeholders(board, to_move=params.to_move)

    def judge(board: Position, _: None, answer: Answer) -> Mismatch | None:
        if answer.ok and not answer.outcome.mutated:
            return None
        if not answer.ok:
            return Mismatch(answer.call_text, "the call returns and leaves the board as it was", answer.given())
        return Mismatch(
            answer.call_text,
            "the board is left as it was",
            "the board was changed by the call",
            "A move that is tried is not undone afterwards (or the board is modified in place).",
        )

    prop = PropertyCheck(
        lambda spread: sampling.strategy(ctx, spread=spread), st.none(), values, judge, examples=params.examples
    )
    outcome = run_property(check, ctx, student, prop).board_alone()
    return result_from_property(check, outcome, f"`{student.label}` leaves its board argument unchanged")


NO_MUTATION = CheckKind("no-mutation", NoMutationParams, _no_mutation)


@dataclass(frozen=True)
class RunsCleanlyParams:
    """Every cell ran without error, time-out or crash."""

    allowed_errors: int = 0
    """How many cells may raise, time out or crash while the check still passes."""


_TROUBLE = {
    CellStatus.ERROR: "raised",
    CellStatus.TIMEOUT: "ran out of time",
    CellStatus.KILLED: "crashed the kernel",
}


def _runs_cleanly(check: Check[RunsCleanlyParams], ctx: CheckContext) -> CheckResult:
    """The notebook runs top to bottom without errors, timeouts or crashes."""
    cells = ctx.execution.cells if ctx.execution else ()
    bad = [c for c in cells if c.status in _TROUBLE]
    if len(bad) <= check.params.allowed_errors:
        return CheckResult.for_check(check, CheckStatus.PASSED, f"All {len(cells)} cells ran.")
    described = "; ".join(f"cell {c.number} {_trouble(c)}" for c in bad[:5])
    return CheckResult.for_check(
        check,
        CheckStatus.FAILED,
        f"{len(bad)} cell(s) did not run cleanly: {described}.",
        figures={"bad_cells": [c.index for c in bad]},
    )


def _trouble(cell: CellRecord) -> str:
    """``raised ValueError``, ``ran out of time``, ``crashed the kernel``."""
    if cell.status == CellStatus.ERROR:
        return f"raised {cell.error_name}" if cell.error_name else "raised an error"
    return _TROUBLE[cell.status]


RUNS_CLEANLY = CheckKind("runs-cleanly", RunsCleanlyParams, _runs_cleanly, any_game=True)


@dataclass(frozen=True)
class ManualParams:
    """An item only the instructor can mark: students see its title and that it is marked by hand; never scored
    automatically (it is marked in the class's ``overrides.toml``)."""

    instructions: str = ""
    """How to mark the item: shown to the instructor (the class index), never to students."""
    cells: tuple[str, ...] = ()
    """Where the student answers: the words the handout's answer cell begins with (each one
    found in the submitted notebook, with the cells the student added after it, is shown
    beside the item's form in `grader review`)."""


def _manual(check: Check[ManualParams], ctx: CheckContext) -> CheckResult:
    """An item only the instructor can mark: listed in the report, never scored automatically."""
    return CheckResult.for_check(
        check,
        CheckStatus.MANUAL,
        MARKED_BY_HAND,
        score=0.0,
        detail=ManualMarking(check.points, check.params.instructions),
    )


MANUAL = CheckKind("manual", ManualParams, _manual, any_game=True)
