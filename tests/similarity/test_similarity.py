"""Similar submissions: copies are found, independent work is not, and the result is stable."""

from __future__ import annotations

import ast
import builtins
import csv
import io
import json
import keyword
import os
import random
import re
import subprocess
import sys
import textwrap
import tokenize
from pathlib import Path

import nbformat
import pytest

from grader.feedback.html import environment
from grader.similarity.compare import (
    DEFAULT_THRESHOLD,
    HANDOUT,
    SimilarityReport,
    _code_cells,
    _token_id,
    _units,
    compare_submissions,
)
from grader.similarity.view import Segment, side_view, similar_pairs_view, similarity_csv
from grader.submission.reader import SubmissionUnreadable, read_submission

REPO = Path(__file__).resolve().parents[2]
LAB05 = REPO / "assignments" / "lab05"
TEMPLATE = LAB05 / "template.ipynb"
SOLUTION = LAB05 / "solution.ipynb"
FIXTURES = REPO / "tests" / "submissions" / "lab05"

# Four correct lab05 answers written independently, each filling in the template's TODO
# cells: "check_win", "check_draw", "minimax", "minimaxAB", "random_game" and "depth" (the
# depth-limited minimax, best_move_depth and simulate_game). Helpers live in the cell of
# the first function that needs them, as students do.

LOOPS = {
    "check_win": """
        # the method should return True or False based on who won the game
        def check_win(board, player):
            # rows
            for r in range(3):
                if board[3 * r] == player and board[3 * r + 1] == player and board[3 * r + 2] == player:
                    return True
            # columns
            for c in range(3):
                if board[c] == player and board[c + 3] == player and board[c + 6] == player:
                    return True
            # diagonals
            if board[0] == player and board[4] == player and board[8] == player:
                return True
            if board[2] == player and board[4] == player and board[6] == player:
                return True
            return False
    """,
    "check_draw": """
        # Function to check for a draw
        def check_draw(board):
            for cell in board:
                if cell == " ":
                    return False
            if check_win(board, "X") or check_win(board, "O"):
                return False
            return True
    """,
    "minimax": """
        def evaluate(board):
            if check_win(board, "O"):
                return 1
            elif check_win(board, "X"):
                return -1
            elif check_draw(board):
                return 0
            return None


        # Function for the minimax algorithm
        def minimax(board, depth, maximizing_player):
            result = evaluate(board)
            if result is not None:
                return result
            scores = []
            for pos in range(len(board)):
                if board[pos] == " ":
                    board[pos] = "O" if maximizing_player else "X"
                    scores.append(minimax(board, depth + 1, not maximizing_player))
                    board[pos] = " "
            if maximizing_player:
                return max(scores)
            return min(scores)
    """,
    "minimaxAB": """
        def minimaxAB(board, depth, maximizing_player, alpha, beta):
            result = evaluate(board)
            if result is not None:
                return result
            if maximizing_player:
                value = -math.inf
                for pos in range(9):
                    if board[pos] != " ":
                        continue
                    board[pos] = "O"
                    value = max(value, minimaxAB(board, depth + 1, False, alpha, beta))
                    board[pos] = " "
                    alpha = max(alpha, value)
                    if alpha >= beta:
                        break
                return value
            value = math.inf
            for pos in range(9):
                if board[pos] != " ":
                    continue
                board[pos] = "X"
                value = min(value, minimaxAB(board, depth + 1, True, alpha, beta))
                board[pos] = " "
                beta = min(beta, value)
                if alpha >= beta:
                    break
            return value
    """,
    "random_game": """
        random.seed(0)
        board = [" "] * 9
        while True:
            free = [pos for pos in range(9) if board[pos] == " "]
            board[random.choice(free)] = "X"
            display_board(board)
            if check_win(board, "X"):
                print("Random player wins!")
                break
            if check_draw(board):
                print("Draw!")
                break
            board[best_move(board)] = "O"
            display_board(board)
            if check_win(board, "O"):
                print("AI wins!")
                break
            if check_draw(board):
                print("Draw!")
                break
    """,
    "depth": """
        def minimax(board, depth, maximizing_player, max_depth=math.inf):
            result = evaluate(board)
            if result is not None:
                return result
            if depth >= max_depth:
                return 0
            scores = []
            for pos in range(len(board)):
                if board[pos] == " ":
                    board[pos] = "O" if maximizing_player else "X"
                    scores.append(minimax(board, depth + 1, not maximizing_player, max_depth))
                    board[pos] = " "
            return max(scores) if maximizing_player else min(scores)


        def best_move_depth(board, max_depth):
            best_score, best_pos = -math.inf, -1
            for pos in range(9):
                if board[pos] == " ":
                    board[pos] = "O"
                    score = minimax(board, 0, False, max_depth)
                    board[pos] = " "
                    if score > best_score:
                        best_score, best_pos = score, pos
            return best_pos


        def simulate_game(max_depth):
            board = [" "] * 9
            turn = "X"
            while True:
                if turn == "X":
                    free = [pos for pos in range(9) if board[pos] == " "]
                    board[random.choice(free)] = "X"
                else:
                    board[best_move_depth(board, max_depth)] = "O"
                if check_win(board, turn):
                    return "Random" if turn == "X" else "AI"
                if check_draw(board):
                    return "Draw"
                turn = "O" if turn == "X" else "X"
    """,
}

