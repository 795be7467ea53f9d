"""Connect Four on a 6 x 7 numpy board of 0/1/2, the bottom row first: the rules, and no search."""

import numpy as np

ROWS, COLS = 6, 7


def create_board():
    return np.zeros((ROWS, COLS), dtype=int)


def drop_piece(board, col, piece):
    new = board.copy()
    for row in range(ROWS):
        if new[row][col] == 0:
            new[row][col] = piece
            return new
    raise ValueError("column full")


def valid_columns(board):
    return [col for col in range(COLS) if board[ROWS - 1][col] == 0]


def winning_piece(board):
    for piece in (1, 2):
        for row in range(ROWS):
            for col in range(COLS):
                for d_row, d_col in ((0, 1), (1, 0), (1, 1), (1, -1)):
                    cells = [(row + i * d_row, col + i * d_col) for i in range(4)]
                    if all(0 <= r < ROWS and 0 <= c < COLS and board[r][c] == piece for r, c in cells):
                        return piece
    return 0
