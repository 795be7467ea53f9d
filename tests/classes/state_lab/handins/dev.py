from game_api import *
from toytree import *


def is_game_over_connectfour(board):
    return any(len(c) >= 4 for c in board.get_all_chains())


def next_boards_connectfour(board):
    return [] if is_game_over_connectfour(board) else [
        board.add_piece(c) for c in range(board.num_cols) if not board.is_column_full(c)
    ]


def endgame_score_connectfour(board, is_current_player_maximizer):
    if not any(len(c) >= 4 for c in board.get_all_chains()):
        return 0
    return -1000 if is_current_player_maximizer else 1000


def heuristic_connectfour(board, is_current_player_maximizer):
    def square_sum(player):
        return sum(len(c) ** 2 for c in board.get_all_chains(player))

    score = square_sum(board.get_current_player_name()) - square_sum(board.get_other_player_name())
    return score if is_current_player_maximizer else -score


class Counter:
    def __init__(self):
        self.n = 0


def _best(state, maximize, depth, heuristic_fn, counter, bounds=None):
    if state.is_game_over():
        counter.n += 1
        return [state], state.get_endgame_score(maximize)
    if depth == 0:
        counter.n += 1
        return [state], heuristic_fn(state.get_snapshot(), maximize)
    best_path, best_score = None, None
    for child in state.generate_next_states():
        path, score = _best(child, not maximize, depth - 1, heuristic_fn, counter, bounds and list(bounds))
        if best_score is None or (score > best_score if maximize else score < best_score):
            best_path, best_score = path, score
        if bounds:
            if maximize:
                bounds[0] = max(bounds[0], score)
            else:
                bounds[1] = min(bounds[1], score)
            if bounds[0] >= bounds[1]:
                break
    return [state] + best_path, best_score


def dfs_maximizing(state):
    counter = Counter()

    def walk(node):
        if node.is_game_over():
            counter.n += 1
            return [node], node.get_endgame_score(True)
        options = [walk(child) for child in node.generate_next_states()]
        best = options[0]
        for option in options:
            if option[1] > best[1]:
                best = option
        return [node] + best[0], best[1]

    path, score = walk(state)
    return path, score, counter.n


def minimax_endgame_search(state, maximize=True):
    counter = Counter()
    path, score = _best(state, maximize, INF, always_zero, counter)
    return path, score, counter.n


def minimax_search(state, heuristic_fn=always_zero, depth_limit=INF, maximize=True):
    counter = Counter()
    path, score = _best(state, maximize, depth_limit, heuristic_fn, counter)
    return path, score, counter.n


def minimax_search_alphabeta(state, alpha=-INF, beta=INF, heuristic_fn=always_zero, depth_limit=INF, maximize=True):
    counter = Counter()
    path, score = _best(state, maximize, depth_limit, heuristic_fn, counter, [alpha, beta])
    return path, score, counter.n


def progressive_deepening(state, heuristic_fn=always_zero, depth_limit=INF, maximize=True):
    anytime_value = AnytimeValue()
    for depth in range(1, depth_limit + 1):
        anytime_value.set_value(minimax_search_alphabeta(state, -INF, INF, heuristic_fn, depth, maximize))
    return anytime_value