ALL_ANY = {
    "check_win": """
        LINES = [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]]


        def check_win(board, player):
            return any(all(board[i] == player for i in line) for line in LINES)
    """,
    "check_draw": """
        def check_draw(board):
            return all(cell != " " for cell in board) and not any(check_win(board, p) for p in "XO")
    """,
    "minimax": """
        def empty_cells(board):
            return [i for i, cell in enumerate(board) if cell == " "]


        def terminal_value(board):
            if check_win(board, "O"):
                return 1
            if check_win(board, "X"):
                return -1
            if check_draw(board):
                return 0
            return None


        def minimax(board, depth, maximizing_player):
            value = terminal_value(board)
            if value is not None:
                return value
            mark = "O" if maximizing_player else "X"
            pick = max if maximizing_player else min
            results = []
            for i in empty_cells(board):
                board[i] = mark
                results.append(minimax(board, depth + 1, not maximizing_player))
                board[i] = " "
            return pick(results)
    """,
    "minimaxAB": """
        def minimaxAB(board, depth, maximizing_player, alpha, beta):
            value = terminal_value(board)
            if value is not None:
                return value
            best = -math.inf if maximizing_player else math.inf
            for i in empty_cells(board):
                board[i] = "O" if maximizing_player else "X"
                child = minimaxAB(board, depth + 1, not maximizing_player, alpha, beta)
                board[i] = " "
                if maximizing_player:
                    best = max(best, child)
                    alpha = max(alpha, best)
                else:
                    best = min(best, child)
                    beta = min(beta, best)
                if beta <= alpha:
                    break
            return best
    """,
    "random_game": """
        def play_random_vs_ai():
            board = [" "] * 9
            current = "X"
            while not (check_win(board, "X") or check_win(board, "O") or check_draw(board)):
                if current == "X":
                    move = random.choice(empty_cells(board))
                else:
                    move = best_move(board)
                board[move] = current
                current = "O" if current == "X" else "X"
            display_board(board)
            if check_win(board, "X"):
                print("X (random) wins")
            elif check_win(board, "O"):
                print("O (AI) wins")
            else:
                print("draw")


        random.seed(0)
        play_random_vs_ai()
    """,
    "depth": """
        def minimax(board, depth, maximizing_player, max_depth=math.inf):
            value = terminal_value(board)
            if value is not None:
                return value
            if depth >= max_depth:
                return 0
            children = []
            for i in empty_cells(board):
                board[i] = "O" if maximizing_player else "X"
                children.append(minimax(board, depth + 1, not maximizing_player, max_depth))
                board[i] = " "
            return max(children) if maximizing_player else min(children)


        def best_move_depth(board, max_depth):
            scored = []
            for i in empty_cells(board):
                board[i] = "O"
                scored.append((minimax(board, 0, False, max_depth), -i))
                board[i] = " "
            return -max(scored)[1]


        def simulate_game(max_depth):
            board = [" "] * 9
            for turn in range(9):
                if turn % 2 == 0:
                    board[random.choice(empty_cells(board))] = "X"
                    if check_win(board, "X"):
                        return "Random"
                else:
                    board[best_move_depth(board, max_depth)] = "O"
                    if check_win(board, "O"):
                        return "AI"
            return "Draw"
    """,
}

