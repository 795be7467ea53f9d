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
    return {(i, j) for i in range(3) for j in range(3) if board[i][j] == EMPTY}


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
    triples = [[(i, 0), (i, 1), (i, 2)] for i in range(3)]
    triples += [[(0, j), (1, j), (2, j)] for j in range(3)]
    triples += [[(0, 0), (1, 1), (2, 2)], [(0, 2), (1, 1), (2, 0)]]
    for triple in triples:
        marks = {board[i][j] for i, j in triple}
        if len(marks) == 1 and EMPTY not in marks:
            return marks.pop()
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
