from game_api import *
from toytree import *


def is_game_over_connectfour(board):
    for chain in board.get_all_chains():
        if len(chain) >= 4:
            return True
    return board.is_full()


def next_boards_connectfour(board):
    if is_game_over_connectfour(board):
        return []
    boards = []
    for col in range(board.num_cols):
        if not board.is_column_full(col):
            boards.append(board.add_piece(col))
    return boards


def endgame_score_connectfour(board, is_current_player_maximizer):
    for chain in board.get_all_chains():
        if len(chain) >= 4:
            if is_current_player_maximizer:
                return -1000
            return 1000
    return 0


def heuristic_connectfour(board, is_current_player_maximizer):
    me = board.get_current_player_name()
    them = board.get_other_player_name()
    score = 0
    for chain in board.get_all_chains(me):
        score += len(chain) ** 2
    for chain in board.get_all_chains(them):
        score -= len(chain) ** 2
    if is_current_player_maximizer:
        return score
    return -score


def dfs_maximizing(state):
    if state.is_game_over():
        return [state], state.get_endgame_score(True), 1
    best_path = None
    best_score = None
    evals = 0
    for child in state.generate_next_states():
        path, score, n = dfs_maximizing(child)
        evals += n
        if best_score is None or score > best_score:
            best_path = [state] + path
            best_score = score
    return best_path, best_score, evals


def minimax_endgame_search(state, maximize=True):
    if state.is_game_over():
        return [state], state.get_endgame_score(maximize), 1
    best_path = None
    best_score = None
    evals = 0
    for child in state.generate_next_states():
        path, score, n = minimax_endgame_search(child, not maximize)
        evals += n
        if best_score is None or (maximize and score > best_score) or (not maximize and score < best_score):
            best_path = [state] + path
            best_score = score
    return best_path, best_score, evals


def minimax_search(state, heuristic_fn=always_zero, depth_limit=INF, maximize=True):
    if state.is_game_over():
        return [state], state.get_endgame_score(maximize), 1
    if depth_limit == 0:
        return [state], heuristic_fn(state.get_snapshot(), maximize), 1
    best_path = None
    best_score = None
    evals = 0
    for child in state.generate_next_states():
        path, score, n = minimax_search(child, heuristic_fn, depth_limit - 1, not maximize)
        evals += n
        if best_score is None or (maximize and score > best_score) or (not maximize and score < best_score):
            best_path = [state] + path
            best_score = score
    return best_path, best_score, evals


def minimax_search_alphabeta(state, alpha=-INF, beta=INF, heuristic_fn=always_zero, depth_limit=INF, maximize=True):
    if state.is_game_over():
        return [state], state.get_endgame_score(maximize), 1
    if depth_limit == 0:
        return [state], heuristic_fn(state.get_snapshot(), maximize), 1
    best_path = None
    best_score = None
    evals = 0
    for child in state.generate_next_states():
        path, score, n = minimax_search_alphabeta(child, alpha, beta, heuristic_fn, depth_limit - 1, not maximize)
        evals += n
        if best_score is None or (maximize and score > best_score) or (not maximize and score < best_score):
            best_path = [state] + path
            best_score = score
        if maximize:
            alpha = max(alpha, score)
        else:
            beta = min(beta, score)
        if alpha >= beta:
            break
    return best_path, best_score, evals


def progressive_deepening(state, heuristic_fn=always_zero, depth_limit=INF, maximize=True):
    anytime_value = AnytimeValue()
    depth = 1
    while depth <= depth_limit:
        anytime_value.set_value(minimax_search_alphabeta(state, -INF, INF, heuristic_fn, depth, maximize))
        depth += 1
    return anytime_value


# Uncomment to try it:
# print(minimax_endgame_search(AbstractGameState(tree("A", None, tree("B", 3), tree("C", 1)), tree_is_over, tree_children, tree_endgame_value)))
