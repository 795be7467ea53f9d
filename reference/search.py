"""Minimax and alpha-beta for tic-tac-toe with every knob the seed notebooks turn.

The seeds differ in who maximizes, who moves first, how a win is scored, the depth of
the root, where the search is cut off and what a cut-off node is worth; a
:class:`SearchSpec` names each of these so that one implementation reproduces all of
them, down to the node counts. Both searches count *calls of the search function, root
included*: that is what seeds 002 and 003 count, and seed 000's "generated states" is the
same figure minus the root.

Each search takes any :class:`~reference.position.Position` and refuses, with
:class:`~reference.errors.MalformedBoard`, one that is not tic-tac-toe's board.

Depth: the root has depth ``spec.start_depth`` and each ply adds one. Seeds 001 and 004
evaluate a move by calling ``minimax(child, 0, ...)``, so their root is at depth -1.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from reference.engine import (
    CORRECT,
    ROW_MAJOR,
    Cells,
    Entered,
    FailMode,
    MoveOrder,
    Repeated,
    Returned,
    Rules,
    Search,
    Weighed,
    place,
)
from reference.errors import MalformedBoard
from reference.position import Position
from reference.tictactoe import EMPTY, LINES_THROUGH, Board, O, X, board_of, opponent

__all__ = [
    "WIN_SCORE",
    "FailMode",
    "Scoring",
    "SearchResult",
    "SearchSpec",
    "SpecPositions",
    "alphabeta",
    "minimax",
    "minimax_nodes",
    "move_values",
    "optimal_moves",
    "root_mover",
    "side_to_move",
    "spec_search",
]

Scoring = Literal["unit", "depth-adjusted"]

WIN_SCORE = 10
"""Depth-adjusted scoring: a win at depth d is worth ``WIN_SCORE - d``, a loss ``d - WIN_SCORE``."""


@dataclass(frozen=True)
class SearchSpec:
    """The conventions of one assignment's search."""

    maximizer: str = O
    """The player whose score is maximized (seeds 003/004: O; 001/002: X; 000: the mover)."""
    first_player: str = X
    """Who moved first; with the counts it fixes the side to move (seed 001: O)."""
    scoring: Scoring = "unit"
    """``unit``: win +1, draw 0, loss -1; ``depth-adjusted``: win 10 - depth, loss depth - 10."""
    start_depth: int = 0
    """Depth of the root node (seeds 001/004: -1, seed 000: plies already played)."""
    depth_limit: int | None = None
    """A non-terminal node with depth >= depth_limit is not expanded (``None``: no limit)."""
    cutoff_value: float = 0
    """Value of a node cut off by ``depth_limit``."""
    move_order: tuple[int, ...] = ROW_MAJOR
    """Order in which empty cells are tried; ties keep the first best in this order."""

    def __post_init__(self) -> None:
        opponent(self.maximizer)
        opponent(self.first_player)
        if self.scoring not in ("unit", "depth-adjusted"):
            raise ValueError(f"scoring is 'unit' or 'depth-adjusted', got {self.scoring!r}")
        if isinstance(self.move_order, list):
            object.__setattr__(self, "move_order", tuple(self.move_order))
        if sorted(self.move_order) != list(ROW_MAJOR):
            raise ValueError(f"move_order must list each cell 0..8 once, got {self.move_order!r}")

    def win_value(self, winner: str, depth: int) -> float:
        """Score of a finished game that ``winner`` won at ``depth``."""
        if self.scoring == "unit":
            return 1 if winner == self.maximizer else -1
        return WIN_SCORE - depth if winner == self.maximizer else depth - WIN_SCORE


@dataclass(frozen=True)
class SearchResult:
    """What a search found at the root."""

    value: float
    """Value of the root for ``spec.maximizer`` (a bound if alpha-beta failed high/low)."""
    best_move: int | None
    """First best move in ``spec.move_order`` (strict improvement only, as in every seed);
    ``None`` when the root is terminal or cut off."""
    best_moves: tuple[int, ...]
    """Every optimal move at the root, in move order. Minimax fills it; alpha-beta leaves
    it empty because pruned siblings are only bounded, not valued."""
    nodes: int
    """Calls of the search function, root included."""


