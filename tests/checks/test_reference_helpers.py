"""A mistake costs once: the checks built on a wrong lower-level function are graded again
with the reference's version standing in for it, and keep that result when it is better."""

from __future__ import annotations

from dataclasses import replace

from grader.check_notes import Regraded
from grader.check_wording import cause_line
from grader.checks.context import CheckContext
from grader.checks.reference_helpers import stand_in_for
from grader.checks.registry import run_check
from grader.results import CheckResult, CheckStatus
from grader.spec.loader import load_assignment
from grader.spec.model import Assignment
from tests.checks.in_process import InProcessRunner, solution_definitions
from tests.seed_sources import LAB05_SOLUTION, variant

LAB05 = load_assignment("lab05")
EXPERIMENT04 = load_assignment("experiment04")
DEPTH_LIMITS = load_assignment("depth-limits")
NO_ANTI_DIAGONAL = variant("[0, 4, 8], [2, 4, 6]]", "[0, 4, 8]]")
FOLLOWS = "This follows from `check_win` missing the anti-diagonal; fix that first."


def grade(source: str, check_ids: list[str], assignment: Assignment = LAB05) -> dict[str, CheckResult]:
    """The checks as grading runs them: the kernel tells who names whom."""
    runner = InProcessRunner(source)
    ctx = CheckContext.of(assignment, runner, frozenset(runner.defined_names()), hangs=runner.hang_memory(assignment))
    return {c.id: run_check(c, ctx) for c in assignment.checks if c.id in check_ids}


def regraded(result: CheckResult) -> Regraded | None:
    return next((note for note in result.notes if isinstance(note, Regraded)), None)


def assert_costs_once(results: dict[str, CheckResult], wrong: str, built_on: list[str], helper: str) -> Regraded:
    """The check of the wrong function fails; every check built on it passes, graded with the
    reference's ``helper``; the last one's note."""
    assert results[wrong].status == CheckStatus.FAILED
    note = None
    for check_id in built_on:
        assert results[check_id].status == CheckStatus.PASSED, (check_id, results[check_id].message)
        note = regraded(results[check_id])
        assert note is not None and note.passed and helper in note.helpers, check_id
    assert note is not None
    return note


def cause(result: CheckResult) -> str | None:
    return cause_line(result)


def test_a_search_right_on_the_reference_win_test_keeps_its_points_and_says_so() -> None:
    searches = ["minimax-value", "alphabeta-value", "best-move", "node-reduction", "depth-limited"]
    results = grade(NO_ANTI_DIAGONAL, ["check-win", "check-draw", *searches])
    assert "anti-diagonal" in (cause(results["check-win"]) or "")
    assert_costs_once(results, "check-win", searches, "check_win")
    # the words a student reads
    assert results["minimax-value"].message.startswith(
        "`minimax` is right once `check_win` is: graded with the reference `check_win` in place of yours."
    )
    assert regraded(results["node-reduction"]) == Regraded(("check_win",), ("minimax", "minimaxAB"), True)
    assert results["node-reduction"].message.startswith("`minimax` and `minimaxAB` are right once `check_win` is")
    # check_draw calls check_win: it is right too, once check_win is
    assert results["check-draw"].status == CheckStatus.PASSED


def test_a_search_wrong_on_its_own_keeps_the_first_result_and_its_cause() -> None:
    stubbed = NO_ANTI_DIAGONAL.replace(
        "def best_move(board):", "def best_move(board):\n    raise NotImplementedError\n\ndef _unused(board):"
    )
    results = grade(stubbed, ["check-win", "minimax-value", "best-move"])
    assert results["minimax-value"].status == CheckStatus.PASSED
    assert results["best-move"].status == CheckStatus.FAILED and results["best-move"].score == 0
    assert regraded(results["best-move"]) is None


def test_a_search_wrong_with_the_reference_helper_too_keeps_its_first_result() -> None:
    draw_as_loss = NO_ANTI_DIAGONAL.replace(
        "    if check_draw(board):\n        return 0\n    if depth >= max_depth:",
        "    if check_draw(board):\n        return -1\n    if depth >= max_depth:",
    )
    results = grade(draw_as_loss, ["check-win", "minimax-value"])
    assert results["minimax-value"].status == CheckStatus.FAILED
    assert regraded(results["minimax-value"]) is None


def test_an_assignment_can_turn_it_off() -> None:
    results = grade(NO_ANTI_DIAGONAL, ["check-win", "minimax-value"], replace(LAB05, reference_helpers=False))
    assert results["minimax-value"].status == CheckStatus.FAILED
    assert regraded(results["minimax-value"]) is None
    assert cause(results["minimax-value"]) == FOLLOWS