NEGAMAX = {
    "check_win": """
        def check_win(board, player):
            rows = [board[0:3], board[3:6], board[6:9]]
            cols = [board[0::3], board[1::3], board[2::3]]
            diags = [board[0::4], board[2:7:2]]
            return [player] * 3 in rows + cols + diags
    """,
    "check_draw": """
        def check_draw(board):
            if board.count(" ") > 0:
                return False
            return not check_win(board, "X") and not check_win(board, "O")
    """,
    "minimax": '''
        def score_of(board):
            """+1, -1 or 0 for a finished board, None while the game goes on."""
            for player, points in (("O", 1), ("X", -1)):
                if check_win(board, player):
                    return points
            return 0 if check_draw(board) else None


        def minimax(board, depth, maximizing_player):
            finished = score_of(board)
            if finished is not None:
                return finished
            sign = 1 if maximizing_player else -1
            mark = "O" if maximizing_player else "X"
            best = -2
            for square in range(9):
                if board[square] == " ":
                    board[square] = mark
                    best = max(best, sign * minimax(board, depth + 1, not maximizing_player))
                    board[square] = " "
            return sign * best
    ''',
    "minimaxAB": """
        def minimaxAB(board, depth, maximizing_player, alpha, beta):
            finished = score_of(board)
            if finished is not None:
                return finished
            mark = "O" if maximizing_player else "X"
            best = -math.inf if maximizing_player else math.inf
            for square in (s for s in range(9) if board[s] == " "):
                board[square] = mark
                value = minimaxAB(board, depth + 1, not maximizing_player, alpha, beta)
                board[square] = " "
                if maximizing_player and value > best:
                    best, alpha = value, max(alpha, value)
                elif not maximizing_player and value < best:
                    best, beta = value, min(beta, value)
                if alpha >= beta:
                    break
            return best
    """,
    "random_game": """
        random.seed(0)
        board = [" "] * 9
        winner = None
        moves = 0
        while winner is None and moves < 9:
            if moves % 2 == 0:
                square = random.choice([s for s in range(9) if board[s] == " "])
                board[square] = "X"
            else:
                board[best_move(board)] = "O"
            moves += 1
            for player in "XO":
                if check_win(board, player):
                    winner = player
        display_board(board)
        print("Winner:", winner if winner else "nobody (draw)")
    """,
    "depth": """
        def minimax(board, depth, maximizing_player, max_depth=math.inf):
            finished = score_of(board)
            if finished is not None:
                return finished
            if depth >= max_depth:
                return 0
            sign = 1 if maximizing_player else -1
            best = -2
            for square in range(9):
                if board[square] == " ":
                    board[square] = "O" if maximizing_player else "X"
                    best = max(best, sign * minimax(board, depth + 1, not maximizing_player, max_depth))
                    board[square] = " "
            return sign * best


        def best_move_depth(board, max_depth):
            options = [s for s in range(9) if board[s] == " "]
            values = {}
            for s in options:
                board[s] = "O"
                values[s] = minimax(board, 0, False, max_depth)
                board[s] = " "
            return max(options, key=lambda s: (values[s], -s))


        def simulate_game(max_depth):
            board = [" "] * 9
            players = {"X": "Random", "O": "AI"}
            mark = "X"
            while " " in board:
                if mark == "X":
                    square = random.choice([s for s in range(9) if board[s] == " "])
                else:
                    square = best_move_depth(board, max_depth)
                board[square] = mark
                if check_win(board, mark):
                    return players[mark]
                mark = "O" if mark == "X" else "X"
            return "Draw"
    """,
}

