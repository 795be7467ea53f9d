"""Finished Connect-K games of every outcome, each played from the empty board.

A check of a board function tries these first: a win for each side in each of the four
directions (across, down, and both diagonals) and a full board with no line. Each is found by
a small depth-first search that plays the winner onto one line of the direction and the loser
beside it, so every position is one a game reaches, with its moves known (the last one is
marked in a drawing). The searches are bounded; an ending a board cannot have (a diagonal on a
board too short for one) is left out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from reference.connect4 import ConnectK, ConnectState
from reference.tictactoe import EMPTY, O, X

__all__ = ["DIRECTIONS", "Ending", "finished_games", "play"]

DIRECTIONS: dict[str, tuple[int, int]] = {
    "across": (0, 1),
    "down": (1, 0),
    "diagonal": (1, 1),
    "anti-diagonal": (1, -1),
}
"""Each direction a line runs, as a (row, column) step; row 0 is the top row."""

_BUDGET = 3_000
"""Positions one ending's search may visit before it gives up on that line."""


@dataclass(frozen=True)
class Ending:
    """A finished game: what it shows and the moves (columns) that play it."""

    label: str
    """``"X wins across"``, ``"O wins anti-diagonal"``, ``"full board"``."""
    moves: tuple[int, ...]


def play(game: ConnectK, moves: Sequence[int]) -> ConnectState:
    """The position the columns ``moves`` lead to from the initial position."""
    state = game.initial_state()
    for move in moves:
        state = game.result(state, move)
    return state


def _direction_lines(game: ConnectK, step: tuple[int, int]) -> list[tuple[int, ...]]:
    """The game's lines running in ``step``."""
    cols = game.cols

    def step_of(line: tuple[int, ...]) -> tuple[int, int]:
        (r0, c0), (r1, c1) = divmod(line[0], cols), divmod(line[1], cols)
        return r1 - r0, c1 - c0

    lines = [line for line in game.lines if step_of(line) == step]
    return lines


def _landing(state: ConnectState, col: int) -> int:
    """The cell a piece dropped into ``col`` fills."""
    return (state.rows - 1 - state.height(col)) * state.cols + col


def _win_along(game: ConnectK, line: tuple[int, ...], winner: str) -> tuple[int, ...] | None:
    target = frozenset(line)
    support = sorted({cell % game.cols for cell in line})
    visited = 0

    def search(state: ConnectState, moves: tuple[int, ...]) -> tuple[int, ...] | None:
        nonlocal visited
        visited += 1
        if visited > _BUDGET:
            return None
        mover = game.to_move(state)
        legal = game.actions(state)
        onto = [c for c in legal if _landing(state, c) in target]
        below = [c for c in support if c in legal and c not in onto]
        rest = [c for c in legal if c not in onto and c not in below]
        order = (onto + below + rest) if mover == winner else (below + rest)
        for col in order:
            child = game.result(state, col)
            if game.is_terminal(child):
                if mover == winner and set(game.winning_cells(child)) == target:
                    return (*moves, col)
                continue
            found = search(child, (*moves, col))
            if found is not None:
                return found
        return None

    return search(game.initial_state(), ())


def _full_board(game: ConnectK, won_last: bool = False) -> tuple[int, ...] | None:
    """A game that fills the board with no line (``won_last``: whose last move, into the last
    free cell, makes the only line), when a bounded search finds one."""
    visited = 0

    def threats(state: ConnectState, player: str) -> int:
        return sum(
            1
            for line in game.lines
            if sum(state.cells[i] == player for i in line) == game.k - 1
            and all(state.cells[i] in (player, EMPTY) for i in line)
        )

    def search(state: ConnectState, moves: tuple[int, ...]) -> tuple[int, ...] | None:
        nonlocal visited
        visited += 1
        if visited > _BUDGET:
            return None
        if EMPTY not in state.cells:
            return moves if bool(game.winners(state)) == won_last else None
        mover = game.to_move(state)
        children = [(col, game.result(state, col)) for col in game.actions(state)]
        children = [
            (col, child)
            for col, child in children
            if not game.winners(child) or (won_last and EMPTY not in child.cells)
        ]
        children.sort(key=lambda pair: (threats(pair[1], mover), pair[0]))
        for col, child in children:
            found = search(child, (*moves, col))
            if found is not None:
                return found
        return None

    return search(game.initial_state(), ())


_PLACES: tuple[tuple[str, int, int], ...] = (("", 1, 1), (" at the right edge", 1, -1), (" at the top", -1, -1))
"""Where on the board a line is looked for: its label, then whether the lowest (1) or the
highest (-1) line comes first and the leftmost (1) or the rightmost (-1): a loop whose range
stops one short misses the lines at the right edge and the top."""


@lru_cache(maxsize=16)
def finished_games(game: ConnectK) -> tuple[Ending, ...]:
    """A win for each side in each direction (on the lowest line, at the right edge and at the
    top, where the board has room for them), then a full board, and one won with its last
    free cell (a full board that is a win, not a tie)."""
    endings: list[Ending] = []
    for winner in (X, O):
        for name, step in DIRECTIONS.items():
            lines = _direction_lines(game, step)
            found: set[tuple[int, ...]] = set()
            for place, vertical, horizontal in _PLACES:
                ordered = sorted(lines, key=lambda line: _placed(game, line, vertical, horizontal))
                for line in ordered[:2]:
                    if line in found:
                        break
                    moves = _win_along(game, line, winner)
                    if moves is not None:
                        endings.append(Ending(f"{winner} wins {name}{place}", moves))
                        found.add(line)
                        break
    full = _full_board(game)
    if full is not None:
        endings.append(Ending("full board", full))
    won_last = _full_board(game, won_last=True)
    if won_last is not None:
        endings.append(Ending("won with the last free cell", won_last))
    return tuple(endings)


def _placed(game: ConnectK, line: tuple[int, ...], vertical: int, horizontal: int) -> tuple[int, int]:
    rows = [cell // game.cols for cell in line]
    cols = [cell % game.cols for cell in line]
    low = -max(rows) if vertical == 1 else min(rows)
    return low, min(cols) if horizontal == 1 else -max(cols)
