"""The check kinds that ask the assignment's game, on the connect4 built-in: its solution passes
every one, each typical mistake fails the check of its own function with a drawn position,
and the searches are judged by exact counts with the leaves asked in one batch."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest

from grader.check_details import SearchDivergence
from grader.checks.context import CheckContext
from grader.checks.registry import run_check
from grader.checks.search_params import ASKED_FIRST, depths_text
from grader.execution.channel.calls import Call, CallOutcome
from grader.feedback.gradescope import gradescope_results
from grader.feedback.html import render_student_report
from grader.feedback.text import format_submission
from grader.results import CheckResult, CheckStatus, SubmissionResult
from grader.spec.loader import load_assignment
from tests.checks.in_process import InProcessRunner, solution_definitions

ASSIGNMENT = load_assignment("connect4")
SOLUTION = solution_definitions(ASSIGNMENT)


class BatchCounter(InProcessRunner):
    """Counts the round trips (batches), not only the calls."""

    def __init__(self, source: str) -> None:
        super().__init__(source)
        self.batches: list[int] = []

    def call_many(self, calls: Sequence[Call]) -> list[CallOutcome]:
        self.batches.append(len(calls))
        return super().call_many(calls)


def grade(source: str, *check_ids: str) -> tuple[dict[str, CheckResult], BatchCounter]:
    runner = BatchCounter(source)
    ctx = CheckContext.of(ASSIGNMENT, runner, frozenset(runner.defined_names()), hangs=runner.hang_memory(ASSIGNMENT))
    results = {c.id: run_check(c, ctx) for c in ASSIGNMENT.checks if c.id in check_ids}
    return results, runner


def run_alone(folder: Path, check: str, source: str) -> CheckResult:
    """``check`` (its TOML) as the only check of connect4's game, run on ``source``."""
    spec = (ASSIGNMENT.directory / "assignment.toml").read_text()
    (folder / "assignment.toml").write_text(spec[: spec.index("[[checks]]")] + check)
    assignment = load_assignment(folder)
    runner = InProcessRunner(source)
    ctx = CheckContext.of(assignment, runner, frozenset(runner.defined_names()), hangs=runner.hang_memory(assignment))
    return run_check(assignment.checks[0], ctx)


def patched(old: str, new: str) -> str:
    assert old in SOLUTION, old
    return SOLUTION.replace(old, new)


def test_the_solution_passes_every_check_of_the_game() -> None:
    ids = [c.id for c in ASSIGNMENT.checks if c.kind != "runs-cleanly"]
    results, _ = grade(SOLUTION, *ids)
    assert {i: r.status for i, r in results.items()} == dict.fromkeys(ids, CheckStatus.PASSED)
    assert "finished games of every outcome" in results["winner"].message


def test_the_search_asks_the_heuristic_on_every_leaf_in_two_batches() -> None:
    results, runner = grade(SOLUTION, "minimax")
    assert results["minimax"].status is CheckStatus.PASSED
    # the first leaves, then the rest in one batch, then one batch of searches: not a round trip per leaf
    assert len(runner.batches) == 3
    first, rest, searches = runner.batches
    assert first == ASKED_FIRST and rest > 100 and searches == results["minimax"].figures["examples"]


def test_a_heuristic_that_raises_is_asked_only_the_first_leaves() -> None:
    """A stub heuristic raises on every leaf: the check fails on the first leaf it asks, after
    the first batch, instead of asking thousands that cannot change the verdict."""
    stub = patched("def evaluate(board, piece):\n", "def evaluate(board, piece):\n    raise NotImplementedError\n")
    results, runner = grade(stub, "minimax")
    assert results["minimax"].status is CheckStatus.FAILED
    assert results["minimax"].headline == (
        "The heuristic gives no number on a position the search evaluates: no answer: it raised NotImplementedError"
    )
    assert runner.batches == [ASKED_FIRST]


def test_the_heuristic_is_asked_for_both_sides_of_every_position_in_one_batch() -> None:
    results, runner = grade(SOLUTION, "evaluate")
    assert results["evaluate"].status is CheckStatus.PASSED
    assert len(runner.batches) == 1


