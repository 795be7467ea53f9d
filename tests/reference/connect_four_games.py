"""Finished games of Connect Four (6x7), one of each outcome, as the columns played in order.

A win for each side in each direction, and a full board nobody won: the cases every property
test of the game tries first.
"""

from __future__ import annotations

from reference.connect4 import CONNECT_FOUR, ConnectState
from reference.tictactoe import O, X

FINISHED_GAMES: dict[tuple[str | None, str], str] = {
    (X, "row"): "0536251",
    (X, "column"): "0301060",
    (X, "down-right"): "32424253203",
    (X, "down-left"): "23255435544",
    (O, "row"): "63340201",
    (O, "column"): "21215151",
    (O, "down-right"): "241133223211",
    (O, "down-left"): "324454562355",
    (None, "full board"): "020010020411211416223233433644546555556636",
}
"""(winner or ``None`` for a draw, the direction of the winning line) -> the columns played."""


def played(columns: str) -> ConnectState:
    """The 6x7 position after playing ``columns`` (one digit a move) from the empty board."""
    state = CONNECT_FOUR.initial_state()
    for column in columns:
        state = CONNECT_FOUR.result(state, int(column))
    return state


FINISHED_POSITIONS: tuple[ConnectState, ...] = tuple(played(columns) for columns in FINISHED_GAMES.values())
