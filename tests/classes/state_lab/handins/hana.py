from game_api import *
from toytree import *


def is_game_over_connectfour(board):
    if board.count_pieces() == board.num_rows * board.num_cols:
        return True
    for chain in board.get_all_chains():
        if len(chain) >= 4:
            return True
    return False


def next_boards_connectfour(board):
    if is_game_over_connectfour(board):
        return []
    return [board.add_piece(col) for col in range(7) if not board.is_column_full(col)]


def endgame_score_connectfour(board, is_current_player_maximizer):
    longest = 0
    for chain in board.get_all_chains():
        longest = max(longest, len(chain))
    if longest < 4:
        return 0
    elif is_current_player_maximizer:
        return -1000
    else:
        return 1000


def heuristic_connectfour(board, is_current_player_maximizer):
    current = board.get_current_player_name()
    score = 0
    for chain in board.get_all_chains():
        col, row = chain[0]
        owner = board.get_piece(col, row)
        if owner == current:
            score += len(chain) ** 2
        else:
            score -= len(chain) ** 2
    if is_current_player_maximizer:
        return score
    return -score


def dfs_maximizing(state):
    if state.is_game_over():
        return [state], state.get_endgame_score(True), 1
    paths = []
    count = 0
    for child in state.generate_next_states():
        path, score, n = dfs_maximizing(child)
        count += n
        paths.append((path, score))
    best_path, best_score = paths[0]
    for path, score in paths[1:]:
        if score > best_score:
            best_path, best_score = path, score
    return [state] + best_path, best_score, count


def minimax_endgame_search(state, maximize=True):
    if state.is_game_over():
        return [state], state.get_endgame_score(maximize), 1
    paths = []
    count = 0
    for child in state.generate_next_states():
        path, score, n = minimax_endgame_search(child, not maximize)
        count += n
        paths.append((path, score))
    best_path, best_score = paths[0]
    for path, score in paths[1:]:
        if (maximize and score > best_score) or (not maximize and score < best_score):
            best_path, best_score = path, score
    return [state] + best_path, best_score, count


def minimax_search(state, heuristic_fn=always_zero, depth_limit=INF, maximize=True):
    if state.is_game_over():
        return [state], state.get_endgame_score(maximize), 1
    if depth_limit <= 0:
        return [state], heuristic_fn(state.get_snapshot(), maximize), 1
    paths = []
    count = 0
    for child in state.generate_next_states():
        path, score, n = minimax_search(child, heuristic_fn, depth_limit - 1, not maximize)
        count += n
        paths.append((path, score))
    best_path, best_score = paths[0]
    for path, score in paths[1:]:
        if (maximize and score > best_score) or (not maximize and score < best_score):
            best_path, best_score = path, score
    return [state] + best_path, best_score, count


def minimax_search_alphabeta(state, alpha=-INF, beta=INF, heuristic_fn=always_zero, depth_limit=INF, maximize=True):
    if state.is_game_over():
        return [state], state.get_endgame_score(maximize), 1
    if depth_limit <= 0:
        return [state], heuristic_fn(state.get_snapshot(), maximize), 1
    paths = []
    count = 0
    for child in state.generate_next_states():
        path, score, n = minimax_search_alphabeta(child, alpha, beta, heuristic_fn, depth_limit - 1, not maximize)
        count += n
        paths.append((path, score))
        if maximize and score > alpha:
            alpha = score
        if not maximize and score < beta:
            beta = score
        if alpha >= beta:
            break
    best_path, best_score = paths[0]
    for path, score in paths[1:]:
        if (maximize and score > best_score) or (not maximize and score < best_score):
            best_path, best_score = path, score
    return [state] + best_path, best_score, count


def progressive_deepening(state, heuristic_fn=always_zero, depth_limit=INF, maximize=True):
    anytime_value = AnytimeValue()
    for depth in range(1, depth_limit + 1):
        answer = minimax_search_alphabeta(state, -INF, INF, heuristic_fn, depth, maximize)
        anytime_value.set_value(answer)
    return anytime_value
