"""Evaluation functions for Connect-K, as courses write them, and the centre-out move order.

Each evaluation is ``(state, player) -> value for player``: positive when ``player`` stands
better. They are the three kinds courses hand out: a simple count (discs in the middle
column), a preference for central cells (each cell weighted by the runs through it), and
the count of open windows weighted by the discs in them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from operator import itemgetter

from reference.connect4 import ConnectK, ConnectState
from reference.tictactoe import opponent

__all__ = ["CentreColumn", "CentrePreference", "OpenWindows", "centre_out_order"]


@dataclass(frozen=True)
class CentreColumn:
    """Discs ``player`` has in the middle column (both middle ones on an even width), minus the opponent's."""

    game: ConnectK
    columns: tuple[int, ...] = field(init=False, compare=False)

    def __post_init__(self) -> None:
        cols = self.game.cols
        object.__setattr__(self, "columns", tuple(sorted({(cols - 1) // 2, cols // 2})))

    def __call__(self, state: ConnectState, player: str) -> float:
        other = opponent(player)
        score = 0
        for row in range(state.rows):
            for col in self.columns:
                mark = state.cell(row, col)
                score += 1 if mark == player else -1 if mark == other else 0
        return score


@dataclass(frozen=True)
class CentrePreference:
    """The sum over ``player``'s discs of the runs through each one's cell, minus the opponent's
    (on 6x7 the familiar table: 3 4 5 7 5 4 3 on the bottom row)."""

    game: ConnectK
    weights: tuple[int, ...] = field(init=False, compare=False)

    def __post_init__(self) -> None:
        size = self.game.rows * self.game.cols
        weights = tuple(sum(cell in line for line in self.game.lines) for cell in range(size))
        object.__setattr__(self, "weights", weights)

    def __call__(self, state: ConnectState, player: str) -> float:
        other = opponent(player)
        return sum(w if mark == player else -w if mark == other else 0 for w, mark in zip(self.weights, state.cells))


@dataclass(frozen=True)
class OpenWindows:
    """Each run of ``k`` cells holding discs of one side only counts ``base ** (discs - 1)``
    for that side (``base ** k`` when complete): ``player``'s total minus the opponent's."""

    game: ConnectK
    base: int = 10
    readers: tuple[Callable[[tuple[str, ...]], tuple[str, ...]], ...] = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        # itemgetter reads a whole run in C: a search evaluates thousands of positions.
        object.__setattr__(self, "readers", tuple(itemgetter(*line) for line in self.game.lines))

    def __call__(self, state: ConnectState, player: str) -> float:
        other = opponent(player)
        cells, k, base = state.cells, self.game.k, self.base
        score = 0
        for read in self.readers:
            marks = read(cells)
            mine, theirs = marks.count(player), marks.count(other)
            if mine and not theirs:
                score += base**k if mine == k else base ** (mine - 1)
            elif theirs and not mine:
                score -= base**k if theirs == k else base ** (theirs - 1)
        return score


def centre_out_order(game: ConnectK) -> tuple[int, ...]:
    """The columns from the middle outwards, the left one first of two equally central."""
    middle = (game.cols - 1) / 2
    return tuple(sorted(range(game.cols), key=lambda col: (abs(col - middle), col)))
