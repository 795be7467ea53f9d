from game_api import *
from toytree import *


def is_game_over_connectfour(board):
    """Returns True if game is over, otherwise False."""
    for chain in board.get_all_chains():
        if len(chain) >= 4:
            return True
    for i in range(board.num_cols):
        if not board.is_column_full(i):
            return False
    return True


def next_boards_connectfour(board):
    if is_game_over_connectfour(board):
        return []
    return [board.add_piece(i) for i in range(board.num_cols) if not board.is_column_full(i)]


def endgame_score_connectfour(board, is_current_player_maximizer):
    if is_game_over_connectfour(board) and max(len(c) for c in board.get_all_chains()) >= 4:
        if is_current_player_maximizer:
            return -1000
        return 1000
    return 0


def heuristic_connectfour(board, is_current_player_maximizer):
    me, you = board.get_current_player_name(), board.get_other_player_name()
    total = sum(len(c) ** 2 for c in board.get_all_chains(me)) - sum(len(c) ** 2 for c in board.get_all_chains(you))
    return total if is_current_player_maximizer else -total


def dfs_maximizing(state):
    if state.is_game_over():
        return [state], state.get_endgame_score(True), 1
    best_path, best_score, evaluations = None, -INF, 0
    for child in state.generate_next_states():
        path, score, evals = dfs_maximizing(child)
        evaluations += evals
        if score > best_score:
            best_path, best_score = path, score
    return [state] + best_path, best_score, evaluations


def minimax_endgame_search(state, maximize=True):
    if state.is_game_over():
        return [state], state.get_endgame_score(maximize), 1
    evaluations = 0
    if maximize:
        best_path, best_score = None, -INF
        for child in state.generate_next_states():
            path, score, evals = minimax_endgame_search(child, False)
            evaluations += evals
            if score > best_score:
                best_path, best_score = path, score
    else:
        best_path, best_score = None, INF
        for child in state.generate_next_states():
            path, score, evals = minimax_endgame_search(child, True)
            evaluations += evals
            if score < best_score:
                best_path, best_score = path, score
    return [state] + best_path, best_score, evaluations


def minimax_search(state, heuristic_fn=always_zero, depth_limit=INF, maximize=True):
    if state.is_game_over():
        return [state], state.get_endgame_score(maximize), 1
    if depth_limit == 0:
        return [state], heuristic_fn(state.get_snapshot(), maximize), 1
    evaluations = 0
    if maximize:
        best_path, best_score = None, -INF
        for child in state.generate_next_states():
            path, score, evals = minimax_search(child, heuristic_fn, depth_limit - 1, False)
            evaluations += evals
            if score > best_score:
                best_path, best_score = path, score
    else:
        best_path, best_score = None, INF
        for child in state.generate_next_states():
            path, score, evals = minimax_search(child, heuristic_fn, depth_limit - 1, True)
            evaluations += evals
            if score < best_score:
                best_path, best_score = path, score
    return [state] + best_path, best_score, evaluations


def minimax_search_alphabeta(state, alpha=-INF, beta=INF, heuristic_fn=always_zero, depth_limit=INF, maximize=True):
    if state.is_game_over():
        return [state], state.get_endgame_score(maximize), 1
    if depth_limit == 0:
        return [state], heuristic_fn(state.get_snapshot(), maximize), 1
    evaluations = 0
    if maximize:
        best_path, best_score = None, -INF
        for child in state.generate_next_states():
            path, score, evals = minimax_search_alphabeta(child, alpha, beta, heuristic_fn, depth_limit - 1, False)
            evaluations += evals
            if score > best_score:
                best_path, best_score = path, score
            alpha = max(alpha, score)
            if alpha > beta:
                break
    else:
        best_path, best_score = None, INF
        for child in state.generate_next_states():
            path, score, evals = minimax_search_alphabeta(child, alpha, beta, heuristic_fn, depth_limit - 1, True)
            evaluations += evals
            if score < best_score:
                best_path, best_score = path, score
            beta = min(beta, score)
            if alpha > beta:
                break
    return [state] + best_path, best_score, evaluations


def progressive_deepening(state, heuristic_fn=always_zero, depth_limit=INF, maximize=True):
    anytime_value = AnytimeValue()
    for depth in range(1, depth_limit + 1):
        anytime_value.set_value(minimax_search_alphabeta(state, -INF, INF, heuristic_fn, depth, maximize))
    return anytime_value
