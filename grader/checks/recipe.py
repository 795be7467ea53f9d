"""One recipe for property checks.

A kind says only what is its own (`PropertyCheck`): which positions it asks about and what
goes with each (a player, a depth limit, a window, a move), the call's placeholder values for
such a case, and how to judge the student's answer against the reference. `run_property`
does the rest the same way for every kind: the check's own seed and example cache, the
assignment's budget, the whole batch asked in one round trip, the answers cached per case,
and the smallest failure (`grader.checks.properties`).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from hypothesis import strategies as st

from grader.checks.answers import Answer
from grader.checks.context import CheckContext, StudentFunction
from grader.checks.positions import board_size, check_key, check_seed
from grader.checks.properties import Mismatch, PropertyOutcome, RunPlan, find_smallest_failure
from grader.spec.model import Check
from reference import Board

E = TypeVar("E")

Case = tuple[Board, E]
"""A position and what goes with it (``None`` when nothing does)."""


@dataclass(frozen=True)
class PropertyCheck(Generic[E]):
    """What a property check asks and how it judges the answers."""

    boards: Callable[[bool], st.SearchStrategy[Board]]
    """The positions, given ``spread``: True draws the batch spread over them, False leads
    hypothesis toward small ones (see `grader.checks.positions.positions`)."""
    extras: st.SearchStrategy[E]
    """What goes with each position (``st.none()`` when nothing does)."""
    values: Callable[[Board, E], Mapping[str, Any]]
    """The call's placeholder values for a case (`CheckContext.placeholders`)."""
    judge: Callable[[Board, E, Answer], Mismatch | None]
    """The student's answer on a case against the reference: None when it is right."""
    first: Sequence[Case[E]] = ()
    """Cases always judged, before the generated ones."""
    examples: int | None = None
    """How many cases to generate (default: the assignment's ``hypothesis_examples``)."""

    def cases(self, *, spread: bool) -> st.SearchStrategy[Case[E]]:
        return st.tuples(self.boards(spread), self.extras)


def case_key(case: Case[Any]) -> tuple[str, Hashable]:
    """How a case's answer is kept (`StudentFunction.answers` lists these keys)."""
    board, extra = case
    return (str(board), extra)


def case_size(case: Case[Any]) -> tuple[Any, ...]:
    """Order of failures: the smallest board first, then the smallest extra."""
    board, extra = case
    return (*board_size(board), extra)


def run_property(
    check: Check[Any], ctx: CheckContext, student: StudentFunction, prop: PropertyCheck[E]
) -> PropertyOutcome:
    """Judge ``prop``'s cases against ``student``'s answers; the outcome names the smallest
    failing case."""

    def request(case: Case[E]) -> tuple[Hashable, Mapping[str, Any]]:
        return case_key(case), prop.values(*case)

    def fetch(cases: list[Case[E]]) -> None:
        # Calls that cannot be made are left for the judge to ask again (and learn why).
        student.ask_many((request(case) for case in cases), partial=True)

    def judge(case: Case[E]) -> Mismatch | None:
        board, extra = case
        return prop.judge(board, extra, student.ask(*request(case)))

    plan = RunPlan(
        strategy=prop.cases(spread=False),
        sample=prop.cases(spread=True),
        explicit=prop.first,
        examples=prop.examples or ctx.assignment.hypothesis_examples,
        run_seed=check_seed(ctx, check),
        cache_key=check_key(ctx, check),
        budget_seconds=ctx.assignment.check_budget_seconds,
    )
    return find_smallest_failure(plan, judge, size=case_size, prefetch=fetch)
