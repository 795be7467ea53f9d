# %% [markdown]
# # Games lab: searching any game through its state
#
# `game_api` (given) holds `ConnectFourBoard`, `AbstractGameState` and `AnytimeValue`;
# `toytree` (given) holds small game trees to try the searches by hand. The first player
# maximizes. Every search returns `(path, score, evaluations)`: the states from the one
# searched to the end of the line of play chosen, its value, and the static evaluations
# made (a finished game's endgame score counts as one, as a heuristic's value does). Of
# equally good moves, keep the earliest.

# %%
from game_api import *
from toytree import *

# %% [markdown]
# ## Part 1: the rules of Connect Four


# %%
def is_game_over_connectfour(board):
    """True when a player has four in a line, or the board is full."""
    return any(len(chain) >= 4 for chain in board.get_all_chains()) or board.is_full()


def next_boards_connectfour(board):
    """The boards one move away, column 0 first; none once the game is over."""
    if is_game_over_connectfour(board):
        return []
    return [board.add_piece(col) for col in range(board.num_cols) if not board.is_column_full(col)]


def endgame_score_connectfour(board, is_current_player_maximizer):
    """A finished game's value for the maximizer: 1000 when it won, -1000 when it lost, 0 for a tie.
    The player who just moved is the one who won."""
    if any(len(chain) >= 4 for chain in board.get_all_chains()):
        return -1000 if is_current_player_maximizer else 1000
    return 0


def heuristic_connectfour(board, is_current_player_maximizer):
    """An unfinished game's value for the maximizer: the squares of the current player's chains
    less the other player's."""
    mine = sum(len(chain) ** 2 for chain in board.get_all_chains(board.get_current_player_name()))
    theirs = sum(len(chain) ** 2 for chain in board.get_all_chains(board.get_other_player_name()))
    score = mine - theirs
    return score if is_current_player_maximizer else -score


# %% [markdown]
# ## Part 2: searching a state


# %%
def dfs_maximizing(state):
    """The best finished game below `state` for the maximizer, who chooses every move."""
    if state.is_game_over():
        return [state], state.get_endgame_score(True), 1
    best_path, best_score, evaluations = None, None, 0
    for child in state.generate_next_states():
        path, score, count = dfs_maximizing(child)
        evaluations += count
        if best_score is None or score > best_score:
            best_path, best_score = [state] + path, score
    return best_path, best_score, evaluations


def minimax_endgame_search(state, maximize=True):
    """Minimax to the end of the game."""
    if state.is_game_over():
        return [state], state.get_endgame_score(maximize), 1
    best_path, best_score, evaluations = None, None, 0
    for child in state.generate_next_states():
        path, score, count = minimax_endgame_search(child, not maximize)
        evaluations += count
        if best_score is None or (score > best_score if maximize else score < best_score):
            best_path, best_score = [state] + path, score
    return best_path, best_score, evaluations


def minimax_search(state, heuristic_fn=always_zero, depth_limit=INF, maximize=True):
    """Minimax to `depth_limit` moves ahead, the positions there valued by `heuristic_fn`."""
    if state.is_game_over():
        return [state], state.get_endgame_score(maximize), 1
    if depth_limit == 0:
        return [state], heuristic_fn(state.get_snapshot(), maximize), 1
    best_path, best_score, evaluations = None, None, 0
    for child in state.generate_next_states():
        path, score, count = minimax_search(child, heuristic_fn, depth_limit - 1, not maximize)
        evaluations += count
        if best_score is None or (score > best_score if maximize else score < best_score):
            best_path, best_score = [state] + path, score
    return best_path, best_score, evaluations


def minimax_search_alphabeta(state, alpha=-INF, beta=INF, heuristic_fn=always_zero, depth_limit=INF, maximize=True):
    """Minimax's value with alpha-beta's work: no more moves are tried at a node once alpha >= beta."""
    if state.is_game_over():
        return [state], state.get_endgame_score(maximize), 1
    if depth_limit == 0:
        return [state], heuristic_fn(state.get_snapshot(), maximize), 1
    best_path, best_score, evaluations = None, None, 0
    for child in state.generate_next_states():
        path, score, count = minimax_search_alphabeta(child, alpha, beta, heuristic_fn, depth_limit - 1, not maximize)
        evaluations += count
        if best_score is None or (score > best_score if maximize else score < best_score):
            best_path, best_score = [state] + path, score
        if maximize:
            alpha = max(alpha, score)
        else:
            beta = min(beta, score)
        if alpha >= beta:
            break
    return best_path, best_score, evaluations


def progressive_deepening(state, heuristic_fn=always_zero, depth_limit=INF, maximize=True):
    """Alpha-beta at depth 1, then 2, up to `depth_limit`: each depth's answer set in turn in an
    `AnytimeValue`, which is returned."""
    anytime = AnytimeValue()
    depth = 1
    while depth <= depth_limit:
        anytime.set_value(minimax_search_alphabeta(state, -INF, INF, heuristic_fn, depth, maximize))
        depth += 1
    return anytime


# %% [markdown]
# ## Try it on a small tree

# %%
example = tree("A", None, tree("B", None, tree("D", 3), tree("E", 5)), tree("C", None, tree("F", 2), tree("G", 9)))
example_state = AbstractGameState(example, tree_is_over, tree_children, tree_endgame_value)
path, score, evaluations = minimax_endgame_search(example_state)
print([step.get_snapshot().label for step in path], score, evaluations)


# %% [markdown]
# ## Part 3: questions
#
# 1. On the same state and depth limit, which can make fewer static evaluations:
#    (A) `minimax_search`, (B) `minimax_search_alphabeta`, (C) neither, they always make as many?
# 2. How many static evaluations does `minimax_endgame_search` make on the tree `example` of the
#    solution's "Try it" cell, `A` over `B` (leaves 3 and 5) and `C` (leaves 2 and 9)?
#
# Set each to your answer.

# %%
ANSWER_1 = "B"
ANSWER_2 = 4
