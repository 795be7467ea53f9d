# Games lab
from game_api import *
from toytree import *


def is_game_over_connectfour(board):
    """True when a player has four in a line, or the board is full."""
    chains = board.get_all_chains()
    if [c for c in chains if len(c) > 3]:
        return True
    for col in range(board.num_cols):
        if not board.is_column_full(col):
            return False
    return True


def next_boards_connectfour(board):
    result = []
    if not is_game_over_connectfour(board):
        for col in range(board.num_cols):
            if not board.is_column_full(col):
                result.append(board.add_piece(col))
    return result


def endgame_score_connectfour(board, is_current_player_maximizer):
    winner_exists = False
    for chain in board.get_all_chains():
        if len(chain) >= 4:
            winner_exists = True
    if not winner_exists:
        return 0
    if is_current_player_maximizer:
        return -1000
    return 1000


def heuristic_connectfour(board, is_current_player_maximizer):
    def points(player):
        return sum(len(chain) * len(chain) for chain in board.get_all_chains(player))

    diff = points(board.get_current_player_name()) - points(board.get_other_player_name())
    if not is_current_player_maximizer:
        diff = -diff
    return diff


def dfs_maximizing(state):
    if state.is_game_over():
        return [state], state.get_endgame_score(True), 1
    best = None
    total = 0
    for child in state.generate_next_states():
        answer = dfs_maximizing(child)
        total += answer[2]
        if best is None or answer[1] > best[1]:
            best = answer
    return [state] + best[0], best[1], total


def _search(state, heuristic_fn, depth_limit, maximize, alpha, beta, prune, depth=1):
    """Minimax, or alpha-beta when prune is True."""
    if state.is_game_over():
        return [state], state.get_endgame_score(maximize), 1
    if depth == depth_limit:
        return [state], heuristic_fn(state.get_snapshot(), maximize), 1
    best = None
    total = 0
    for child in state.generate_next_states():
        answer = _search(child, heuristic_fn, depth_limit, not maximize, alpha, beta, prune, depth + 1)
        total += answer[2]
        if best is None or (answer[1] > best[1] if maximize else answer[1] < best[1]):
            best = answer
        if prune:
            if maximize:
                alpha = max(alpha, answer[1])
            else:
                beta = min(beta, answer[1])
            if alpha >= beta:
                break
    return [state] + best[0], best[1], total


def minimax_endgame_search(state, maximize=True):
    return minimax_search(state, always_zero, INF, maximize)


def minimax_search(state, heuristic_fn=always_zero, depth_limit=INF, maximize=True):
    return _search(state, heuristic_fn, depth_limit, maximize, -INF, INF, False)


def minimax_search_alphabeta(state, alpha=-INF, beta=INF, heuristic_fn=always_zero, depth_limit=INF, maximize=True):
    return _search(state, heuristic_fn, depth_limit, maximize, alpha, beta, True)


def progressive_deepening(state, heuristic_fn=always_zero, depth_limit=INF, maximize=True):
    anytime_value = AnytimeValue()
    depth = 0
    while depth < depth_limit:
        depth += 1
        anytime_value.set_value(minimax_search_alphabeta(state, -INF, INF, heuristic_fn, depth, maximize))
    return anytime_value
