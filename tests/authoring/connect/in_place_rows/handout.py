"""Lab: Connect Four against the computer. Fill in the functions marked TODO.

Connect Four, the way many course labs write it: a list of 6 rows of 7 cells changed in place,
row 0 at the bottom (printed flipped), 0 for an empty cell, 1 for the player (who moves first)
and 2 for the computer. The search always plays for the computer and takes a window and a flag
saying whether the computer is to move."""

import copy
import math

ROW_COUNT = 6
COLUMN_COUNT = 7
EMPTY = 0
PLAYER_PIECE = 1
COMPUTER_PIECE = 2
WINDOW_LENGTH = 4
WIN_SCORE = 1000000


def create_board():
    return [[EMPTY] * COLUMN_COUNT for _ in range(ROW_COUNT)]


def drop_piece(board, row, col, piece):
    # TODO: put piece into board[row][col]
    pass


def is_valid_location(board, col):
    # TODO: True if the top cell of col is empty
    pass


def get_next_open_row(board, col):
    # TODO: the lowest empty row of col (row 0 is the bottom)
    pass


def print_board(board):
    for row in reversed(board):
        print(" ".join(str(cell) for cell in row))


def winning_move(board, piece):
    # TODO: check horizontal, vertical and both diagonal lines for four of piece
    pass


def evaluate_window(window, piece):
    # TODO: score one window of four for piece
    return 0


def score_position(board, piece):
    # TODO: score the centre column and every window of four for piece
    return 0


def get_valid_locations(board):
    # TODO: the columns a piece can still be dropped into
    return []


def is_terminal_node(board):
    # TODO: a win for either side, or no valid location left
    pass


def minimax(board, depth, alpha, beta, maximizingPlayer):
    # TODO: return (column, value); the computer maximizes
    pass


board = create_board()
drop_piece(board, get_next_open_row(board, 3), 3, PLAYER_PIECE)
print_board(board)
print(minimax(board, 4, -math.inf, math.inf, True))