MAX_MIN_VALUE = {
    "check_win": """
        def check_win(board, player):
            wins = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]
            for combo in wins:
                count = 0
                for index in combo:
                    if board[index] == player:
                        count += 1
                if count == 3:
                    return True
            return False
    """,
    "check_draw": """
        def check_draw(board):
            full = " " not in board
            return full and not check_win(board, "X") and not check_win(board, "O")
    """,
    "minimax": """
        def game_over(board):
            return check_win(board, "X") or check_win(board, "O") or check_draw(board)


        def utility(board):
            if check_win(board, "O"):
                return 1
            if check_win(board, "X"):
                return -1
            return 0


        def max_value(board, depth):
            if game_over(board):
                return utility(board)
            v = -math.inf
            for a in range(9):
                if board[a] == " ":
                    board[a] = "O"
                    v = max(v, min_value(board, depth + 1))
                    board[a] = " "
            return v


        def min_value(board, depth):
            if game_over(board):
                return utility(board)
            v = math.inf
            for a in range(9):
                if board[a] == " ":
                    board[a] = "X"
                    v = min(v, max_value(board, depth + 1))
                    board[a] = " "
            return v


        def minimax(board, depth, maximizing_player):
            return max_value(board, depth) if maximizing_player else min_value(board, depth)
    """,
    "minimaxAB": """
        def ab_max(board, alpha, beta):
            if game_over(board):
                return utility(board)
            v = -math.inf
            for a in range(9):
                if board[a] == " ":
                    board[a] = "O"
                    v = max(v, ab_min(board, alpha, beta))
                    board[a] = " "
                    if v >= beta:
                        return v
                    alpha = max(alpha, v)
            return v


        def ab_min(board, alpha, beta):
            if game_over(board):
                return utility(board)
            v = math.inf
            for a in range(9):
                if board[a] == " ":
                    board[a] = "X"
                    v = min(v, ab_max(board, alpha, beta))
                    board[a] = " "
                    if v <= alpha:
                        return v
                    beta = min(beta, v)
            return v


        def minimaxAB(board, depth, maximizing_player, alpha, beta):
            if maximizing_player:
                return ab_max(board, alpha, beta)
            return ab_min(board, alpha, beta)
    """,
    "random_game": """
        random.seed(0)
        board = [" "] * 9
        while not game_over(board):
            free = [a for a in range(9) if board[a] == " "]
            board[random.choice(free)] = "X"
            if not game_over(board):
                board[best_move(board)] = "O"
            display_board(board)
            print()
        print("Result:", utility(board))
    """,
    "depth": """
        def minimax(board, depth, maximizing_player, max_depth=math.inf):
            if game_over(board):
                return utility(board)
            if depth >= max_depth:
                return 0
            mark, other = ("O", False) if maximizing_player else ("X", True)
            best = None
            for a in range(9):
                if board[a] != " ":
                    continue
                board[a] = mark
                v = minimax(board, depth + 1, other, max_depth)
                board[a] = " "
                if best is None or (v > best if maximizing_player else v < best):
                    best = v
            return best


        def best_move_depth(board, max_depth):
            move, top = -1, -math.inf
            for a in range(9):
                if board[a] == " ":
                    board[a] = "O"
                    v = minimax(board, 0, False, max_depth)
                    board[a] = " "
                    if v > top:
                        move, top = a, v
            return move


        def simulate_game(max_depth):
            board = [" "] * 9
            while True:
                free = [a for a in range(9) if board[a] == " "]
                board[random.choice(free)] = "X"
                if game_over(board):
                    break
                board[best_move_depth(board, max_depth)] = "O"
                if game_over(board):
                    break
            if check_win(board, "O"):
                return "AI"
            if check_win(board, "X"):
                return "Random"
            return "Draw"
    """,
}

INDEPENDENT = {"alice": LOOPS, "bogdan": ALL_ANY, "chen": NEGAMAX, "dana": MAX_MIN_VALUE}


def _which_todo(source: str) -> str | None:
    """Which of a student's answers replaces this template cell."""
    if "TODO: check_win" in source:
        return "check_win"
    if "TODO: check_draw" in source:
        return "check_draw"
    if "TODO: minimaxAB" in source:
        return "minimaxAB"
    if "TODO: minimax" in source:
        return "minimax"
    if "TO DO: replace the human" in source:
        return "random_game"
    if "TODO: depth-limited minimax" in source:
        return "depth"
    return None


def filled_template(answers: dict[str, str]) -> nbformat.NotebookNode:
    """The lab05 template with every TODO cell replaced by the student's answer."""
    notebook = nbformat.read(TEMPLATE, as_version=4)
    for cell in notebook.cells:
        todo = _which_todo(cell.source) if cell.cell_type == "code" else None
        if todo is not None:
            cell.source = textwrap.dedent(answers[todo]).strip("\n")
    return notebook


def write_notebook(path: Path, notebook: nbformat.NotebookNode) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(notebook, path)
    return path


COPY_RENAMES = {
    "LINES": "TRIPLES",
    "empty_cells": "free_squares",
    "terminal_value": "outcome",
    "play_random_vs_ai": "random_vs_computer",
    "results": "vals",
    "children": "kids",
    "scored": "ranked",
    "child": "sub",
    "best": "acc",
    "value": "v",
    "mark": "symbol",
    "pick": "chooser",
    "cell": "c",
    "line": "trio",
    "current": "who",
    "move": "spot",
    "board": "grid",
    "i": "k",
}

COMMENTS = ["helper", "see lecture 5", "try every empty square", "TODO tidy up", "works!", "base case"]