MISTAKES = {
    "missing anti-diagonal": (
        "        # anti-diagonal, down to the left\n"
        "        for row in range(ROWS - WIN_LENGTH + 1):\n"
        "            for col in range(WIN_LENGTH - 1, COLS):\n"
        "                if all(board[row + i][col - i] == piece for i in range(WIN_LENGTH)):\n"
        "                    return piece\n",
        "",
        "winner",
        "the line runs anti-diagonal",
    ),
    "off-by-one at the right edge": (
        "        for row in range(ROWS):\n            for col in range(COLS - WIN_LENGTH + 1):",
        "        for row in range(ROWS):\n            for col in range(COLS - WIN_LENGTH):",
        "winner",
        "the line runs across and touches the edge",
    ),
    "legal moves miss the last column": (
        "return [col for col in range(COLS) if",
        "return [col for col in range(COLS - 1) if",
        "legal-moves",
        "column 5, at the edge of the board, has room but is not listed",
    ),
    "drop_piece changes the board given": (
        "new_board = [row[:] for row in board]",
        "new_board = board",
        "drop-piece",
        "the function changed the board it was given",
    ),
    "evaluations counted twice": (
        "    return sum(score_window(window, piece) for window in windows(board))",
        "    global evaluations\n    evaluations += 1\n"
        "    return sum(score_window(window, piece) for window in windows(board))",
        "alphabeta",
        "twice as many",
    ),
    "pruning on >": ("if alpha >= beta:", "if alpha > beta:", "alphabeta", "alpha > beta instead of alpha >= beta"),
    "heuristic with the wrong sign for the minimizing side": (
        "score_window(window, piece) for",
        "score_window(window, X) for",
        "evaluate",
        "the sign for the minimizing side is wrong",
    ),
    "progressive deepening restarts its count at each depth": (
        "        total += count\n        answers.append((col, value, total))",
        "        answers.append((col, value, count))",
        "deepening",
        "is the count of depth 2's search alone; does it restart the count at each depth?",
    ),
    "progressive deepening answers the last depth only": (
        "        answers.append((col, value, total))\n    return answers",
        "        answers.append((col, value, total))\n    return answers[-1]",
        "deepening",
        "it answers once, as a search of one depth does (does it keep only the last depth's answer?)",
    ),
    "progressive deepening searches at the full depth each time": (
        "        col, value, count = alphabeta(board, limit, piece)",
        "        col, value, count = alphabeta(board, depth, piece)",
        "deepening",
        "after depth 1 the value is",
    ),
    "minimax evaluates a leaf twice": (
        "    if depth == 0:\n        return None, evaluate(board, me)\n    best_col, best = None, None",
        "    if depth == 0:\n        evaluate(board, me)\n        return None, evaluate(board, me)\n"
        "    best_col, best = None, None",
        "minimax",
        "twice as many",
    ),
}


@pytest.mark.parametrize(("old", "new", "check_id", "words"), MISTAKES.values(), ids=list(MISTAKES))
def test_a_mistake_fails_the_check_of_its_own_function_on_a_drawn_position(
    old: str, new: str, check_id: str, words: str
) -> None:
    results, _ = grade(patched(old, new), check_id)
    result = results[check_id]
    assert result.status is CheckStatus.FAILED, result.message
    assert result.cause is not None and words in result.cause.sentence, result.cause
    counterexample = result.counterexample
    assert counterexample is not None and counterexample.drawing is not None
    assert (counterexample.drawing.rows, counterexample.drawing.cols) == (5, 6)


def test_a_win_scored_from_the_wrong_end_of_the_depth_is_a_wrong_minimax_value() -> None:
    source = patched(
        "        return None, (WIN + depth if won == me else -(WIN + depth))\n    moves = legal_moves(board)\n"
        "    if not moves:\n        return None, 0\n    if depth == 0:\n        return None, evaluate(board, me)",
        "        return None, (WIN - depth if won == me else -(WIN - depth))\n    moves = legal_moves(board)\n"
        "    if not moves:\n        return None, 0\n    if depth == 0:\n        return None, evaluate(board, me)",
    )
    results, _ = grade(source, "minimax", "alphabeta")
    assert results["alphabeta"].status is CheckStatus.PASSED  # its own scoring is right
    minimax = results["minimax"]
    assert minimax.status is CheckStatus.FAILED
    assert minimax.counterexample is not None
    assert "-1001" in minimax.counterexample.expected and "-999" in minimax.counterexample.actual


def test_a_lost_game_shows_the_last_position_of_that_game() -> None:
    results, _ = grade(patched("score_window(window, piece) for", "score_window(window, X) for"), "versus-depth-1")
    result = results["versus-depth-1"]
    assert result.status is CheckStatus.FAILED
    assert result.headline.startswith("A lost game as")
    drawing = result.counterexample.drawing if result.counterexample else None
    assert drawing is not None and drawing.line  # the opponent's completed line is marked


