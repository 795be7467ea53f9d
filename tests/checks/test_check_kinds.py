"""Check kinds against in-process student code: a correct solution passes every check, each
realistic bug loses exactly the check it should, with a counterexample that shows it."""

from __future__ import annotations

from grader.check_details import NodeCounts, PlayedGame
from grader.checks.context import CheckContext
from grader.checks.registry import needed_functions, run_check
from grader.results import CheckStatus
from grader.spec.loader import load_assignment
from reference import Board
from tests.checks.in_process import InProcessRunner
from tests.seed_sources import LAB05_SOLUTION, variant

LAB05 = load_assignment("lab05")
FAST_CHECKS = [c for c in LAB05.checks if c.kind not in ("random-opponent", "runs-cleanly")]


def grade(source: str, check_ids: list[str] | None = None) -> dict:
    runner = InProcessRunner(source)
    ctx = CheckContext.of(LAB05, runner, frozenset(runner.defined_names()))
    checks = [c for c in LAB05.checks if check_ids is None or c.id in check_ids]
    return {c.id: run_check(c, ctx) for c in checks}


def test_solution_passes_every_check() -> None:
    results = grade(LAB05_SOLUTION, [c.id for c in FAST_CHECKS] + ["random-opponent"])
    bad = {k: (r.status, r.message) for k, r in results.items() if r.status != CheckStatus.PASSED}
    assert bad == {}


def test_missing_anti_diagonal_is_shown_on_the_anti_diagonal() -> None:
    source = variant("[0, 4, 8], [2, 4, 6]]", "[0, 4, 8]]")
    result = grade(source, ["check-win"])["check-win"]
    assert result.status == CheckStatus.FAILED
    ce = result.counterexample
    board = Board.from_string(ce.board)
    assert {board.cells[2], board.cells[4], board.cells[6]} <= {"X", "O"} and board.cells[2] == board.cells[
        4
    ] == board.cells[6]
    assert ce.expected == "True" and ce.actual == "False"
    # the wrong answer alone names the line; the answers together show the function's defect
    assert result.cause is not None and result.cause.source == "local"
    assert result.cause.defect is not None and (2, 4, 6) not in result.cause.defect.lines
    assert result.learnt.defect == result.cause.defect
    assert "anti-diagonal" in result.cause.sentence  # the words a student reads
    # hypothesis shrinks to the line itself: three marks
    assert 9 - len(board.empty_cells()) == 3


def test_draw_that_ignores_wins() -> None:
    source = variant(
        'return " " not in board and not check_win(board, "X") and not check_win(board, "O")', 'return " " not in board'
    )
    result = grade(source, ["check-draw", "check-win"])
    assert result["check-win"].status == CheckStatus.PASSED
    assert result["check-draw"].status == CheckStatus.FAILED
    assert result["check-draw"].cause is not None and result["check-draw"].cause.source == "local"
    assert "winning line" in result["check-draw"].cause.sentence
    assert Board.from_string(result["check-draw"].counterexample.board).is_full()


def test_move_not_undone_fails_value_and_mutation() -> None:
    source = variant(
        '                board[i] = "O"\n                score = minimax(board, depth + 1, False, max_depth)\n                board[i] = " "\n',
        '                board[i] = "O"\n                score = minimax(board, depth + 1, False, max_depth)\n',
    )
    results = grade(source, ["minimax-no-mutation", "check-win", "alphabeta-value"])
    assert results["minimax-no-mutation"].status == CheckStatus.FAILED
    mutation = results["minimax-no-mutation"].cause
    assert mutation is not None and mutation.source == "local" and "not undone" in mutation.sentence
    assert results["check-win"].status == CheckStatus.PASSED
    assert results["alphabeta-value"].status == CheckStatus.PASSED


def test_swapped_final_scores_are_diagnosed() -> None:
    source = LAB05_SOLUTION.replace(
        '    if check_win(board, "O"):\n        return 1\n    if check_win(board, "X"):\n        return -1\n    if check_draw(board):\n        return 0\n    if depth >= max_depth',
        '    if check_win(board, "O"):\n        return -1\n    if check_win(board, "X"):\n        return 1\n    if check_draw(board):\n        return 0\n    if depth >= max_depth',
    )
    assert source != LAB05_SOLUTION
    results = grade(source, ["minimax-value", "alphabeta-value"])
    assert results["alphabeta-value"].status == CheckStatus.PASSED
    failed = results["minimax-value"]
    assert failed.status == CheckStatus.FAILED
    assert failed.cause is not None and failed.cause.source == "known-mistake"
    assert "favours the wrong player" in failed.cause.sentence


def test_cut_on_strict_comparison_gets_partial_node_credit() -> None:
    source = LAB05_SOLUTION.replace("if beta <= alpha:", "if beta < alpha:")
    results = grade(source, ["alphabeta-value", "node-reduction"])
    assert results["alphabeta-value"].status == CheckStatus.PASSED
    nodes = results["node-reduction"]
    assert nodes.status == CheckStatus.PARTIAL
    assert 0 < nodes.score < nodes.max_score
    row = nodes.detail_as(NodeCounts).rows[0]
    assert row.minimax == row.reference_minimax
    assert row.reference_alphabeta < row.alphabeta < row.minimax


def test_no_pruning_at_all_fails_node_reduction() -> None:
    source = LAB05_SOLUTION.replace("if beta <= alpha:\n                    break", "pass")
    assert source != LAB05_SOLUTION
    result = grade(source, ["node-reduction"])["node-reduction"]
    assert result.status == CheckStatus.FAILED
    assert result.cause is not None and result.cause.source == "known-mistake"
    assert "nothing is ever prune" in result.cause.sentence


