"""Which positions checks ask about: reachable positions drawn from a table, their order for
"smallest" counterexamples, and the seed and cache key that make every submission of a class
be asked about the same ones."""

from __future__ import annotations

import functools
import random
import zlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from hypothesis import strategies as st

from grader.checks.context import CheckContext
from grader.spec.model import Check, Side
from reference import Board, SearchSpec, reachable_positions, solve

__all__ = ["board_size", "check_seed", "finished_positions", "positions"]


@dataclass(frozen=True)
class Sampling:
    """Which positions a search check samples (weighted toward few empty cells)."""

    min_empty: int = 1
    max_empty: int = 6
    to_move: Side | None = None
    """Only positions with this side to move (for functions that always play one side)."""

    def strategy(self, ctx: CheckContext, *, spread: bool = False) -> st.SearchStrategy[Board]:
        return positions(
            ctx.assignment.first_player,
            self.min_empty,
            self.max_empty,
            self.to_move,
            include_terminal=False,
            spread=spread,
        )

    def covering(self, first: str) -> tuple[Board, ...]:
        """The smallest position of each result (won, lost, drawn) for each side to move."""
        return covering_positions(first, self.min_empty, self.max_empty, self.to_move)


def game_result(board: Board, first: str) -> str:
    """ "won for X to move", "drawn for O to move": the game's value under perfect play."""
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


def results_summary(counts: Mapping[str, int]) -> str:
    """What a search check's passing message adds, e.g. "Among them, for O to move: 9 won and
    4 drawn; for X to move: 20 won, 12 lost and 9 drawn."."""
    sides = []
    for side in sorted({kind.split(" for ")[1] for kind in counts}):
        parts = [f"{counts[kind]} {kind.split(' for ')[0]}" for kind in counts if kind.endswith(" for " + side)]
        listed = ", ".join(parts[:-1]) + " and " + parts[-1] if len(parts) > 1 else parts[0]
        sides.append(f"for {side}: {listed}")
    return f"Among them, {'; '.join(sides)}." if sides else ""


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


def check_seed(ctx: CheckContext, check: Check[Any]) -> int:
    """Fixed per assignment and check: every submission is asked about the same positions,
    which is fair between students and makes grading reproducible."""
    return zlib.crc32(f"{ctx.assignment.id}:{check.id}".encode())


def check_key(ctx: CheckContext, check: Check[Any]) -> tuple[str, str, str, str]:
    """Identifies a check's generated examples across the submissions of a batch (the
    parameters too: a course author's edit, or a test's variant, must not reuse them)."""
    return (ctx.assignment.id, str(ctx.assignment.directory), check.id, repr(check.params))
