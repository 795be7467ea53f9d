# Tic-tac-toe with a minimax player.
#
# The board is a list of three rows of three strings. A free cell holds its own number, "1" to "9",
# counted row by row from the top left; a taken cell holds "X" or "O". X is the maximizing side.
# The functions above minimax are given; write minimax at the bottom.

from copy import deepcopy


def print_board(board):
    # Show the board on the terminal.
    for row in board:
        print(" | ".join(row))
    print()


def select_space(board, move, turn):
    # Put the mark `turn` on the cell numbered `move`, changing the board itself.
    # Return True if the move was made, False if the number is not 1 to 9 or the cell is taken.
    if move not in range(1, 10):
        return False
    row, col = (move - 1) // 3, (move - 1) % 3
    if board[row][col] in ("X", "O"):
        return False
    board[row][col] = turn
    return True


def available_moves(board):
    # The numbers of the free cells, as ints.
    return [int(cell) for row in board for cell in row if cell not in ("X", "O")]


def has_won(board, player):
    # True if `player` holds a whole row, column or diagonal.
    lines = [list(row) for row in board]
    lines += [[board[r][c] for r in range(3)] for c in range(3)]
    lines += [[board[i][i] for i in range(3)], [board[i][2 - i] for i in range(3)]]
    return any(line == [player] * 3 for line in lines)


def game_is_over(board):
    # True once someone has won or no cell is free.
    return has_won(board, "X") or has_won(board, "O") or not available_moves(board)


def evaluate_board(board):
    # 1 if X has won, -1 if O has won, 0 otherwise.
    if has_won(board, "X"):
        return 1
    if has_won(board, "O"):
        return -1
    return 0


def minimax(input_board, is_maximizing):
    # Return [best_value, best_move]: the value of the board under perfect play by both sides (1, 0 or -1)
    # and a move (a cell number) that keeps that value for X if is_maximizing, for O otherwise.
    # Leave input_board as it is: try each move on a deep copy.
    # When the game is over there is no move to make: return [evaluate_board(input_board), ""].
    if game_is_over(input_board):
        return [evaluate_board(input_board), ""]
    raise NotImplementedError
