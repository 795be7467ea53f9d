import math
from copy import deepcopy


def print_board(board):
    print("|-------------|")
    print("| Tic Tac Toe |")
    print("|-------------|")
    for row in board:
        print("|    " + " ".join(row) + "    |")
    print("|-------------|")
    print()


def select_space(board, move, turn):
    # moves are numbered 1 to 9, row by row
    if not 1 <= move <= 9:
        return False
    row, col = divmod(move - 1, 3)
    if board[row][col] in ("X", "O"):
        return False
    board[row][col] = turn
    return True


def available_moves(board):
    moves = []
    for row in board:
        for col in row:
            if col != "X" and col != "O":
                moves.append(int(col))
    return moves


def has_won(board, player):
    for row in board:
        if row.count(player) == 3:
            return True
    for i in range(3):
        if board[0][i] == player and board[1][i] == player and board[2][i] == player:
            return True
    if board[0][0] == player and board[1][1] == player and board[2][2] == player:
        return True
    if board[0][2] == player and board[1][1] == player and board[2][0] == player:
        return True
    return False


def game_is_over(board):
    return has_won(board, "X") or has_won(board, "O") or len(available_moves(board)) == 0


def evaluate_board(board):
    if has_won(board, "X"):
        return 1
    elif has_won(board, "O"):
        return -1
    else:
        return 0


seen = {}


def minimax(input_board, is_maximizing):
    key = (str(input_board), is_maximizing)
    if key in seen:
        return list(seen[key])
    if game_is_over(input_board):
        return [evaluate_board(input_board), ""]
    best = [-math.inf if is_maximizing else math.inf, ""]
    for move in available_moves(input_board):
        new_board = deepcopy(input_board)
        select_space(new_board, move, "X" if is_maximizing else "O")
        value = minimax(new_board, not is_maximizing)[0]
        if (is_maximizing and value > best[0]) or (not is_maximizing and value < best[0]):
            best = [value, move]
    seen[key] = tuple(best)
    return best
