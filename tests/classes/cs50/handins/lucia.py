"""
Tic Tac Toe Player
"""

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
    moves = []
    for i in range(3):
        for j in range(3):
            if board[i][j] is None:
                moves.append((i, j))
    return moves


def result(board, action):
    """
    Returns the board that results from making move (i, j) on the board.
    """
    i, j = action
    if i not in range(3) or j not in range(3):
        raise IndexError("Move is off the board")
    if board[i][j] is not EMPTY:
        raise ValueError("Cell already taken")
    new_board = [row[:] for row in board]
    new_board[i][j] = player(board)
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
    return winner(board) is not None or all(cell is not EMPTY for row in board for cell in row)


def utility(board):
    """
    Returns 1 if X has won the game, -1 if O has won, 0 otherwise.
    """
    return {X: 1, O: -1}.get(winner(board), 0)


def minimax_value(board):
    """Value of the board for X under perfect play."""
    if terminal(board):
        return utility(board)
    values = [minimax_value(result(board, action)) for action in actions(board)]
    if player(board) == X:
        return max(values)
    return min(values)


def minimax(board):
    """
    Returns the optimal action for the current player on the board.
    """
    if terminal(board):
        return None
    turn = player(board)
    scored = [(minimax_value(result(board, action)), action) for action in actions(board)]
    if turn == X:
        return max(scored, key=lambda pair: pair[0])[1]
    return min(scored, key=lambda pair: pair[0])[1]