def notebook_code(notebook: nbformat.NotebookNode) -> str:
    return "\n\n".join(cell.source for cell in notebook.cells if cell.cell_type == "code")


def disguise(source: str, renames: dict[str, str], *, seed: int = 0) -> str:
    """A copy as a student hides it: identifiers renamed, comments reworded, definitions moved.

    The function definitions come first, sorted by name (a redefinition stays after the
    definition it replaces, so the script still runs); the rest follows in its order.
    """
    rng = random.Random(seed)
    lines = []
    for line in source.splitlines():
        code, hash_, _ = line.partition("#")
        if '"' in code and code.count('"') % 2:  # a "#" inside a string: leave the line alone
            code, hash_ = line, ""
        for old, new in renames.items():
            code = re.sub(rf"\b{re.escape(old)}\b", new, code)
        comment = f"# {rng.choice(COMMENTS)}" if hash_ else ""
        lines.append((code.rstrip() + "  " + comment).rstrip() if code.strip() else comment)
    renamed = "\n".join(lines) + "\n"
    tree = ast.parse(renamed)
    pieces = [(node, ast.get_source_segment(renamed, node) or "") for node in tree.body]
    definitions = sorted((p for p in pieces if isinstance(p[0], ast.FunctionDef)), key=lambda p: p[0].name)
    others = [p for p in pieces if not isinstance(p[0], ast.FunctionDef)]
    header = '"""Lab 05: tic-tac-toe with minimax."""\n\n'
    return header + "\n\n\n".join(text for _, text in definitions + others) + "\n"


# -- the class ---------------------------------------------------------------------------------

WRONG = ["alphabeta-wrong-cutoff", "draw-ignores-win", "marks-swapped", "depth-off-by-one", "best-move-picks-min"]


@pytest.fixture(scope="module")
def lab05_class(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[str, Path]]:
    """Four independent answers, a disguised copy of one as a .py, the untouched template and
    five fixture submissions (the solution with one mistake each: alike, but only in code
    that the solution gives away)."""
    folder = tmp_path_factory.mktemp("lab05-class")
    submissions = [
        (name, write_notebook(folder / f"{name}.ipynb", filled_template(answers)))
        for name, answers in INDEPENDENT.items()
    ]
    copy = folder / "erik.py"
    copy.write_text(disguise(notebook_code(filled_template(ALL_ANY)), COPY_RENAMES), encoding="utf-8")
    submissions.append(("erik", copy))
    submissions.append(("gina", write_notebook(folder / "gina.ipynb", nbformat.read(TEMPLATE, as_version=4))))
    submissions.extend((name, FIXTURES / f"{name}.ipynb") for name in WRONG)
    return submissions


def compare(submissions: list[tuple[str, Path]], **options: float) -> SimilarityReport:
    return compare_submissions(submissions, handout=TEMPLATE, solution=SOLUTION, **options)


def listed(report: SimilarityReport) -> list[tuple[str, str]]:
    return [(pair.student_a, pair.student_b) for pair in report.pairs]


def test_the_disguised_copy_ranks_first(lab05_class: list[tuple[str, Path]]) -> None:
    copy = disguise(notebook_code(filled_template(ALL_ANY)), COPY_RENAMES)
    assert "empty_cells" not in copy and "free_squares" in copy  # the copy really is disguised
    assert copy.index("def check_draw") < copy.index("def check_win")  # moved
    assert any(f"# {comment}" in copy for comment in COMMENTS) and "# Function to check for a draw" not in copy
    report = compare(lab05_class)
    top = next(pair for pair in report.pairs if not pair.handout)
    assert (top.student_a, top.student_b) == ("bogdan", "erik")
    assert top.similarity >= 0.9
    assert report.pairs[0] == top  # level with the template against the handout (1.0): ties go by id
    assert report.compared == len(lab05_class)


def test_a_partial_copy_is_listed_below_the_whole_one(lab05_class: list[tuple[str, Path]], tmp_path: Path) -> None:
    """Olga copies bogdan's answers but writes her own alpha-beta (alice's style)."""
    answers = {**ALL_ANY, "minimaxAB": LOOPS["minimaxAB"]}
    olga = tmp_path / "olga.py"
    olga.write_text(disguise(notebook_code(filled_template(answers)), {"board": "b", "i": "j"}, seed=1))
    report = compare([*lab05_class, ("olga", olga)])
    similar = {(pair.student_a, pair.student_b): pair.similarity for pair in report.pairs if not pair.handout}
    assert set(similar) == {("bogdan", "erik"), ("bogdan", "olga"), ("erik", "olga")}
    assert DEFAULT_THRESHOLD < similar["bogdan", "olga"] < similar["bogdan", "erik"]