def test_a_move_off_the_board_fails_the_games_at_that_move() -> None:
    source = patched("    return alphabeta(board, SEARCH_DEPTH, piece)[0]", "    return COLS")
    results, _ = grade(source, "versus-depth-1")
    result = results["versus-depth-1"]
    assert result.status is CheckStatus.FAILED
    assert result.headline.startswith("An illegal move against a depth-1 opponent")
    assert result.counterexample is not None
    assert result.counterexample.expected == "a column with room: one of 0, 1, 2, 3, 4, 5"
    assert result.counterexample.actual == "6"


PRINCIPAL = '''
def principal(board, depth, piece):
    """(path, score, evaluations): the principal variation, alpha-beta's value and count."""
    _, score, count = alphabeta(board, depth, piece)
    path, mover = [], piece
    for left in range(depth, 0, -1):
        col, _ = _minimax(board, left, mover, piece)
        if col is None:
            break
        path.append(col)
        board, mover = drop_piece(board, col, mover), other(mover)
    return path, score, count
'''

PATH_CHECK = """
[[checks]]
id = "principal"
kind = "game-search"
points = 1
call = "principal(board, depth_limit, to_move)"
heuristic = "evaluate(board, player)"
returns = "path,score,evaluations"
depth_limits = [1, 3]
prune = true
count = "returned"
win_bonus = "plies-left"
include = ["33442"]
examples = 3
"""


@pytest.mark.parametrize(
    ("mistake", "status"), [("", CheckStatus.PASSED), ("board, mover = drop_piece", CheckStatus.FAILED)]
)
def test_a_search_answering_its_principal_variation_is_judged_move_by_move(
    tmp_path: Path, mistake: str, status: CheckStatus
) -> None:
    source = SOLUTION + PRINCIPAL
    if mistake:  # the path keeps the same side to move after each move
        source = source.replace(mistake + "(board, col, mover), other(mover)", mistake + "(board, col, mover), mover")
    result = run_alone(tmp_path, PATH_CHECK, source)
    assert result.status is status, result.message
    if status is CheckStatus.FAILED:
        assert result.cause is not None and "principal variation differs" in result.cause.sentence


def test_a_wrong_winner_costs_once_the_searches_graded_with_the_reference_winner() -> None:
    source = patched(
        "        for row in range(ROWS):\n            for col in range(COLS - WIN_LENGTH + 1):",
        "        for row in range(ROWS):\n            for col in range(COLS - WIN_LENGTH):",
    )
    results, _ = grade(source, "winner", "minimax")
    assert results["winner"].status is CheckStatus.FAILED
    minimax = results["minimax"]
    assert minimax.status is CheckStatus.PASSED
    assert "right once `winner` is: graded with the reference `winner`" in minimax.message


def test_a_search_that_prunes_too_little_shows_the_node_where_the_reference_cut_off() -> None:
    results, _ = grade(patched("if alpha >= beta:", "if alpha > beta:"), "alphabeta")
    result = results["alphabeta"]
    parted = result.detail_as(SearchDivergence)
    assert parted is not None and parted.window is not None
    assert parted.expected.startswith("the reference cuts off here: after column")
    assert parted.actual.startswith("your search went to column")
    assert (parted.drawing.rows, parted.drawing.cols) == (5, 6) and parted.path
    assert CheckResult.from_dict(result.to_dict()).detail == parted  # kept in the stored result
    text = format_submission(SubmissionResult("alpha-greater.ipynb", "connect4", (result,), None))
    assert f"where it went wrong: at static evaluation {parted.evaluation}, the node after columns" in text
    assert f"yours:    {parted.actual}" in text
    page = render_student_report(SubmissionResult("alpha-greater.ipynb", "connect4", (result,), None))
    assert "Where your search went wrong" in page and parted.expected in page
    (shown,) = gradescope_results(SubmissionResult("alpha-greater.ipynb", "connect4", (result,), None))["tests"]
    assert f"where it went wrong: at static evaluation {parted.evaluation}" in shown["output"]
    assert f"expected: {parted.expected}" in shown["output"]


