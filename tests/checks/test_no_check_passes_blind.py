"""No check passes blind: a check passes only after judging every kind of answer it tests,
its first positions are chosen to show each of them, and its message says what it saw."""

from __future__ import annotations

import pytest

from grader.checks.context import CheckContext
from grader.checks.kinds.predicates import drawn_boards
from grader.checks.positions import Sampling, covering_positions, game_result, results_summary
from grader.checks.properties import Covered, PropertyOutcome
from grader.checks.recipe import list_kinds
from grader.checks.registry import run_check
from grader.checks.verdicts import result_from_property
from grader.results import CheckResult, CheckStatus
from grader.spec.loader import load_assignment
from reference import Board, X
from tests.checks.in_process import InProcessRunner
from tests.seed_sources import LAB05_SOLUTION

LAB05 = load_assignment("lab05")


def _grade(source: str, check_id: str) -> CheckResult:
    runner = InProcessRunner(source)
    ctx = CheckContext(LAB05, runner, frozenset(runner.defined_names()))
    return run_check(next(c for c in LAB05.checks if c.id == check_id), ctx)


@pytest.mark.parametrize(
    "function, answer, check_id",
    [
        ("check_draw(board)", "False", "check-draw"),
        ("check_draw(board)", "True", "check-draw"),
        ("check_win(board, player)", "False", "check-win"),
        ("check_win(board, player)", "True", "check-win"),
    ],
)
def test_a_predicate_that_always_gives_one_answer_fails(function: str, answer: str, check_id: str) -> None:
    source = LAB05_SOLUTION + f"\n\ndef {function}:\n    return {answer}\n"
    result = _grade(source, check_id)
    assert result.status == CheckStatus.FAILED, result.message


def test_the_draw_test_is_tried_on_every_draw_and_says_so() -> None:
    result = _grade(LAB05_SOLUTION, "check-draw")
    assert result.status == CheckStatus.PASSED
    assert len(drawn_boards(X)) == 16
    assert "16 draws" in result.message
    assert "full boards with a line" in result.message and "boards with empty cells" in result.message


def test_the_win_test_sees_every_line_for_each_player() -> None:
    result = _grade(LAB05_SOLUTION, "check-win")
    assert result.status == CheckStatus.PASSED
    assert "Among them: wins on every line for X and for O, and " in result.message
    assert "positions without a win for the player asked" in result.message


def test_a_search_sees_won_lost_and_drawn_positions_for_each_side() -> None:
    boards = Sampling(1, 6).covering(X)
    assert sorted(game_result(b, X) for b in boards) == sorted(
        f"{r} for {side} to move" for r in ("won", "lost", "drawn") for side in ("X", "O")
    )
    assert covering_positions(X, 1, 6, None) == boards
    result = _grade(LAB05_SOLUTION, "minimax-value")
    assert result.status == CheckStatus.PASSED
    assert "Among them, for O to move: " in result.message and "; for X to move: " in result.message


def test_a_check_that_missed_a_kind_of_answer_does_not_pass() -> None:
    check = next(c for c in LAB05.checks if c.id == "check-draw")
    unseen = PropertyOutcome(40, None, None, False, "out of time", Covered("", ("draws",)))
    result = result_from_property(check, unseen, "agrees")
    assert result.status == CheckStatus.NOT_RUN
    assert result.not_run_reason == ("the check judged no draws, which it must see before it can pass: out of time")


def test_summaries() -> None:
    assert list_kinds({"draws": 6}) == "Among them: 6 draws."
    assert list_kinds({"a": 1, "b": 2, "c": 3}) == "Among them: 1 a, 2 b and 3 c."
    assert list_kinds({}) == ""
    counts = {"won for X to move": 3, "lost for X to move": 1, "drawn for O to move": 2}
    assert results_summary(counts) == "Among them, for O to move: 2 drawn; for X to move: 3 won and 1 lost."
    assert game_result(Board.from_string("XX.OO...."), X) == "won for X to move"
