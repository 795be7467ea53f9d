"""One recipe for property checks.

A kind says only what is its own (`PropertyCheck`): which positions it asks about and what
goes with each (a player, a depth limit, a window, a move), the call's placeholder values for
such a case, and how to judge the student's answer against the reference. `run_property`
does the rest the same way for every kind: the check's own seed and example cache, the
assignment's budget, the whole batch asked in one round trip, the answers cached per case,
and the smallest failure (`grader.checks.properties`).

No check passes blind: a kind that names the kinds of answer it tests (`Coverage`: a draw
and a full board with a line, a win on each line for each player, a won, lost and drawn
position for each side) chooses its first cases to show every one of them, and passes only
once it has judged a case of each.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Generic, TypeVar

from hypothesis import strategies as st

from grader.check_notes import RanOutOfTime
from grader.checks.answers import Answer
from grader.checks.context import CheckContext, StudentFunction
from grader.checks.positions import check_key, check_seed
from grader.checks.properties import Covered, Mismatch, PropertyOutcome, RunPlan, find_smallest_failure
from grader.execution.channel.calls import CallOutcome, CallStatus, StopClock
from grader.spec.model import Check
from reference import BoardGame, Position

__all__ = ["Case", "Coverage", "PropertyCheck", "run_property"]

P = TypeVar("P", bound=Position)
"""The positions a check asks about: of the assignment's game, which its kind knows."""
E = TypeVar("E")

Case = tuple[P, E]
"""A position and what goes with it (``None`` when nothing does)."""


def kinds_phrase(counts: Mapping[str, int]) -> str:
    """The kinds seen, e.g. "16 draws and 70 boards with empty cells"; "" for nothing."""
    parts = [f"{n} {kind}" for kind, n in counts.items()]
    return ", ".join(parts[:-1]) + " and " + parts[-1] if len(parts) > 1 else "".join(parts)


def list_kinds(counts: Mapping[str, int]) -> str:
    """What a passing message adds, e.g. "Among them: 16 draws and 70 boards with empty cells."; "" for nothing."""
    listed = kinds_phrase(counts)
    return f"Among them: {listed}." if listed else ""


@dataclass(frozen=True)
class Coverage(Generic[P, E]):
    """The kinds of answer a check tests. The kinds its first cases show are the ones it must
    see: it passes only after judging a case of each."""

    kinds: Callable[[P, E], Iterable[str]]
    """The kinds of answer a case shows (plural nouns: "draws", "boards with empty cells")."""
    summary: Callable[[Mapping[str, int]], str] = list_kinds
    """What a passing message says was seen, from the number of cases of each kind judged."""


@dataclass(frozen=True)
class PropertyCheck(Generic[P, E]):
    """What a property check asks and how it judges the answers."""

    boards: Callable[[bool], st.SearchStrategy[P]]
    """The positions, given ``spread``: True draws the batch spread over them, False leads
    hypothesis toward small ones (see `grader.checks.positions.positions`)."""
    extras: st.SearchStrategy[E]
    """What goes with each position (``st.none()`` when nothing does)."""
    values: Callable[[P, E], Mapping[str, Any]]
    """The call's placeholder values for a case (`CheckContext.placeholders`)."""
    judge: Callable[[P, E, Answer], Mismatch | None]
    """The student's answer on a case against the reference: None when it is right."""
    first: Sequence[Case[P, E]] = ()
    """Cases always judged, before the generated ones."""
    examples: int | None = None
    """How many cases to generate (default: the assignment's ``hypothesis_examples``)."""
    coverage: Coverage[P, E] | None = None
    """The kinds of answer the check tests (``first`` must show each of them)."""

    def cases(self, *, spread: bool) -> st.SearchStrategy[Case[P, E]]:
        return st.tuples(self.boards(spread), self.extras)


def case_key(case: Case[Position, Any]) -> tuple[str, Hashable]:
    """How a case's answer is kept (`StudentFunction.answers` lists these keys)."""
    board, extra = case
    return (str(board), extra)


def case_size(case: Case[Position, Any], game: BoardGame[Position, int]) -> tuple[Any, ...]:
    """Order of failures: the smallest board first (the fewest pieces, then the one written
    first), then the smallest extra."""
    board, extra = case
    return (game.pieces(board), str(board), extra)


def run_property(
    check: Check[Any], ctx: CheckContext, student: StudentFunction, prop: PropertyCheck[P, E]
) -> PropertyOutcome:
    """Judge ``prop``'s cases against ``student``'s answers; the outcome names the smallest
    failing case."""

    def request(case: Case[P, E]) -> tuple[Hashable, Mapping[str, Any]]:
        return case_key(case), prop.values(*case)

    def fetch(cases: list[Case[P, E]]) -> None:
        # Calls that cannot be made are left for the judge to ask again (and learn why).
        student.ask_many((request(case) for case in cases), partial=True)

    seen = _Seen(prop.coverage)
    game = ctx.game

    def judge(case: Case[P, E]) -> Mismatch | None:
        board, extra = case
        answer = student.answer_for(case_key(case), lambda: prop.values(board, extra))
        mismatch = prop.judge(board, extra, answer)
        seen.judged(case)
        if mismatch is not None and answer.outcome.status is CallStatus.TIMEOUT:
            # No answer is not a wrong one: the verdict says the call ran out of time, at
            # its own limit (shorter than the full one once the function has hung before).
            return replace(mismatch, ran_out=ran_out_of_time(answer.outcome, student.timeout))
        return mismatch

    plan = RunPlan(
        strategy=prop.cases(spread=False),
        sample=prop.cases(spread=True),
        explicit=prop.first,
        examples=prop.examples or ctx.assignment.hypothesis_examples,
        run_seed=check_seed(ctx, check),
        cache_key=check_key(ctx, check),
        budget_seconds=ctx.assignment.check_budget_seconds,
    )
    outcome = find_smallest_failure(plan, judge, size=lambda case: case_size(case, game), prefetch=fetch)
    return replace(outcome, covered=seen.covered(prop.first), game=game)


class _Seen(Generic[P, E]):
    """How many distinct cases of each kind of answer were judged."""

    def __init__(self, coverage: Coverage[P, E] | None) -> None:
        self.coverage = coverage
        self.cases: set[Hashable] = set()
        self.counts: Counter[str] = Counter()

    def judged(self, case: Case[P, E]) -> None:
        if self.coverage is None or case_key(case) in self.cases:
            return
        self.cases.add(case_key(case))
        self.counts.update(dict.fromkeys(self.coverage.kinds(*case), 1))

    def covered(self, first: Sequence[Case[P, E]]) -> Covered | None:
        if self.coverage is None:
            return None
        tested = dict.fromkeys(kind for case in first for kind in self.coverage.kinds(*case))
        missing = tuple(kind for kind in tested if not self.counts[kind])
        ordered = {kind: self.counts[kind] for kind in [*tested, *self.counts] if self.counts[kind]}
        return Covered(self.coverage.summary(ordered), missing)


def ran_out_of_time(outcome: CallOutcome, full_limit: float) -> RanOutOfTime:
    """What stopped a call that ran out of time: its limit of CPU time (the full one, or the
    short one it ran under, as much as it used), or the wall-clock safety net."""
    if outcome.stopped_by is StopClock.WALL:
        return RanOutOfTime(round(outcome.wall), clock=StopClock.WALL)
    return RanOutOfTime(round(min(full_limit, outcome.duration), 1))
