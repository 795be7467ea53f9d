"""node-counts stops a search far past the reference's count and fails it at once, with the
count it had reached; a correct search, and an alpha-beta that never prunes (a mistake the
check names), are counted whole as before."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from grader.checks.context import CheckContext
from grader.checks.kinds.node_counts import NODE_CAP_FACTOR, NODE_CAP_FLOOR
from grader.checks.registry import run_check
from grader.grading import grade_submission
from grader.results import CheckResult, CheckStatus
from grader.spec.loader import load_assignment
from grader.spec.model import Assignment
from reference import Board, SearchSpec
from reference.search import alphabeta, minimax_nodes
from tests.checks.in_process import InProcessRunner, solution_definitions
from tests.checks.spec_text import flat_list_assignment

BOARD = "X...O...."
REFERENCE = minimax_nodes(Board.from_string(BOARD), SearchSpec())
CAP = max(NODE_CAP_FACTOR * REFERENCE, REFERENCE + NODE_CAP_FLOOR)

ASSIGNMENT = (
    flat_list_assignment("node-caps", "Node caps", maximizer="O")
    + f"""
[[checks]]
id = "node-reduction"
title = "alpha-beta visits fewer nodes than minimax"
kind = "node-counts"
points = 10
minimax_call = "minimax(board, 0, is_max)"
alphabeta_call = "minimaxAB(board, 0, is_max, alpha, beta)"
positions = ["{BOARD}"]
"""
)

# lab05's solution: a minimax and a minimaxAB with O maximizing, counted by name and by the recorder.
SOLUTION = solution_definitions(load_assignment("lab05"))
# Every child searched twice, once more beside its score: 2 ** depth times as many nodes at each
# depth, far past five times the reference's from 7 empty cells.
TWICE = SOLUTION.replace(
    "score = minimax(", "score = 0 * minimax(board, depth + 1, not maximizing_player, max_depth) + minimax("
)
NEVER_PRUNES = SOLUTION.replace("break  # beta cutoff", "pass").replace("break  # alpha cutoff", "pass")
# An alpha-beta that never prunes and searches each child twice, its nodes counted by the recorder.
AB_TWICE = NEVER_PRUNES.replace(
    "eval = minimaxAB(", "eval = 0 * minimaxAB(board, depth + 1, not maximizing_player, alpha, beta) + minimaxAB("
)
assert SOLUTION != TWICE and SOLUTION != NEVER_PRUNES != AB_TWICE


def _assignment(tmp_path: Path) -> Assignment:
    (tmp_path / "assignment.toml").write_text(ASSIGNMENT)
    return load_assignment(tmp_path)


def _grade(tmp_path: Path, source: str) -> CheckResult:
    assignment = _assignment(tmp_path)
    runner = InProcessRunner(source)
    ctx = CheckContext.of(assignment, runner, frozenset(runner.defined_names()), hangs=runner.hang_memory(assignment))
    return run_check(assignment.checks[0], ctx)


def _assert_stopped_at_the_cap(
    result: CheckResult, call: str = "minimax(board, 0, False)", reference: int = REFERENCE
) -> None:
    assert result.status is CheckStatus.FAILED and result.score == 0, result.message
    assert (
        f"`{call}` from {BOARD} had entered {CAP:,} nodes when it was stopped; the reference's "
        f"search enters {reference:,}, so the count is wrong whatever the search does next."
    ) == result.message
    counterexample = result.counterexample
    assert counterexample is not None and counterexample.board == BOARD
    assert counterexample.expected == f"{reference:,} nodes" and counterexample.actual == f"{CAP:,} nodes when stopped"


def test_a_search_far_past_the_references_count_is_stopped_and_fails_with_its_count(tmp_path: Path) -> None:
    started = time.process_time()
    result = _grade(tmp_path, TWICE)
    _assert_stopped_at_the_cap(result)
    assert time.process_time() - started < 30  # the calls' limit is 60 s of CPU each


def test_an_alphabeta_the_recorder_counts_is_capped_at_the_minimax_count_too(tmp_path: Path) -> None:
    result = _grade(tmp_path, AB_TWICE)
    _assert_stopped_at_the_cap(
        result, "minimaxAB(board, 0, False, -inf, inf)", alphabeta(Board.from_string(BOARD), SearchSpec()).nodes
    )


def test_a_correct_search_and_one_that_never_prunes_are_counted_whole(tmp_path: Path) -> None:
    correct = _grade(tmp_path, SOLUTION)
    assert correct.status is CheckStatus.PASSED, correct.message
    unpruned = _grade(tmp_path, NEVER_PRUNES)
    assert unpruned.status is CheckStatus.FAILED, unpruned.message
    assert f"Alpha-beta visited {REFERENCE:,} nodes, no fewer than minimax ({REFERENCE:,})" in unpruned.message


@pytest.mark.kernel
def test_in_a_kernel_a_runaway_search_fails_at_its_cap_in_seconds(tmp_path: Path) -> None:
    """Graded as hand-ins are, in a sandboxed kernel: counted by the recorder or by name, the
    search is stopped at the cap long before its limit of CPU time."""
    handin = tmp_path / "handin.py"
    handin.write_text(TWICE)
    result = grade_submission(handin, _assignment(tmp_path)).check("node-reduction")
    _assert_stopped_at_the_cap(result)
    assert result.duration < 60  # uncapped, the call alone would use 60 s of CPU, so as much wall time at least
