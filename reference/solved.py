"""Tic-tac-toe solved: the value and every optimal move of all 5,478 reachable positions.

The game tree has 549,946 nodes but only 5,478 distinct positions, so one memoized pass
over the position graph solves every position at once (a few hundredths of a second; see
``bench/solve_table.py``). Each position is valued *as a search root*: the value is what
``search.minimax(board, spec)`` returns for it, so a grader can compare a student's
answer on any position with one dictionary lookup.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from reference.errors import MalformedBoard
from reference.position import Position
from reference.search import SearchSpec
from reference.tictactoe import EMPTY, LINES_THROUGH, Board, X, board_of, opponent

__all__ = ["Solution", "clear_caches", "reachable_positions", "solve", "solve_all"]

_Cells = tuple[str, ...]
_ROW_MAJOR = tuple(range(9))


@dataclass(frozen=True)
class Solution:
    """The solved facts about one position under one :class:`SearchSpec`."""

    value: float
    """Minimax value for ``spec.maximizer`` with this position as the root."""
    to_move: str
    """Side to move from the counts (on a finished board: who would move next)."""
    optimal_moves: tuple[int, ...]
    """Every optimal move for ``to_move``, in ``spec.move_order``; empty when terminal."""
    terminal: bool
    """Whether the game is over in this position."""

    @property
    def best_move(self) -> int | None:
        """The first optimal move in move order: the move a seed's strict ``>`` picks."""
        return self.optimal_moves[0] if self.optimal_moves else None


def _won_by(cells: _Cells, last: int | None) -> str | None:
    """Who won with the move at ``last`` (``None`` at the root, which has no last move)."""
    if last is not None:
        for a, b, c in LINES_THROUGH[last]:
            if cells[a] == cells[b] == cells[c]:
                return cells[last]
    return None


def _successors(cells: _Cells, player: str, order: tuple[int, ...]) -> list[tuple[int, _Cells]]:
    return [(m, cells[:m] + (player,) + cells[m + 1 :]) for m in order if cells[m] == EMPTY]


@functools.cache
def reachable_positions(first: str = X) -> frozenset[Board]:
    """Every position that can occur in a game ``first`` starts, finished ones included."""
    opponent(first)  # validates
    seen: set[_Cells] = set()
    frontier: list[tuple[_Cells, str, int | None]] = [((EMPTY,) * 9, first, None)]
    while frontier:
        cells, player, last = frontier.pop()
        if cells in seen:
            continue
        seen.add(cells)
        if _won_by(cells, last) or EMPTY not in cells:
            continue
        following = opponent(player)
        frontier.extend((child, following, m) for m, child in _successors(cells, player, _ROW_MAJOR))
    return frozenset(Board(cells) for cells in seen)


def _seen_deeper(value: float, plies: int) -> float:
    """A depth-adjusted value as scored ``plies`` deeper: wins and losses lose magnitude."""
    if value > 0:
        return value - plies
    if value < 0:
        return value + plies
    return value


def _check_solvable(spec: SearchSpec) -> None:
    if spec.depth_limit is not None:
        raise ValueError(
            f"a solved table is a full-depth search; spec.depth_limit must be None, got {spec.depth_limit}"
        )
    if spec.scoring == "depth-adjusted" and spec.start_depth > 0:
        # A win 9 plies below a root at depth >= 1 scores 10 - depth <= 0, no better than a
        # draw; such a table would no longer order outcomes the way the seeds intend.
        raise ValueError(
            f"depth-adjusted tables need spec.start_depth <= 0 so that every win scores "
            f"above a draw, got start_depth={spec.start_depth}"
        )


def _solve_graph(spec: SearchSpec) -> dict[_Cells, tuple[float, str, tuple[int, ...], bool]]:
    """Memoized minimax over the position graph; values are for a root at depth 0.

    With depth-adjusted scores a child's value, seen from its parent one ply up, loses
    one point of magnitude. That shift preserves order because every win is worth >= 1
    here, so a position's optimal moves do not depend on the depth it is reached at.
    """
    adjusted = spec.scoring == "depth-adjusted"
    maximizer, order = spec.maximizer, spec.move_order
    table: dict[_Cells, tuple[float, str, tuple[int, ...], bool]] = {}

    def solve(cells: _Cells, player: str, last: int | None) -> float:
        known = table.get(cells)
        if known is not None:
            return known[0]
        winner = _won_by(cells, last)
        if winner is not None or EMPTY not in cells:
            value = 0 if winner is None else spec.win_value(winner, 0)
            table[cells] = (value, player, (), True)
            return value
        following = opponent(player)
        scored = []
        for move, child in _successors(cells, player, order):
            value = solve(child, following, move)
            scored.append((move, _seen_deeper(value, 1) if adjusted else value))
        best = (max if player == maximizer else min)(v for _, v in scored)
        table[cells] = (best, player, tuple(m for m, v in scored if v == best), False)
        return best

    solve((EMPTY,) * 9, spec.first_player, None)
    return table


@functools.cache
def _solve_all(spec: SearchSpec) -> Mapping[Board, Solution]:
    _check_solvable(spec)
    # The graph is valued with each position as a root at depth 0; move it to start_depth.
    shift = spec.start_depth if spec.scoring == "depth-adjusted" else 0
    solutions = {}
    for cells, (value, to_move, moves, terminal) in _solve_graph(spec).items():
        value = _seen_deeper(value, shift)
        solutions[Board(cells)] = Solution(value, to_move, moves, terminal)
    return MappingProxyType(solutions)


def solve_all(spec: SearchSpec | None = None) -> Mapping[Board, Solution]:
    """Read-only table of every reachable position (from ``spec.first_player``'s start).

    Built on first use and cached per spec. Raises ``ValueError`` for a depth-limited
    spec, and for depth-adjusted scoring with ``start_depth > 0``.
    """
    return _solve_all(SearchSpec() if spec is None else spec)


def solve(position: Position, spec: SearchSpec | None = None) -> Solution:
    """The solution of one position; :class:`MalformedBoard` if it is not a reachable
    tic-tac-toe board."""
    board = board_of(position)
    spec = SearchSpec() if spec is None else spec
    try:
        return solve_all(spec)[board]
    except KeyError:
        first = spec.first_player
        reason = board.legality_problem(first) or "not reachable"
        raise MalformedBoard(f"{board} cannot occur with {first} moving first: {reason}") from None


def clear_caches() -> None:
    """Forget every solved table (benchmarks use this to time a fresh solve)."""
    _solve_all.cache_clear()
    reachable_positions.cache_clear()
