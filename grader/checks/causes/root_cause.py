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
from reference import EMPTY, Board, SearchSpec, opponent

__all__ = [
    "DefectiveSearch",
    "MoveObservation",
    "NodeCountObservation",
    "Observation",
    "ValueObservation",
    "explain_root_cause",
    "follows_from",
    "reproduces",
]

_Cells = tuple[str, ...]


@dataclass(frozen=True)
class ValueObservation:
    """A search function's value for ``board``; ``window`` for alpha-beta called with one."""

    board: Board
    spec: SearchSpec
    to_move: str
    value: float
    window: tuple[float, float] | None = None


@dataclass(frozen=True)
class MoveObservation:
    """The move (a cell index) chosen on ``board``: a best-move answer, or one move of a game."""

    board: Board
    spec: SearchSpec
    to_move: str
    move: int


@dataclass(frozen=True)
class NodeCountObservation:
    """Calls of the search function from ``board``, root included; ``window`` for alpha-beta."""

    board: Board
    spec: SearchSpec
    to_move: str
    nodes: int
    window: tuple[float, float] | None = None


Observation = ValueObservation | MoveObservation | NodeCountObservation | WinObservation | DrawObservation


class DefectiveSearch:
    """Minimax and alpha-beta built on the student's defective helpers."""

    def __init__(self, defect: Defect, spec: SearchSpec, maximizer_first: bool = True) -> None:
        self.defect = defect
        self.spec = spec
        self.maximizer = spec.maximizer
        minimizer = opponent(spec.maximizer)
        self.win_order = (self.maximizer, minimizer) if maximizer_first else (minimizer, self.maximizer)
        self.limit = math.inf if spec.depth_limit is None else spec.depth_limit
        self.moves = tuple(m for m in spec.move_order if m not in defect.skipped)
        # Within one spec a position's value and subtree depend on (cells, mover, depth) only.
        self._values: dict[tuple[_Cells, str, int], float] = {}
        self._sizes: dict[tuple[_Cells, str, int], int] = {}

    def leaf(self, cells: _Cells, depth: int) -> float | None:
        """The value of a finished or cut-off node, else ``None``."""
        for player in self.win_order:
            if self.defect.wins(cells, player):
                return self.spec.win_value(player, depth)
        if self.defect.no_more_moves(cells):
            return 0
        if depth >= self.limit:
            return self.spec.cutoff_value
        return None

    def children(self, cells: _Cells, mover: str) -> list[tuple[int, _Cells]]:
        mark = self.defect.placed(mover, self.maximizer)
        return [(m, cells[:m] + (mark,) + cells[m + 1 :]) for m in self.moves if cells[m] == EMPTY]

    def _best(self, values: Sequence[float], mover: str) -> float:
        # The seeds start from -inf/+inf: a node without a move tried keeps it.
        return max(values, default=-math.inf) if mover == self.maximizer else min(values, default=math.inf)

    def value(self, cells: _Cells, mover: str, depth: int) -> float:
        key = (cells, mover, depth)
        known = self._values.get(key)
        if known is None:
            known = self.leaf(cells, depth)
            if known is None:
                following = opponent(mover)
                scored = [self.value(child, following, depth + 1) for _, child in self.children(cells, mover)]
                known = self._best(scored, mover)
            self._values[key] = known
        return known

    def move_values(self, cells: _Cells, mover: str, depth: int) -> dict[int, float]:
        """Each move's value, as a best-move loop over the empty cells scores it."""
        following = opponent(mover)
        return {m: self.value(child, following, depth + 1) for m, child in self.children(cells, mover)}

    def best_moves(self, cells: _Cells, mover: str, depth: int) -> frozenset[int]:
        values = self.move_values(cells, mover, depth)
        if not values:
            return frozenset()
        best = self._best(list(values.values()), mover)
        return frozenset(m for m, v in values.items() if v == best)

    def nodes(self, cells: _Cells, mover: str, depth: int) -> int:
        """Calls of plain minimax from this node, itself included."""
        key = (cells, mover, depth)
        known = self._sizes.get(key)
        if known is None:
            known = 1
            if self.leaf(cells, depth) is None:
                following = opponent(mover)
                known += sum(self.nodes(child, following, depth + 1) for _, child in self.children(cells, mover))
            self._sizes[key] = known
        return known

    def alphabeta(self, cells: _Cells, mover: str, depth: int, alpha: float, beta: float) -> tuple[float, int]:
        """(value, calls) of fail-soft alpha-beta from this node."""
        leaf = self.leaf(cells, depth)
        if leaf is not None:
            return leaf, 1
        maximizing = mover == self.maximizer
        best = -math.inf if maximizing else math.inf
        calls = 1
        following = opponent(mover)
        for _, child in self.children(cells, mover):
            value, below = self.alphabeta(child, following, depth + 1, alpha, beta)
            calls += below
            if maximizing:
                best, alpha = max(best, value), max(alpha, value)
            else:
                best, beta = min(best, value), min(beta, value)
            if beta <= alpha:
                break
        return best, calls


@functools.lru_cache(maxsize=32)
def _search(defect: Defect, spec: SearchSpec, maximizer_first: bool) -> DefectiveSearch:
    """One search per (defect, spec, order), kept so that its memo serves every observation."""
    return DefectiveSearch(defect, spec, maximizer_first)


def _fits(defect: Defect, o: Observation, maximizer_first: bool) -> bool:
    if isinstance(o, WinObservation):
        return defect.wins(o.board.cells, o.player) == o.answer
    if isinstance(o, DrawObservation):
        return defect.is_draw(o.board.cells, ("X", "O")) == o.answer
    search = _search(defect, o.spec, maximizer_first)
    cells, depth = o.board.cells, o.spec.start_depth
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
