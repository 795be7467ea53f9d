"""Small courses whose boards only the open encodings describe, each with its spec and
mutants: a board in a `Game` object's attribute with '-' and lower-case marks, a string of
'.', a global list whose free squares show their digit, a dict keyed 1-9, a `Board` object
passed to the functions with '' in its empty cells."""

from __future__ import annotations

LINES = "LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]\n"

GAME_CLASS = """
class Game:
    def __init__(self):
        self.board = [["-"] * 3 for _ in range(3)]

    def winner(self):
        b = self.board
        lines = [[(r, 0), (r, 1), (r, 2)] for r in range(3)] + [[(0, c), (1, c), (2, c)] for c in range(3)]
        lines += [[(0, 0), (1, 1), (2, 2)], [(0, 2), (1, 1), (2, 0)]]
        for line in lines:
            first, second, third = (b[r][c] for r, c in line)
            if first != "-" and first == second == third:
                return first
        return None

    def empty_squares(self):
        return [(r + 1, c + 1) for r in range(3) for c in range(3) if self.board[r][c] == "-"]

    def score(self, depth):
        w = self.winner()
        if w == "x":
            return 10 - depth
        if w == "o":
            return depth - 10
        return None if self.empty_squares() else 0

    def minimax(self, depth, is_max):
        if self.score(depth) is not None:
            return self.score(depth)
        squares = self.empty_squares()
        scores = []
        for r, c in squares:
            self.board[r - 1][c - 1] = "x" if is_max else "o"
            scores.append(self.minimax(depth + 1, not is_max))
            self.board[r - 1][c - 1] = "-"
        return max(scores) if is_max else min(scores)

    def alphabeta(self, depth, is_max, alpha, beta):
        if self.score(depth) is not None:
            return self.score(depth)
        for r, c in self.empty_squares():
            self.board[r - 1][c - 1] = "x" if is_max else "o"
            score = self.alphabeta(depth + 1, not is_max, alpha, beta)
            self.board[r - 1][c - 1] = "-"
            if is_max:
                alpha = max(alpha, score)
            else:
                beta = min(beta, score)
            if alpha >= beta:
                break
        return alpha if is_max else beta

    def best_move(self, player):
        best, square = None, None
        for r, c in self.empty_squares():
            self.board[r - 1][c - 1] = player
            score = self.minimax(1, player == "o")
            self.board[r - 1][c - 1] = "-"
            if best is None or (score > best if player == "x" else score < best):
                best, square = score, (r, c)
        return square
"""

GAME_CLASS_SPEC = """
[assignment]
id = "game-class"
title = "A Game object's board"
maximizer = "X"
first_player = "X"
scoring = "depth-adjusted"
move = "rowcol1"

[board]
layout = "rows"
container = "list"
empty = "-"
x = "x"
o = "o"
location = "attribute"
factory = "Game()"
attribute = "board"

[[checks]]
id = "winner"
kind = "predicate"
points = 10
call = "game.winner()"
expect = "winner"

[[checks]]
id = "moves"
kind = "predicate"
points = 10
call = "game.empty_squares()"
expect = "legal-moves"

[[checks]]
id = "minimax"
kind = "search-value"
points = 10
call = "game.minimax(0, is_max)"

[[checks]]
id = "no-mutation"
kind = "no-mutation"
points = 5
call = "game.minimax(0, is_max)"

[[checks]]
id = "alphabeta"
kind = "pruning-equivalence"
points = 10
call = "game.alphabeta(0, is_max, alpha, beta)"
windows = [[-inf, inf], [-3, 3]]

[[checks]]
id = "best-move"
kind = "search-value"
points = 10
call = "game.best_move(to_move)"
returns = "move"

[[checks]]
id = "nodes"
kind = "node-counts"
points = 10
minimax_call = "game.minimax(0, is_max)"
alphabeta_call = "game.alphabeta(0, is_max, -inf, inf)"
positions = ["X...O....", "XO..X...."]
"""

STRING_DOTS = (
    LINES
    + """
def wins(s, p):
    return any(s[a] == s[b] == s[c] == p for a, b, c in LINES)


def moves(s):
    return [i for i, ch in enumerate(s) if ch == "."]


def minimax(s, p):
    if wins(s, "X"):
        return 1
    if wins(s, "O"):
        return -1
    if "." not in s:
        return 0
    other = "O" if p == "X" else "X"
    values = [minimax(s[:i] + p + s[i + 1 :], other) for i in moves(s)]
    return max(values) if p == "X" else min(values)
"""
)

STRING_DOTS_SPEC = """
[assignment]
id = "string-dots"
title = "A string board"
maximizer = "X"

[board]
layout = "flat"
container = "string"
empty = "."
x = "X"
o = "O"

[[checks]]
id = "wins"
kind = "predicate"
points = 10
call = "wins(board, player)"
boards = "arbitrary"

[[checks]]
id = "moves"
kind = "predicate"
points = 10
call = "moves(board)"
expect = "legal-moves"

[[checks]]
id = "minimax"
kind = "search-value"
points = 10
call = "minimax(board, to_move)"
"""

DIGITS_GLOBAL = (
    LINES
    + """
board = [str(i) for i in range(1, 10)]


def check_winner():
    for a, b, c in LINES:
        if board[a] == board[b] == board[c]:
            return board[a]
    return None


def free_positions():
    return [int(cell) for cell in board if cell not in ("X", "O")]


def minimax(is_max):
    w = check_winner()
    if w == "O":
        return 1
    if w == "X":
        return -1
    free = free_positions()
    if not free:
        return 0
    scores = []
    for position in free:
        board[position - 1] = "O" if is_max else "X"
        scores.append(minimax(not is_max))
        board[position - 1] = str(position)
    return max(scores) if is_max else min(scores)
"""
)

