"""Depth-limited minimax and alpha-beta over any :class:`~reference.game.Game`, on the one engine.

A :class:`GameSearchSpec` names a course's conventions: the depth limit, the evaluation
function and where it is called (at the cut-off only, or on finished games too), what a
finished game is worth, the move order, the tie-break and fail-hard or fail-soft. The
search itself is :class:`reference.engine.Search`, the loop every search of the project
runs; :class:`GamePositions` is what it sees of a game.

Both searches count the positions entered (calls of the search function, root included)
and the static evaluations (calls of the evaluation function). Plain minimax here is the
unmemoized tree walk a course writes: its counts are those of the whole tree to the limit.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from reference.engine import CORRECT, NO_PRUNING, FailMode, Rules, Search, TieBreak
from reference.search import Scoring
from reference.tictactoe import opponent

if TYPE_CHECKING:
    from reference.game import Game

__all__ = [
    "Evaluation",
    "GamePositions",
    "GameSearchResult",
    "GameSearchSpec",
    "alphabeta_search",
    "best_leaf_search",
    "deepening",
    "game_minimax",
    "minimax_search",
    "watched_search",
]

State = TypeVar("State", bound=Hashable)
Evaluation = Callable[[Any, str], float]
"""``(state, player) -> value`` of a position for ``player``, the maximizer of the search."""
GameOrder = Sequence[int] | Callable[[Any], Sequence[int]]
"""Moves tried at a node, in order: one sequence for every node (moves not legal there are
skipped), or a function of the node's state."""

_CLOSED = Rules(max_cut="passed", min_cut="passed")
"""Alpha-beta that cuts off only past a bound: a value equal to a bound is exact, which a
search keeping the last of equal moves needs (a pruned move whose bound equals the best so
far would otherwise be taken as equal to it)."""


def _zero(state: object, player: str) -> float:
    return 0


@dataclass(frozen=True)
class GameSearchSpec:
    """The conventions of one course's depth-limited search."""

    depth_limit: int | None = None
    """A position this many plies below the root is evaluated, not expanded (``None``: no limit)."""
    evaluate: Evaluation = _zero
    """The static evaluation: the course's heuristic or the student's own."""
    evaluate_terminals: bool = False
    """True: a finished game is scored by ``evaluate`` too (the heuristic knows wins);
    False: by ``win_value`` times the game's utility."""
    win_value: float = 1
    """What a won game is worth to the maximizer (a lost one, its negative)."""
    order: GameOrder | None = None
    """The move order; ``None``: the game's natural order (its ``actions``)."""
    tie: TieBreak = "first"
    """Which of equally valued moves is chosen: the first in move order or the last."""
    fail: FailMode = "soft"
    """Alpha-beta's returned values: ``soft`` (the best seen) or ``hard`` (clamped to the window)."""
    scoring: Scoring = "unit"
    """``unit``: a win is worth ``win_value`` at any depth; ``depth-adjusted``: ``win_value - depth``
    (a loss ``depth - win_value``), so the quicker win and the slower loss are preferred."""

    def __post_init__(self) -> None:
        if self.depth_limit is not None and self.depth_limit < 0:
            raise ValueError(f"a depth limit is 0 or more, got {self.depth_limit}")
        if self.scoring not in ("unit", "depth-adjusted"):
            raise ValueError(f"scoring is 'unit' or 'depth-adjusted', got {self.scoring!r}")


@dataclass(frozen=True)
class GameSearchResult:
    """What a search found at the root, and what it cost."""

    value: float
    """Value of the root for the maximizer (alpha-beta: a bound when it failed high or low)."""
    best_move: int | None
    """The move chosen under the tie-break; ``None`` at a leaf."""
    best_moves: tuple[int, ...]
    """Every move whose value equals ``value``, in move order (minimax; alpha-beta: empty,
    pruned moves are only bounded)."""
    nodes: int
    """Positions entered, root included."""
    evaluations: int = 0
    """Calls of the evaluation function."""
    path: tuple[int, ...] = ()
    """The principal variation: the chosen move, then the reply chosen below it, down to the
    limit or the end of the game."""

    def pair(self) -> tuple[int | None, float]:
        """``(move, value)``."""
        return self.best_move, self.value

    def triple(self) -> tuple[tuple[int, ...], float, int]:
        """``(path, score, evaluations)``."""
        return self.path, self.value, self.evaluations


