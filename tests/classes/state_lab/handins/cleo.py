from game_api import *
from toytree import *


def is_game_over_connectfour(board):
    chains = board.get_all_chains()
    for p in chains:
        if len(p) >= 4:
            return True
    if board.count_pieces() == 42:
        return True
    return False


def next_boards_connectfour(board):
    options = []
    for column in range(board.num_cols):
        if board.is_column_full(column) == False:
            options.append(board.add_piece(column))
    return options


def endgame_score_connectfour(board, is_current_player_maximizer):
    longest = max([len(chain) for chain in board.get_all_chains()] + [0])
    if longest >= 4 and is_current_player_maximizer:
        return -1000
    if longest >= 4:
        return 1000
    return 0


def heuristic_connectfour(board, is_current_player_maximizer):
    a = sum([len(c) ** 2 for c in board.get_all_chains(board.get_current_player_name())])
    b = sum([len(c) ** 2 for c in board.get_all_chains(board.get_other_player_name())])
    return (a - b) if is_current_player_maximizer else (b - a)


def dfs_maximizing(state):
    if state.is_game_over():
        return ([state], state.get_endgame_score(), 1)
    best = None
    evals = 0
    for child in state.generate_next_states():
        answer = dfs_maximizing(child)
        evals += answer[2]
        if best == None or answer[1] > best[1]:
            best = answer
    return ([state] + best[0], best[1], evals)


def minimax_endgame_search(state, maximize=True):
    if state.is_game_over():
        return ([state], state.get_endgame_score(maximize), 1)
    best = None
    evals = 0
    for child in state.generate_next_states():
        answer = minimax_endgame_search(child, not maximize)
        evals += answer[2]
        if best == None:
            best = answer
        elif maximize and answer[1] > best[1]:
            best = answer
        elif not maximize and answer[1] < best[1]:
            best = answer
    return ([state] + best[0], best[1], evals)


def minimax_search(state, heuristic_fn=always_zero, depth_limit=INF, maximize=True):
    if state.is_game_over():
        return ([state], state.get_endgame_score(maximize), 1)
    if depth_limit == 0:
        return ([state], heuristic_fn(state.get_snapshot(), maximize), 1)
    best = None
    evals = 0
    for child in state.generate_next_states():
        answer = minimax_search(child, heuristic_fn, depth_limit - 1, not maximize)
        evals += answer[2]
        if best == None:
            best = answer
        elif maximize and answer[1] > best[1]:
            best = answer
        elif not maximize and answer[1] < best[1]:
            best = answer
    return ([state] + best[0], best[1], evals)


def minimax_search_alphabeta(state, alpha=-INF, beta=INF, heuristic_fn=always_zero, depth_limit=INF, maximize=True):
    if state.is_game_over():
        return ([state], state.get_endgame_score(maximize), 1)
    if depth_limit == 0:
        return ([state], heuristic_fn(state.get_snapshot(), maximize), 1)
    best = None
    evals = 0
    for child in state.generate_next_states():
        answer = minimax_search_alphabeta(child, alpha, beta, heuristic_fn, depth_limit - 1, not maximize)
        evals += answer[2]
        if best == None or (maximize and answer[1] > best[1]) or (not maximize and answer[1] < best[1]):
            best = answer
        if maximize:
            alpha = max(alpha, answer[1])
        else:
            beta = min(beta, answer[1])
        if alpha >= beta:
            return ([state] + best[0], best[1], evals)
    return ([state] + best[0], best[1], evals)


def progressive_deepening(state, heuristic_fn=always_zero, depth_limit=INF, maximize=True):
    anytime_value = AnytimeValue()
    depth = 1
    while depth_limit >= depth:
        vals = minimax_search_alphabeta(state, -INF, INF, heuristic_fn, depth, maximize)
        depth += 1
        anytime_value.set_value(vals)
    return anytime_value
