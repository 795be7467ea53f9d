# %% [markdown]
# # Game search with NumPy
#
# The board is a 3x3 NumPy array of integers: `1` for X, `-1` for O and `0` for an empty square.
# With this encoding a line belongs to X when its sum is 3 and to O when it is -3.
#
# X moves first and maximizes: +1 if X wins, -1 if O wins, 0 for a draw. `player` is `1` or `-1`,
# the side to move. A move is a pair `(row, col)` counted from 0.

# %%
import numpy as np


def winner(b):
    """1 if X has three in a row, -1 if O has, 0 otherwise."""
    sums = list(b.sum(axis=0)) + list(b.sum(axis=1))
    sums.append(np.trace(b))
    sums.append(np.trace(np.fliplr(b)))
    if 3 in sums:
        return 1
    if -3 in sums:
        return -1
    return 0


def is_draw(b):
    return winner(b) == 0 and not (b == 0).any()


def valid_moves(b):
    return [tuple(rc) for rc in np.argwhere(b == 0)]

# %%
def minimax(b, player):
    w = winner(b)
    if w != 0:
        return w
    moves = valid_moves(b)
    if not moves:
        return 0
    values = []
    for r, c in moves:
        child = b.copy()
        child[r, c] = player
        values.append(minimax(child, -player))
    return max(values) if player == 1 else min(values)


def alphabeta(b, player, alpha, beta):
    w = winner(b)
    if w != 0:
        return w
    moves = valid_moves(b)
    if not moves:
        return 0
    if player == 1:
        value = -np.inf
        for r, c in moves:
            child = b.copy()
            child[r, c] = player
            value = max(value, alphabeta(child, -player, alpha, beta))
            alpha = max(alpha, value)
            if alpha >= beta:
                break
    else:
        value = np.inf
        for r, c in moves:
            child = b.copy()
            child[r, c] = player
            value = min(value, alphabeta(child, -player, alpha, beta))
            beta = min(beta, value)
            if alpha >= beta:
                break
    return value


def best_move(b, player):
    scored = []
    for r, c in valid_moves(b):
        child = b.copy()
        child[r, c] = player
        scored.append((alphabeta(child, -player, -np.inf, np.inf), (r, c)))
    if player == 1:
        return max(scored, key=lambda item: item[0])[1]
    return min(scored, key=lambda item: item[0])[1]

# %%
b = np.array([[1, 0, 0],
              [0, -1, 0],
              [0, 0, 1]])
print(b)
print('value:', alphabeta(b, -1, -np.inf, np.inf), ' O should play', best_move(b, -1))
