"""
Tic Tac Toe Player
"""

import math
import copy

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
    if terminal(board):
        raise ValueError("The game is over: nobody moves")
    x_count = sum(row.count(X) for row in board)
    o_count = sum(row.count(O) for row in board)
    return X if x_count == o_count else O


def actions(board):
    """
    Returns set of all possible actions (i, j) available on the board.
    """
    if terminal(board):
        raise ValueError("The game is over: no moves left")
    return {(i, j) for i in range(3) for j in range(3) if board[i][j] is EMPTY}


def result(board, action):
    """
    Returns the board that results from making move (i, j) on the board.
    """
    row, col = action
    if not (0 <= row < 3 and 0 <= col < 3) or board[row][col] != EMPTY:
        raise Exception("Invalid move")
    new = copy.deepcopy(board)
    new[row][col] = player(board)
    return new


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
    return winner(board) is not None or all(cell is not EMPTY for row in board for cell in row)


def utility(board):
    """
    Returns 1 if X has won the game, -1 if O has won, 0 otherwise.
    """
    win = winner(board)
    if win == X:
        return 1
    elif win == O:
        return -1
    else:
        return 0


def minimax(board):
    """
    Returns the optimal action for the current player on the board.
    """
    if terminal(board):
        return None
    if player(board) == X:
        return max_value(board, -math.inf, math.inf)[1]
    return min_value(board, -math.inf, math.inf)[1]


def max_value(board, alpha, beta):
    if terminal(board):
        return utility(board), None
    v, move = -math.inf, None
    for action in actions(board):
        score, _ = min_value(result(board, action), alpha, beta)
        if score > v:
            v, move = score, action
        alpha = max(alpha, v)
        if alpha >= beta:
            break
    return v, move


def min_value(board, alpha, beta):
    if terminal(board):
        return utility(board), None
    v, move = math.inf, None
    for action in actions(board):
        score, _ = max_value(result(board, action), alpha, beta)
        if score < v:
            v, move = score, action
        beta = min(beta, v)
        if alpha >= beta:
            break
    return v, move