def test_independent_answers_stay_below_the_threshold(lab05_class: list[tuple[str, Path]]) -> None:
    report = compare(lab05_class)
    assert listed(report) == [("bogdan", "erik"), ("gina", HANDOUT)]
    everything = compare(lab05_class, threshold=0.0)
    independent = [p for p in everything.pairs if not p.handout and {p.student_a, p.student_b} <= set(INDEPENDENT)]
    assert independent, "independent answers share some idioms: the measure must see them"
    assert max(p.similarity for p in independent) < 0.3 < DEFAULT_THRESHOLD


def test_code_the_solution_gives_away_does_not_make_students_alike(lab05_class: list[tuple[str, Path]]) -> None:
    fixtures = [(name, path) for name, path in lab05_class if name in WRONG]
    assert not compare(fixtures, threshold=0.0).pairs
    without_solution = compare_submissions(fixtures, handout=TEMPLATE, solution=None)
    assert len(without_solution.pairs) == len(WRONG) * (len(WRONG) - 1) // 2


def test_the_untouched_template_is_listed_against_the_handout(lab05_class: list[tuple[str, Path]]) -> None:
    report = compare(lab05_class)
    rows = [pair for pair in report.pairs if pair.handout]
    assert [(pair.student_a, pair.student_b, pair.similarity) for pair in rows] == [("gina", HANDOUT, 1.0)]
    assert report.code_of(rows[0])[1] == notebook_code(nbformat.read(TEMPLATE, as_version=4))
    assert not compare(lab05_class, handout_threshold=1.01).pairs[1:]  # only the copy is left
    assert not compare_submissions(lab05_class, handout=None, solution=SOLUTION).pairs[1:]


def test_byte_identical_files_are_fully_alike(lab05_class: list[tuple[str, Path]], tmp_path: Path) -> None:
    chen = dict(lab05_class)["chen"]
    frank = tmp_path / "frank.ipynb"
    frank.write_bytes(chen.read_bytes())
    report = compare([*lab05_class, ("frank", frank)])
    (pair,) = [p for p in report.pairs if "frank" in (p.student_a, p.student_b)]
    assert (pair.student_a, pair.student_b, pair.similarity) == ("chen", "frank", 1.0)
    assert report.pairs.index(pair) < 3  # with the disguised copy and the template, all at 1.0
    text_a, text_b = report.code_of(pair)
    assert text_a == text_b
    assert report.matches(pair)[0] == report.matches(pair)[1]


def test_the_result_does_not_depend_on_the_order_of_the_submissions(lab05_class: list[tuple[str, Path]]) -> None:
    expected = similarity_csv(compare(lab05_class, threshold=0.0))
    for seed in range(3):
        shuffled = list(lab05_class)
        random.Random(seed).shuffle(shuffled)
        assert similarity_csv(compare(shuffled, threshold=0.0)) == expected


