from game_api import *
from toytree import *


def is_game_over_connectfour(board):
    has_four = len([chain for chain in board.get_all_chains() if len(chain) >= 4]) > 0
    return has_four or board.is_full()


def next_boards_connectfour(board):
    if is_game_over_connectfour(board):
        return []
    open_columns = filter(lambda c: not board.is_column_full(c), range(board.num_cols))
    return list(map(board.add_piece, open_columns))


def endgame_score_connectfour(board, is_current_player_maximizer):
    fours = [chain for chain in board.get_all_chains() if len(chain) >= 4]
    if fours:
        return -1000 if is_current_player_maximizer else 1000
    return 0


def heuristic_connectfour(board, is_current_player_maximizer):
    squares = lambda player: sum(map(lambda c: len(c) ** 2, board.get_all_chains(player)))
    score = squares(board.get_current_player_name()) - squares(board.get_other_player_name())
    return score if is_current_player_maximizer else -score


def _pick(results, maximize):
    """The first result with the best score."""
    best_index = 0
    for i, (path, score, count) in enumerate(results):
        if maximize and score > results[best_index][1]:
            best_index = i
        if not maximize and score < results[best_index][1]:
            best_index = i
    return results[best_index]


def dfs_maximizing(state):
    if state.is_game_over():
        return [state], state.get_endgame_score(True), 1
    results = [dfs_maximizing(child) for child in state.generate_next_states()]
    path, score, _ = _pick(results, True)
    return [state] + path, score, sum(count for _, _, count in results)


def minimax_endgame_search(state, maximize=True):
    if state.is_game_over():
        return [state], state.get_endgame_score(maximize), 1
    results = [minimax_endgame_search(child, not maximize) for child in state.generate_next_states()]
    path, score, _ = _pick(results, maximize)
    return [state] + path, score, sum(count for _, _, count in results)


def minimax_search(state, heuristic_fn=always_zero, depth_limit=INF, maximize=True):
    if state.is_game_over():
        return [state], state.get_endgame_score(maximize), 1
    if depth_limit == 0:
        return [state], heuristic_fn(state.get_snapshot(), maximize), 1
    results = [
        minimax_search(child, heuristic_fn, depth_limit - 1, not maximize) for child in state.generate_next_states()
    ]
    path, score, _ = _pick(results, maximize)
    return [state] + path, score, sum(count for _, _, count in results)


def minimax_search_alphabeta(state, alpha=-INF, beta=INF, heuristic_fn=always_zero, depth_limit=INF, maximize=True):
    if state.is_game_over():
        return [state], state.get_endgame_score(maximize), 1
    if depth_limit == 0:
        return [state], heuristic_fn(state.get_snapshot(), maximize), 1
    results = []
    for child in state.generate_next_states():
        results.append(minimax_search_alphabeta(child, alpha, beta, heuristic_fn, depth_limit - 1, not maximize))
        score = results[-1][1]
        alpha, beta = (max(alpha, score), beta) if maximize else (alpha, min(beta, score))
        if alpha >= beta:
            break
    path, score, _ = _pick(results, maximize)
    return [state] + path, score, sum(count for _, _, count in results)


def progressive_deepening(state, heuristic_fn=always_zero, depth_limit=INF, maximize=True):
    anytime_value = AnytimeValue()
    depth = 1
    while depth <= depth_limit:
        anytime_value.set_value(minimax_search_alphabeta(state, -INF, INF, heuristic_fn, depth, maximize))
        depth += 1
    return anytime_value