class GamePositions(Generic[State]):
    """A game as a search under ``spec`` sees it (:class:`reference.engine.Positions`)."""

    def __init__(self, game: Game[State, int], spec: GameSearchSpec, maximizer: str) -> None:
        self.game = game
        self.spec = spec
        self.maximizer = maximizer
        self.limit = math.inf if spec.depth_limit is None else spec.depth_limit
        self.evaluations = 0

    def evaluate(self, state: State) -> float:
        self.evaluations += 1
        return self.spec.evaluate(state, self.maximizer)

    def root_value(self, state: State, depth: int) -> float | None:
        game, spec = self.game, self.spec
        if game.is_terminal(state):
            if spec.evaluate_terminals:
                return self.evaluate(state)
            won = spec.win_value if spec.scoring == "unit" else spec.win_value - depth
            return won * game.utility(state, self.maximizer)
        if depth >= self.limit:
            return self.evaluate(state)
        return None

    def leaf_value(self, state: State, last: int, depth: int) -> float | None:
        return self.root_value(state, depth)

    def children(self, state: State, mover: str, order: Sequence[int]) -> list[tuple[int, State]]:
        legal = self.game.actions(state)
        return [(move, self.game.result(state, move)) for move in order if move in legal]

    def order(self, state: State) -> Sequence[int]:
        """The moves tried at ``state``, in order."""
        chosen = self.spec.order
        if chosen is None:
            return self.game.actions(state)
        return chosen(state) if callable(chosen) else chosen


def watched_search(
    game: Game[State, int],
    spec: GameSearchSpec,
    maximizer: str,
    prune: bool,
    window: tuple[float, float] = (-math.inf, math.inf),
    **hooks: Any,
) -> tuple[Search[State], GamePositions[State]]:
    """The search ``spec`` describes, watched by the engine's ``hooks`` (``on_enter``, ...)."""
    positions = GamePositions(game, spec, maximizer)
    rules = (_CLOSED if spec.tie == "last" else CORRECT) if prune else NO_PRUNING
    search = Search(
        positions, maximizer, rules, fail=spec.fail, order=positions.order, window=window, tie=spec.tie, **hooks
    )
    return search, positions


def _path(game: Game[State, int], state: State, spec: GameSearchSpec, maximizer: str, move: int | None) -> list[int]:
    """The chosen move and the replies chosen below it: each found by a full-window search of
    the position it leads to, at its depth, so exact under the tie-break."""
    path: list[int] = []
    depth = 0
    exact = replace(spec, fail="soft")  # a fail-hard value equal to a bound may be only a bound
    while move is not None:
        path.append(move)
        state, depth = game.result(state, move), depth + 1
        search, _ = watched_search(game, exact, maximizer, prune=True)
        _, move = search.search(state, game.to_move(state), depth, -math.inf, math.inf)
    return path


def minimax_search(
    game: Game[State, int], state: State, spec: GameSearchSpec = GameSearchSpec(), *, player: str | None = None
) -> GameSearchResult:
    """Plain minimax from ``state`` under ``spec``; ``player`` (default: the side to move) maximizes.

    Every move of the root is valued, so ``best_moves`` lists each optimal one.
    """
    maximizer = game.to_move(state) if player is None else player
    search, positions = watched_search(game, spec, maximizer, prune=False)
    search.nodes = 1
    leaf = positions.root_value(state, 0)
    if leaf is not None:
        return GameSearchResult(leaf, None, (), 1, positions.evaluations)
    mover = game.to_move(state)
    following = opponent(mover)
    scored = [
        (move, search.node(child, move, following, 1, -math.inf, math.inf))
        for move, child in positions.children(state, mover, positions.order(state))
    ]
    best = (max if mover == maximizer else min)(value for _, value in scored)
    best_moves = tuple(move for move, value in scored if value == best)
    chosen = best_moves[-1] if spec.tie == "last" else best_moves[0]
    path = tuple(_path(game, state, spec, maximizer, chosen))
    return GameSearchResult(best, chosen, best_moves, search.nodes, positions.evaluations, path)


