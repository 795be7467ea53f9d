"""Hygiene: the board argument is not mutated, the notebook runs top to bottom, and manual
items that only the instructor can mark."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from grader.checks.base import Sampling, call_field, find_failure, guarded, make_result, result_from_property
from grader.checks.context import CheckContext
from grader.checks.properties import Mismatch
from grader.results import CheckResult, CheckStatus
from grader.spec.call_template import CallTemplate
from grader.spec.model import Check
from reference import Board


@dataclass(frozen=True)
class NoMutationParams:
    call: CallTemplate = call_field()
    globals: dict = field(default_factory=dict)
    min_empty: int = 2
    max_empty: int = 6
    to_move: str | None = None
    examples: int = 20


class NoMutation:
    Params = NoMutationParams

    @staticmethod
    @guarded
    def run(check: Check, ctx: CheckContext) -> CheckResult:
        started = time.monotonic()
        params: NoMutationParams = check.params
        student = ctx.student(params.call, globals_from=params.globals)
        sampling = Sampling(params.min_empty, params.max_empty, params.to_move)

        def values(board: Board) -> dict[str, Any]:
            return ctx.placeholders(board, to_move=params.to_move)

        def judge(board: Board) -> Mismatch | None:
            answer = student.ask(str(board), values(board))
            if answer.ok and not answer.outcome.mutated:
                return None
            if not answer.ok:
                return Mismatch(
                    answer.call_text, "the call returns and leaves the board as it was", answer.failure_text()
                )
            return Mismatch(
                answer.call_text,
                "the board is left as it was",
                "the board was changed by the call",
                "A move that is tried is not undone afterwards (or the board is modified in place).",
            )

        outcome = find_failure(
            check,
            ctx,
            student,
            sampling.strategy(ctx),
            judge,
            key=str,
            values=values,
            examples=params.examples,
            sample=sampling.strategy(ctx, spread=True),
        )
        return result_from_property(
            check, outcome, f"`{student.label}` leaves its board argument unchanged", started=started
        )


@dataclass(frozen=True)
class RunsCleanlyParams:
    allowed_errors: int = 0


class RunsCleanly:
    """The notebook runs top to bottom without errors, timeouts or crashes."""

    Params = RunsCleanlyParams

    @staticmethod
    def run(check: Check, ctx: CheckContext) -> CheckResult:
        cells = (ctx.execution or {}).get("cells", [])
        bad = [c for c in cells if c.get("status") in ("error", "timeout", "killed")]
        if len(bad) <= check.params.allowed_errors:
            return make_result(check, CheckStatus.PASSED, f"All {len(cells)} cells ran.")
        described = "; ".join(
            f"cell {c['index'] + 1}: {c['status']}" + (f" ({c.get('error_name')})" if c.get("error_name") else "")
            for c in bad[:5]
        )
        return make_result(
            check,
            CheckStatus.FAILED,
            f"{len(bad)} cell(s) did not run cleanly: {described}.",
            figures={"bad_cells": [c["index"] for c in bad]},
        )


@dataclass(frozen=True)
class ManualParams:
    instructions: str = ""


class Manual:
    """An item only the instructor can mark: shown in the report, never scored automatically."""

    Params = ManualParams

    @staticmethod
    def run(check: Check, ctx: CheckContext) -> CheckResult:
        return make_result(
            check,
            CheckStatus.MANUAL,
            check.params.instructions or "For the instructor to mark.",
            score=0.0,
            figures={"points": check.points},
        )
