# %% [markdown]
# # Homework 4: alpha-beta search
#
# The board is a **tuple** of 9 numbers, row by row: `0` for an empty square, `1` for player 1
# (who moves first) and `2` for player 2, the computer. Squares are numbered 1 to 9:
#
#     1 | 2 | 3
#     4 | 5 | 6
#     7 | 8 | 9
#
# The computer maximizes. A win for player 2 found `depth` moves ahead scores `10 - depth`, a
# win for player 1 `depth - 10`, a draw 0. Alpha-beta is built into `minimax` itself:
# `minimax(board, depth, is_max, alpha, beta)`; the global `node_count` counts its calls.

# %%
import math

EMPTY, P1, P2 = 0, 1, 2

LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8),
         (0, 3, 6), (1, 4, 7), (2, 5, 8),
         (0, 4, 8), (2, 4, 6))


def winner(board):
    """1 or 2 for the player with three in a row, 0 if there is none."""
    for a, b, c in LINES:
        if board[a] != EMPTY and board[a] == board[b] == board[c]:
            return board[a]
    return 0


def full(board):
    return EMPTY not in board


def legal_moves(board):
    return [square for square in range(1, 10) if board[square - 1] == EMPTY]


def place(board, square, who):
    i = square - 1
    return board[:i] + (who,) + board[i + 1:]

# %%
node_count = 0


def minimax(board, depth, is_max, alpha, beta):
    global node_count
    node_count += 1
    w = winner(board)
    if w == P2:
        return 10 - depth
    if w == P1:
        return depth - 10
    if full(board):
        return 0

    if is_max:
        best = -math.inf
        for square in legal_moves(board):
            best = max(best, minimax(place(board, square, P2), depth + 1, False, alpha, beta))
            alpha = max(alpha, best)
            if alpha >= beta:
                break
        return best
    else:
        best = math.inf
        for square in legal_moves(board):
            best = min(best, minimax(place(board, square, P1), depth + 1, True, alpha, beta))
            beta = min(beta, best)
            if alpha >= beta:
                break
        return best


def best_square(board, who):
    """The square 1-9 where `who` (1 or 2) should play."""
    choice = None
    best = -math.inf if who == P2 else math.inf
    for square in legal_moves(board):
        score = minimax(place(board, square, who), 1, who == P1, -math.inf, math.inf)
        if (who == P2 and score > best) or (who == P1 and score < best):
            best, choice = score, square
    return choice

# %%
start = (0,) * 9
node_count = 0
print('value of the empty board:', minimax(start, 0, False, -math.inf, math.inf), 'nodes:', node_count)
print('player 2 answers square 1 with', best_square(place(start, 1, P1), P2))
