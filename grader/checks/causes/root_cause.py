"""Whether the failures of a check follow from a wrong lower-level function.

A ``check_win`` that misses the anti-diagonal makes minimax play on past anti-diagonal wins:
its values, its best moves and its node counts all differ from the reference, and the draw
test built on it calls a full board with an anti-diagonal a draw. Each of those checks, on
its own, would guess a cause of its own ("a cut-off on > instead of >="). Here the reference
search is run again with the student's defective function (a :class:`Defect`, read from
that function's own answers) and, when it reproduces every answer a check saw, the check
says so: "This follows from `check_win` missing the anti-diagonal; fix that first."

The search is written the way the seed notebooks write it: test the maximizer's win, the
other player's win, then a draw (with the student's tests), then the depth limit; try the
empty cells in order; alpha-beta raises alpha (lowers beta) with each child and cuts when
``beta <= alpha``. Which player's win is tested first matters only when a missed line lets a
game go on until both players have one, so both orders are tried. Nodes are calls of the
search function, root included.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass

from grader.checks.causes.defects import Defect, DrawObservation, WinObservation
from reference import EMPTY, Position, SearchSpec, opponent
from reference.engine import Cells, Rules, Search, place
from reference.tictactoe import board_of

__all__ = [
    "DefectPositions",
    "DefectiveSearch",
    "MoveObservation",
    "NodeCountObservation",
    "Observation",
    "ValueObservation",
    "explain_root_cause",
    "follows_from",
    "reproduces",
]

_SEED_LOOP = Rules(style="bounds")
"""The correct alpha-beta as the seeds write it: move the bound with each child, cut when
``beta <= alpha``."""


@dataclass(frozen=True)
class ValueObservation:
    """A search function's value for ``board``; ``window`` for alpha-beta called with one."""

    board: Position
    spec: SearchSpec
    to_move: str
    value: float
    window: tuple[float, float] | None = None


@dataclass(frozen=True)
class MoveObservation:
    """The move (a cell index) chosen on ``board``: a best-move answer, or one move of a game."""

    board: Position
    spec: SearchSpec
    to_move: str
    move: int


@dataclass(frozen=True)
class NodeCountObservation:
    """Calls of the search function from ``board``, root included; ``window`` for alpha-beta."""

    board: Position
    spec: SearchSpec
    to_move: str
    nodes: int
    window: tuple[float, float] | None = None


Observation = ValueObservation | MoveObservation | NodeCountObservation | WinObservation | DrawObservation


class DefectPositions:
    """The game as the student's defective helpers see it (:class:`reference.engine.Positions`):
    their win and draw tests decide the leaves, their successor function places the marks."""

    def __init__(self, defect: Defect, spec: SearchSpec, maximizer_first: bool = True) -> None:
        self.defect = defect
        self.spec = spec
        self.maximizer = spec.maximizer
        minimizer = opponent(spec.maximizer)
        self.win_order = (self.maximizer, minimizer) if maximizer_first else (minimizer, self.maximizer)
        self.limit = math.inf if spec.depth_limit is None else spec.depth_limit

    def root_value(self, cells: Cells, depth: int) -> float | None:
        """The value of a finished or cut-off node, else ``None``: the student's tests look at
        the whole board, wherever the last move was."""
        for player in self.win_order:
            if self.defect.wins(cells, player):
                return self.spec.win_value(player, depth)
        if self.defect.no_more_moves(cells):
            return 0
        if depth >= self.limit:
            return self.spec.cutoff_value
        return None

    def leaf_value(self, cells: Cells, last: int, depth: int) -> float | None:
        return self.root_value(cells, depth)

    def children(self, cells: Cells, mover: str, order: Sequence[int]) -> list[tuple[int, Cells]]:
        mark = self.defect.placed(mover, self.maximizer)
        return [(m, place(cells, m, mark)) for m in order if cells[m] == EMPTY]


