from game_api import *
from toytree import *
import time

INF = float('inf')


def is_game_over_connectfour(board):
    """Returns True if game is over, otherwise False."""
    for chain in board.get_all_chains():
        if len(chain) >= 4:
            return True
    return all(board.is_column_full(i) for i in range(board.num_cols))


def next_boards_connectfour(board):
    if is_game_over_connectfour(board):
        return []
    next_boards = []
    for i in reversed(range(board.num_cols)):
        if board.is_column_full(i):
            continue
        next_boards.append(board.add_piece(i))
    return next_boards


def endgame_score_connectfour(board, is_current_player_maximizer):
    for chain in board.get_all_chains():
        if len(chain) >= 4:
            return -1000 if is_current_player_maximizer else 1000
    return 0


def heuristic_connectfour(board, is_current_player_maximizer):
    current = board.get_all_chains(board.get_current_player_name())
    other = board.get_all_chains(board.get_other_player_name())
    score = sum(len(x) ** 2 for x in current) - sum(len(x) ** 2 for x in other)
    if is_current_player_maximizer:
        return score
    else:
        return -score


def dfs_maximizing(state):
    if state.is_game_over():
        return [state], state.get_endgame_score(is_current_player_maximizer=True), 1
    best_path, best_val, count = None, -INF, 0
    for nxt in state.generate_next_states():
        path, val, c = dfs_maximizing(nxt)
        count += c
        if val > best_val:
            best_path, best_val = [state] + path, val
    return best_path, best_val, count


def max_value(state, heuristic_fn, depth, alpha, beta, prune):
    if state.is_game_over():
        return [state], state.get_endgame_score(True), 1
    if depth == 0:
        return [state], heuristic_fn(state.get_snapshot(), True), 1
    value, best_path, count = -INF, None, 0
    for nxt in state.generate_next_states():
        path, v, c = min_value(nxt, heuristic_fn, depth - 1, alpha, beta, prune)
        count += c
        if best_path is None or v > value:
            value, best_path = v, [state] + path
        if prune:
            if value >= beta:
                break
            alpha = max(alpha, value)
    return best_path, value, count


def min_value(state, heuristic_fn, depth, alpha, beta, prune):
    if state.is_game_over():
        return [state], state.get_endgame_score(False), 1
    if depth == 0:
        return [state], heuristic_fn(state.get_snapshot(), False), 1
    value, best_path, count = INF, None, 0
    for nxt in state.generate_next_states():
        path, v, c = max_value(nxt, heuristic_fn, depth - 1, alpha, beta, prune)
        count += c
        if best_path is None or v < value:
            value, best_path = v, [state] + path
        if prune:
            if value <= alpha:
                break
            beta = min(beta, value)
    return best_path, value, count


def minimax_endgame_search(state, maximize=True):
    if maximize:
        return max_value(state, always_zero, INF, -INF, INF, False)
    return min_value(state, always_zero, INF, -INF, INF, False)


def minimax_search(state, heuristic_fn=always_zero, depth_limit=INF, maximize=True):
    if maximize:
        return max_value(state, heuristic_fn, depth_limit, -INF, INF, False)
    return min_value(state, heuristic_fn, depth_limit, -INF, INF, False)


def minimax_search_alphabeta(state, alpha=-INF, beta=INF, heuristic_fn=always_zero, depth_limit=INF, maximize=True):
    if maximize:
        return max_value(state, heuristic_fn, depth_limit, alpha, beta, True)
    return min_value(state, heuristic_fn, depth_limit, alpha, beta, True)


def progressive_deepening(state, heuristic_fn=always_zero, depth_limit=INF, maximize=True):
    anytime_value = AnytimeValue()
    d = 1
    while d <= depth_limit:
        anytime_value.set_value(minimax_search_alphabeta(state, -INF, INF, heuristic_fn, d, maximize))
        d = d + 1
    return anytime_value
