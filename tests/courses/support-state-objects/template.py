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
    raise NotImplementedError


def next_boards_connectfour(board):
    """The boards one move away, column 0 first; none once the game is over."""
    raise NotImplementedError


def endgame_score_connectfour(board, is_current_player_maximizer):
    """A finished game's value for the maximizer: 1000 when it won, -1000 when it lost, 0 for a tie.
    The player who just moved is the one who won."""
    raise NotImplementedError


def heuristic_connectfour(board, is_current_player_maximizer):
    """An unfinished game's value for the maximizer: the squares of the current player's chains
    less the other player's."""
    raise NotImplementedError


# %% [markdown]
# ## Part 2: searching a state


# %%
def dfs_maximizing(state):
    """The best finished game below `state` for the maximizer, who chooses every move."""
    raise NotImplementedError


def minimax_endgame_search(state, maximize=True):
    """Minimax to the end of the game."""
    raise NotImplementedError


def minimax_search(state, heuristic_fn=always_zero, depth_limit=INF, maximize=True):
    """Minimax to `depth_limit` moves ahead, the positions there valued by `heuristic_fn`."""
    raise NotImplementedError


def minimax_search_alphabeta(state, alpha=-INF, beta=INF, heuristic_fn=always_zero, depth_limit=INF, maximize=True):
    """Minimax's value with alpha-beta's work: no more moves are tried at a node once alpha >= beta."""
    raise NotImplementedError


def progressive_deepening(state, heuristic_fn=always_zero, depth_limit=INF, maximize=True):
    """Alpha-beta at depth 1, then 2, up to `depth_limit`: each depth's answer set in turn in an
    `AnytimeValue`, which is returned."""
    raise NotImplementedError


# %% [markdown]
# ## Try it on a small tree
#
# Build a tree with `toytree.tree`, wrap it in an `AbstractGameState` and print what your
# searches find.


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
ANSWER_1 = None
ANSWER_2 = None
