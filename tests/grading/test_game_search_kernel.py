"""The game-search kind through a real kernel on the built-in connect4: progressive deepening
judged after each depth, and the heuristic's calls logged across the channel, so that a
failing search shows the node where it parted from the reference's.

The fixtures graded here are graded nowhere else: their `expected.toml` entries name this module
(`graded_by`), and each test asserts its entry too."""

from __future__ import annotations

from pathlib import Path

import pytest

from grader.check_details import SearchDivergence
from grader.grading import grade_submission
from grader.results import CheckStatus, SubmissionResult
from grader.spec.loader import load_assignment
from grader.validation import validate_assignment
from tests.grading.outcomes import EXPECTED, assert_outcome
from tests.grading.validated import assert_validates

ASSIGNMENT = load_assignment("connect4")
FIXTURES = Path(__file__).resolve().parent.parent / "submissions" / "connect4"

pytestmark = [pytest.mark.slow, pytest.mark.kernel]


def graded_fixture(name: str) -> SubmissionResult:
    """The fixture graded, and its outcome as `expected.toml` pins it (`graded_by` names this module)."""
    result = grade_submission(FIXTURES / f"{name}.ipynb", ASSIGNMENT)
    entry = EXPECTED["connect4"][name]
    assert entry["graded_by"] == "tests/grading/test_game_search_kernel.py"
    assert_outcome(result, ASSIGNMENT, entry)
    return result


def test_the_solution_answers_after_each_depth_as_the_reference_does() -> None:
    """connect4 is validated here rather than in `test_validate.py` (`VALIDATED_ELSEWHERE`): its
    solution's grading is the one validation makes."""
    report = validate_assignment(ASSIGNMENT)
    assert_validates(report)
    result = report.solution
    assert result is not None and result.submission == str(ASSIGNMENT.directory / "solution.ipynb")
    deepening = result.check("deepening")
    assert deepening.status is CheckStatus.PASSED, deepening.message
    assert "after each depth 1 to 3: values, moves and evaluations" in deepening.message
    assert result.score == result.max_score


def test_a_count_restarted_at_each_depth_fails_after_depth_2_with_no_node_to_show() -> None:
    result = graded_fixture("deepening-count-restarts")
    deepening = result.check("deepening")
    assert deepening.status is CheckStatus.FAILED
    assert deepening.headline.startswith("Wrong answer after depth 2 of 3 on ")
    assert deepening.cause is not None and "restart the count at each depth" in deepening.cause.sentence
    # it evaluates what the reference evaluates, in its order: only its count is wrong
    assert deepening.detail is None


def test_a_cut_off_only_past_the_bound_shows_the_node_where_the_reference_cut_off() -> None:
    result = graded_fixture("prune-strictly-greater")
    alphabeta = result.check("alphabeta")
    parted = alphabeta.detail_as(SearchDivergence)
    assert parted is not None, alphabeta.message
    assert parted.expected.startswith("the reference cuts off here: after column")
    assert parted.actual.startswith("your search went to column")
    assert parted.window is not None and parted.path


def test_deepening_at_the_full_depth_each_time_shows_the_first_leaf_it_went_past() -> None:
    result = graded_fixture("deepening-ignores-depth")
    deepening = result.check("deepening")
    assert deepening.headline == "Wrong answer after depth 1 of 3 on the empty board"
    parted = deepening.detail_as(SearchDivergence)
    assert parted is not None and (parted.depth, parted.evaluation, parted.path) == (1, 1, (0,))
    assert parted.actual == "your search went to column 0 and evaluated the position after columns 0 0 0"
