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
from tests.checks.in_process import InProcessRunner, solution_definitions
from tests.seed_sources import LAB05_SOLUTION

LAB05 = load_assignment("lab05")


def _grade(source: str, check_id: str) -> CheckResult:
    runner = InProcessRunner(source)
    ctx = CheckContext.of(LAB05, runner, frozenset(runner.defined_names()))
    return run_check(next(c for c in LAB05.checks if c.id == check_id), ctx)


# Each built-in's win, draw (or full), winner and finished-game tests answering one thing
# whatever the board, and search checks built on them (minimax-enhanced's minimax takes
# seconds: it is tried on the winner function only).
LAB05_SEARCHES = ["minimax-value", "alphabeta-value"]
CONSTANT_ANSWERS = [
    ("lab05", "check-win", "def check_win(board, player):\n    return {}", ["False", "True"], LAB05_SEARCHES),
    ("lab05", "check-draw", "def check_draw(board):\n    return {}", ["False", "True"], LAB05_SEARCHES),
    ("experiment04", "check-win", "def check_win(board, player):\n    return {}", ["False", "True"], ["minimax-value"]),
    ("experiment04", "board-full", "def is_board_full(board):\n    return {}", ["False", "True"], ["minimax-value"]),
    ("minimax-enhanced", "check-winner", "def check_winner(board):\n    return {}", ["None", "'X'"], ["minimax"]),
    ("minimax-enhanced", "is-full", "def is_full(board):\n    return {}", ["False", "True"], []),
    ("minimax-enhanced", "is-terminal", "def is_terminal(board):\n    return {}", ["False", "True"], []),
    (
        "alphabeta-challenges",
        "is-end",
        "def is_end():\n    return {}",
        ["None", "'tie'", "'O'"],
        ["max-value", "alphabeta-max"],
    ),
    ("depth-limits", "terminal-test", "State.terminal_test = lambda self: {}", ["0", "-1", "2"], ["minmax-full-depth"]),
]


@pytest.mark.parametrize(
    "assignment_id, check_id, function, searches",
    [
        pytest.param(a, c, f.format(answer), searches, id=f"{a}-{c}-{answer}")
        for a, c, f, answers, searches in CONSTANT_ANSWERS
        for answer in answers
    ],
)
def test_a_predicate_that_always_gives_one_answer_fails_and_the_search_is_not_blamed(
    assignment_id: str, check_id: str, function: str, searches: list[str]
) -> None:
    assignment = load_assignment(assignment_id)
    solution = LAB05_SOLUTION if assignment_id == "lab05" else solution_definitions(assignment)
    runner = InProcessRunner(f"{solution}\n\n{function}\n")
    ctx = CheckContext.of(assignment, runner, frozenset(runner.defined_names()), hangs=runner.hang_memory(assignment))
    results = {c.id: run_check(c, ctx) for c in assignment.checks if c.id in [check_id, *searches]}
    assert results.pop(check_id).status == CheckStatus.FAILED
    for search, result in results.items():
        # graded with the reference's function in place of the constant one, the search is right
        assert result.status == CheckStatus.PASSED, (search, result.message)


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
