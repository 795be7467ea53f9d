"""Seed 004's functions (lab05), correct; tests derive buggy variants by replacing lines."""

LAB05_SOLUTION = """
import math, random

def check_win(board, player):
    win_combinations = [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]]
    for combo in win_combinations:
        if board[combo[0]] == board[combo[1]] == board[combo[2]] == player:
            return True
    return False

def check_draw(board):
    return " " not in board and not check_win(board, "X") and not check_win(board, "O")

def minimaxAB(board, depth, maximizing_player, alpha, beta):
    if check_win(board, "O"):
        return 1
    if check_win(board, "X"):
        return -1
    if check_draw(board):
        return 0
    if maximizing_player:
        max_eval = -float("inf")
        for i in range(9):
            if board[i] == " ":
                board[i] = "O"
                eval = minimaxAB(board, depth + 1, False, alpha, beta)
                board[i] = " "
                max_eval = max(max_eval, eval)
                alpha = max(alpha, eval)
                if beta <= alpha:
                    break
        return max_eval
    else:
        min_eval = float("inf")
        for i in range(9):
            if board[i] == " ":
                board[i] = "X"
                eval = minimaxAB(board, depth + 1, True, alpha, beta)
                board[i] = " "
                min_eval = min(min_eval, eval)
                beta = min(beta, eval)
                if beta <= alpha:
                    break
        return min_eval

def minimax(board, depth, maximizing_player, max_depth=math.inf):
    if check_win(board, "O"):
        return 1
    if check_win(board, "X"):
        return -1
    if check_draw(board):
        return 0
    if depth >= max_depth:
        return 0
    if maximizing_player:
        best_score = -float("inf")
        for i in range(9):
            if board[i] == " ":
                board[i] = "O"
                score = minimax(board, depth + 1, False, max_depth)
                board[i] = " "
                best_score = max(best_score, score)
        return best_score
    else:
        best_score = float("inf")
        for i in range(9):
            if board[i] == " ":
                board[i] = "X"
                score = minimax(board, depth + 1, True, max_depth)
                board[i] = " "
                best_score = min(best_score, score)
        return best_score

def best_move(board):
    best_eval = float("-inf")
    best_move = -1
    for i in range(9):
        if board[i] == " ":
            board[i] = "O"
            evaluation = minimax(board, 0, False)
            board[i] = " "
            if evaluation > best_eval:
                best_eval = evaluation
                best_move = i
    return best_move

def best_move_depth(board, max_depth):
    best_eval = -float("inf")
    move = -1
    for i in range(9):
        if board[i] == " ":
            board[i] = "O"
            eval = minimax(board, 0, False, max_depth)
            board[i] = " "
            if eval > best_eval:
                best_eval = eval
                move = i
    return move
"""


def variant(old: str, new: str, count: int = 1) -> str:
    """The solution with one plausible bug; fails loudly if the line to change moved."""
    assert LAB05_SOLUTION.count(old) >= count, old
    return LAB05_SOLUTION.replace(old, new, count)