def test_a_search_whose_evaluations_are_the_references_shows_no_node() -> None:
    # the count is doubled, but the heuristic is given the reference's positions in its order
    results, _ = grade(
        patched(
            "    return sum(score_window(window, piece) for window in windows(board))",
            "    global evaluations\n    evaluations += 1\n"
            "    return sum(score_window(window, piece) for window in windows(board))",
        ),
        "alphabeta",
    )
    assert results["alphabeta"].status is CheckStatus.FAILED
    assert results["alphabeta"].detail is None


def test_progressive_deepening_that_searches_at_the_full_depth_parts_in_the_search_at_depth_1() -> None:
    results, _ = grade(
        patched(
            "        col, value, count = alphabeta(board, limit, piece)",
            "        col, value, count = alphabeta(board, depth, piece)",
        ),
        "deepening",
    )
    result = results["deepening"]
    assert result.headline == "Wrong answer after depth 1 of 3 on the empty board"
    parted = result.detail_as(SearchDivergence)
    assert parted is not None and parted.depth == 1 and parted.evaluation == 1
    assert (parted.path, parted.expected) == ((0,), "the reference evaluates this position")
    assert parted.actual == "your search went to column 0 and evaluated the position after columns 0 0 0"


ANYTIME = '''
class AnytimeValue:
    """What MIT 6.034's progressive deepening returns: the answer after each depth."""

    def __init__(self):
        self.value, self.history, self.total_evaluations = None, [], 0

    def set_value(self, value):
        self.value = value
        self.history.append(value)
        self.total_evaluations += value[-1]


def progressive(board, depth, piece):
    anytime = AnytimeValue()
    for limit in range(1, depth + 1):
        anytime.set_value(principal(board, limit, piece))
    return anytime
'''

ANYTIME_CHECK = """
[[checks]]
id = "anytime"
kind = "game-search"
points = 1
call = "progressive(board, depth_limit, to_move)"
heuristic = "evaluate(board, player)"
returns = "path,score,evaluations"
deepening = true
history = "history"
depth_limits = [2]
prune = true
count = "returned"
win_bonus = "plies-left"
include = ["33442"]
examples = 2
"""


@pytest.mark.parametrize(("mistake", "status"), [("", CheckStatus.PASSED), ("limit, piece))", CheckStatus.FAILED)])
def test_an_anytime_value_is_judged_by_the_answers_its_history_holds(
    tmp_path: Path, mistake: str, status: CheckStatus
) -> None:
    source = SOLUTION + PRINCIPAL + ANYTIME
    if mistake:  # each depth's count carried over from the depth before
        source = source.replace(
            mistake, "limit, piece)[:2] + (anytime.total_evaluations + principal(board, limit, piece)[2],))"
        )
    result = run_alone(tmp_path, ANYTIME_CHECK, source)
    assert result.status is status, result.message
    if status is CheckStatus.FAILED:
        assert result.headline.startswith("Wrong answer after depth 2 of 2")
        assert result.cause is not None
        assert "does it carry the count over from the depth before?" in result.cause.sentence


def test_a_search_that_raises_shows_no_node_its_log_stops_where_it_raised() -> None:
    source = patched("        evaluations += 1\n", "        evaluations += 1\n        assert evaluations < 5\n")
    results, _ = grade(source, "alphabeta")
    result = results["alphabeta"]
    assert result.status is CheckStatus.FAILED
    assert result.counterexample is not None and "AssertionError" in result.counterexample.actual
    assert result.detail is None


SWAP_CHECK = """[[checks]]
id = "evaluate"
title = "evaluate: the same value for the other side with the pieces swapped"
kind = "heuristic"
points = 10
call = "evaluate(board, player)"
swap_symmetric = true
"""


def test_a_heuristic_that_raises_on_the_swapped_board_fails_the_swap_check(tmp_path: Path) -> None:
    assert run_alone(tmp_path, SWAP_CHECK, SOLUTION).status is CheckStatus.PASSED
    old = '    """How good `board` looks for `piece`: its open windows minus the opponent\'s."""\n'
    refusing = patched(
        old,
        old + "    if sum(row.count('O') for row in board) > sum(row.count('X') for row in board):\n"
        "        raise ValueError('no game reaches this board')\n",
    )
    result = run_alone(tmp_path, SWAP_CHECK, refusing)
    assert result.status is CheckStatus.FAILED, result.message
    assert result.counterexample is not None
    assert "raised ValueError" in result.counterexample.actual
    assert "every piece swapped" in result.counterexample.expected


def test_the_search_kinds_say_one_depth_as_one():
    assert depths_text((3,)) == "at depth 3"
    assert depths_text((1, 2, 3)) == "at depths 1, 2, 3"
