"""
Tic Tac Toe Player
"""

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


def count(board, mark):
    total = 0
    for i in range(3):
        for j in range(3):
            if board[i][j] == mark:
                total = total + 1
    return total


def player(board):
    """
    Returns player who has the next turn on a board.
    """
    if count(board, X) == count(board, O):
        return X
    else:
        return O


def actions(board):
    """
    Returns set of all possible actions (i, j) available on the board.
    """
    if terminal(board):
        return None
    moves = set()
    for i in range(3):
        for j in range(3):
            if board[i][j] == EMPTY:
                moves.add((i, j))
    return moves


def result(board, action):
    """
    Returns the board that results from making move (i, j) on the board.
    """
    possible = actions(board)
    if possible is None or action not in possible:
        raise Exception("invalid action " + str(action))
    new_board = copy.deepcopy(board)
    new_board[action[0]][action[1]] = player(board)
    return new_board


def all_lines(board):
    lines = []
    for i in range(3):
        lines.append([board[i][0], board[i][1], board[i][2]])
    for j in range(3):
        lines.append([board[0][j], board[1][j], board[2][j]])
    lines.append([board[0][0], board[1][1], board[2][2]])
    lines.append([board[0][2], board[1][1], board[2][0]])
    return lines


def winner(board):
    """
    Returns the winner of the game, if there is one.
    """
    for line in all_lines(board):
        if line.count(X) == 3:
            return X
        if line.count(O) == 3:
            return O
    return None


def terminal(board):
    """
    Returns True if game is over, False otherwise.
    """
    if winner(board) != None:
        return True
    if count(board, EMPTY) == 0:
        return True
    return False


def utility(board):
    """
    Returns 1 if X has won the game, -1 if O has won, 0 otherwise.
    """
    if terminal(board):
        if winner(board) == X:
            return 1
        if winner(board) == O:
            return -1
    return 0


def value(board):
    # copy first so that nothing below can touch the caller's board
    board = copy.deepcopy(board)
    if terminal(board):
        return utility(board)
    scores = []
    for i in range(len(actions(board))):
        action = list(actions(board))[i]
        if player(board) == X:
            scores.append(value(result(board, action)))
        else:
            scores.append(value(result(board, action)))
    if player(board) == X:
        return max(scores)
    else:
        return min(scores)


def minimax(board):
    """
    Returns the optimal action for the current player on the board.
    """
    if terminal(board):
        return None
    best = None
    best_score = None
    for action in actions(board):
        score = value(result(board, action))
        if best is None:
            best = action
            best_score = score
        elif player(board) == X and score > best_score:
            best = action
            best_score = score
        elif player(board) == O and score < best_score:
            best = action
            best_score = score
    return best
