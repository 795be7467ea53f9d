"""The reference's depth-limited search on any game, step by step: each node it entered (its
moves from the root, the window it was entered with, what it did with each child's value and
what it returned) and the nodes it evaluated statically, in the order it evaluated them.

A student's search is compared with it evaluation by evaluation: the calls of the student's
heuristic, in order, against the reference's (see ``grader.checks.game_divergence``). Where they
first part, this trace says what the reference did at that node.
"""

from __future__ import annotations

import math
from collections.abc import Hashable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from reference.game_search import GameSearchSpec, watched_search

if TYPE_CHECKING:
    from reference.game import Game

__all__ = ["GameTrace", "TracedNode", "Weighed", "trace_search"]

State = TypeVar("State", bound=Hashable)


@dataclass(frozen=True)
class Weighed:
    """A node saw a child's value: the move that led to the child, the node's best value and
    window after it, and whether it cut off there."""

    move: int
    value: float
    best: float
    alpha: float
    beta: float
    cut: bool


@dataclass(frozen=True)
class TracedNode(Generic[State]):
    """One node of the reference's search."""

    state: State
    path: tuple[int, ...]
    """The moves from the root to this node."""
    alpha: float
    beta: float
    parent: int | None
    """The index of the node it was entered from (None: the root)."""
    value: float | None = None
    """What it returned."""
    weighed: tuple[Weighed, ...] = ()


@dataclass(frozen=True)
class GameTrace(Generic[State]):
    """The whole search: its nodes in the order entered, and the evaluated ones in order."""

    nodes: tuple[TracedNode[State], ...]
    evaluated: tuple[int, ...]
    """Indices into ``nodes`` of the positions evaluated statically, in the order of the calls."""

    def ancestors(self, index: int) -> list[int]:
        """``index`` and the nodes above it, root first."""
        chain = [index]
        while (parent := self.nodes[chain[-1]].parent) is not None:
            chain.append(parent)
        return chain[::-1]


class _Recorder(Generic[State]):
    """The engine's hooks, and the evaluation function wrapped, for one traced search."""

    def __init__(self, game: Game[State, int]) -> None:
        self.game = game
        self.entries: list[tuple[State, tuple[int, ...], float, float, int | None]] = []
        self.values: dict[int, float] = {}
        self.weighed: dict[int, list[Weighed]] = {}
        self.last_child: dict[int, int] = {}
        self.evaluated: list[int] = []
        self.open: list[int] = []

    def entered(self, state: State, alpha: float, beta: float) -> None:
        parent = self.open[-1] if self.open else None
        path: tuple[int, ...] = ()
        if parent is not None:
            above, above_path = self.entries[parent][:2]
            move = next(m for m in self.game.actions(above) if self.game.result(above, m) == state)
            path = (*above_path, move)
            self.last_child[parent] = move
        self.open.append(len(self.entries))
        self.entries.append((state, path, alpha, beta, parent))

    def weigh(self, value: float, best: float, alpha: float, beta: float, cut: bool) -> None:
        node = self.open[-1]
        self.weighed.setdefault(node, []).append(Weighed(self.last_child[node], value, best, alpha, beta, cut))

    def returned(self, value: float) -> None:
        self.values[self.open.pop()] = value

    def evaluation(self, evaluate: Any) -> Any:
        def recorded(state: State, player: str) -> float:
            self.evaluated.append(self.open[-1])
            return evaluate(state, player)

        return recorded

    def trace(self) -> GameTrace[State]:
        nodes = tuple(
            TracedNode(*entry, self.values.get(index), tuple(self.weighed.get(index, ())))
            for index, entry in enumerate(self.entries)
        )
        return GameTrace(nodes, tuple(self.evaluated))


def trace_search(
    game: Game[State, int], state: State, spec: GameSearchSpec, *, prune: bool, player: str | None = None
) -> GameTrace[State]:
    """The reference's search from ``state`` under ``spec`` (alpha-beta with ``prune``, else
    minimax, both from the full window), traced node by node."""
    recorder: _Recorder[State] = _Recorder(game)
    traced = replace(spec, evaluate=recorder.evaluation(spec.evaluate))
    maximizer = game.to_move(state) if player is None else player
    search, _ = watched_search(
        game,
        traced,
        maximizer,
        prune,
        on_enter=recorder.entered,
        on_weigh=recorder.weigh,
        on_return=recorder.returned,
    )
    search.search(state, game.to_move(state), 0, -math.inf, math.inf)
    return recorder.trace()
