"""Abstract game trees: a root, children in order, static values at the leaves (and, where a
depth-limited search's heuristic should see one, at inner nodes), as courses draw them on the
board (MIT 6.034's ``toytree``). :class:`TreeGame` makes one a :class:`~reference.game.Game`, so
that the engine (`reference.game_search`) searches it as it searches Connect Four: a state is
the path from the root (the children's indices), the first player moves at the root and
maximizes, and a leaf's value is the maximizer's.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from reference.errors import IllegalMove
from reference.tictactoe import O, X

__all__ = ["TreeGame", "TreeNode"]

TreePath = tuple[int, ...]


@dataclass(frozen=True)
class TreeNode:
    label: str
    value: float | None = None
    children: tuple[TreeNode, ...] = ()

    def nodes(self) -> Iterator[TreeNode]:
        """This node and every node below it, in preorder."""
        yield self
        for child in self.children:
            yield from child.nodes()

    def size(self) -> int:
        return sum(1 for _ in self.nodes())

    def __str__(self) -> str:
        value = "" if self.value is None else f":{self.value:g}"
        inside = "".join(f" {child}" for child in self.children)
        return f"({self.label}{value}{inside})"


@dataclass(frozen=True)
class TreeGame:
    """The game whose positions are the nodes of ``root``."""

    root: TreeNode

    def node(self, state: TreePath) -> TreeNode:
        node = self.root
        for index in state:
            node = node.children[index]
        return node

    def initial_state(self) -> TreePath:
        return ()

    def to_move(self, state: TreePath) -> str:
        return X if len(state) % 2 == 0 else O

    def actions(self, state: TreePath) -> tuple[int, ...]:
        return tuple(range(len(self.node(state).children)))

    def result(self, state: TreePath, action: int) -> TreePath:
        if action not in self.actions(state):
            raise IllegalMove(f"node {self.node(state).label} has no child {action}")
        return (*state, action)

    def is_terminal(self, state: TreePath) -> bool:
        return not self.node(state).children

    def utility(self, state: TreePath, player: str) -> float:
        value = self.node(state).value or 0
        return value if player == X else -value

    def labels(self, state: TreePath, path: TreePath) -> list[str]:
        """The labels along ``path`` from ``state``, ``state``'s own first."""
        labels = [self.node(state).label]
        for move in path:
            state = self.result(state, move)
            labels.append(self.node(state).label)
        return labels
