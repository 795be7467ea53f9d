"""The heuristic's answers on the leaves of the game-search checks are asked once per submission
(`grader.checks.shared_answers`): a check after another reads the leaves the first asked, with the
verdict it gives alone, and a slow answer is asked again by every check."""

from __future__ import annotations

import dataclasses

from grader.checks.context import CheckContext
from grader.checks.registry import run_check
from grader.results import CheckResult
from grader.spec.loader import load_assignment
from grader.spec.model import Assignment
from tests.checks.in_process import InProcessRunner, solution_definitions

ASSIGNMENT = load_assignment("connect4")
SOLUTION = solution_definitions(ASSIGNMENT)


def _graded(assignment: Assignment, *ids: str) -> tuple[list[CheckResult], int]:
    """The checks ``ids`` run in one submission on the solution, and the calls they made."""
    runner = InProcessRunner(SOLUTION)
    ctx = CheckContext.of(assignment, runner, frozenset(runner.defined_names()), hangs=runner.hang_memory(assignment))
    results = [dataclasses.replace(run_check(c, ctx), duration=0.0) for c in assignment.checks if c.id in ids]
    return results, runner.calls_made


def test_a_leaf_one_check_asked_is_read_by_the_next_with_the_verdict_it_gives_alone() -> None:
    (_, deepening), calls = _graded(ASSIGNMENT, "best-move", "deepening")
    (alone,), _ = _graded(ASSIGNMENT, "deepening")
    assert deepening == alone
    # with every answer after the soft limit none is kept: the second check asks its leaves again
    _, slow_calls = _graded(dataclasses.replace(ASSIGNMENT, slow_after=-1.0), "best-move", "deepening")
    assert calls < slow_calls