class DefectiveSearch:
    """Minimax and alpha-beta built on the student's defective helpers: the engine on
    :class:`DefectPositions`, alpha-beta written as the seeds write it (``style="bounds"``)."""

    def __init__(self, defect: Defect, spec: SearchSpec, maximizer_first: bool = True) -> None:
        order = tuple(m for m in spec.move_order if m not in defect.skipped)
        positions = DefectPositions(defect, spec, maximizer_first)
        # Within one spec a position's value and subtree depend on (cells, mover, depth) only:
        # one search keeps its memo across every observation.
        self.minimax = Search(positions, spec.maximizer, order=order)
        self.positions = positions
        self.order = order

    def value(self, cells: Cells, mover: str, depth: int) -> float:
        return self.minimax.value(cells, -1, mover, depth)

    def move_values(self, cells: Cells, mover: str, depth: int) -> dict[int, float]:
        """Each move's value, as a best-move loop over the empty cells scores it."""
        following = opponent(mover)
        return {
            m: self.minimax.value(child, m, following, depth + 1) for m, child in self.minimax.children(cells, mover)
        }

    def best_moves(self, cells: Cells, mover: str, depth: int) -> frozenset[int]:
        values = self.move_values(cells, mover, depth)
        if not values:
            return frozenset()
        best = max(values.values()) if mover == self.positions.maximizer else min(values.values())
        return frozenset(m for m, v in values.items() if v == best)

    def nodes(self, cells: Cells, mover: str, depth: int) -> int:
        """Calls of plain minimax from this node, itself included."""
        return self.minimax.size(cells, -1, mover, depth)

    def alphabeta(self, cells: Cells, mover: str, depth: int, alpha: float, beta: float) -> tuple[float, int]:
        """(value, calls) of fail-soft alpha-beta from this node."""
        search = Search(self.positions, self.positions.maximizer, _SEED_LOOP, order=self.order, window=(alpha, beta))
        value, _ = search.search(cells, mover, depth, alpha, beta)
        return value, search.nodes


@functools.lru_cache(maxsize=32)
def _search(defect: Defect, spec: SearchSpec, maximizer_first: bool) -> DefectiveSearch:
    """One search per (defect, spec, order), kept so that its memo serves every observation."""
    return DefectiveSearch(defect, spec, maximizer_first)


def _fits(defect: Defect, o: Observation, maximizer_first: bool) -> bool:
    if isinstance(o, WinObservation):
        return defect.wins(o.cells, o.player) == o.answer
    if isinstance(o, DrawObservation):
        return defect.is_draw(o.cells, ("X", "O")) == o.answer
    search = _search(defect, o.spec, maximizer_first)
    cells, depth = board_of(o.board).cells, o.spec.start_depth
    if isinstance(o, MoveObservation):
        return o.move in search.best_moves(cells, o.to_move, depth)
    if isinstance(o, ValueObservation):
        if o.window is None:
            return search.value(cells, o.to_move, depth) == o.value
        return search.alphabeta(cells, o.to_move, depth, *o.window)[0] == o.value
    if o.window is None:
        return search.nodes(cells, o.to_move, depth) == o.nodes
    return search.alphabeta(cells, o.to_move, depth, *o.window)[1] == o.nodes


def reproduces(defect: Defect, observations: Sequence[Observation]) -> bool:
    """Whether a search on ``defect`` gives every answer observed, with either win test first."""
    return any(all(_fits(defect, o, first) for o in observations) for first in (True, False))


def follows_from(defect: Defect, observations: Sequence[Observation]) -> bool:
    """Whether the answers a check saw follow from ``defect``: it reproduces all of them,
    and the right function does not (there is something to explain)."""
    if not observations or defect.is_correct:
        return False
    return not reproduces(defect.correct(), observations) and reproduces(defect, observations)


def explain_root_cause(defects: Sequence[Defect], observations: Sequence[Observation]) -> str | None:
    """The sentence of the first defect the answers follow from, else ``None``."""
    for defect in defects:
        if follows_from(defect, observations):
            return defect.sentence
    return None