class SpecPositions:
    """The game as an assignment's spec scores it (:class:`reference.engine.Positions`).

    A node entered after a move tests only the lines through that move for a win: a node is
    only expanded when it has no winner, so a child can only have been won by that move.
    """

    def __init__(self, spec: SearchSpec) -> None:
        self.spec = spec
        # A limit no node can reach costs nothing to test and keeps the hot path branch-free.
        self.limit = math.inf if spec.depth_limit is None else spec.depth_limit

    def root_value(self, cells: Cells, depth: int) -> float | None:
        value = _terminal_value(Board(cells), self.spec, depth)
        if value is None and depth >= self.limit:
            return self.spec.cutoff_value
        return value

    def leaf_value(self, cells: Cells, last: int, depth: int) -> float | None:
        for a, b, c in LINES_THROUGH[last]:
            if cells[a] == cells[b] == cells[c]:
                return self.spec.win_value(cells[last], depth)
        if EMPTY not in cells:
            return 0
        if depth >= self.limit:
            return self.spec.cutoff_value
        return None

    def children(self, cells: Cells, mover: str, order: Sequence[int]) -> list[tuple[int, Cells]]:
        return [(m, place(cells, m, mover)) for m in order if cells[m] == EMPTY]


def spec_search(
    spec: SearchSpec,
    rules: Rules = CORRECT,
    *,
    fail: FailMode = "soft",
    order: MoveOrder | None = None,
    window: tuple[float, float] = (-math.inf, math.inf),
    on_enter: Entered | None = None,
    on_weigh: Weighed | None = None,
    on_return: Returned | None = None,
    on_repeat: Repeated | None = None,
) -> Search:
    """A search of ``spec``'s game, in ``spec.move_order`` unless ``order`` (or the rules) say
    otherwise; the other arguments as :class:`~reference.engine.Search` takes them."""
    return Search(
        SpecPositions(spec),
        spec.maximizer,
        rules,
        fail=fail,
        order=spec.move_order if order is None else order,
        window=window,
        on_enter=on_enter,
        on_weigh=on_weigh,
        on_return=on_return,
        on_repeat=on_repeat,
    )


def _terminal_value(board: Board, spec: SearchSpec, depth: int) -> float | None:
    """The value of ``board`` at ``depth`` if the game is over there, else ``None``."""
    winners = board.winners()
    if len(winners) == 2:
        raise MalformedBoard(f"both players have three in a row in {board}; nothing to search")
    if winners:
        return spec.win_value(next(iter(winners)), depth)
    return 0 if board.is_full() else None


def side_to_move(board: Board, spec: SearchSpec, to_move: str | None) -> str:
    """``to_move`` (validated), or the side the mark counts give under ``spec.first_player``."""
    if to_move is None:
        return board.to_move(spec.first_player)
    opponent(to_move)  # validates
    return to_move


def root_mover(board: Board, spec: SearchSpec, to_move: str | None) -> str | None:
    """The side to move at the root of a search, ``None`` when the root is a leaf (a finished
    game, or cut off by the depth limit): a leaf has no move, whatever its mark counts say."""
    if SpecPositions(spec).root_value(board.cells, spec.start_depth) is not None:
        return None
    return side_to_move(board, spec, to_move)


def _best(values: Iterable[float], player: str, spec: SearchSpec) -> float:
    return max(values) if player == spec.maximizer else min(values)


def minimax(position: Position, spec: SearchSpec = SearchSpec(), *, to_move: str | None = None) -> SearchResult:
    """Full-width minimax from ``position`` under ``spec``.

    ``to_move`` overrides the side to move that the mark counts imply (for boards whose
    counts do not fit ``spec.first_player``). The value and the node count are those of the
    whole game tree below the root, each position's computed once (memoized).
    """
    board = board_of(position)
    search = spec_search(spec)
    depth = spec.start_depth
    leaf = search.positions.root_value(board.cells, depth)
    if leaf is not None:
        return SearchResult(leaf, None, (), 1)
    player = side_to_move(board, spec, to_move)
    following = opponent(player)
    scored = [
        (move, search.value(child, move, following, depth + 1)) for move, child in search.children(board.cells, player)
    ]
    value = _best((v for _, v in scored), player, spec)
    best_moves = tuple(move for move, v in scored if v == value)
    return SearchResult(value, best_moves[0], best_moves, search.size(board.cells, -1, player, depth))


