"""The reference alpha-beta's steps with the window each node was entered with and the value
it returned: what explains where the correct search cuts off (the search-tree excerpt of a
node-count check shows it where a student's search parts from it)."""

from __future__ import annotations

import math
from dataclasses import dataclass

from reference.engine import Cells, FailMode, MoveOrder
from reference.search import SearchSpec, root_mover, spec_search
from reference.tictactoe import Board
from reference.trace import MAX_STEPS, StepRecorder, TraceEnds

__all__ = ["Visit", "Weighing", "visits"]


@dataclass(frozen=True)
class Weighing:
    """A node saw a child's value: the window it then held and whether it cut off."""

    value: float
    best: float
    alpha: float
    beta: float
    cut: bool
    entered: int
    """How many steps the walk had entered when it happened (its place among the steps)."""


@dataclass(frozen=True)
class Visit:
    """One step of the reference alpha-beta, with the window it was entered with."""

    board: str
    alpha: float
    beta: float
    value: float | None
    """What the node returned; ``None`` when the walk stopped before it returned."""
    weighings: tuple[Weighing, ...] = ()
    """What the node did with each child's value, in order, until the walk stopped."""


class _WindowRecorder:
    """The engine's ``on_enter`` and ``on_return`` hooks: each node's step, entry window and
    returned value (nodes return in the reverse order of entering: a stack finds which)."""

    def __init__(self, cap: int) -> None:
        self.steps = StepRecorder(cap)
        self.windows: list[tuple[float, float]] = []
        self.values: dict[int, float] = {}
        self.weighings: dict[int, list[Weighing]] = {}
        self.open: list[int] = []

    def entered(self, cells: Cells, alpha: float, beta: float) -> None:
        self.steps(cells, alpha, beta)
        self.open.append(len(self.windows))
        self.windows.append((alpha, beta))

    def weighed(self, value: float, best: float, alpha: float, beta: float, cut: bool) -> None:
        entered = len(self.windows)
        self.weighings.setdefault(self.open[-1], []).append(Weighing(value, best, alpha, beta, cut, entered))

    def returned(self, value: float) -> None:
        self.values[self.open.pop()] = value


def visits(
    board: Board,
    spec: SearchSpec = SearchSpec(),
    *,
    alpha: float = -math.inf,
    beta: float = math.inf,
    fail: FailMode = "soft",
    to_move: str | None = None,
    cap: int = MAX_STEPS,
    order: MoveOrder | None = None,
) -> tuple[Visit, ...]:
    """The first ``cap`` steps of :func:`~reference.trace.alphabeta_trace` (in ``order``, when
    given), each with its window, what it did with its children's values and what it returned:
    what explains where the correct search cuts off."""
    recorder = _WindowRecorder(cap)
    search = spec_search(
        spec,
        fail=fail,
        order=order,
        window=(alpha, beta),
        on_enter=recorder.entered,
        on_weigh=recorder.weighed,
        on_return=recorder.returned,
    )
    try:
        search.search(board.cells, root_mover(board, spec, to_move), spec.start_depth, alpha, beta)
    except TraceEnds:
        pass
    return tuple(
        Visit(step, *recorder.windows[index], recorder.values.get(index), tuple(recorder.weighings.get(index, ())))
        for index, step in enumerate(recorder.steps.steps)
    )
