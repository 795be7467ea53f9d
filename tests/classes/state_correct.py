"""The lab's nine functions written right on the course's own objects, from the oracle's rules
(`state_rules.py`): put in a hand-in's globals in place of its defective ones, they tell a function's own
mistake from one it only inherits from a function it calls (the oracle's `through`)."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from tests.classes import state_rules as rules
from tests.classes.state_inputs import course_modules, position_of

STATES = rules.Game(
    is_over=lambda state: state.is_game_over(),
    children=lambda state: state.generate_next_states(),
    endgame=lambda state, is_max: state.get_endgame_score(is_max),
    key=lambda state: state,
)


def is_game_over_connectfour(board: Any) -> bool:
    return rules.over(board.board_array)


def next_boards_connectfour(board: Any) -> list[Any]:
    game_api, _ = course_modules()
    players = board.players
    return [
        game_api.ConnectFourBoard([list(row) for row in array], players, players[piece - 1])
        for array, piece in rules.children(position_of(board))
    ]


def endgame_score_connectfour(board: Any, is_current_player_maximizer: bool) -> int:
    return rules.endgame_value(board.board_array, is_current_player_maximizer)


def heuristic_connectfour(board: Any, is_current_player_maximizer: bool) -> int:
    return rules.heuristic_value(position_of(board), is_current_player_maximizer)


def _on_snapshot(heuristic_fn: Callable[[Any, bool], Any]) -> Callable[[Any, bool], Any]:
    return lambda state, is_max: heuristic_fn(state.get_snapshot(), is_max)


def dfs_maximizing(state: Any) -> rules.Answer:
    return rules.best_leaf(STATES, state)


def minimax_endgame_search(state: Any, maximize: bool = True) -> rules.Answer:
    return rules.search(STATES, state, _on_snapshot(lambda snapshot, is_max: 0), math.inf, maximize)


def minimax_search(
    state: Any,
    heuristic_fn: Callable[[Any, bool], Any] = lambda s, m: 0,
    depth_limit: float = math.inf,
    maximize: bool = True,
) -> rules.Answer:
    return rules.search(STATES, state, _on_snapshot(heuristic_fn), depth_limit, maximize)


def minimax_search_alphabeta(
    state: Any,
    alpha: float = -math.inf,
    beta: float = math.inf,
    heuristic_fn: Callable[[Any, bool], Any] = lambda s, m: 0,
    depth_limit: float = math.inf,
    maximize: bool = True,
) -> rules.Answer:
    return rules.search(STATES, state, _on_snapshot(heuristic_fn), depth_limit, maximize, True, alpha, beta)


def progressive_deepening(
    state: Any,
    heuristic_fn: Callable[[Any, bool], Any] = lambda s, m: 0,
    depth_limit: float = math.inf,
    maximize: bool = True,
) -> Any:
    game_api, _ = course_modules()
    anytime = game_api.AnytimeValue()
    depth = 1
    while depth <= depth_limit:
        anytime.set_value(minimax_search_alphabeta(state, -math.inf, math.inf, heuristic_fn, depth, maximize))
        depth += 1
    return anytime


def correct_versions() -> dict[str, Callable[..., Any]]:
    return {
        "is_game_over_connectfour": is_game_over_connectfour,
        "next_boards_connectfour": next_boards_connectfour,
        "endgame_score_connectfour": endgame_score_connectfour,
        "heuristic_connectfour": heuristic_connectfour,
        "dfs_maximizing": dfs_maximizing,
        "minimax_endgame_search": minimax_endgame_search,
        "minimax_search": minimax_search,
        "minimax_search_alphabeta": minimax_search_alphabeta,
        "progressive_deepening": progressive_deepening,
    }
