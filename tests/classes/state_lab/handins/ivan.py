import copy

from game_api import *
from toytree import *


def is_game_over_connectfour(board):
    for chain in board.get_all_chains():
        if len(chain) > 3:
            return True
    for i in range(board.num_cols):
        if board.is_column_full(i):
            if i == board.num_cols - 1:
                return True
        else:
            return False


def next_boards_connectfour(board):
    next_boards = list()
    if is_game_over_connectfour(board):
        return next_boards
    for i in range(board.num_cols):
        if not board.is_column_full(i):
            next_boards.append(board.add_piece(i))
    return next_boards


def endgame_score_connectfour(board, is_current_player_maximizer):
    chains = board.get_all_chains()
    for chain in chains:
        if len(chain) >= 4:
            return 1000 * (-1 if is_current_player_maximizer else 1)
    return 0


def heuristic_connectfour(board, is_current_player_maximizer):
    ours = 0
    theirs = 0
    for chain in board.get_all_chains(board.get_current_player_name()):
        ours += len(chain) ** 2
    for chain in board.get_all_chains(board.get_other_player_name()):
        theirs += len(chain) ** 2
    if is_current_player_maximizer:
        return ours - theirs
    return theirs - ours


def dfs_maximizing(state):
    if state.is_game_over():
        return ([state], state.get_endgame_score(True), 1)
    best_path = None
    best_score = -INF
    evals = 0
    for child in state.generate_next_states():
        (path, score, n) = dfs_maximizing(child)
        evals += n
        if score > best_score:
            best_path = copy.copy(path)
            best_path.insert(0, state)
            best_score = score
    return (best_path, best_score, evals)


def minimax_endgame_search(state, maximize=True):
    if state.is_game_over():
        return ([state], state.get_endgame_score(maximize), 1)
    best_path = None
    best_score = -INF if maximize else INF
    evals = 0
    for child in state.generate_next_states():
        (path, score, n) = minimax_endgame_search(child, not maximize)
        evals += n
        if best_path is None or (score > best_score if maximize else score < best_score):
            best_path = copy.copy(path)
            best_path.insert(0, state)
            best_score = score
    return (best_path, best_score, evals)


def minimax_search(state, heuristic_fn=always_zero, depth_limit=INF, maximize=True):
    if state.is_game_over():
        return ([state], state.get_endgame_score(maximize), 1)
    if depth_limit == 0:
        return ([state], heuristic_fn(state.get_snapshot(), maximize), 1)
    best_path = None
    best_score = -INF if maximize else INF
    evals = 0
    for child in state.generate_next_states():
        (path, score, n) = minimax_search(child, heuristic_fn, depth_limit - 1, not maximize)
        evals += n
        if best_path is None or (score > best_score if maximize else score < best_score):
            best_path = copy.copy(path)
            best_path.insert(0, state)
            best_score = score
    return (best_path, best_score, evals)


def minimax_search_alphabeta(state, alpha=-INF, beta=INF, heuristic_fn=always_zero, depth_limit=INF, maximize=True):
    if state.is_game_over():
        return ([state], state.get_endgame_score(maximize), 1)
    if depth_limit == 0:
        return ([state], heuristic_fn(state.get_snapshot(), maximize), 1)
    best_path = None
    best_score = -INF if maximize else INF
    evals = 0
    for child in state.generate_next_states():
        (path, score, n) = minimax_search_alphabeta(child, alpha, beta, heuristic_fn, depth_limit - 1, not maximize)
        evals += n
        if best_path is None or (score > best_score if maximize else score < best_score):
            best_path = copy.copy(path)
            best_path.insert(0, state)
            best_score = score
        if maximize:
            alpha = max(alpha, best_score)
        else:
            beta = min(beta, best_score)
        if alpha >= beta:
            break
    return (best_path, best_score, evals)


def progressive_deepening(state, heuristic_fn=always_zero, depth_limit=INF, maximize=True):
    anytime_value = AnytimeValue()
    for depth in range(1, depth_limit + 1):
        anytime_value.set_value(minimax_search_alphabeta(state, -INF, INF, heuristic_fn, depth, maximize))
    return anytime_value
