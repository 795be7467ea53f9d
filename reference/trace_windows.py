"""The reference alpha-beta's steps with the window each node was entered with and the value
it returned: what explains where the correct search cuts off (the search-tree excerpt of a
node-count check shows it where a student's search parts from it)."""

from __future__ import annotations

import math
from dataclasses import dataclass

from reference.search import FailMode, SearchSpec, _leaf_value, _side_to_move
from reference.tictactoe import Board
from reference.trace import MAX_STEPS, Rules, _Stop, _TracedSearch

__all__ = ["Visit", "visits"]


@dataclass(frozen=True)
class Visit:
    """One step of the reference alpha-beta, with the window it was entered with."""

    board: str
    alpha: float
    beta: float
    value: float | None
    """What the node returned; ``None`` when the walk stopped before it returned."""


class _WindowedSearch(_TracedSearch):
    """The correct search, keeping each node's entry window and returned value."""

    def __init__(self, spec: SearchSpec, window: tuple[float, float], fail: FailMode, cap: int) -> None:
        super().__init__(spec, Rules(), window, fail, cap, None)
        self.windows: list[tuple[float, float]] = []
        self.values: dict[int, float] = {}

    def alphabeta(self, cells: tuple[str, ...], last: int, player: str, depth: int, alpha: float, beta: float) -> float:
        index = len(self.steps)
        self.windows.append((alpha, beta))
        value = super().alphabeta(cells, last, player, depth, alpha, beta)
        self.values[index] = value
        return value


def visits(
    board: Board,
    spec: SearchSpec = SearchSpec(),
    *,
    alpha: float = -math.inf,
    beta: float = math.inf,
    fail: FailMode = "soft",
    to_move: str | None = None,
    cap: int = MAX_STEPS,
) -> tuple[Visit, ...]:
    """The first ``cap`` steps of :func:`alphabeta_trace`, each with its window and value:
    what explains where the correct search cuts off."""
    search = _WindowedSearch(spec, (alpha, beta), fail, cap)
    try:
        search.windows.append((alpha, beta))
        search.record(board.cells)
        leaf = _leaf_value(board, spec)
        if leaf is None:
            side = _side_to_move(board, spec, to_move)
            search.values[0] = search.expand_alphabeta(board.cells, side, spec.start_depth, alpha, beta)[0]
        else:
            search.values[0] = search.clamp(leaf, alpha, beta)
    except _Stop:
        pass
    return tuple(
        Visit(step, *search.windows[index], search.values.get(index)) for index, step in enumerate(search.steps)
    )