DIGITS_GLOBAL_SPEC = """
[assignment]
id = "digits-global"
title = "A global board with digits"
maximizer = "O"
move = "position"

[board]
layout = "flat"
container = "list"
empty = "digit"
x = "X"
o = "O"
location = "global"
global = "board"

[[checks]]
id = "winner"
kind = "predicate"
points = 10
call = "check_winner()"
expect = "winner"

[[checks]]
id = "moves"
kind = "predicate"
points = 10
call = "free_positions()"
expect = "legal-moves"

[[checks]]
id = "minimax"
kind = "search-value"
points = 10
call = "minimax(is_max)"

[[checks]]
id = "no-mutation"
kind = "no-mutation"
points = 5
call = "minimax(is_max)"
"""

DICT_BOARD = """
WIN = [(7, 8, 9), (4, 5, 6), (1, 2, 3), (7, 4, 1), (8, 5, 2), (9, 6, 3), (7, 5, 3), (9, 5, 1)]


def is_winner(bo, le):
    return any(bo[a] == le and bo[b] == le and bo[c] == le for a, b, c in WIN)


def score(bo, turn):
    if is_winner(bo, "O"):
        return 1
    if is_winner(bo, "X"):
        return -1
    free = [k for k in bo if bo[k] == " "]
    if not free:
        return 0
    results = []
    for k in free:
        bo[k] = turn
        results.append(score(bo, "X" if turn == "O" else "O"))
        bo[k] = " "
    return max(results) if turn == "O" else min(results)


def best_move(bo):
    best, key = None, None
    for k in sorted(bo):
        if bo[k] == " ":
            bo[k] = "O"
            s = score(bo, "X")
            bo[k] = " "
            if best is None or s > best:
                best, key = s, k
    return key
"""

DICT_BOARD_SPEC = """
[assignment]
id = "dict-board"
title = "A dict keyed 1-9"
maximizer = "O"
move = "position"

[board]
layout = "flat"
container = "dict"
empty = " "
x = "X"
o = "O"

[[checks]]
id = "wins"
kind = "predicate"
points = 10
call = "is_winner(board, player)"
boards = "arbitrary"

[[checks]]
id = "best-move"
kind = "search-value"
points = 10
call = "best_move(board)"
returns = "move"
to_move = "O"
"""


BOARD_ARGUMENT = (
    LINES
    + """
class Board:
    def __init__(self):
        self.cells = [""] * 9

    def free(self):
        return [i for i in range(9) if self.cells[i] == ""]


def winner(b):
    for i, j, k in LINES:
        if b.cells[i] and b.cells[i] == b.cells[j] == b.cells[k]:
            return b.cells[i]
    return None


def minimax(b, is_max):
    w = winner(b)
    if w:
        return 1 if w == "X" else -1
    if not b.free():
        return 0
    scores = []
    for i in b.free():
        b.cells[i] = "X" if is_max else "O"
        scores.append(minimax(b, not is_max))
        b.cells[i] = ""
    return max(scores) if is_max else min(scores)
"""
)

BOARD_ARGUMENT_SPEC = """
[assignment]
id = "board-argument"
title = "A Board object passed to the functions"
maximizer = "X"

[board]
layout = "flat"
container = "list"
empty = ""
x = "X"
o = "O"
location = "attribute"
factory = "Board()"
attribute = "cells"

[[checks]]
id = "winner"
kind = "predicate"
points = 10
call = "winner(game)"
expect = "winner"

[[checks]]
id = "moves"
kind = "predicate"
points = 10
call = "game.free()"
expect = "legal-moves"

[[checks]]
id = "minimax"
kind = "search-value"
points = 10
call = "minimax(game, is_max)"

[[checks]]
id = "no-mutation"
kind = "no-mutation"
points = 5
call = "minimax(game, is_max)"
"""

COURSES = {
    "game-class": (GAME_CLASS, GAME_CLASS_SPEC),
    "string-dots": (STRING_DOTS, STRING_DOTS_SPEC),
    "digits-global": (DIGITS_GLOBAL, DIGITS_GLOBAL_SPEC),
    "dict-board": (DICT_BOARD, DICT_BOARD_SPEC),
    "board-argument": (BOARD_ARGUMENT, BOARD_ARGUMENT_SPEC),
}


MUTANTS = [
    # (course, text replaced, replacement, the check that fails)
    ("game-class", '(score > best if player == "x"', '(score < best if player == "x"', "best-move"),
    ("game-class", "            if alpha >= beta:\n                break\n", "", "nodes"),
    ("game-class", "        lines += [[(0, 0), (1, 1), (2, 2)], [(0, 2), (1, 1), (2, 0)]]", "", "winner"),
    ("string-dots", ", (2, 4, 6)]", "]", "wins"),
    ("string-dots", 'return max(values) if p == "X" else min(values)', "return max(values)", "minimax"),
    ("digits-global", "        board[position - 1] = str(position)\n", "", "no-mutation"),
    ("digits-global", 'if cell not in ("X", "O")', 'if cell != "X"', "moves"),
    ("dict-board", "(7, 5, 3), ", "", "wins"),
    ("dict-board", "if best is None or s > best:", "if best is None or s < best:", "best-move"),
    ("board-argument", '        b.cells[i] = ""\n', "", "no-mutation"),
    ("board-argument", "    for i, j, k in LINES:", "    for i, j, k in LINES[:7]:", "winner"),
]
