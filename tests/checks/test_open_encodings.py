"""Courses whose boards only the open encodings describe, graded in-process: a board in a
`Game` object's attribute with '-' and lower-case marks, a string of '.', a global list whose
free squares show their digit, a dict keyed 1-9. Each solution passes every check, and a
mutant loses the check of the function it breaks."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from grader.checks.context import CheckContext
from grader.checks.registry import run_check
from grader.results import CheckResult, CheckStatus
from grader.spec.loader import load_assignment
from grader.spec.model import Assignment
from reference import EMPTY, Board
from tests.checks.in_process import InProcessRunner

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


def assignment(tmp_path: Path, spec: str) -> Assignment:
    (tmp_path / "assignment.toml").write_text(spec)
    return load_assignment(tmp_path)


def grade(assignment: Assignment, source: str, check_ids: list[str] | None = None) -> dict[str, CheckResult]:
    runner = InProcessRunner(source)
    ctx = CheckContext(assignment, runner, frozenset(runner.defined_names()), execution={"cells": []})
    return {c.id: run_check(c, ctx) for c in assignment.checks if check_ids is None or c.id in check_ids}


COURSES = {
    "game-class": (GAME_CLASS, GAME_CLASS_SPEC),
    "string-dots": (STRING_DOTS, STRING_DOTS_SPEC),
    "digits-global": (DIGITS_GLOBAL, DIGITS_GLOBAL_SPEC),
    "dict-board": (DICT_BOARD, DICT_BOARD_SPEC),
}


@pytest.mark.parametrize("course", sorted(COURSES))
def test_each_solution_passes_every_check(tmp_path: Path, course: str) -> None:
    source, spec = COURSES[course]
    results = grade(assignment(tmp_path, spec), source)
    assert {k: (r.status, r.message) for k, r in results.items() if r.status != CheckStatus.PASSED} == {}


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
]


@pytest.mark.parametrize(("course", "old", "new", "check_id"), MUTANTS)
def test_a_mutant_loses_the_check_of_the_function_it_breaks(
    tmp_path: Path, course: str, old: str, new: str, check_id: str
) -> None:
    source, spec = COURSES[course]
    assert source.count(old) == 1
    result = grade(assignment(tmp_path, spec), source.replace(old, new), [check_id])[check_id]
    assert result.status == CheckStatus.FAILED, result.message


def test_a_counterexample_shows_the_call_on_a_fresh_object(tmp_path: Path) -> None:
    source = GAME_CLASS.replace('(score > best if player == "x"', '(score < best if player == "x"')
    result = grade(assignment(tmp_path, GAME_CLASS_SPEC), source, ["best-move"])["best-move"]
    assert result.counterexample is not None
    assert result.counterexample.call.startswith("Game().best_move(")
    # Moves are shown as the course writes them, (row, col) counted from 1.
    expected = re.fullmatch(r"move \(([1-3]), ([1-3])\)", result.counterexample.expected)
    assert expected is not None and re.fullmatch(r"move \([1-3], [1-3]\)", result.counterexample.actual)
    row, col = int(expected[1]) - 1, int(expected[2]) - 1
    assert Board.from_string(result.counterexample.board).cells[3 * row + col] == EMPTY


def test_the_search_of_a_method_is_read_from_its_objects_board(tmp_path: Path) -> None:
    result = grade(assignment(tmp_path, GAME_CLASS_SPEC), GAME_CLASS, ["nodes"])["nodes"]
    assert result.status == CheckStatus.PASSED
    assert result.figures.get("divergence") in (None, {}), result.figures
