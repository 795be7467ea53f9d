"""
Tic Tac Toe Player
"""

import copy
from functools import lru_cache

X = "X"
O = "O"
EMPTY = None


def initial_state():
    """
    Returns starting state of the board.
    """
    return [[EMPTY, EMPTY, EMPTY],
            [EMPTY, EMPTY, EMPTY],
            [EMPTY, EMPTY, EMPTY]]


def player(board):
    """
    Returns player who has the next turn on a board.
    """
    moves = sum(row.count(X) + row.count(O) for row in board)
    return X if moves % 2 == 0 else O


def actions(board):
    """
    Returns set of all possible actions (i, j) available on the board.
    """
    return {(i, j) for i in range(3) for j in range(3) if board[i][j] == EMPTY}


def result(board, action):
    """
    Returns the board that results from making move (i, j) on the board.
    """
    if action not in actions(board):
        raise Exception("Invalid action")
    new_board = copy.deepcopy(board)
    new_board[action[0]][action[1]] = player(board)
    return new_board


def winner(board):
    """
    Returns the winner of the game, if there is one.
    """
    lines = []
    lines.extend(board)
    lines.extend([[board[r][c] for r in range(3)] for c in range(3)])
    lines.append([board[k][k] for k in range(3)])
    lines.append([board[k][2 - k] for k in range(3)])
    for line in lines:
        if line.count(X) == 3:
            return X
        if line.count(O) == 3:
            return O
    return None


def terminal(board):
    """
    Returns True if game is over, False otherwise.
    """
    if winner(board) is not None:
        return True
    for row in board:
        if EMPTY in row:
            return False
    return True


def utility(board):
    """
    Returns 1 if X has won the game, -1 if O has won, 0 otherwise.
    """
    return {X: 1, O: -1}.get(winner(board), 0)


@lru_cache(maxsize=None)
def solve(frozen):
    """Value of a board given as a tuple of tuples, for X."""
    board = [list(row) for row in frozen]
    if terminal(board):
        return utility(board)
    values = [solve(freeze(result(board, action))) for action in actions(board)]
    return max(values) if player(board) == X else min(values)


def freeze(board):
    return tuple(tuple(row) for row in board)


def minimax(board):
    """
    Returns the optimal action for the current player on the board.
    """
    if terminal(board):
        return None
    options = [(solve(freeze(result(board, action))), action) for action in actions(board)]
    if player(board) == X:
        return max(options, key=lambda option: option[0])[1]
    return min(options, key=lambda option: option[0])[1]
