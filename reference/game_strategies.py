"""Hypothesis strategies for the positions of any :class:`~reference.game.Game`, drawn by play.

A position is the end of a game played from the initial position, one drawn move at a time:
every example is a real position, and a failure shrinks to the shortest game that shows it,
played in the first moves of the order the playout prefers. Like ``reference.strategies``,
this module is not imported by ``reference`` so that using the engine does not load
hypothesis.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any, TypeVar

from hypothesis import strategies as st

from reference.game import Game
from reference.game_search import Evaluation

__all__ = ["game_trees", "played_games", "played_positions"]

State = TypeVar("State", bound=Hashable)


def played_positions(
    game: Game[State, Any],
    *,
    min_plies: int = 0,
    max_plies: int = 64,
    include_terminal: bool = True,
    guide: Evaluation | None = None,
) -> st.SearchStrategy[State]:
    """Positions after ``min_plies..max_plies`` moves (fewer when the game ends first).

    Without ``guide`` the moves are drawn from the game's natural order (a random playout);
    with it, from the moves sorted best first for the side to move by ``guide`` (a heuristic
    playout: shrinking heads for the moves the heuristic prefers). Without
    ``include_terminal``, a move that would end the game is not drawn while another is left.
    """
    return played_games(
        game, min_plies=min_plies, max_plies=max_plies, include_terminal=include_terminal, guide=guide
    ).map(lambda moves: _replay(game, moves))


def played_games(
    game: Game[State, Any],
    *,
    min_plies: int = 0,
    max_plies: int = 64,
    include_terminal: bool = True,
    guide: Evaluation | None = None,
) -> st.SearchStrategy[tuple[Any, ...]]:
    """The moves of the games :func:`played_positions` draws (their positions are where they
    lead): what a check needs to show the last move and to shrink to the shortest game."""
    if not 0 <= min_plies <= max_plies:
        raise ValueError(f"need 0 <= min_plies <= max_plies, got {min_plies}, {max_plies}")
    return _playouts(game, min_plies, max_plies, include_terminal, guide)


def _replay(game: Game[State, Any], moves: Sequence[Any]) -> State:
    state = game.initial_state()
    for move in moves:
        state = game.result(state, move)
    return state


def _ordered(game: Game[State, Any], state: State, guide: Evaluation | None) -> Sequence[Any]:
    actions = game.actions(state)
    if guide is None:
        return actions
    mover = game.to_move(state)
    return sorted(actions, key=lambda action: -guide(game.result(state, action), mover))


@st.composite
def _playouts(
    draw: st.DrawFn,
    game: Game[State, Any],
    fewest: int,
    most: int,
    include_terminal: bool,
    guide: Evaluation | None,
) -> tuple[Any, ...]:
    state = game.initial_state()
    played: list[Any] = []
    for ply in range(most):
        if game.is_terminal(state):
            break
        # Past the minimum length each further ply is opted into, and stopping (0) is the simplest
        # choice, so the shrinker cuts games short; stopping with chance 1/(plies left + 1) makes
        # every permitted length about equally likely.
        if ply >= fewest and draw(st.integers(0, most - ply)) == 0:
            break
        moves = _ordered(game, state, guide)
        if not include_terminal:
            going_on = [move for move in moves if not game.is_terminal(game.result(state, move))]
            if not going_on:
                break
            moves = going_on
        move = moves[draw(st.integers(0, len(moves) - 1))]
        played.append(move)
        state = game.result(state, move)
    return tuple(played)


def game_trees(
    *, max_depth: int = 3, max_children: int = 3, low: int = -5, high: int = 5, inner_values: bool = True
) -> st.SearchStrategy[Any]:
    """Abstract game trees (`reference.game_tree.TreeNode`) of at most ``max_depth`` levels below
    the root and ``max_children`` children a node, the root with two or more, integer values
    from ``low`` to ``high`` at the leaves (and at inner nodes with ``inner_values``), labelled
    A, B, C... in preorder. Small values make equal moves common, where a tie-break shows."""
    from reference.game_tree import TreeNode

    def shape(depth: int) -> st.SearchStrategy[Any]:
        values = st.integers(low, high)
        leaf = st.tuples(values, st.just(()))
        if depth == max_depth:
            return leaf
        least = 2 if depth == 0 else 1
        inner = st.tuples(
            values if inner_values else st.none(),
            st.lists(st.deferred(lambda: shape(depth + 1)), min_size=least, max_size=max_children).map(tuple),
        )
        return inner if depth == 0 else st.one_of(leaf, inner)

    def labelled(raw: Any) -> Any:
        names = iter([chr(ord("A") + i) if i < 26 else f"N{i}" for i in range(10_000)])

        def build(node: Any) -> Any:
            value, children = node
            label = next(names)
            return TreeNode(label, value, tuple(build(c) for c in children))

        return build(raw)

    return shape(0).map(labelled)
