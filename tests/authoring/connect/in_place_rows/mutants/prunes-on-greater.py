"""Connect Four, the way many course labs write it: a list of 6 rows of 7 cells changed in place,
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
    board[row][col] = piece


def is_valid_location(board, col):
    return board[ROW_COUNT - 1][col] == EMPTY


def get_next_open_row(board, col):
    for r in range(ROW_COUNT):
        if board[r][col] == EMPTY:
            return r
    return None


def print_board(board):
    for row in reversed(board):
        print(" ".join(str(cell) for cell in row))


def winning_move(board, piece):
    # horizontal
    for r in range(ROW_COUNT):
        for c in range(COLUMN_COUNT - 3):
            if all(board[r][c + i] == piece for i in range(4)):
                return True
    # vertical
    for r in range(ROW_COUNT - 3):
        for c in range(COLUMN_COUNT):
            if all(board[r + i][c] == piece for i in range(4)):
                return True
    # positively sloped diagonals
    for r in range(ROW_COUNT - 3):
        for c in range(COLUMN_COUNT - 3):
            if all(board[r + i][c + i] == piece for i in range(4)):
                return True
    # negatively sloped diagonals
    for r in range(3, ROW_COUNT):
        for c in range(COLUMN_COUNT - 3):
            if all(board[r - i][c + i] == piece for i in range(4)):
                return True
    return False


def evaluate_window(window, piece):
    opp_piece = PLAYER_PIECE if piece == COMPUTER_PIECE else COMPUTER_PIECE
    score = 0
    if window.count(piece) == 4:
        score += 100
    elif window.count(piece) == 3 and window.count(EMPTY) == 1:
        score += 5
    elif window.count(piece) == 2 and window.count(EMPTY) == 2:
        score += 2
    if window.count(opp_piece) == 3 and window.count(EMPTY) == 1:
        score -= 4
    return score


def score_position(board, piece):
    score = 0
    centre = [board[r][COLUMN_COUNT // 2] for r in range(ROW_COUNT)]
    score += centre.count(piece) * 3
    for r in range(ROW_COUNT):
        row = board[r]
        for c in range(COLUMN_COUNT - 3):
            score += evaluate_window(row[c : c + WINDOW_LENGTH], piece)
    for c in range(COLUMN_COUNT):
        col = [board[r][c] for r in range(ROW_COUNT)]
        for r in range(ROW_COUNT - 3):
            score += evaluate_window(col[r : r + WINDOW_LENGTH], piece)
    for r in range(ROW_COUNT - 3):
        for c in range(COLUMN_COUNT - 3):
            score += evaluate_window([board[r + i][c + i] for i in range(WINDOW_LENGTH)], piece)
            score += evaluate_window([board[r + 3 - i][c + i] for i in range(WINDOW_LENGTH)], piece)
    return score


def get_valid_locations(board):
    return [col for col in range(COLUMN_COUNT) if is_valid_location(board, col)]


def is_terminal_node(board):
    return (
        winning_move(board, PLAYER_PIECE) or winning_move(board, COMPUTER_PIECE) or len(get_valid_locations(board)) == 0
    )


def minimax(board, depth, alpha, beta, maximizingPlayer):
    valid_locations = get_valid_locations(board)
    if is_terminal_node(board):
        if winning_move(board, COMPUTER_PIECE):
            return None, WIN_SCORE
        if winning_move(board, PLAYER_PIECE):
            return None, -WIN_SCORE
        return None, 0
    if depth == 0:
        return None, score_position(board, COMPUTER_PIECE)
    if maximizingPlayer:
        value = -math.inf
        column = valid_locations[0]
        for col in valid_locations:
            row = get_next_open_row(board, col)
            b_copy = copy.deepcopy(board)
            drop_piece(b_copy, row, col, COMPUTER_PIECE)
            new_score = minimax(b_copy, depth - 1, alpha, beta, False)[1]
            if new_score > value:
                value = new_score
                column = col
            alpha = max(alpha, value)
            if alpha > beta:
                break
        return column, value
    value = math.inf
    column = valid_locations[0]
    for col in valid_locations:
        row = get_next_open_row(board, col)
        b_copy = copy.deepcopy(board)
        drop_piece(b_copy, row, col, PLAYER_PIECE)
        new_score = minimax(b_copy, depth - 1, alpha, beta, True)[1]
        if new_score < value:
            value = new_score
            column = col
        beta = min(beta, value)
        if alpha > beta:
            break
    return column, value


board = create_board()
drop_piece(board, get_next_open_row(board, 3), 3, PLAYER_PIECE)
print_board(board)
print(minimax(board, 4, -math.inf, math.inf, True))
