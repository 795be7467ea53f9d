# A flat-list tic-tac-toe whose win test forgets the anti-diagonal: init must refuse it.
LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8)]


def check_win(board, player):
    return any(all(board[i] == player for i in line) for line in LINES)


def is_full(board):
    return " " not in board


def minimax(board, is_max):
    if check_win(board, "O"):
        return 1
    if check_win(board, "X"):
        return -1
    if is_full(board):
        return 0
    values = []
    for i in range(9):
        if board[i] == " ":
            board[i] = "O" if is_max else "X"
            values.append(minimax(board, not is_max))
            board[i] = " "
    return max(values) if is_max else min(values)