def test_the_result_does_not_depend_on_the_process(lab05_class: list[tuple[str, Path]], tmp_path: Path) -> None:
    """String hashes differ between processes (PYTHONHASHSEED): fingerprints must not."""
    listing = tmp_path / "class.json"
    listing.write_text(json.dumps([[name, str(path)] for name, path in lab05_class]))
    script = (
        "import json, sys; from pathlib import Path; from grader.similarity.compare import compare_submissions;"
        "from grader.similarity.view import similarity_csv;"
        f"subs = [(n, Path(p)) for n, p in json.loads(Path({str(listing)!r}).read_text())];"
        f"print(similarity_csv(compare_submissions(subs, handout=Path({str(TEMPLATE)!r}),"
        f" solution=Path({str(SOLUTION)!r}), threshold=0.0)), end='')"
    )
    outputs = {
        subprocess.run(
            [sys.executable, "-c", script],
            cwd=REPO,
            env={**os.environ, "PYTHONHASHSEED": seed},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for seed in ("1", "2")
    }
    assert outputs == {similarity_csv(compare(lab05_class, threshold=0.0))}


def test_unreadable_files_are_skipped(lab05_class: list[tuple[str, Path]], tmp_path: Path) -> None:
    (tmp_path / "truncated.ipynb").write_text('{"cells": [{"cell_type": "code", "source": "x = 1', encoding="utf-8")
    (tmp_path / "empty.py").write_text("", encoding="utf-8")
    (tmp_path / "binary.py").write_bytes(b"\x00\x01\x02 not python")
    (tmp_path / "essay.txt").write_text("I did my best", encoding="utf-8")
    broken = [
        ("hugo", tmp_path / "truncated.ipynb"),
        ("ines", tmp_path / "empty.py"),
        ("jon", tmp_path / "binary.py"),
        ("kai", tmp_path / "essay.txt"),
        ("lea", tmp_path / "missing.ipynb"),
        ("erik", tmp_path / "binary.py"),
    ]  # erik's readable .py still counts
    report = compare([*lab05_class, *broken])
    assert report.compared == len(lab05_class)
    assert listed(report) == listed(compare(lab05_class))


def test_a_student_with_several_files_is_compared_on_all_of_them(tmp_path: Path) -> None:
    whole = filled_template(NEGAMAX)
    first, second = nbformat.read(TEMPLATE, as_version=4), nbformat.read(TEMPLATE, as_version=4)
    half = len(whole.cells) // 2
    first.cells, second.cells = whole.cells[:half], whole.cells[half:]
    submissions = [
        ("chen", write_notebook(tmp_path / "chen.ipynb", whole)),
        ("max", write_notebook(tmp_path / "max-part1.ipynb", first)),
        ("max", write_notebook(tmp_path / "max-part2.ipynb", second)),
    ]
    report = compare(submissions)
    assert [(p.student_a, p.student_b, p.similarity) for p in report.pairs] == [("chen", "max", 1.0)]


def test_broken_code_and_notebook_magics_are_compared_too(tmp_path: Path) -> None:
    answers = dict(MAX_MIN_VALUE)
    answers["check_win"] = "%matplotlib inline\n!pip install numpy\n" + textwrap.dedent(answers["check_win"])
    answers["random_game"] = 'print("unclosed\n  x = (1,\n' + textwrap.dedent(answers["random_game"])
    broken = write_notebook(tmp_path / "broken.ipynb", filled_template(answers))
    clean = write_notebook(tmp_path / "dana.ipynb", filled_template(MAX_MIN_VALUE))
    report = compare([("dana", clean), ("nora", broken)])
    assert listed(report) == [("dana", "nora")]
    assert report.pairs[0].similarity > 0.8


# -- outputs -----------------------------------------------------------------------------------


def test_csv_is_ranked_with_a_header_and_neutralised_cells(lab05_class: list[tuple[str, Path]], tmp_path: Path) -> None:
    bogdan = dict(lab05_class)["bogdan"]
    formula = tmp_path / "formula.ipynb"
    formula.write_bytes(bogdan.read_bytes())
    report = compare([*lab05_class, ("=HYPERLINK(1)", formula)], threshold=0.0)
    rows = list(csv.reader(io.StringIO(similarity_csv(report))))
    assert rows[0] == ["student_a", "student_b", "similarity"]
    values = [float(row[2]) for row in rows[1:]]
    assert values == sorted(values, reverse=True) and all(0 <= value <= 1 for value in values)
    assert len(rows) == len(report.pairs) + 1
    assert ["'=HYPERLINK(1)", "bogdan", "1.000"] in rows
    assert not any(cell.startswith(("=", "+", "-", "@")) for row in rows for cell in row)
    assert ["gina", HANDOUT, "1.000"] in rows


def test_empty_class_gives_just_the_header() -> None:
    report = compare_submissions([], handout=None, solution=None)
    assert similarity_csv(report) == "student_a,student_b,similarity\n"


def render(report: SimilarityReport) -> str:
    """The section as the class index renders it: through the reports' own environment."""
    template = environment().from_string(
        '{% from "_similarity.html.j2" import similar_submissions %}{{ similar_submissions(view) }}'
    )
    return template.render(view=similar_pairs_view(report))


def test_the_section_shows_the_pairs_side_by_side_and_escapes_student_code(tmp_path: Path) -> None:
    answers = dict(LOOPS)
    answers["random_game"] = (
        textwrap.dedent(answers["random_game"]) + 'print("<script>alert(1)</script>")  # </pre> & more\n'
    )
    original = write_notebook(tmp_path / "alice.ipynb", filled_template(answers))
    copy = tmp_path / "copy.py"
    copy.write_text(disguise(notebook_code(filled_template(answers)), {"pos": "p", "scores": "s"}), encoding="utf-8")
    template = write_notebook(tmp_path / "template.ipynb", nbformat.read(TEMPLATE, as_version=4))
    report = compare([("alice", original), ("<b>bob</b>", copy), ("gina", template)])
    assert listed(report) == [("<b>bob</b>", "alice"), ("gina", HANDOUT)]
    html = render(report)
    assert "Similar submissions" in html and "not that anyone copied" in html
    assert "<mark>" in html and html.count('<details class="similar"') == 2
    assert "<script" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "<b>bob</b>" not in html and "&lt;b&gt;bob&lt;/b&gt;" in html
    assert "&lt;/pre&gt; &amp; more" in html
    assert 'href="#similar-1"' in html and 'id="similar-1"' in html
    marked = re.findall(r"<mark>(.*?)</mark>", html, re.DOTALL)
    assert any("def check_win" in text for text in marked)
    assert any("raise NotImplementedError" in text for text in marked)  # the template's stubs, against the handout
    assert not any("TO DO" in text for text in marked)  # comments are never part of a match


def test_the_section_says_so_when_nothing_is_similar() -> None:
    html = render(compare([("alice", TEMPLATE)], handout_threshold=1.01))
    assert "No pair of submissions reaches 50%" in html and "<table" not in html


def test_side_view_marks_matches_and_folds_long_unmatched_stretches() -> None:
    text = "\n".join(f"line {n}" for n in range(1, 21))
    start = text.index("line 10")
    side = side_view("x", text, ((start, start + len("line 10")),), context=2)
    numbers = [line.number for line in side.lines]
    assert numbers == [0, 8, 9, 10, 11, 12, 0]
    assert [line.folded for line in side.lines if not line.number] == [7, 8]
    assert side.lines[3].segments == (Segment("line 10", True),)
    assert (side.matched_lines, side.total_lines) == (1, 20)
    indented = side_view("x", "    x = 1", ((0, 9),))
    assert indented.lines[0].segments == (Segment("    ", False), Segment("x = 1", True))


def readable_cells(path: Path) -> list[nbformat.NotebookNode]:
    try:
        return list(read_submission(path).notebook.cells)
    except SubmissionUnreadable:  # the truncated uploads
        return []


def test_the_tokenizer_agrees_with_the_tokenize_module_on_every_bundled_notebook() -> None:
    kept = set(keyword.kwlist) | set(dir(builtins))
    structure = {tokenize.NEWLINE: "<newline>", tokenize.INDENT: "<indent>", tokenize.DEDENT: "<dedent>"}
    skipped = {tokenize.COMMENT, tokenize.NL, tokenize.ENCODING, tokenize.ENDMARKER}

    def reference(source: str) -> list[int]:
        tokens = tokenize.generate_tokens(io.StringIO(source).readline)
        texts = [
            (t.string if t.string in kept else "V")
            if t.type == tokenize.NAME
            else "S"
            if t.type == tokenize.STRING
            else structure.get(t.type, t.string)
            for t in tokens
            if t.type not in skipped
        ]
        return [_token_id(text) for text in texts]

    notebooks = sorted(REPO.glob("examples/*/*.ipynb")) + sorted(REPO.glob("tests/submissions/*/*.ipynb"))
    checked = 0
    for path in notebooks + sorted(REPO.glob("assignments/*/*.ipynb")):
        for cell in readable_cells(path):
            if cell.cell_type == "code" and not re.search(r"^\s*[%!]", cell.source, re.MULTILINE):
                ours = [token for ids, _, _ in _units(cell.source, 0, []) for token in ids]
                assert ours == reference(cell.source), (path, cell.source[:80])
                checked += 1
    assert checked > 500


def test_notebooks_are_read_as_read_submission_reads_them(tmp_path: Path) -> None:
    old = tmp_path / "v3.ipynb"  # nbformat 3 goes through read_submission
    old.write_text(
        nbformat.writes(
            nbformat.v3.new_notebook(
                worksheets=[nbformat.v3.new_worksheet(cells=[nbformat.v3.new_code_cell(input="x = 1")])]
            ),
            version=3,
        )
    )
    paths = sorted(REPO.glob("examples/*/*.ipynb")) + sorted(REPO.glob("tests/submissions/*/*.ipynb")) + [old]
    for path in paths:
        expected = [cell.source for cell in readable_cells(path) if cell.cell_type == "code" and cell.source.strip()]
        try:
            assert _code_cells(path) == expected, path
        except SubmissionUnreadable:
            assert not expected
