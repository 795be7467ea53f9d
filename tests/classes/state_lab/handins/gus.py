from game_api import *
from toytree import *

WIN_SCORE = 1000


def is_game_over_connectfour(board):
    chains = board.get_all_chains()
    longest = 0
    for chain in chains:
        if len(chain) > longest:
            longest = len(chain)
    if longest >= 4:
        return True
    full = True
    for col in range(board.num_cols):
        if not board.is_column_full(col):
            full = False
    return full


def next_boards_connectfour(board):
    boards = []
    if is_game_over_connectfour(board):
        return boards
    col = 0
    while col < board.num_cols:
        if not board.is_column_full(col):
            boards.append(board.add_piece(col))
        col += 1
    return boards


def endgame_score_connectfour(board, is_current_player_maximizer):
    for chain in board.get_all_chains():
        if len(chain) >= 4:
            if is_current_player_maximizer:
                return -WIN_SCORE
            return WIN_SCORE
    return 0


def heuristic_connectfour(board, is_current_player_maximizer):
    score = 0
    for chain in board.get_all_chains(board.get_current_player_name()):
        score += len(chain) ** 2
    for chain in board.get_all_chains(board.get_other_player_name()):
        score -= len(chain) ** 2
    return score if is_current_player_maximizer else -score


def dfs_maximizing(state):
    evaluations = 0

    def walk(node):
        nonlocal evaluations
        if node.is_game_over():
            evaluations += 1
            return [node], node.get_endgame_score(True)
        best_path, best_score = None, None
        for child in node.generate_next_states():
            path, score = walk(child)
            if best_score is None or score > best_score:
                best_path, best_score = path, score
        best_path.insert(0, node)
        return best_path, best_score

    path, score = walk(state)
    return path, score, evaluations


def minimax_endgame_search(state, maximize=True):
    evaluations = 0

    def walk(node, maximize):
        nonlocal evaluations
        if node.is_game_over():
            evaluations += 1
            return [node], node.get_endgame_score(maximize)
        best_path, best_score = None, None
        for child in node.generate_next_states():
            path, score = walk(child, not maximize)
            if best_score is None or (maximize and score > best_score) or (not maximize and score < best_score):
                best_path, best_score = path, score
        best_path.insert(0, node)
        return best_path, best_score

    path, score = walk(state, maximize)
    return path, score, evaluations


def minimax_search(state, heuristic_fn=always_zero, depth_limit=INF, maximize=True):
    evaluations = 0

    def walk(node, depth, maximize):
        nonlocal evaluations
        if node.is_game_over():
            evaluations += 1
            return [node], node.get_endgame_score(maximize)
        if depth == 0:
            evaluations += 1
            return [node], heuristic_fn(node.get_snapshot(), maximize)
        best_path, best_score = None, None
        for child in node.generate_next_states():
            path, score = walk(child, depth - 1, not maximize)
            if best_score is None or (maximize and score > best_score) or (not maximize and score < best_score):
                best_path, best_score = path, score
        best_path.insert(0, node)
        return best_path, best_score

    path, score = walk(state, depth_limit, maximize)
    return path, score, evaluations


def minimax_search_alphabeta(state, alpha=-INF, beta=INF, heuristic_fn=always_zero, depth_limit=INF, maximize=True):
    evaluations = 0

    def walk(node, depth, maximize, alpha, beta):
        nonlocal evaluations
        if node.is_game_over():
            evaluations += 1
            return [node], node.get_endgame_score(maximize)
        if depth == 0:
            evaluations += 1
            return [node], heuristic_fn(node.get_snapshot(), maximize)
        best_path, best_score = None, None
        for child in node.generate_next_states():
            path, score = walk(child, depth - 1, not maximize, alpha, beta)
            if best_score is None or (maximize and score > best_score) or (not maximize and score < best_score):
                best_path, best_score = path, score
            if maximize:
                alpha = max(alpha, score)
            else:
                beta = min(beta, score)
            if alpha >= beta:
                break
        best_path.insert(0, node)
        return best_path, best_score

    path, score = walk(state, depth_limit, maximize, alpha, beta)
    return path, score, evaluations


def progressive_deepening(state, heuristic_fn=always_zero, depth_limit=INF, maximize=True):
    anytime_value = AnytimeValue()
    depth = 1
    while depth <= depth_limit:
        anytime_value.set_value(minimax_search_alphabeta(state, -INF, INF, heuristic_fn, depth, maximize))
        depth += 1
    return anytime_value
