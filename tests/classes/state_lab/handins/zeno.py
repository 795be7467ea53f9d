from game_api import *
from toytree import *


def is_game_over_connectfour(board):
    longest = max(map(len, board.get_all_chains()), default=0)
    return longest >= 4 or board.count_pieces() == board.num_rows * board.num_cols


def next_boards_connectfour(board):
    if is_game_over_connectfour(board):
        return []
    return [board.add_piece(c) for c in range(board.num_cols) if not board.is_column_full(c)]


def endgame_score_connectfour(board, is_current_player_maximizer):
    if any(len(c) >= 4 for c in board.get_all_chains()):
        return 1000 if is_current_player_maximizer else -1000
    return 0


def heuristic_connectfour(board, is_current_player_maximizer):
    points = {}
    for player in (board.get_current_player_name(), board.get_other_player_name()):
        points[player] = sum([len(c) ** 2 for c in board.get_all_chains(player)])
    value = points[board.get_current_player_name()] - points[board.get_other_player_name()]
    return value if is_current_player_maximizer else -value


def dfs_maximizing(state):
    if state.is_game_over():
        return ([state], state.get_endgame_score(True), 1)
    results = [dfs_maximizing(child) for child in state.generate_next_states()]
    best = max(results, key=lambda r: r[1])
    return ([state] + best[0], best[1], sum(r[2] for r in results))


def minimax_endgame_search(state, maximize=True):
    if state.is_game_over():
        return ([state], state.get_endgame_score(maximize), 1)
    results = [minimax_endgame_search(child, not maximize) for child in state.generate_next_states()]
    if maximize:
        best = max(results, key=lambda r: r[1])
    else:
        best = min(results, key=lambda r: r[1])
    return ([state] + best[0], best[1], sum(r[2] for r in results))


def minimax_search(state, heuristic_fn=always_zero, depth_limit=INF, maximize=True):
    if state.is_game_over():
        return ([state], state.get_endgame_score(maximize), 1)
    if depth_limit == 0:
        return ([state], heuristic_fn(state.get_snapshot(), maximize), 1)
    results = [
        minimax_search(child, heuristic_fn, depth_limit - 1, not maximize) for child in state.generate_next_states()
    ]
    pick = max if maximize else min
    best = pick(results, key=lambda r: r[1])
    return ([state] + best[0], best[1], sum(r[2] for r in results))


def minimax_search_alphabeta(state, alpha=-INF, beta=INF, heuristic_fn=always_zero, depth_limit=INF, maximize=True):
    if state.is_game_over():
        return ([state], state.get_endgame_score(maximize), 1)
    if depth_limit == 0:
        return ([state], heuristic_fn(state.get_snapshot(), maximize), 1)
    results = []
    for child in state.generate_next_states():
        r = minimax_search_alphabeta(child, alpha, beta, heuristic_fn, depth_limit - 1, not maximize)
        results.append(r)
        if maximize:
            alpha = max(alpha, r[1])
        else:
            beta = min(beta, r[1])
        if alpha >= beta:
            break
    pick = max if maximize else min
    best = pick(results, key=lambda r: r[1])
    return ([state] + best[0], best[1], sum(r[2] for r in results))


def progressive_deepening(state, heuristic_fn=always_zero, depth_limit=INF, maximize=True):
    anytime_value = AnytimeValue()
    for depth in range(1, depth_limit + 1):
        anytime_value.set_value(minimax_search_alphabeta(state, heuristic_fn=heuristic_fn, depth_limit=depth, maximize=maximize))
    return anytime_value
