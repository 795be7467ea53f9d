"""The property run of a check on a game other than tic-tac-toe, and its verdict.

The same engine as tic-tac-toe's recipe (`grader.checks.properties`): the check's own seed
and example cache, the assignment's budget, the whole batch asked in one round trip, then
hypothesis shrinking from the first failure toward the shortest game that shows it. A case is
a `GameCase` and what goes with it (a column, a player, nothing).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from hypothesis import strategies as st

from grader.check_notes import Cause, PositionsTried
from grader.checks.answers import Answer
from grader.checks.context import CheckContext, StudentFunction
from grader.checks.game_cases import GameCase, case_counterexample, game_view
from grader.checks.positions import check_key, check_seed
from grader.checks.properties import Mismatch, PropertyOutcome, RunPlan, find_smallest_failure
from grader.results import CheckResult, CheckStatus
from grader.spec.model import Check

__all__ = ["GameProperty", "game_result", "run_game_property"]

E = TypeVar("E")
GameInput = tuple[GameCase, E]


@dataclass(frozen=True)
class GameProperty(Generic[E]):
    """What a check on a game asks and how it judges the answers."""

    cases: st.SearchStrategy[GameInput[E]]
    values: Callable[[GameCase, E], Mapping[str, Any]]
    """The call's placeholder values for a case."""
    judge: Callable[[GameCase, E, Answer], Mismatch | None]
    """The student's answer on a case against the game: None when it is right."""
    first: Sequence[GameInput[E]] = ()
    """Cases always judged first (the finished games of every outcome)."""
    examples: int | None = None
    partners: Callable[[GameCase, E], Sequence[E]] | None = None
    """What else the judge of a case asks about it (the other side, for a heuristic): asked in
    the same batch, not one round trip each."""
    changes_board: bool = False
    """The call is asked to change the board it is given (a move made or taken back): else, on
    a course's board object that holds the game, a call that leaves it changed is wrong."""


def _key(item: GameInput[Any]) -> Hashable:
    case, extra = item
    return (case.moves, repr(extra))


def run_game_property(
    check: Check[Any], ctx: CheckContext, student: StudentFunction, prop: GameProperty[E]
) -> PropertyOutcome:
    """Judge ``prop``'s cases against ``student``; the outcome names the shortest failing game."""

    def fetch(items: list[GameInput[E]]) -> None:
        partners = prop.partners
        if partners is not None:
            items = [*items, *((case, other) for case, extra in items for other in partners(case, extra))]
        student.ask_many(((_key(item), prop.values(*item)) for item in items), partial=True)

    view = game_view(ctx)

    def judge(item: GameInput[E]) -> Mismatch | None:
        case, extra = item
        answer = student.answer_for(_key(item), lambda: prop.values(case, extra))
        changed = None if prop.changes_board else view.left_changed(answer)
        return changed or prop.judge(case, extra, answer)

    def size(item: GameInput[E]) -> tuple[Any, ...]:
        case, extra = item
        return (*case.size(), repr(extra))

    plan = RunPlan(
        strategy=prop.cases,
        explicit=prop.first,
        examples=prop.examples or ctx.assignment.hypothesis_examples,
        run_seed=check_seed(ctx, check),
        cache_key=check_key(ctx, check),
        budget_seconds=ctx.assignment.check_budget_seconds,
    )
    return find_smallest_failure(plan, judge, size=size, prefetch=fetch)


def game_result(check: Check[Any], outcome: PropertyOutcome, passed: str, cause: str | None = None) -> CheckResult:
    """The verdict of a run: passed with the positions it judged, or failed on the shortest
    game that shows the mistake, drawn."""
    figures: dict[str, Any] = {"examples": outcome.tried}
    if outcome.passed:
        if outcome.stopped is not None and outcome.tried == 0:
            return CheckResult.not_run(check, outcome.stopped)
        return CheckResult.for_check(
            check, CheckStatus.PASSED, passed, figures=figures, notes=(PositionsTried(outcome.tried),)
        )
    item = outcome.failing_input
    mismatch = outcome.mismatch
    assert mismatch is not None and isinstance(item, tuple)
    case = item[0]
    why = cause or mismatch.cause
    return CheckResult.for_check(
        check,
        CheckStatus.FAILED,
        f"Wrong answer on {case.described()}",
        counterexample=case_counterexample(case, mismatch),
        figures=figures,
        cause=Cause("local", why) if why else None,
    )
