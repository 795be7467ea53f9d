"""The reference's answers that checks compare with: a position's value and optimal moves,
and node counts. They are pure functions of (board, spec), memoized across the submissions of
a batch, so the reference cost is paid once per position.

They are tic-tac-toe's, from its solved table and its searches (`reference.search`): a check
asks them about a position of the assignment's game, and a position of another game is
refused (`MalformedBoard`); another game's checks search it with `reference.game_search`."""

from __future__ import annotations

import functools
from dataclasses import dataclass

from reference import Position, SearchResult, SearchSpec, TicTacToe, alphabeta, minimax, minimax_nodes, solve


@dataclass(frozen=True)
class ReferenceAnswer:
    value: float
    best_moves: tuple[int, ...]
    """Every optimal move, in move order: the first is the first-best move (the first move
    in row-major order that reaches the best value)."""

    @property
    def best_move(self) -> int | None:
        return self.best_moves[0] if self.best_moves else None


@functools.lru_cache(maxsize=200_000)
def reference_answer(position: Position, spec: SearchSpec, to_move: str) -> ReferenceAnswer:
    """Value and optimal moves; from the solved table when the spec is a full-depth one (a
    lookup), else from a search."""
    game = TicTacToe(spec.first_player)
    solvable = spec.depth_limit is None and not (spec.scoring == "depth-adjusted" and spec.start_depth > 0)
    if solvable and not game.is_terminal(position) and game.to_move(position) == to_move:
        solution = solve(position, spec)
        return ReferenceAnswer(solution.value, tuple(solution.optimal_moves))
    result = minimax(position, spec, to_move=to_move)
    return ReferenceAnswer(result.value, tuple(result.best_moves))


@functools.lru_cache(maxsize=10_000)
def reference_minimax_nodes(position: Position, spec: SearchSpec, to_move: str) -> int:
    """The nodes the reference minimax visits (counted over the game tree, not searched)."""
    return minimax_nodes(position, spec, to_move=to_move)


@functools.lru_cache(maxsize=200_000)
def reference_alphabeta(position: Position, spec: SearchSpec, to_move: str, alpha: float, beta: float) -> SearchResult:
    return alphabeta(position, spec, alpha=alpha, beta=beta, fail="soft", to_move=to_move)