def alphabeta_search(
    game: Game[State, int],
    state: State,
    spec: GameSearchSpec = GameSearchSpec(),
    *,
    player: str | None = None,
    window: tuple[float, float] = (-math.inf, math.inf),
) -> GameSearchResult:
    """Alpha-beta from ``state`` under ``spec``, called with ``window``; guarantees as
    :func:`reference.search.alphabeta` states them. ``best_moves`` is left empty.

    Keeping the last of equal moves, it cuts off only past a bound, so that a value equal to
    a bound is exact; fail-hard would clamp a move worth less to the bound, so the two are
    not combined."""
    alpha, beta = window
    if not alpha < beta:
        raise ValueError(f"alpha-beta needs alpha < beta, got alpha={alpha}, beta={beta}")
    if spec.tie == "last" and spec.fail == "hard":
        # A move only bounded by a bound comes back clamped to it, equal to the best so far.
        raise ValueError("a fail-hard alpha-beta cannot keep the last of equal moves: use tie='first' or fail='soft'")
    maximizer = game.to_move(state) if player is None else player
    search, positions = watched_search(game, spec, maximizer, prune=True, window=window)
    value, move = search.search(state, game.to_move(state), 0, alpha, beta)
    path = tuple(_path(game, state, spec, maximizer, move))
    return GameSearchResult(value, move, (), search.nodes, positions.evaluations, path)


def best_leaf_search(game: Game[State, int], state: State, spec: GameSearchSpec = GameSearchSpec()) -> GameSearchResult:
    """The best leaf below ``state`` when one side chooses every move (MIT 6.034's
    ``dfs_maximizing``): each leaf (a finished game, or a position at the depth limit) valued
    by ``spec.evaluate`` for the side to move there, the first best in move order under
    ``spec.tie``; every leaf is one evaluation."""
    limit = math.inf if spec.depth_limit is None else spec.depth_limit
    counts = {"nodes": 0, "leaves": 0}

    def walk(node: State, depth: int) -> tuple[float, tuple[int, ...]]:
        counts["nodes"] += 1
        if game.is_terminal(node) or depth >= limit:
            counts["leaves"] += 1
            return spec.evaluate(node, game.to_move(node)), ()
        best: tuple[float, tuple[int, ...]] | None = None
        moves = spec.order(node) if callable(spec.order) else spec.order or game.actions(node)
        for move in (m for m in moves if m in game.actions(node)):
            value, below = walk(game.result(node, move), depth + 1)
            if best is None or value > best[0] or (spec.tie == "last" and value == best[0]):
                best = (value, (move, *below))
        assert best is not None  # a position that is not a leaf has a move
        return best

    value, path = walk(state, 0)
    first = path[0] if path else None
    return GameSearchResult(value, first, (), counts["nodes"], counts["leaves"], path)


def deepening(
    game: Game[State, int],
    state: State,
    spec: GameSearchSpec,
    depths: Iterable[int],
    *,
    prune: bool = True,
    player: str | None = None,
) -> tuple[GameSearchResult, ...]:
    """Progressive deepening: the answer after each depth in ``depths``, each a search of its own."""
    run = alphabeta_search if prune else minimax_search
    return tuple(run(game, state, replace(spec, depth_limit=depth), player=player) for depth in depths)


def game_minimax(
    game: Game[State, int],
    state: State,
    *,
    player: str | None = None,
    depth_limit: int | None = None,
    evaluate: Evaluation = _zero,
) -> GameSearchResult:
    """:func:`minimax_search` with the default conventions but for the limit and the evaluation."""
    return minimax_search(game, state, GameSearchSpec(depth_limit=depth_limit, evaluate=evaluate), player=player)
