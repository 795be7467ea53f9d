"""The limits init writes come from the work its checks ask for: the game tree below the
largest position a check asks the search about, at a fixed allowance a position."""

from __future__ import annotations

import dataclasses

from grader.authoring.time_limits import LEAST_HARD, LEAST_SOFT, largest_position, positions_below, time_limits
from grader.checks.kinds.games import RandomOpponentParams
from grader.checks.kinds.search import SearchParams
from grader.spec.call_template import parse_call
from grader.spec.model import Check, Side


def _opponent(ai: Side) -> Check:
    return Check("never-loses", "random-opponent", "t", 10, RandomOpponentParams(parse_call("minimax(board)"), ai=ai))


def _search(max_empty: int) -> Check:
    return Check("minimax", "search-value", "t", 10, SearchParams(parse_call("minimax(board)"), max_empty=max_empty))


def test_the_whole_tree_below_the_empty_board() -> None:
    assert positions_below(9, "X") == 549_945
    assert positions_below(8, "X") < 549_945 // 8


def test_an_ai_that_opens_is_asked_about_the_empty_board_and_one_that_answers_about_one_mark() -> None:
    assert largest_position(_opponent("X"), "X") == 9
    assert largest_position(_opponent("O"), "X") == 8
    assert largest_position(_search(6), "X") == 6


def test_a_plain_search_from_the_empty_board_gets_a_minute_and_is_slow_after_eleven_seconds() -> None:
    limits = time_limits([_search(6), _opponent("X")], "X")
    assert (limits.call_timeout, limits.slow_after) == (66, 11)
    assert "549,945 positions below the empty board (check never-loses)" in limits.evidence


def test_small_trees_keep_the_least_limits() -> None:
    limits = time_limits([_search(6)], "X")
    assert (limits.call_timeout, limits.slow_after) == (LEAST_HARD, LEAST_SOFT)
    assert "a position with 6 empty cells" in limits.evidence


def test_the_limits_do_not_depend_on_the_solutions_speed() -> None:
    """Nothing timed goes in: the same checks give the same limits."""
    checks = [_search(6), _opponent("O")]
    assert time_limits(checks, "X") == time_limits([dataclasses.replace(c) for c in checks], "X")
    assert time_limits(checks, "X").call_timeout < 66
