"""A lab05 class built for the similarity tests: independent answers filling in the template,
a disguised copy, the untouched handout, and the fixture submissions with one mistake each."""

from __future__ import annotations

import ast
import random
import re
import textwrap
from pathlib import Path

import nbformat

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
    definitions = sorted(
        ((node.name, text) for node, text in pieces if isinstance(node, ast.FunctionDef)), key=lambda named: named[0]
    )
    others = [text for node, text in pieces if not isinstance(node, ast.FunctionDef)]
    header = '"""Lab 05: tic-tac-toe with minimax."""\n\n'
    return header + "\n\n\n".join([text for _, text in definitions] + others) + "\n"


# -- the class ---------------------------------------------------------------------------------

WRONG = ["alphabeta-wrong-cutoff", "draw-ignores-win", "marks-swapped", "depth-off-by-one", "best-move-picks-min"]


def write_class(folder: Path, *, slow: tuple[str, ...] = ()) -> Path:
    """Four independent answers, erik's disguised copy of bogdan's (a .py) and gina's untouched
    template. A notebook in ``slow`` gets a markdown cell that makes the fake grader of the batch
    tests take two seconds (only code cells are compared)."""
    for name, answers in INDEPENDENT.items():
        notebook = filled_template(answers)
        if name in slow:
            notebook.cells.append(nbformat.v4.new_markdown_cell("SLOW"))
        write_notebook(folder / f"{name}.ipynb", notebook)
    copy = disguise(notebook_code(filled_template(ALL_ANY)), COPY_RENAMES)
    (folder / "erik.py").write_text(copy, encoding="utf-8")
    write_notebook(folder / "gina.ipynb", nbformat.read(TEMPLATE, as_version=4))
    return folder