def test_a_draw_test_that_always_says_yes_is_not_blamed_on_the_pruning() -> None:
    source = LAB05_SOLUTION.replace(
        'def check_draw(board):\n    return " " not in board', "def check_draw(board):\n    return True or board"
    )
    built_on = ["alphabeta-value", "node-reduction"]
    results = grade(source, ["check-draw", *built_on])
    assert_costs_once(results, "check-draw", built_on, "check_draw")


def test_experiment04_a_wrong_full_board_test_costs_once() -> None:
    source = solution_definitions(EXPERIMENT04).replace(
        "return all(cell != ' ' for row in board", "return any(cell != ' ' for row in board"
    )
    built_on = ["minimax-value", "find-best-move"]
    results = grade(source, ["board-full", *built_on], EXPERIMENT04)
    assert_costs_once(results, "board-full", built_on, "is_board_full")


def test_depth_limits_a_moves_method_that_skips_a_column_costs_once() -> None:
    source = solution_definitions(DEPTH_LIMITS).replace(
        "for j in range(3):\n                if b[i][j] == 0:", "for j in range(2):\n                if b[i][j] == 0:"
    )
    built_on = ["minmax-full-depth", "minmax-depth-limited"]
    results = grade(source, ["possible-actions", *built_on], DEPTH_LIMITS)
    note = assert_costs_once(results, "possible-actions", built_on, "State.possible_actions")
    assert note.built == ("State.minmax",)


def test_what_stands_in_speaks_the_assignments_call() -> None:
    runner = InProcessRunner(solution_definitions(DEPTH_LIMITS))
    ctx = CheckContext.of(DEPTH_LIMITS, runner, frozenset(runner.defined_names()))
    by_id = {c.id: c for c in DEPTH_LIMITS.checks}
    terminal = stand_in_for(by_id["terminal-test"], ctx)
    assert terminal is not None
    assert (terminal.name, terminal.role, terminal.board_arg, terminal.player_arg) == (
        "State.terminal_test",
        "outcome",
        None,
        None,
    )
    assert dict(terminal.codes) == {"X": 1, "O": 2, "tie": -1, "ongoing": 0}
    assert stand_in_for(by_id["expand"], ctx) is None  # a successor: kept as it is
    lab05 = InProcessRunner(LAB05_SOLUTION)
    lab05_ctx = CheckContext.of(LAB05, lab05, frozenset(lab05.defined_names()))
    win = stand_in_for(next(c for c in LAB05.checks if c.id == "check-win"), lab05_ctx)
    assert win is not None and (win.name, win.role, win.board_arg, win.player_arg) == ("check_win", "wins", 0, 1)


def test_the_reference_spells_no_winner_as_the_students_function_does() -> None:
    enhanced = load_assignment("minimax-enhanced")
    source = (
        solution_definitions(enhanced)
        .replace(",                          # main diagonal\n     [(0, 2), (1, 1), (2, 0)]]", "]")
        .replace("            return board[a][b]\n    return None", "            return board[a][b]\n    return ''")
        .replace("return check_winner(board) is not None or", "return check_winner(board) != '' or")
    )
    assert source.count("return ''") == 1 and "!= '' or" in source and "(2, 0)]]" not in source
    built_on = ["is-terminal", "minimax"]
    results = grade(source, ["check-winner", *built_on], enhanced)
    # graded with a check_winner that answers None for no winner, is_terminal would see a winner everywhere
    assert_costs_once(results, "check-winner", built_on, "check_winner")
    assert results["check-winner"].learnt.spellings == {"ongoing": ""}


def test_connect_fours_legal_moves_and_drop_stand_in_where_their_order_and_board_are_known() -> None:
    """The legal moves stand in when the check pins their order (left to right): a search's move
    order is its own, so another order the course keeps is not guessed. The drop that returns a
    new board stands in with one."""
    connect4 = load_assignment("connect4")
    runner = InProcessRunner(solution_definitions(connect4))
    ctx = CheckContext.of(connect4, runner, frozenset(runner.defined_names()))
    by_id = {c.id: c for c in connect4.checks}
    legal = stand_in_for(by_id["legal-moves"], ctx)
    assert legal is not None and (legal.name, legal.role, legal.board_arg) == ("legal_moves", "grid-legal-moves", 0)
    unordered = replace(by_id["legal-moves"], params=replace(by_id["legal-moves"].params, ordered=False))
    assert stand_in_for(unordered, ctx) is None
    drop = stand_in_for(by_id["drop-piece"], ctx)
    assert drop is not None
    assert (drop.role, drop.returns, drop.board_arg, drop.move_arg, drop.player_arg) == (
        "grid-drop",
        "new-board",
        0,
        1,
        2,
    )
