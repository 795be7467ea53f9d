"""The one minimax / alpha-beta engine, with the rules at each node as hooks.

Every search of the project runs this loop: the reference answers (``reference.search``),
the explorations (``reference.trace``), the searches built on a student's defective helpers
and the known mistakes (``reference.mistakes``). What differs between them is a hook, never
a copy of the loop:

* what the search sees of the game, :class:`Positions`: when a node is a leaf and what it
  is worth, and the children its moves make. A node is any hashable position: tic-tac-toe's
  cells here, any :class:`~reference.game.Game`'s state through ``reference.game_search``;
* how a node prunes, :class:`Rules`: the cut-off test, the bound a node moves, the window
  handed to a child, the value returned (``fail``: soft or hard);
* the move order at each node, :data:`MoveOrder`: one order for the whole search, or one
  per position;
* what is watched at each node, optional hooks (``on_enter``, ``on_weigh``, ``on_return``):
  the window a node was entered with, the window it holds after each child and whether a
  value cut off there, the value it returned. A hook may raise to end the search early. A
  node is one call of the search function, root included; ``nodes`` counts them.

A node's subtree is a function of what it was entered with: its cells, the side to move, its
depth and its window (the order, the rules and the root's window are the search's). A search
watched only at entry can therefore replay a subtree it has explored before instead of
exploring it again (``on_repeat``): tic-tac-toe reaches most positions by several move
sequences, and a search that prunes little (the mistakes that never cut off) enters the same
subtree with the same window many times: from ``X........`` plain minimax enters 59,705 nodes
but only 1,870 distinct (position, window) pairs.

The node structure is seed 003's loop: for each child in move order, keep the best value
(first best move on strict improvement, or the last on an equal value too: ``tie``), then
test the cut-off, then move the bound
(``style="best"``); or seed 004's: move the bound with the child's value, then cut when the
window closes (``style="bounds"``). A correct search explores the same in both styles.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Generic, Literal, Protocol, TypeVar

from reference.tictactoe import O, X

__all__ = [
    "CORRECT",
    "NO_PRUNING",
    "ROW_MAJOR",
    "Bound",
    "BoundMove",
    "Cells",
    "Cut",
    "FailMode",
    "Entered",
    "MoveOrder",
    "Positions",
    "Repeated",
    "Returned",
    "Rules",
    "Scope",
    "Search",
    "Style",
    "TieBreak",
    "Weighed",
    "place",
]

Cells = tuple[str, ...]
Node = TypeVar("Node", bound=Hashable)
"""A position as the search holds it: tic-tac-toe's cells, or any game's immutable state."""
FailMode = Literal["soft", "hard"]
Style = Literal["best", "bounds"]
"""``best`` (seed 003): keep the best value, cut when it reaches the bound, then move the bound
to it. ``bounds`` (seed 004): move the bound to the child's value, then cut when the window
closes."""
Bound = Literal["alpha", "beta"]
Cut = Literal["reached", "passed", "inverted", "never"]
"""When a value cuts off against its bound: on reaching it (MAX ``>=``, MIN ``<=``: right),
only past it (``>``, ``<``), with the comparison turned round (MAX ``<=``, MIN ``>=``), or
never (the side has no cut-off test at all). In style ``bounds`` the value is alpha and the
bound beta (``beta <= alpha``, ``<``, ``>=``)."""
BoundMove = Literal["raise-alpha", "lower-beta", "raise-beta", "lower-alpha", "none"]
"""What a node does to its window with the value it saw: ``raise-alpha`` is
``alpha = max(alpha, v)`` (right in MAX nodes), ``lower-beta`` is ``beta = min(beta, v)``
(right in MIN nodes), ``none`` leaves the window alone."""
Scope = Literal["everywhere", "below-root", "after-first-child"]
TieBreak = Literal["first", "last"]
"""Which of equally valued moves a node keeps: the first in move order (a strict improvement
replaces the best) or the last (an equal value replaces it too)."""
MoveOrder = Sequence[int] | Callable[[Cells], Sequence[int]]
"""The cells tried at a node, in order: one sequence for every node, or a function of the
node's cells (a heuristic sort, or the order a student's trace shows at that position)."""

ROW_MAJOR: tuple[int, ...] = tuple(range(9))
_FOLLOWING = {X: O, O: X}


def place(cells: Cells, cell: int, mark: str) -> Cells:
    """``cells`` with ``mark`` on ``cell``."""
    return cells[:cell] + (mark,) + cells[cell + 1 :]


@dataclass(frozen=True)
class Rules:
    """How a node prunes. The defaults are the correct alpha-beta (seed 003's loop)."""

    prune: bool = True
    """False: no cut-off at all (plain minimax's exploration and values)."""
    max_cut: Cut = "reached"
    """When a MAX node's value cuts off against its bound."""
    min_cut: Cut = "reached"
    max_tests: Bound = "beta"
    """The bound a MAX node's value is compared with (style ``best``)."""
    min_tests: Bound = "alpha"
    max_moves: BoundMove = "raise-alpha"
    """What a MAX node does to its window with the value it saw."""
    min_moves: BoundMove = "lower-beta"
    pass_alpha: bool = True
    """False: children receive the root's alpha, not the node's current one."""
    pass_beta: bool = True
    handed: Literal["root", "full"] = "root"
    """What a child receives for a bound not passed down: the root's (the search's initial
    window) or the full window's (``-inf``, ``inf``)."""
    max_swaps: bool = False
    """True: a MAX node hands its children ``(beta, alpha)`` instead of ``(alpha, beta)``."""
    min_swaps: bool = False
    scope: Scope = "everywhere"
    """Where a node follows these rules; elsewhere it prunes correctly: ``below-root``, every
    node but the root; ``after-first-child``, each node from its second child on (its first
    child is handed the window and weighed correctly)."""
    order: tuple[int, ...] | None = None
    """Move order of the children (``None``: the search's own)."""
    style: Style = "best"


CORRECT = Rules()
NO_PRUNING = Rules(prune=False)


class Positions(Protocol[Node]):
    """What a search sees of the game: leaves, their values, and the children of a node."""

    def root_value(self, cells: Node, depth: int) -> float | None:
        """The root's value if the game is over there or the depth limit stops it, else ``None``."""
        ...

    def leaf_value(self, cells: Node, last: int, depth: int) -> float | None:
        """The same for a node entered after ``last`` was played into a position that was
        not a leaf (a win can only be on a line through ``last``)."""
        ...

    def children(self, cells: Node, mover: str, order: Sequence[int]) -> list[tuple[int, Node]]:
        """``(move, child)`` for each move of ``mover``, in ``order``."""
        ...


Entered = Callable[[Cells, float, float], None]
"""A node was entered (counted) with the window ``(alpha, beta)``."""
Weighed = Callable[[float, float, float, float, bool], None]
"""The current node saw a child's value: ``(value, best so far, alpha, beta, cut off)``, with
the window it now holds (the one it hands its next child)."""
Returned = Callable[[float], None]
"""The current node returned this value."""
Repeated = Callable[[int, int], None]
"""A node was entered whose subtree the search explored before from the same cells, side,
depth and window: ``(start, count)``, the ``count`` nodes it entered then, from node number
``start`` (the root is node 0) on, are entered again, in the same order."""


_Step = Callable[[float, float, float, float], tuple[float, float, bool]]
"""(child's value, best so far, alpha, beta) -> (alpha, beta, cut off)."""


def _mover(how: BoundMove) -> Callable[[float, float, float], tuple[float, float]]:
    if how == "raise-alpha":
        return lambda v, a, b: (v if v > a else a, b)
    if how == "lower-beta":
        return lambda v, a, b: (a, v if v < b else b)
    if how == "raise-beta":
        return lambda v, a, b: (a, v if v > b else b)
    if how == "lower-alpha":
        return lambda v, a, b: (v if v < a else a, b)
    return lambda v, a, b: (a, b)


def _reaches(cut: Cut, maximizing: bool) -> Callable[[float, float], bool]:
    """Whether a value cuts off against a bound, as ``cut`` has it for a MAX or MIN node."""
    if cut == "never":
        return lambda v, bound: False
    upward = maximizing if cut != "inverted" else not maximizing
    if upward:
        return (lambda v, bound: v > bound) if cut == "passed" else (lambda v, bound: v >= bound)
    return (lambda v, bound: v < bound) if cut == "passed" else (lambda v, bound: v <= bound)


def _step(rules: Rules, maximizing: bool) -> _Step:
    """What a MAX or MIN node does after each child under ``rules``."""
    if not rules.prune:
        return lambda value, best, alpha, beta: (alpha, beta, False)
    moved = _mover(rules.max_moves if maximizing else rules.min_moves)
    cut = rules.max_cut if maximizing else rules.min_cut
    if rules.style == "bounds":
        closed = _reaches(cut, True)  # alpha reaches beta, whichever node moved it

        def bounds(value: float, best: float, alpha: float, beta: float) -> tuple[float, float, bool]:
            alpha, beta = moved(value, alpha, beta)
            return alpha, beta, closed(alpha, beta)

        return bounds
    reaches = _reaches(cut, maximizing)
    against_beta = (rules.max_tests if maximizing else rules.min_tests) == "beta"

    def best_first(value: float, best: float, alpha: float, beta: float) -> tuple[float, float, bool]:
        if reaches(best, beta if against_beta else alpha):
            return alpha, beta, True
        alpha, beta = moved(best, alpha, beta)
        return alpha, beta, False

    return best_first


_NodeRules = tuple[_Step, bool, bool, bool]
"""What a MAX or MIN node does: its step after each child, whether it passes alpha and beta
down, whether it hands them swapped."""


def _node_rules(rules: Rules, maximizing: bool) -> _NodeRules:
    swaps = rules.max_swaps if maximizing else rules.min_swaps
    return _step(rules, maximizing), rules.pass_alpha, rules.pass_beta, swaps


def _shown(node: Hashable) -> str:
    """A position in an error message: tic-tac-toe's cells as one string, any other state as itself."""
    if isinstance(node, tuple) and all(isinstance(cell, str) for cell in node):
        return "".join(node)
    return str(node)


_CORRECT_NODE = {maximizing: _node_rules(CORRECT, maximizing) for maximizing in (True, False)}


class Search(Generic[Node]):
    """One search: positions, rules, move order and hooks, plus the node counter.

    ``window`` is the root's: what a rule that does not pass a bound down hands the children.
    The memoized :meth:`value` and :meth:`size` serve plain minimax: within one search a
    node's value and subtree depend only on its cells, mover and depth.
    """

    def __init__(
        self,
        positions: Positions[Node],
        maximizer: str,
        rules: Rules = CORRECT,
        *,
        fail: FailMode = "soft",
        order: Sequence[int] | Callable[[Node], Sequence[int]] = ROW_MAJOR,
        window: tuple[float, float] = (-math.inf, math.inf),
        on_enter: Callable[[Node, float, float], None] | None = None,
        on_weigh: Weighed | None = None,
        on_return: Returned | None = None,
        on_repeat: Repeated | None = None,
        tie: TieBreak = "first",
    ) -> None:
        if fail not in ("soft", "hard"):
            raise ValueError(f"fail is 'soft' or 'hard', got {fail!r}")
        if tie not in ("first", "last"):
            raise ValueError(f"tie is 'first' or 'last', got {tie!r}")
        if on_repeat is not None and (on_weigh is not None or on_return is not None):
            raise ValueError("a replayed subtree is not weighed node by node: on_repeat goes with on_enter only")
        self.positions = positions
        self.maximizer = maximizer
        self.rules = rules
        chosen = rules.order if rules.order is not None else order
        self.fixed_order: Sequence[int] | None = None if callable(chosen) else tuple(chosen)
        self.order_at: Callable[[Node], Sequence[int]] | None = chosen if callable(chosen) else None
        self.hard = fail == "hard"
        self.ties_last = tie == "last"
        self.root_alpha, self.root_beta = window if rules.handed == "root" else (-math.inf, math.inf)
        self.on_enter = on_enter
        self.on_weigh = on_weigh
        self.on_return = on_return
        self.on_repeat = on_repeat
        self._explored: dict[tuple[Node, str, int, float, float], tuple[float, int, int]] = {}
        """(cells, mover, depth, alpha, beta) -> (value, first node, nodes) of each subtree
        explored, kept only when subtrees are replayed."""
        self.node = self._node if on_repeat is None else self._replayed_node
        """Enters a node: explores it, or replays it when it was explored before (``on_repeat``)."""
        self.node_rules = {maximizing: _node_rules(rules, maximizing) for maximizing in (True, False)}
        self.nodes = 0
        self._values: dict[tuple[Node, str, int], float] = {}
        self._sizes: dict[tuple[Node, str, int], int] = {}

    def order(self, cells: Node) -> Sequence[int]:
        """The move order at the node ``cells``."""
        if self.fixed_order is not None:
            return self.fixed_order
        assert self.order_at is not None
        return self.order_at(cells)

    def children(self, cells: Node, mover: str) -> list[tuple[int, Node]]:
        return self.positions.children(cells, mover, self.order(cells))

    def clamp(self, value: float, alpha: float, beta: float) -> float:
        """Fail-hard keeps every returned value inside the node's own entry window."""
        if self.hard:
            return min(max(value, alpha), beta)
        return value

    # -- alpha-beta (and minimax under NO_PRUNING), every node counted -----------------

    def search(self, cells: Node, mover: str | None, depth: int, alpha: float, beta: float) -> tuple[float, int | None]:
        """(value, first best move) of the root ``cells``, counted as a node. ``mover`` may be
        ``None`` only when the root is a leaf (it has no move; its best move is ``None``)."""
        self.nodes += 1
        if self.on_enter is not None:
            self.on_enter(cells, alpha, beta)
        leaf = self.positions.root_value(cells, depth)
        if leaf is not None:
            value, best_move = self.clamp(leaf, alpha, beta), None
        else:
            if mover is None:
                raise ValueError(f"the side to move is needed to search {_shown(cells)}")
            value, best_move = self.expand(cells, mover, depth, alpha, beta, root=True)
        if self.on_return is not None:
            self.on_return(value)
        return value, best_move

    def _replayed_node(self, cells: Node, last: int, mover: str, depth: int, alpha: float, beta: float) -> float:
        """:meth:`_node`, or its subtree replayed when it was explored before."""
        explored = self._explored
        key = (cells, mover, depth, alpha, beta)
        known = explored.get(key)
        if known is not None:
            value, start, count = known
            assert self.on_repeat is not None
            self.on_repeat(start, count)
            self.nodes += count
            return value
        start = self.nodes
        value = self._node(cells, last, mover, depth, alpha, beta)
        explored[key] = (value, start, self.nodes - start)
        return value

    def _node(self, cells: Node, last: int, mover: str, depth: int, alpha: float, beta: float) -> float:
        """The value of a node entered after ``last`` was played, with the window (alpha, beta)."""
        self.nodes += 1
        if self.on_enter is not None:
            self.on_enter(cells, alpha, beta)
        leaf = self.positions.leaf_value(cells, last, depth)
        if leaf is not None:
            value = self.clamp(leaf, alpha, beta)
        else:
            value = self.expand(cells, mover, depth, alpha, beta)[0]
        if self.on_return is not None:
            self.on_return(value)
        return value

    def expand(
        self, cells: Node, mover: str, depth: int, alpha: float, beta: float, root: bool = False
    ) -> tuple[float, int | None]:
        """(value, first best move) of a node that is not a leaf: its children, under the rules
        (or the correct ones, outside the rules' scope)."""
        entry_alpha, entry_beta = alpha, beta
        maximizing = mover == self.maximizer
        scope = self.rules.scope
        here = _CORRECT_NODE[maximizing] if scope == "below-root" and root else self.node_rules[maximizing]
        first = _CORRECT_NODE[maximizing] if scope == "after-first-child" else here
        following = _FOLLOWING[mover]
        on_weigh = self.on_weigh
        order = self.fixed_order if self.fixed_order is not None else self.order(cells)
        best = -math.inf if maximizing else math.inf
        best_move = None
        ties_last = self.ties_last
        step, pass_alpha, pass_beta, swaps = first
        for move, child in self.positions.children(cells, mover, order):
            low = alpha if pass_alpha else self.root_alpha
            high = beta if pass_beta else self.root_beta
            value = self.node(child, move, following, depth + 1, *((high, low) if swaps else (low, high)))
            if (value > best if maximizing else value < best) or (ties_last and value == best):
                best, best_move = value, move
            alpha, beta, cut = step(value, best, alpha, beta)
            if on_weigh is not None:
                on_weigh(value, best, alpha, beta, cut)
            if cut:
                break
            step, pass_alpha, pass_beta, swaps = here
        return self.clamp(best, entry_alpha, entry_beta), best_move

    # -- plain minimax, memoized: values and subtree sizes -----------------------------

    def value(self, cells: Node, last: int, mover: str, depth: int) -> float:
        """The minimax value of a node entered after ``last`` (``-1``: the root)."""
        key = (cells, mover, depth)
        known = self._values.get(key)
        if known is None:
            known = self._leaf(cells, last, depth)
            if known is None:
                following = _FOLLOWING[mover]
                values = [self.value(child, move, following, depth + 1) for move, child in self.children(cells, mover)]
                # A node without a move keeps its starting value, as the seeds' loops do.
                if mover == self.maximizer:
                    known = max(values, default=-math.inf)
                else:
                    known = min(values, default=math.inf)
            self._values[key] = known
        return known

    def size(self, cells: Node, last: int, mover: str, depth: int) -> int:
        """The nodes plain minimax visits from this node, itself included."""
        key = (cells, mover, depth)
        known = self._sizes.get(key)
        if known is None:
            known = 1
            if self._leaf(cells, last, depth) is None:
                following = _FOLLOWING[mover]
                known += sum(
                    self.size(child, move, following, depth + 1) for move, child in self.children(cells, mover)
                )
            self._sizes[key] = known
        return known

    def _leaf(self, cells: Node, last: int, depth: int) -> float | None:
        if last < 0:
            return self.positions.root_value(cells, depth)
        return self.positions.leaf_value(cells, last, depth)
