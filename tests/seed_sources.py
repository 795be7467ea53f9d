"""The seed notebooks' search functions as source text: every test and bench that runs them
as a student would reads them from here, and derives a mistake by editing the text."""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

from reference.tictactoe import Board, O

__all__ = [
    "LAB05_RECORDS_VISITS",
    "LAB05_SOLUTION",
    "SEED_003_ALPHABETA",
    "NotebookSearch",
    "edited",
    "lab05_notebook_search",
    "variant",
]

SEED_003_ALPHABETA = """
def is_end():
    for i in range(0, 3):
        if (current_state[0][i] in ['X', 'O'] and current_state[0][i] == current_state[1][i]
                and current_state[1][i] == current_state[2][i]):
            return current_state[0][i]
    for i in range(0, 3):
        if current_state[i] == ['X', 'X', 'X']:
            return 'X'
        elif current_state[i] == ['O', 'O', 'O']:
            return 'O'
    if (current_state[0][0] in ['X', 'O'] and current_state[0][0] == current_state[1][1]
            and current_state[0][0] == current_state[2][2]):
        return current_state[0][0]
    if (current_state[0][2] in ['X', 'O'] and current_state[0][2] == current_state[1][1]
            and current_state[0][2] == current_state[2][0]):
        return current_state[0][2]
    for i in range(0, 3):
        for j in range(0, 3):
            if current_state[i][j] not in ['X', 'O']:
                return None
    return 'tie'

def max_alpha_beta(alpha, beta):
    maxv = -2
    px = None
    py = None
    result = is_end()
    if result == 'X':
        return (-1, 0, 0)
    elif result == 'O':
        return (1, 0, 0)
    elif result == 'tie':
        return (0, 0, 0)
    for i in range(0, 3):
        for j in range(0, 3):
            if current_state[i][j] not in ['X', 'O']:
                temp = current_state[i][j]
                current_state[i][j] = 'O'
                (m, min_i, min_j) = min_alpha_beta(alpha, beta)
                if m > maxv:
                    maxv = m
                    px = i
                    py = j
                current_state[i][j] = temp
                if maxv >= beta:
                    return (maxv, px, py)
                if maxv > alpha:
                    alpha = maxv
    return (maxv, px, py)

def min_alpha_beta(alpha, beta):
    minv = 2
    qx = None
    qy = None
    result = is_end()
    if result == 'X':
        return (-1, 0, 0)
    elif result == 'O':
        return (1, 0, 0)
    elif result == 'tie':
        return (0, 0, 0)
    for i in range(0, 3):
        for j in range(0, 3):
            if current_state[i][j] not in ['X', 'O']:
                temp = current_state[i][j]
                current_state[i][j] = 'X'
                (m, max_i, max_j) = max_alpha_beta(alpha, beta)
                if m < minv:
                    minv = m
                    qx = i
                    qy = j
                current_state[i][j] = temp
                if minv <= alpha:
                    return (minv, qx, qy)
                if minv < beta:
                    beta = minv
    return (minv, qx, qy)

current_state = [['1', '2', '3'], ['4', '5', '6'], ['7', '8', '9']]
"""
"""Seed 003's alpha-beta (alphabeta-challenges): the global board ``current_state``, a
``max_alpha_beta``/``min_alpha_beta`` pair cutting on ``>=``/``<=``, called with (-2, 2)."""

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
"""Seed 004's functions (lab05), correct: a flat board of " ", "X", "O", O maximizing."""


LAB05_RECORDS_VISITS = (
    "def minimaxAB(board, depth, maximizing_player, alpha, beta):\n",
    "def minimaxAB(board, depth, maximizing_player, alpha, beta):\n"
    "    visited.append(''.join('.' if c == ' ' else c for c in board))\n",
)
"""The edit that makes lab05's ``minimaxAB`` keep the board of every call in a global ``visited``."""


def edited(source: str, edits: Sequence[tuple[str, str]]) -> str:
    """``source`` with each ``(old, new)`` replaced everywhere; fails loudly if a text moved."""
    for old, new in edits:
        assert old in source, old
        source = source.replace(old, new)
    return source


def variant(old: str, new: str, count: int = 1) -> str:
    """The lab05 solution with one plausible bug; fails loudly if the line to change moved."""
    assert LAB05_SOLUTION.count(old) >= count, old
    return LAB05_SOLUTION.replace(old, new, count)


class NotebookSearch(Protocol):
    """A notebook's alpha-beta called from ``board`` with a root window: the boards it entered."""

    def __call__(self, board: Board, alpha: float = ..., beta: float = ...) -> list[str]: ...


def lab05_notebook_search(notebook: Path, edits: Sequence[tuple[str, str]] = ()) -> NotebookSearch:
    """The ``minimaxAB`` of a lab05 notebook (its board tests and its alpha-beta cell, up to the
    cell's own demo), run in process: it explores from a board with a root window and returns
    the board of every call, as the kernel's recorder reads them. ``edits`` change the
    alpha-beta cell's source first (each must apply)."""
    namespace: dict = {"math": math}
    for cell in json.loads(notebook.read_text())["cells"]:
        source = "".join(cell["source"])
        if cell["cell_type"] == "code" and any(f"def {name}(" in source for name in LAB05_SEARCH_CELLS):
            source = edited(source, edits) if "def minimaxAB(" in source else source
            exec(compile(source.split("\n# Same value as plain minimax")[0], str(notebook), "exec"), namespace)
    search = namespace["minimaxAB"]
    visited: list[str] = []

    def recorded(board: list[str], *args: object) -> object:
        visited.append("".join("." if c == " " else c for c in board))
        return search(board, *args)

    namespace["minimaxAB"] = recorded  # the recursion looks the name up: every call is recorded

    def explore(board: Board, alpha: float = -math.inf, beta: float = math.inf) -> list[str]:
        visited.clear()
        recorded([" " if c == "." else c for c in board.cells], 0, board.to_move() == O, alpha, beta)
        return list(visited)

    return explore


LAB05_SEARCH_CELLS = ("check_win", "check_draw", "minimaxAB")
"""The functions whose cells a lab05 notebook's alpha-beta needs."""
