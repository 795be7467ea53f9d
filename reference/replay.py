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

from reference.engine import ROW_MAJOR, Cells, MoveOrder
from reference.search import SearchSpec
from reference.tictactoe import EMPTY, Board
from reference.trace import MAX_STEPS, Trace, rules_trace, steps_digest

__all__ = ["StudentOrder", "one_order", "orders_tried", "replayed_trace"]


def _move_between(parent: str, child: str) -> int | None:
    """The cell ``child`` adds to ``parent`` (one more mark, nothing else changed), else ``None``."""
    return _Cells.of(parent).move_to(_Cells.of(child))


class _Cells:
    """A position as one bit mask per character: which cells changed between two positions
    is a few integer operations, where comparing them cell by cell costs microseconds, paid
    once per step of explorations that run to tens of thousands of steps."""

    __slots__ = ("length", "masks")

    def __init__(self, text: str) -> None:
        self.length = len(text)
        masks: dict[str, int] = {}
        for cell, mark in enumerate(text):
            masks[mark] = masks.get(mark, 0) | 1 << cell
        self.masks = masks

    @classmethod
    def of(cls, text: str, known: dict[str, _Cells] | None = None) -> _Cells:
        if known is None:
            return cls(text)
        cells = known.get(text)
        if cells is None:
            cells = known[text] = cls(text)
        return cells

    def move_to(self, child: _Cells) -> int | None:
        """The cell ``child`` adds to this position, else ``None`` (cells compared as ``zip``
        pairs them: up to the shorter position's length)."""
        mine, theirs = self.masks, child.masks
        changed = 0
        for mark, mask in mine.items():
            changed |= mask ^ theirs.get(mark, 0)
        for mark, mask in theirs.items():
            if mark not in mine:
                changed |= mask
        changed &= (1 << min(self.length, child.length)) - 1
        if changed and not changed & (changed - 1) and mine.get(EMPTY, 0) & changed:
            return changed.bit_length() - 1
        return None


def orders_tried(steps: Sequence[str]) -> dict[str, tuple[int, ...]]:
    """For each position the exploration expanded, the moves it tried there, in order.

    A step's parent is the nearest position on the current path that it extends by one mark
    (a depth-first search enters a child right after its parent or after a sibling's subtree).
    A position expanded more than once (reached by other move sequences, with other windows)
    may cut off sooner or later each time; the longest of its orders is kept.
    """
    known: dict[str, _Cells] = {}
    between: dict[tuple[str, str], int | None] = {}
    """(parent, step) -> the move that makes one the other: a search that prunes little enters
    the same child from the same parent many times (59,705 steps, 1,870 positions from
    ``X........``), and a dictionary answers sooner than comparing their cells."""
    expansions: list[tuple[str, list[int]]] = []
    # (position, its marks, the moves tried there so far); each entry a child of the one below
    # it, so one mark more: only the entry with one mark fewer than a step can be its parent,
    # and those above it are popped without comparing them.
    path: list[tuple[str, int, list[int]]] = []
    for step in steps:
        marks = len(step) - step.count(EMPTY)
        while path and path[-1][1] >= marks:
            path.pop()
        move = None
        if path and path[-1][1] == marks - 1:
            pair = (path[-1][0], step)
            if pair in between:
                move = between[pair]
            else:
                move = between[pair] = _Cells.of(pair[0], known).move_to(_Cells.of(step, known))
        if move is None:
            path.clear()
        else:
            path[-1][2].append(move)
        path.append((step, marks, []))
        expansions.append((step, path[-1][2]))
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

    @classmethod
    def of(cls, steps: Sequence[str]) -> StudentOrder:
        """The order of ``steps``, read once per exploration in a process: students who make
        the same mistake explore alike, step for step."""
        digest = steps_digest(steps)
        order = _orders_read.pop(digest, None) or cls(steps)
        if len(_orders_read) >= _ORDERS_LIMIT:
            del _orders_read[next(iter(_orders_read))]
        _orders_read[digest] = order
        return order

    def __call__(self, cells: Cells) -> tuple[int, ...]:
        tried = self.tried.get("".join(cells), ())
        return tried + tuple(cell for cell in ROW_MAJOR if cell not in tried)

    def fixed(self) -> MoveOrder:
        """Row-major, when the student tried the empty cells row by row wherever it expanded
        (then this order is row-major at every node); else this order. One fixed order is
        cheaper to search with, and the same for every such student: what is searched in it
        can be remembered across a class."""
        for position, moves in self.tried.items():
            empty = tuple(cell for cell in ROW_MAJOR if position[cell] == EMPTY)
            if moves != empty[: len(moves)]:
                return self
        return ROW_MAJOR


_ORDERS_LIMIT = 32
"""Orders remembered (at most one entry per position the exploration expanded: 5,478)."""

_orders_read: dict[bytes, StudentOrder] = {}


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