def test_depth_never_incremented_is_recognised() -> None:
    source = LAB05_SOLUTION.replace(
        "score = minimax(board, depth + 1, False, max_depth)", "score = minimax(board, depth, False, max_depth)"
    )
    source = source.replace(
        "score = minimax(board, depth + 1, True, max_depth)", "score = minimax(board, depth, True, max_depth)"
    )
    results = grade(source, ["depth-limited", "minimax-value"])
    assert results["minimax-value"].status == CheckStatus.PASSED
    failed = results["depth-limited"]
    assert failed.status == CheckStatus.FAILED
    # a pattern every answer follows, not a catalogued mistake
    assert failed.cause is not None and failed.cause.source == "local" and "never reached" in failed.cause.sentence


def test_missing_function_is_not_run_with_suggestion() -> None:
    source = LAB05_SOLUTION.replace("def minimaxAB(", "def minimaxAlphaBetta(").replace(
        "eval = minimaxAB(", "eval = minimaxAlphaBetta("
    )
    results = grade(source, ["alphabeta-value", "node-reduction", "check-win"])
    for check_id in ("alphabeta-value", "node-reduction"):
        assert results[check_id].status == CheckStatus.NOT_RUN
        assert "`minimaxAB` is not defined" in results[check_id].message
        assert "minimaxAlphaBetta" in results[check_id].message
    assert results["check-win"].status == CheckStatus.PASSED


def rename_check_win(source: str) -> str:
    return source.replace("def check_win(", "def checkWin(").replace("check_win(board,", "checkWin(board,")


def test_alias_is_accepted() -> None:
    """`checkWin` is an accepted alias of `check_win`: the check calls it, right or wrong."""
    assert grade(rename_check_win(LAB05_SOLUTION), ["check-win"])["check-win"].status == CheckStatus.PASSED
    wrong = grade(rename_check_win(variant("[0, 4, 8], [2, 4, 6]]", "[0, 4, 8]]")), ["check-win"])["check-win"]
    assert wrong.status == CheckStatus.FAILED and wrong.counterexample.call.startswith("checkWin(")


def test_a_check_needs_the_functions_its_kind_calls() -> None:
    """What decides whether a bonus check runs: the functions its kind declares it calls."""
    checks = {c.id: c for c in LAB05.checks}
    assert needed_functions(checks["node-reduction"]) == ("minimax", "minimaxAB")
    assert needed_functions(checks["random-opponent"]) == ("best_move",)
    assert needed_functions(checks["runs-cleanly"]) == ()
    practice = next(c for c in load_assignment("minimax-enhanced").checks if c.id == "connect4")
    assert needed_functions(practice) == ("c4_minimax",)


def test_grading_is_deterministic() -> None:
    source = variant("[0, 4, 8], [2, 4, 6]]", "[0, 4, 8]]")
    first = grade(source, ["check-win", "minimax-value"])
    second = grade(source, ["check-win", "minimax-value"])
    for check_id in first:
        assert first[check_id].status == second[check_id].status
        assert first[check_id].counterexample == second[check_id].counterexample


def test_student_exception_is_a_failure_not_a_crash() -> None:
    source = LAB05_SOLUTION.replace(
        "def check_draw(board):\n", "def check_draw(board):\n    raise ValueError('oops')\n"
    )
    result = grade(source, ["check-draw"])["check-draw"]
    assert result.status == CheckStatus.FAILED
    assert "ValueError: oops" in result.counterexample.actual
    # Reports label it "Your code gave": a phrase that reads on from there.
    assert result.counterexample.actual.startswith("no answer: it raised ValueError")


def test_draw_scored_as_loss_is_diagnosed() -> None:
    source = LAB05_SOLUTION.replace(
        "    if check_draw(board):\n        return 0\n    if depth >= max_depth",
        "    if check_draw(board):\n        return -1\n    if depth >= max_depth",
    )
    assert source != LAB05_SOLUTION
    failed = grade(source, ["minimax-value"])["minimax-value"]
    assert failed.status == CheckStatus.FAILED
    assert failed.cause is not None and failed.cause.source == "known-mistake"
    assert "scored as a loss" in failed.cause.sentence


def test_a_lost_random_game_shows_the_final_board() -> None:
    source = variant("[0, 4, 8], [2, 4, 6]]", "[0, 4, 8]]")  # the AI cannot see anti-diagonal wins
    result = grade(source, ["random-opponent"])["random-opponent"]
    assert result.status == CheckStatus.FAILED
    assert result.figures["tally"]["Opponent"] >= 1
    ce = result.counterexample
    board = Board.from_string(ce.board)
    ai = next(c for c in LAB05.checks if c.id == "random-opponent").params.ai
    assert board.winners() and ai not in board.winners()
    assert ce.expected == "a win or a draw for the AI" and "win for the random player" in ce.actual
    assert result.cause is None  # no check of a lower-level function ran before it


def test_a_lost_random_game_shows_its_moves() -> None:
    source = variant("[0, 4, 8], [2, 4, 6]]", "[0, 4, 8]]")
    result = grade(source, ["random-opponent"])["random-opponent"]
    game = result.detail
    assert isinstance(game, PlayedGame)
    moves = list(game.moves)
    board = Board.from_string(result.counterexample.board)
    assert len(moves) == 9 - len(board.empty_cells())
    assert [m.split()[0] for m in moves][:2] == ["X", "O"]
    assert ", ".join(moves) in result.counterexample.actual
    assert "random-opponent" not in result.counterexample.call and "game" in result.counterexample.call


def test_a_wrong_shape_reads_as_an_answer() -> None:
    source = LAB05_SOLUTION.replace("def check_draw(board):\n", "def check_draw(board):\n    return 'yes'\n")
    result = grade(source, ["check-draw"])["check-draw"]
    assert result.counterexample.actual.startswith("an answer of the wrong shape (expected True or False")
