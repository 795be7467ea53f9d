"""Hypothesis strategies for tic-tac-toe boards and alpha-beta windows.

Reachable boards are built from legal move sequences rather than filtered out of random
grids, so every example is a real position and shrinking heads for short games played
in the first free cells.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from hypothesis import assume, reject
from hypothesis import strategies as st

from reference.codecs import CONTAINERS, LAYOUTS, BoardEncoding, CellName
from reference.tictactoe import EMPTY, Board, O, X, opponent

__all__ = [
    "arbitrary_boards",
    "board_encodings",
    "boards_with_empty",
    "nonterminal_boards",
    "reachable_boards",
    "windows",
]


def _check_bounds(min_empty: int, max_empty: int) -> None:
    if not 0 <= min_empty <= max_empty <= 9:
        raise ValueError(f"need 0 <= min_empty <= max_empty <= 9, got {min_empty}, {max_empty}")


def reachable_boards(
    first: str = X, min_empty: int = 0, max_empty: int = 9, include_terminal: bool = True
) -> st.SearchStrategy[Board]:
    """Positions reachable in a game ``first`` started, with ``min_empty..max_empty`` empties.

    The game is played one drawn move at a time. A move may end the game only once the
    board has enough marks; a finished board is always finished by its last move, so
    every reachable position with a permitted number of empty cells can be drawn.
    Arguments are checked here, not when the first example is drawn.
    """
    opponent(first)
    _check_bounds(min_empty, max_empty)
    if not include_terminal:
        min_empty = max(min_empty, 1)  # a full board is always terminal
        _check_bounds(min_empty, max_empty)
    return _played_games(first, 9 - max_empty, 9 - min_empty, include_terminal)


@st.composite
def _played_games(draw: st.DrawFn, first: str, fewest: int, most: int, include_terminal: bool) -> Board:
    board = Board.empty()
    for ply in range(most):
        # Past the minimum length each further ply is opted into, and stopping is the
        # simplest choice, so the shrinker cuts games short. Stopping with chance
        # 1/(plies left + 1) makes every permitted length equally likely.
        if ply >= fewest and not draw(st.sampled_from((False,) + (True,) * (most - ply))):
            break
        may_end = include_terminal and ply + 1 >= fewest
        choices = [cell for cell in board.empty_cells() if may_end or not board.play(cell, first=first).is_terminal()]
        assume(choices)  # rare: every move would end the game too early
        board = board.play(draw(st.sampled_from(choices)), first=first)
        if board.is_terminal():
            break
    return board


def boards_with_empty(n: int, first: str = X, include_terminal: bool = True) -> st.SearchStrategy[Board]:
    """Reachable boards with exactly ``n`` empty cells."""
    return reachable_boards(first, min_empty=n, max_empty=n, include_terminal=include_terminal)


def nonterminal_boards(first: str = X, min_empty: int = 1, max_empty: int = 9) -> st.SearchStrategy[Board]:
    """Reachable positions where the game is still on (there is a move to choose)."""
    return reachable_boards(first, min_empty, max_empty, include_terminal=False)


def arbitrary_boards() -> st.SearchStrategy[Board]:
    """Any of the 3^9 grids, legal or not; shrinks toward the empty board."""
    return st.lists(st.sampled_from((EMPTY, X, O)), min_size=9, max_size=9).map(lambda cells: Board(tuple(cells)))


def windows(
    bounds: Sequence[float] = (-math.inf, -1.5, -1, -0.5, 0, 0.5, 1, 1.5, math.inf),
) -> st.SearchStrategy[tuple[float, float]]:
    """Alpha-beta windows ``(alpha, beta)`` with ``alpha < beta``, both taken from ``bounds``.

    The default bounds suit unit scores: each outcome value, the half-way points between
    them, and the infinities.
    """
    ordered = tuple(sorted(set(bounds)))
    if len(ordered) < 2:
        raise ValueError(f"need at least two distinct bounds, got {bounds!r}")
    return _windows(ordered)


@st.composite
def _windows(draw: st.DrawFn, ordered: tuple[float, ...]) -> tuple[float, float]:
    low = draw(st.integers(0, len(ordered) - 2))
    high = draw(st.integers(low + 1, len(ordered) - 1))
    return ordered[low], ordered[high]


_MARKS: tuple[str | int, ...] = ("X", "O", "x", "o", "1", "2", 1, 2, -1, 0)
_EMPTIES: tuple[object, ...] = (" ", "", "_", "-", ".", "0", None, 0, *CellName)


@st.composite
def board_encodings(draw: st.DrawFn) -> BoardEncoding:
    """Encodings of the open family: every layout and container, marks and empty symbols
    as courses write them (``'x'``, ``1``/``-1``, ``''``, ``None``, the cell's own digit),
    only the combinations :class:`BoardEncoding` accepts."""
    container = draw(st.sampled_from(CONTAINERS))
    layout = "flat" if container in ("string", "dict") else draw(st.sampled_from(LAYOUTS))
    x = draw(st.sampled_from(_MARKS))
    o = draw(st.sampled_from(_MARKS))
    empty = draw(st.sampled_from(_EMPTIES))
    try:
        return BoardEncoding(layout, container, empty, x, o)  # type: ignore[arg-type]
    except ValueError:
        reject()
