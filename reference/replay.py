"""The reference alpha-beta replayed under the move order a student's exploration shows.

An assignment that fixes no move order cannot blame a search for trying the centre first, or
for sorting its moves by an evaluation. The exploration says which order the student's search
used at each position it expanded: the children it entered, in the order it entered them.
Replaying the reference with that order at each node gives the exploration a correct
alpha-beta makes under the student's own order; the student's search is right when its
exploration is that one, and otherwise parts from it at a step that is a real mistake.

At a node the student cut off, the moves it never tried follow the ones it did in row-major
order: a correct search cuts off there as well and never tries them, so their order does not
change the replay.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

from reference.engine import ROW_MAJOR, Cells
from reference.search import SearchSpec
from reference.tictactoe import Board
from reference.trace import MAX_STEPS, Trace, rules_trace

__all__ = ["StudentOrder", "one_order", "orders_tried", "replayed_trace"]


def _move_between(parent: str, child: str) -> int | None:
    """The cell ``child`` adds to ``parent`` (one more mark, nothing else changed), else ``None``."""
    changed = [cell for cell, (a, b) in enumerate(zip(parent, child)) if a != b]
    if len(changed) == 1 and parent[changed[0]] == ".":
        return changed[0]
    return None


def orders_tried(steps: Sequence[str]) -> dict[str, tuple[int, ...]]:
    """For each position the exploration expanded, the moves it tried there, in order.

    A step's parent is the nearest position on the current path that it extends by one mark
    (a depth-first search enters a child right after its parent or after a sibling's subtree).
    A position expanded more than once (reached by other move sequences, with other windows)
    may cut off sooner or later each time; the longest of its orders is kept.
    """
    expansions: list[tuple[str, list[int]]] = []
    path: list[tuple[str, list[int]]] = []  # (position, the moves tried there so far)
    for step in steps:
        while path and _move_between(path[-1][0], step) is None:
            path.pop()
        if path:
            move = _move_between(path[-1][0], step)
            assert move is not None
            path[-1][1].append(move)
        path.append((step, []))
        expansions.append(path[-1])
    orders: dict[str, tuple[int, ...]] = {}
    for position, moves in expansions:
        if len(moves) > len(orders.get(position, ())):
            orders[position] = tuple(moves)
    return orders


def one_order(tried: Iterable[Sequence[int]]) -> tuple[int, ...] | None:
    """The one order of the cells tried that every node's moves follow (cells no node tells
    apart in row-major order), or ``None`` when the order changes from node to node (a sort
    by an evaluation of the position, say). Cells no node tried are left out."""
    after: dict[int, set[int]] = {}
    for moves in tried:
        for cell in moves:
            after.setdefault(cell, set())
        for first, then in zip(moves, moves[1:]):
            after[first].add(then)
    waiting = {cell: sum(cell in later for later in after.values()) for cell in after}
    order: list[int] = []
    while len(order) < len(after):
        ready = [cell for cell in sorted(after) if cell not in order and waiting[cell] == 0]
        if not ready:
            return None  # two nodes try two cells in opposite orders
        order.append(ready[0])
        for then in after[ready[0]]:
            waiting[then] -= 1
    return tuple(order)


class StudentOrder:
    """A per-node move order (:data:`reference.engine.MoveOrder`): the moves the student tried
    at a position, then the others in row-major order; row-major where it expanded nothing."""

    def __init__(self, steps: Sequence[str]) -> None:
        self.tried = orders_tried(steps)

    def __call__(self, cells: Cells) -> tuple[int, ...]:
        tried = self.tried.get("".join(cells), ())
        return tried + tuple(cell for cell in ROW_MAJOR if cell not in tried)


def replayed_trace(
    student: Sequence[str],
    board: Board,
    spec: SearchSpec = SearchSpec(),
    *,
    alpha: float = -math.inf,
    beta: float = math.inf,
    to_move: str | None = None,
    cap: int = MAX_STEPS,
) -> Trace:
    """The exploration of the reference alpha-beta from ``board`` under the move order the
    ``student``'s exploration shows at each node."""
    trace = rules_trace(board, spec, alpha=alpha, beta=beta, to_move=to_move, cap=cap, order=StudentOrder(student))
    assert trace is not None  # no expected trace, so never abandoned
    return trace