def minimax_nodes(position: Position, spec: SearchSpec = SearchSpec(), *, to_move: str | None = None) -> int:
    """How many nodes :func:`minimax` visits from ``position`` (its ``nodes``), without its values.

    Plain minimax visits every node of the game tree below the root, so the figure is the
    size of that tree. Within one search a position fixes its depth and its side to move,
    so the size of the subtree under a position is counted once and reused wherever the
    position recurs: the empty board's 549,946 nodes come from its 5,478 distinct
    positions. Neither scoring nor move order changes the count; the depth limit does.
    """
    board = board_of(position)
    player = root_mover(board, spec, to_move)
    if player is None:
        return 1
    return spec_search(spec).size(board.cells, -1, player, spec.start_depth)


def alphabeta(
    position: Position,
    spec: SearchSpec = SearchSpec(),
    *,
    alpha: float = -math.inf,
    beta: float = math.inf,
    fail: FailMode = "soft",
    to_move: str | None = None,
) -> SearchResult:
    """Alpha-beta with seed 003's node structure, called with the window (alpha, beta).

    Max node: for each move in order, ``if v > best: best, move = v, m``; then
    ``if best >= beta: return``; then ``if best > alpha: alpha = best`` (min node mirrored
    with ``<``, ``<= alpha`` and ``beta``). ``best`` starts at -inf/+inf, which on unit
    scores behaves exactly like the seed's -2/+2.

    Guarantees for the returned ``v`` against the true minimax value ``t``, window
    ``(alpha, beta)``:

    * ``fail="soft"`` (the seed): every node returns its ``best``. ``v <= alpha`` implies
      ``t <= v``; ``v >= beta`` implies ``t >= v``; otherwise ``v == t``.
    * ``fail="hard"``: every node, leaves included, returns its ``best`` clamped into the
      window it was called with, so ``alpha <= v <= beta``. ``v == alpha`` implies
      ``t <= alpha``; ``v == beta`` implies ``t >= beta``; otherwise ``v == t``.

    Both modes visit the same nodes (a clamped child value crosses a bound exactly when the
    unclamped one does). ``best_move`` is meaningful only when ``v`` is exact.
    """
    board = board_of(position)
    if not alpha < beta:
        raise ValueError(f"alpha-beta needs alpha < beta, got alpha={alpha}, beta={beta}")
    search = spec_search(spec, fail=fail, window=(alpha, beta))
    value, best_move = search.search(board.cells, root_mover(board, spec, to_move), spec.start_depth, alpha, beta)
    return SearchResult(value, best_move, (), search.nodes)


def move_values(position: Position, spec: SearchSpec = SearchSpec(), *, to_move: str | None = None) -> dict[int, float]:
    """Minimax value of each legal move (the child searched at depth ``start_depth + 1``).

    This is what seeds 001/002/004's ``find_best_move`` loops compute per move. It is
    defined even when the root itself would be cut off by the depth limit; a finished game
    has no moves and gives ``{}``. Keys follow ``spec.move_order``.
    """
    board = board_of(position)
    if _terminal_value(board, spec, spec.start_depth) is not None:
        return {}
    player = side_to_move(board, spec, to_move)
    search = spec_search(spec)
    following = opponent(player)
    return {
        move: search.value(child, move, following, spec.start_depth + 1)
        for move, child in search.children(board.cells, player)
    }


def optimal_moves(
    position: Position, spec: SearchSpec = SearchSpec(), *, to_move: str | None = None
) -> tuple[int, ...]:
    """Every move whose value is best for the side to move, in ``spec.move_order``."""
    board = board_of(position)
    values = move_values(board, spec, to_move=to_move)
    if not values:
        return ()
    best = _best(values.values(), side_to_move(board, spec, to_move), spec)
    return tuple(move for move, v in values.items() if v == best)
