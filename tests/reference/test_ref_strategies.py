"""The board strategies produce what they promise, and shrink toward simple boards."""

from __future__ import annotations

import math

import pytest
from hypothesis import find, given, settings
from hypothesis import strategies as st

from reference.strategies import (
    arbitrary_boards,
    boards_with_empty,
    nonterminal_boards,
    reachable_boards,
    windows,
)
from reference.tictactoe import EMPTY, Board, O, X

PINNED = settings(database=None, derandomize=True, report_multiple_bugs=False)


@given(st.data(), st.sampled_from([X, O]), st.integers(0, 9), st.integers(0, 9), st.booleans())
def test_reachable_boards_respect_every_parameter(
    data: st.DataObject, first: str, low: int, high: int, include_terminal: bool
) -> None:
    low, high = min(low, high), max(low, high)
    if not include_terminal and high == 0:
        return  # no non-terminal board has 0 empty cells
    board = data.draw(reachable_boards(first=first, min_empty=low, max_empty=high, include_terminal=include_terminal))
    assert board.is_legal_position(first)
    lowest = max(low, 1) if not include_terminal else low
    assert lowest <= board.count(EMPTY) <= high
    if not include_terminal:
        assert not board.is_terminal()


@given(boards_with_empty(4))
def test_boards_with_empty_fixes_the_count(board: Board) -> None:
    assert board.count(EMPTY) == 4 and board.is_legal_position()


@given(nonterminal_boards(first=O))
def test_nonterminal_boards_leave_a_move(board: Board) -> None:
    assert board.empty_cells() and not board.is_terminal() and board.is_legal_position(O)


def test_terminal_boards_are_generated() -> None:
    board = find(boards_with_empty(4), lambda b: b.is_terminal(), settings=PINNED)
    assert board.winners() == {X}  # five X marks and four empties: only X can have won


def test_strategy_arguments_are_checked() -> None:
    with pytest.raises(ValueError, match="min_empty <= max_empty"):
        reachable_boards(min_empty=5, max_empty=4)
    with pytest.raises(ValueError, match="min_empty <= max_empty"):
        nonterminal_boards(max_empty=0)
    with pytest.raises(ValueError, match="a player is 'X' or 'O'"):
        reachable_boards(first="x")
    with pytest.raises(ValueError, match="at least two distinct bounds"):
        windows(bounds=(1, 1))


@given(windows())
def test_windows_are_ordered(window: tuple[float, float]) -> None:
    alpha, beta = window
    assert alpha < beta and -math.inf <= alpha and beta <= math.inf


def test_shrinking_heads_for_short_games_in_the_first_cells() -> None:
    two_x = find(reachable_boards(), lambda b: b.count(X) >= 2, settings=PINNED)
    assert two_x == Board.from_string("XOX......")
    won = find(reachable_boards(), lambda b: b.winner() == X, settings=PINNED)
    assert won.count(X) == 3 and won.count(O) == 2  # the shortest possible win
    assert find(arbitrary_boards(), lambda b: True, settings=PINNED) == Board.empty()
