# %% [markdown]
# # Project 0: Tic-Tac-Toe
#
# A board is a list of three rows; each cell holds `X`, `O` or `EMPTY` (which is `None`).
# X always moves first. Complete each function below; an action is a pair `(i, j)`: the row `i`
# and the column `j`, both counted from 0.
#
# `utility(board)` is 1 if X has won, -1 if O has won and 0 otherwise, so X is the maximizing player.

# %%
import math

X = "X"
O = "O"
EMPTY = None


def initial_state():
    """Returns the starting state of the board."""
    return [[EMPTY, EMPTY, EMPTY],
            [EMPTY, EMPTY, EMPTY],
            [EMPTY, EMPTY, EMPTY]]

# %%
def player(board):
    """Returns the player who has the next turn on a board."""
    x_count = sum(row.count(X) for row in board)
    o_count = sum(row.count(O) for row in board)
    return X if x_count <= o_count else O


def actions(board):
    """Returns the set of all possible actions (i, j) available on the board."""
    return {(i, j) for i in range(3) for j in range(3) if board[i][j] is EMPTY}


def result(board, action):
    """Returns the board that results from making move (i, j) on the board."""
    i, j = action
    if board[i][j] is not EMPTY:
        raise ValueError(f"cell {action} is not empty")
    new_board = [row[:] for row in board]
    new_board[i][j] = player(board)
    return new_board

# %%
def winner(board):
    """Returns the winner of the game, if there is one."""
    lines = [row for row in board]
    lines += [[board[0][j], board[1][j], board[2][j]] for j in range(3)]
    lines.append([board[0][0], board[1][1], board[2][2]])
    lines.append([board[0][2], board[1][1], board[2][0]])
    for line in lines:
        if line[0] is not EMPTY and line[0] == line[1] == line[2]:
            return line[0]
    return None


def terminal(board):
    """Returns True if game is over, False otherwise."""
    if winner(board) is not None:
        return True
    return all(cell is not EMPTY for row in board for cell in row)


def utility(board):
    """Returns 1 if X has won the game, -1 if O has won, 0 otherwise."""
    w = winner(board)
    if w == X:
        return 1
    if w == O:
        return -1
    return 0

# %%
def max_value(board):
    if terminal(board):
        return utility(board)
    v = -math.inf
    for action in actions(board):
        v = max(v, min_value(result(board, action)))
    return v


def min_value(board):
    if terminal(board):
        return utility(board)
    v = math.inf
    for action in actions(board):
        v = min(v, max_value(result(board, action)))
    return v


def minimax(board):
    """Returns the optimal action for the current player on the board."""
    if terminal(board):
        return None
    if player(board) == X:
        best_action, best = None, -math.inf
        for action in sorted(actions(board)):
            v = min_value(result(board, action))
            if v > best:
                best_action, best = action, v
    else:
        best_action, best = None, math.inf
        for action in sorted(actions(board)):
            v = max_value(result(board, action))
            if v < best:
                best_action, best = action, v
    return best_action

# %%
board = initial_state()
board = result(board, (1, 1))
board = result(board, (0, 0))
board = result(board, (2, 2))
print(player(board), "to move; the best action is", minimax(board))
