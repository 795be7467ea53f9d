"""`grader solve`: the reference's answers for one tic-tac-toe board, for course authors' answer
keys; the board is read, checked and shown by the game (`reference.tictactoe.TicTacToe`)."""

from __future__ import annotations

import math
from dataclasses import dataclass

from reference import TIC_TAC_TOE, MalformedBoard, SearchSpec, TicTacToe, alphabeta, minimax, winner
from reference.codecs import cell_to_position
from reference.search import Scoring

# The narrow full window: (-2, 2) around unit scores, which every game value lies inside;
# depth-adjusted scores reach +-10, so their window is widened to stay "full".
WINDOWS: dict[str, tuple[float, float]] = {"unit": (-2.0, 2.0), "depth-adjusted": (-11.0, 11.0)}


@dataclass(frozen=True)
class Solution:
    board: str
    to_move: str | None
    """None when the game is already over."""
    value: float
    best_moves: tuple[int, ...]
    minimax_nodes: int
    alphabeta_nodes: int
    maximizer: str
    scoring: str
    depth_limit: int | None
    outcome: str | None = None
    """For a finished game: who won, or "tie"."""

    def __str__(self) -> str:
        lines = [TIC_TAC_TOE.text(TIC_TAC_TOE.position(self.board)), ""]
        if self.to_move is None:
            lines.append(f"Game over: {'a tie' if self.outcome == 'tie' else f'{self.outcome} has won'}.")
        else:
            lines.append(f"Side to move:  {self.to_move}")
        value = int(self.value) if float(self.value).is_integer() else self.value
        lines.append(
            f"Value:         {value}  (for {self.maximizer}, the maximizer; {self.scoring} scoring"
            + (f", depth limit {self.depth_limit})" if self.depth_limit is not None else ")")
        )
        if self.best_moves:
            moves = ", ".join(f"{c} (position {cell_to_position(c)})" for c in self.best_moves)
            lines.append(f"Optimal moves: {moves}")
        lines.append(f"Minimax nodes:    {self.minimax_nodes:,}")
        lines.append(
            f"Alpha-beta nodes: {self.alphabeta_nodes:,}  "
            f"(window {WINDOWS[self.scoring][0]:g}..{WINDOWS[self.scoring][1]:g}, row-major, root included)"
        )
        return "\n".join(lines)


def solve(
    text: str, *, maximizer: str = "O", first: str = "X", scoring: Scoring = "unit", depth_limit: int | None = None
) -> Solution:
    """Raise MalformedBoard (one line, says what is wrong) for an unusable board."""
    game = TicTacToe(first)
    board = game.position(text)
    problem = game.legality_problem(board)
    if problem:
        raise MalformedBoard(problem)
    spec = SearchSpec(maximizer=maximizer, first_player=first, scoring=scoring, depth_limit=depth_limit)
    full = minimax(board, spec)
    alpha, beta = WINDOWS[scoring]
    pruned = alphabeta(board, spec, alpha=alpha, beta=beta)
    over = game.is_terminal(board)
    return Solution(
        board=str(board),
        to_move=None if over else game.to_move(board),
        value=full.value if not isinstance(full.value, float) or math.isfinite(full.value) else 0,
        best_moves=tuple(full.best_moves),
        minimax_nodes=full.nodes,
        alphabeta_nodes=pruned.nodes,
        maximizer=maximizer,
        scoring=scoring,
        depth_limit=depth_limit,
        outcome=(winner(game, board) or "tie") if over else None,
    )
