"""Tic-tac-toe's reachable positions as the checks draw them, from its table of all of them
(`reference.solved`): pools by size and side to move, fewest pieces first; the smallest position
of each result and of each finished outcome; the boards that show each kind of answer of a
board function (a line complete for each player, the drawn boards and the nearly full ones);
and hypothesis strategies over the pools. Each is built once per set of arguments.
"""

from __future__ import annotations

import functools
import random

from hypothesis import strategies as st

from reference.position import Position
from reference.search import SearchSpec
from reference.solved import reachable_positions, solve
from reference.tictactoe import EMPTY, LINES, Board, O, X, board_of

__all__ = [
    "board_size",
    "covering_positions",
    "drawn_boards",
    "finished_positions",
    "game_result",
    "line_boards",
    "near_full_boards",
    "position_pool",
    "positions",
    "smallest_finished_positions",
]


def game_result(position: Position, first: str) -> str:
    """ "won for X to move", "drawn for O to move": the game's value under perfect play."""
    board = board_of(position)
    side = board.to_move(first)
    value = solve(board, SearchSpec(maximizer=side, first_player=first)).value
    return f"{'won' if value > 0 else 'lost' if value < 0 else 'drawn'} for {side} to move"


@functools.cache
def covering_positions(first: str, min_empty: int, max_empty: int, to_move: str | None) -> tuple[Board, ...]:
    """The smallest non-terminal position in the bounds of each `game_result`."""
    smallest: dict[str, Board] = {}
    for board in position_pool(first, min_empty, max_empty, to_move, False):
        smallest.setdefault(game_result(board, first), board)
    return tuple(smallest.values())


@functools.cache
def smallest_finished_positions(first: str, to_move: str | None = None) -> tuple[Board, ...]:
    """The smallest finished position of each outcome and number of empty cells: wins for
    either side with as many cells left as a game can leave, down to full boards, and draws
    (``to_move``: only those where that side would be next)."""
    smallest: dict[tuple[str | None, int], Board] = {}
    for board in position_pool(first, 0, 9, None, True):
        if board.is_terminal() and (to_move is None or board.to_move(first) == to_move):
            smallest.setdefault((board.winner(), len(board.empty_cells())), board)
    return tuple(smallest.values())


@functools.cache
def position_pool(
    first: str, min_empty: int, max_empty: int, to_move: str | None, include_terminal: bool
) -> tuple[Board, ...]:
    """Reachable positions in the bounds, fewest pieces first."""
    pool = (
        b
        for b in reachable_positions(first)
        if min_empty <= len(b.empty_cells()) <= max_empty
        and (include_terminal or not b.is_terminal())
        and (to_move is None or (not b.is_terminal() and b.to_move(first) == to_move))
    )
    return tuple(sorted(pool, key=board_size))


@functools.cache
def positions(
    first: str,
    min_empty: int = 0,
    max_empty: int = 9,
    to_move: str | None = None,
    include_terminal: bool = True,
    *,
    spread: bool = False,
) -> st.SearchStrategy[Board]:
    """Reachable positions drawn from the table of all of them (microseconds a draw, where
    replaying random games costs milliseconds).

    Hypothesis favours the first entries of a list. In smallest-first order that makes it
    shrink toward the board with the fewest pieces; with ``spread`` the list is a fixed
    shuffle instead, so a batch of examples is close to uniform over positions, which favours
    boards with few empty cells (there are far more of them) and keeps slow student code
    affordable.

    One strategy per set of arguments for the life of the process: hypothesis works out once
    per strategy whether its elements can be cached, by hashing every one of them (a
    millisecond for the full table), and a check builds its strategies at every run.
    """
    return st.sampled_from(
        _spread_pool(first, min_empty, max_empty, to_move, include_terminal)
        if spread
        else position_pool(first, min_empty, max_empty, to_move, include_terminal)
    )


@functools.cache
def finished_positions(first: str, *, spread: bool = False) -> st.SearchStrategy[Board]:
    """Reachable won or full boards, drawn as `positions` draws (958 when X begins); one
    strategy per set of arguments, as `positions` keeps them."""
    return st.sampled_from(_spread(_finished_pool(first)) if spread else _finished_pool(first))


@functools.cache
def _finished_pool(first: str) -> tuple[Board, ...]:
    return tuple(b for b in position_pool(first, 0, 9, None, True) if b.is_terminal())


@functools.cache
def _spread(pool: tuple[Board, ...]) -> tuple[Board, ...]:
    shuffled = list(pool)
    random.Random(len(shuffled)).shuffle(shuffled)
    return tuple(shuffled)


@functools.cache
def _spread_pool(
    first: str, min_empty: int, max_empty: int, to_move: str | None, include_terminal: bool
) -> tuple[Board, ...]:
    return _spread(position_pool(first, min_empty, max_empty, to_move, include_terminal))


def board_size(board: Board) -> tuple[int, str]:
    """Order for 'smallest' counterexamples: fewest pieces, then reading order."""
    return (9 - len(board.empty_cells()), str(board))


_DRAWN = "XOXXOOOXX"
"""A full board with no line (X moved first)."""


def near_full_boards(reachable: bool, first: str) -> list[Board]:
    """A drawn board and the same board with each cell emptied in turn: a full, draw or
    finished-game test that skips a cell answers one of them wrong. With ``reachable``, only
    the positions a game ``first`` began can reach."""
    drawn = _DRAWN if first == X else _DRAWN.translate(str.maketrans("XO", "OX"))
    boards = [Board.from_string(drawn)]
    boards += [Board.from_string(drawn[:i] + EMPTY + drawn[i + 1 :]) for i in range(9)]
    return [b for b in boards if not reachable or b.legality_problem(first) is None]


@functools.cache
def line_boards(reachable_only: bool, first: str) -> tuple[Board, ...]:
    """For each line and each player, the smallest position where that line is complete, and
    the smallest full board where it is the only line.

    Random boards rarely hold exactly one line, and a missed diagonal is the commonest bug,
    so every predicate check tries these first. Arbitrary boards get the bare line; reachable
    ones the smallest legal position that contains it.
    """
    smallest: dict[tuple[str, tuple[int, int, int]], Board] = {}
    smallest_full: dict[tuple[str, tuple[int, int, int]], Board] = {}
    for board in sorted(reachable_positions(first), key=lambda b: (9 - len(b.empty_cells()), str(b))):
        winners = board.winners()
        if len(winners) != 1:
            continue
        player = next(iter(winners))
        lines = _lines_of(board, player)
        if len(lines) == 1:
            smallest.setdefault((player, lines[0]), board)
            if board.is_full():
                # A full board whose one line is this one: a draw test built on a faulty win test fails here.
                smallest_full.setdefault((player, lines[0]), board)
    boards = []
    for player in (X, O):
        for line in LINES:
            if not reachable_only:
                cells = [EMPTY] * 9
                for i in line:
                    cells[i] = player
                boards.append(Board(tuple(cells)))
            elif (player, line) in smallest:
                boards.append(smallest[(player, line)])
            if (player, line) in smallest_full:
                boards.append(smallest_full[(player, line)])
    return tuple(boards)


@functools.cache
def drawn_boards(first: str) -> tuple[Board, ...]:
    """Every full board with no line that a game can end on."""
    return tuple(sorted((b for b in reachable_positions(first) if b.is_full() and not b.winners()), key=str))


def _lines_of(board: Board, player: str) -> list[tuple[int, int, int]]:
    return [line for line in LINES if all(board.cells[i] == player for i in line)]
