from game_api import *
from toytree import *


def is_game_over_connectfour(board):
    if board.is_full():
        return True
    return any(len(chain) >= 4 for chain in board.get_all_chains())


def next_boards_connectfour(board):
    if is_game_over_connectfour(board):
        return []
    return [board.add_piece(col) for col in range(board.num_cols) if not board.is_column_full(col)]


def endgame_score_connectfour(board, is_current_player_maximizer):
    won = any(len(chain) >= 4 for chain in board.get_all_chains())
    if not won:
        return 0
    # the player who just moved won
    return -1000 if is_current_player_maximizer else 1000


def heuristic_connectfour(board, is_current_player_maximizer):
    mine = [len(c) ** 2 for c in board.get_all_chains(board.get_current_player_name())]
    theirs = [len(c) ** 2 for c in board.get_all_chains(board.get_other_player_name())]
    sign = 1 if is_current_player_maximizer else -1
    return sign * (sum(mine) - sum(theirs))


def dfs_maximizing(state):
    if state.is_game_over():
        return [state], state.get_endgame_score(True), 1
    best = ([], -INF, 0)
    evaluations = 0
    for child in state.generate_next_states():
        path, score, count = dfs_maximizing(child)
        evaluations += count
        if score > best[1]:
            best = ([state] + path, score, 0)
    return best[0], best[1], evaluations


def minimax_endgame_search(state, maximize=True):
    return minimax_search(state, maximize=maximize)


def minimax_search(state, heuristic_fn=always_zero, depth_limit=INF, maximize=True, _depth=0):
    if state.is_game_over():
        return [state], state.get_endgame_score(True), 1
    if _depth == depth_limit:
        return [state], heuristic_fn(state.get_snapshot(), maximize), 1
    best_path, best_score, evaluations = None, None, 0
    for child in state.generate_next_states():
        path, score, count = minimax_search(child, heuristic_fn, depth_limit, not maximize, _depth + 1)
        evaluations += count
        better = best_score is None or (score > best_score if maximize else score < best_score)
        if better:
            best_path, best_score = [state] + path, score
    return best_path, best_score, evaluations


def minimax_search_alphabeta(state, alpha=-INF, beta=INF, heuristic_fn=always_zero, depth_limit=INF, maximize=True, _depth=0):
    if state.is_game_over():
        return [state], state.get_endgame_score(maximize), 1
    if _depth == depth_limit:
        return [state], heuristic_fn(state.get_snapshot(), maximize), 1
    best_path, best_score, evaluations = None, None, 0
    for child in state.generate_next_states():
        path, score, count = minimax_search_alphabeta(child, alpha, beta, heuristic_fn, depth_limit, not maximize, _depth + 1)
        evaluations += count
        if best_score is None or (score > best_score if maximize else score < best_score):
            best_path, best_score = [state] + path, score
        if maximize:
            alpha = max(alpha, best_score)
        else:
            beta = min(beta, best_score)
        if alpha >= beta:
            break
    return best_path, best_score, evaluations


def progressive_deepening(state, heuristic_fn=always_zero, depth_limit=INF, maximize=True):
    anytime_value = AnytimeValue()
    depth = 1
    while depth <= depth_limit:
        anytime_value.set_value(minimax_search_alphabeta(state, heuristic_fn=heuristic_fn, depth_limit=depth, maximize=maximize))
        depth += 1
    return anytime_value
