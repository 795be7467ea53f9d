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
    cells = [cell for row in board for cell in row]
    if cells.count(X) == cells.count(O):
        return X
    return O


def actions(board):
    """
    Returns set of all possible actions (i, j) available on the board.
    """
    possible = set()
    for i, row in enumerate(board):
        for j, cell in enumerate(row):
            if cell is EMPTY:
                possible.add((i, j))
    return possible


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
    for i in range(3):
        if board[i][0] == board[i][1] == board[i][2] and board[i][0] is not None:
            return board[i][0]
        if board[0][i] == board[1][i] == board[2][i] and board[0][i] is not None:
            return board[0][i]
    if board[0][0] == board[1][1] == board[2][2] and board[1][1] is not None:
        return board[1][1]
    if board[0][2] == board[1][1] == board[2][0] and board[1][1] is not None:
        return board[1][1]
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

    def search(state, alpha, beta):
        if terminal(state):
            return utility(state)
        if player(state) == X:
            best = -2
            for action in actions(state):
                best = max(best, search(result(state, action), alpha, beta))
                alpha = max(alpha, best)
                if beta <= alpha:
                    break
            return best
        best = 2
        for action in actions(state):
            best = min(best, search(result(state, action), alpha, beta))
            beta = min(beta, best)
            if beta <= alpha:
                break
        return best

    turn = player(board)
    chosen = None
    chosen_value = None
    for action in actions(board):
        value = search(result(board, action), -2, 2)
        if chosen_value is None or (turn == X and value > chosen_value) or (turn == O and value < chosen_value):
            chosen, chosen_value = action, value
    return chosen
