"""The assignment's game as the checks that read a board cell by cell ask it: its cells, its
winning lines and their names (`reference.game.LineGame`)."""

from __future__ import annotations

from reference import TIC_TAC_TOE as _TIC_TAC_TOE
from reference import BoardGame, LineGame, Position

__all__ = ["TIC_TAC_TOE", "line_game"]

TIC_TAC_TOE: LineGame[Position] = _TIC_TAC_TOE
"""The game a model of a tic-tac-toe function reads its positions in when it is given none
(who began changes neither the cells nor the lines)."""


def line_game(game: BoardGame[Position, int]) -> LineGame[Position]:
    """``game``, asked cell by cell; ``TypeError`` for a game without cells and lines (the
    loader gives such a game only the kinds that ask the game alone)."""
    if not isinstance(game, LineGame):
        raise TypeError(f"{type(game).__name__} has no cells and lines to read")
    return game
