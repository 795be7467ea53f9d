from game_api import *
from toytree import *


def is_game_over_connectfour(board):
    return board.count_pieces() == 42 or len(max(board.get_all_chains(), key=len, default=[])) >= 4


def next_boards_connectfour(board):
    """Returns a list of ConnectFourBoard objects that could result from the next move."""
    if is_game_over_connectfour(board):
        return []
    return [board.add_piece(i) for i in range(7) if not board.is_column_full(i)]


def endgame_score_connectfour(board, is_current_player_maximizer):
    if len(max(board.get_all_chains(), key=len, default=[])) < 4:
        return 0
    return [1000, -1000][int(is_current_player_maximizer)]


def _chain_points(board, player):
    total = 0
    for chain in board.get_all_chains(player):
        total = total + len(chain) * len(chain)
    return total


def heuristic_connectfour(board, is_current_player_maximizer):
    value = _chain_points(board, board.get_current_player_name()) - _chain_points(board, board.get_other_player_name())
    if is_current_player_maximizer:
        return value
    return -value


def dfs_maximizing(state):
    if state.is_game_over():
        return [state], state.get_endgame_score(True), 1
    best, total = None, 0
    for s in state.generate_next_states():
        p, v, n = dfs_maximizing(s)
        total += n
        if best is None or v > best[1]:
            best = (p, v)
    return [state] + best[0], best[1], total


def _negamax(state, heuristic_fn, depth_limit, maximize, alpha, beta, prune):
    sign = 1 if maximize else -1
    if state.is_game_over():
        return [state], state.get_endgame_score(maximize), 1
    if depth_limit == 0:
        return [state], heuristic_fn(state.get_snapshot(), maximize), 1
    best_path, best_value, total = None, None, 0
    for s in state.generate_next_states():
        p, v, n = _negamax(s, heuristic_fn, depth_limit - 1, not maximize, alpha, beta, prune)
        total += n
        if best_value is None or sign * v > sign * best_value:
            best_path, best_value = [state] + p, v
        if prune:
            if maximize:
                alpha = max(alpha, v)
            else:
                beta = min(beta, v)
            if alpha >= beta:
                break
    return best_path, best_value, total


def minimax_endgame_search(state, maximize=True):
    return _negamax(state, always_zero, INF, maximize, -INF, INF, False)


def minimax_search(state, heuristic_fn=always_zero, depth_limit=INF, maximize=True):
    return _negamax(state, heuristic_fn, depth_limit, maximize, -INF, INF, False)


def minimax_search_alphabeta(state, alpha=-INF, beta=INF, heuristic_fn=always_zero, depth_limit=INF, maximize=True):
    return _negamax(state, heuristic_fn, depth_limit, maximize, alpha, beta, True)


def progressive_deepening(state, heuristic_fn=always_zero, depth_limit=INF, maximize=True):
    value = AnytimeValue()
    for d in range(1, depth_limit + 1):
        value.set_value(minimax_search_alphabeta(state, -INF, INF, heuristic_fn, d, maximize))
    return value
