"""The game abstraction (aima-style) and a plain minimax over it.

Tic-tac-toe has a faster, knob-rich search in ``search.py`` that mirrors the seed
notebooks; this module is the small generic version that any :class:`Game` (Connect-K,
tic-tac-toe, a toy tree in a test) can use.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

__all__ = ["Game", "GameSearchResult", "game_minimax"]

State = TypeVar("State", bound=Hashable)
Action = TypeVar("Action")


class Game(Protocol[State, Action]):
    """A two-player, turn-based, zero-sum game with immutable states.

    Players are named by strings (``"X"``/``"O"``). ``result`` raises
    :class:`~reference.errors.IllegalMove` rather than returning garbage, and ``actions``
    is empty exactly when the state is terminal.
    """

    def initial_state(self) -> State: ...

    def to_move(self, state: State) -> str: ...

    def actions(self, state: State) -> Sequence[Action]: ...

    def result(self, state: State, action: Action) -> State: ...

    def is_terminal(self, state: State) -> bool: ...

    def utility(self, state: State, player: str) -> float: ...


@dataclass(frozen=True)
class GameSearchResult(Generic[Action]):
    """What :func:`game_minimax` found at the root."""

    value: float
    """Minimax value for the searching player."""
    best_move: Action | None
    """First optimal action in the game's action order; ``None`` at a leaf."""
    best_moves: tuple[Action, ...]
    """Every action whose value equals ``value``, in action order."""
    nodes: int
    """States visited, root included."""


def _zero(state: object, player: str) -> float:
    return 0


def game_minimax(
    game: Game[State, Action],
    state: State,
    *,
    player: str | None = None,
    depth_limit: int | None = None,
    evaluate: Callable[[State, str], float] = _zero,
) -> GameSearchResult[Action]:
    """Plain (unpruned, unmemoized) minimax from ``state``.

    ``player`` (default: the side to move at the root) is the maximizer; terminal states
    score ``game.utility(state, player)``. With ``depth_limit``, a non-terminal state
    ``depth_limit`` plies below the root is scored ``evaluate(state, player)`` instead of
    being expanded. Ties keep the first action in ``game.actions`` order.
    """
    maximizer = game.to_move(state) if player is None else player
    nodes = 0

    def value(node: State, depth: int) -> float:
        nonlocal nodes
        nodes += 1
        if game.is_terminal(node):
            return game.utility(node, maximizer)
        if depth_limit is not None and depth >= depth_limit:
            return evaluate(node, maximizer)
        child_values = (value(game.result(node, a), depth + 1) for a in game.actions(node))
        return max(child_values) if game.to_move(node) == maximizer else min(child_values)

    nodes += 1
    if game.is_terminal(state):
        return GameSearchResult(game.utility(state, maximizer), None, (), nodes)
    if depth_limit is not None and depth_limit <= 0:
        return GameSearchResult(evaluate(state, maximizer), None, (), nodes)
    scored = [(action, value(game.result(state, action), 1)) for action in game.actions(state)]
    pick = max if game.to_move(state) == maximizer else min
    best = pick(v for _, v in scored)
    best_moves = tuple(action for action, v in scored if v == best)
    return GameSearchResult(best, best_moves[0], best_moves, nodes)
