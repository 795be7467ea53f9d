"""pruning-equivalence with a ``prune`` table: an alpha-beta whose values agree with minimax must
also cut off. alphabeta-challenges' handout is its solution without the cut-off lines of
Challenges 6 (MAX) and 7 (MIN); each check's window isolates one side's cut-off."""

from __future__ import annotations

import pytest

from grader.check_notes import Cause
from grader.checks.context import CheckContext
from grader.checks.kinds.cut_offs import NO_CUT_OFF_CAUSE
from grader.checks.registry import run_check
from grader.results import CheckResult, CheckStatus
from grader.spec.loader import load_assignment
from tests.checks.in_process import InProcessRunner, solution_definitions

ASSIGNMENT = load_assignment("alphabeta-challenges")
SOLUTION = solution_definitions(ASSIGNMENT)
CHALLENGE_6 = (
    "                if maxv >= beta:\n                    return (maxv, px, py)\n\n"
    "                if maxv > alpha:\n                    alpha = maxv\n"
)
CHALLENGE_7 = (
    "                if minv <= alpha:\n                    return (minv, qx, qy)\n\n"
    "                if minv < beta:\n                    beta = minv\n"
)


def grade(source: str) -> dict[str, CheckResult]:
    runner = InProcessRunner(source)
    ctx = CheckContext.of(ASSIGNMENT, runner, frozenset(runner.defined_names()), hangs=runner.hang_memory(ASSIGNMENT))
    return {c.id: run_check(c, ctx) for c in ASSIGNMENT.checks if c.id in ("alphabeta-max", "alphabeta-min")}


def test_the_solution_cuts_off_and_says_how_much() -> None:
    results = grade(SOLUTION)
    for check_id, call in (("alphabeta-max", "max_alpha_beta(-2, 0)"), ("alphabeta-min", "min_alpha_beta(0, 2)")):
        result = results[check_id]
        assert result.status == CheckStatus.PASSED, result.message
        assert f"It cuts off: from X...O...X `{call}` entered" in result.message
        counts = result.figures["cut_offs"]["X...O...X"]
        assert counts["nodes"] <= 0.9 * counts["minimax_nodes"]


@pytest.mark.parametrize(
    "missing, failed, passed",
    [((CHALLENGE_6,), "alphabeta-max", "alphabeta-min"), ((CHALLENGE_7,), "alphabeta-min", "alphabeta-max")],
    ids=["without-challenge-6", "without-challenge-7"],
)
def test_a_search_that_never_cuts_off_fails_only_its_challenge(
    missing: tuple[str, ...], failed: str, passed: str
) -> None:
    source = SOLUTION
    for lines in missing:
        assert lines in source
        source = source.replace(lines, "")
    results = grade(source)
    assert results[passed].status == CheckStatus.PASSED, results[passed].message
    result = results[failed]
    assert result.status == CheckStatus.FAILED and result.score == 0
    counterexample = result.counterexample
    assert counterexample is not None and counterexample.board == "X...O...X"
    assert result.cause == Cause("local", NO_CUT_OFF_CAUSE)
    counts = result.figures["cut_offs"]["X...O...X"]
    assert counts["nodes"] == counts["minimax_nodes"] > 5 * counts["reference_alphabeta_nodes"]
    assert (
        f"agrees with minimax but never cuts off: from X...O...X `{counterexample.call}` entered "
        f"{counts['nodes']} positions, as many as minimax ({counts['minimax_nodes']}); "
        f"a correct alpha-beta enters {counts['reference_alphabeta_nodes']}."
    ) in result.message


def test_the_handout_without_either_cut_off_fails_both() -> None:
    results = grade(SOLUTION.replace(CHALLENGE_6, "").replace(CHALLENGE_7, ""))
    assert {r.status for r in results.values()} == {CheckStatus.FAILED}
    assert all("never cuts off" in r.message for r in results.values())


def test_a_cut_off_past_the_bound_still_counts_as_pruning() -> None:
    """Strict comparisons prune less (node-counts' business), but they do cut off."""
    source = SOLUTION.replace("if maxv >= beta:", "if maxv > beta:").replace("if minv <= alpha:", "if minv < alpha:")
    assert source != SOLUTION
    results = grade(source)
    assert {r.status for r in results.values()} == {CheckStatus.PASSED}
