"""Feedback that names the real mistake, on lab05's functions run in-process: a call that
cannot bind or a stub is said so in the headline; failures that follow from a wrong
lower-level function name it; a cause is named only when it reproduces every answer; printed
text is quoted as printed."""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path

import pytest

from grader.check_notes import Cause
from grader.check_wording import cause_line
from grader.checks.causes.search import SearchAnswer, search_cause
from grader.checks.context import CheckContext
from grader.checks.registry import run_check
from grader.execution.result import CellRecord, CellStatus, ExecutionResult, SandboxMode
from grader.results import CheckResult, CheckStatus
from grader.spec.loader import load_assignment
from grader.spec.model import Assignment, AssignmentError
from reference import Board, O, SearchSpec, X
from tests.checks.in_process import InProcessRunner
from tests.seed_sources import LAB05_SOLUTION, variant

LAB05 = load_assignment("lab05")
NO_ANTI_DIAGONAL = variant("[0, 4, 8], [2, 4, 6]]", "[0, 4, 8]]")
FOLLOWS = "This follows from `check_win` missing the anti-diagonal; fix that first."


def grade(source: str, check_ids: list[str], assignment: Assignment = LAB05) -> dict[str, CheckResult]:
    runner = InProcessRunner(source)
    ctx = CheckContext.of(assignment, runner, frozenset(runner.defined_names()))
    return {c.id: run_check(c, ctx) for c in assignment.checks if c.id in check_ids}


def cause(result: CheckResult) -> str | None:
    return cause_line(result)


def test_failures_above_a_wrong_win_test_name_it() -> None:
    results = grade(NO_ANTI_DIAGONAL, ["check-win", "check-draw", "minimax-value", "best-move", "node-reduction"])
    assert "anti-diagonal" in (cause(results["check-win"]) or "")
    # the draw test's failures are the win test's defect, found by the check before it
    draw_cause = results["check-draw"].cause
    assert draw_cause is not None and draw_cause.source == "root-cause"
    assert draw_cause.defect == results["check-win"].learnt.defect
    assert draw_cause.defect is not None and draw_cause.defect.function == "check_win"
    for check_id in ("check-draw", "minimax-value", "best-move", "node-reduction"):
        named = results[check_id].cause
        assert named is not None and named.source == "root-cause", check_id
        assert named.defect == results["check-win"].learnt.defect, check_id
    for check_id in ("check-draw", "minimax-value", "best-move"):
        assert results[check_id].status == CheckStatus.FAILED
        assert cause(results[check_id]) == FOLLOWS, check_id
    assert results["node-reduction"].status == CheckStatus.PARTIAL
    assert cause(results["node-reduction"]) == FOLLOWS  # not "a cut-off on > instead of >="


def test_an_independent_bug_is_not_blamed_on_the_win_test() -> None:
    source = NO_ANTI_DIAGONAL.replace("if beta <= alpha:", "if beta < alpha:")
    results = grade(source, ["check-win", "alphabeta-value", "node-reduction"])
    # the values on the full window show the win test; the cut-off changes the bounds on narrowed
    # windows and the node counts, which a search built on the win test alone does not give
    values = results["alphabeta-value"].cause
    assert values is not None and values.source == "known-mistake" and "anti-diagonal" in values.sentence
    assert results["node-reduction"].status == CheckStatus.PARTIAL
    # no rule reproduces the whole exploration: the fact where it first parts from the reference
    nodes = results["node-reduction"].cause
    assert nodes is not None and nodes.source == "local" and nodes.defect is None


def test_a_win_test_with_one_parameter_is_said_so_in_the_headline() -> None:
    source = LAB05_SOLUTION.replace("def check_win(board, player):", "def check_winner(board):")
    result = grade(source, ["check-win"])["check-win"]
    assert result.status == CheckStatus.FAILED
    assert result.cause is not None and result.cause.source == "shape"
    assert result.message == "`check_winner` takes 1 argument; this assignment calls `check_winner(board, player)`."
    assert cause(result) is None  # no guess from one board beside the shape


def test_a_stub_is_not_implemented_and_what_builds_on_it_follows_from_it() -> None:
    source = variant(
        "def check_win(board, player):\n",
        "def check_win(board, player):\n    pass\n\ndef _unused(board, player):\n",
    )
    results = grade(source, ["check-win", "minimax-value"])
    stub = results["check-win"]
    assert stub.cause is not None and stub.cause.source == "shape"
    # the shape is the cause, and the stub's defect is still left for the checks built on it
    assert stub.learnt.defect is not None and stub.learnt.defect.description == "not being implemented yet"
    assert stub.message.startswith("`check_win` is not implemented yet: it returns None")
    assert cause(results["minimax-value"]) == "This follows from `check_win` not being implemented yet; fix that first."
    above = results["minimax-value"].cause
    assert above is not None and above.source == "root-cause" and above.defect == stub.learnt.defect


def test_a_win_test_that_returns_the_winning_mark_follows_a_convention() -> None:
    source = LAB05_SOLUTION.replace(
        "        if board[combo[0]] == board[combo[1]] == board[combo[2]] == player:\n            return True\n    return False",
        "        if board[combo[0]] == board[combo[1]] == board[combo[2]] != ' ':\n            return board[combo[0]]\n"
        "    return False",
    )
    assert source != LAB05_SOLUTION
    result = grade(source, ["check-win"])["check-win"]
    assert result.status == CheckStatus.FAILED
    assert result.cause is not None and result.cause.source == "convention" and result.cause.defect is None
    assert cause(result) == result.cause.sentence


def test_a_stub_that_raises_is_not_implemented() -> None:
    source = variant(
        "def minimaxAB(board, depth, maximizing_player, alpha, beta):\n",
        "def minimaxAB(board, depth, maximizing_player, alpha, beta):\n    raise NotImplementedError\n",
    )
    result = grade(source, ["alphabeta-value"])["alphabeta-value"]
    assert result.message == "`minimaxAB` is not implemented yet: it raises NotImplementedError."
    assert result.cause is not None and result.cause.source == "shape" and cause(result) is None


def test_best_move_for_the_other_player_is_named_as_a_convention() -> None:
    source = LAB05_SOLUTION.replace("if evaluation > best_eval:", "if evaluation < best_eval:").replace(
        'best_eval = float("-inf")', 'best_eval = float("inf")'
    )
    assert source != LAB05_SOLUTION
    result = grade(source, ["best-move"])["best-move"]
    assert result.cause is not None and result.cause.source == "convention" and result.cause.defect is None
    assert "best ones for the opponent of the player to move" in (cause(result) or "")


def test_depends_on_is_refused_by_name(tmp_path: Path) -> None:
    """A mistake costs once through the stand-in regrade (`grader.checks.reference_helpers`);
    an old spec that still says ``depends_on`` is told so instead of being half obeyed."""
    text = (
        (LAB05.directory / "assignment.toml")
        .read_text()
        .replace('id = "check-win"\n', 'id = "check-win"\ndepends_on = ["minimax-value"]\n', 1)
    )
    (tmp_path / "assignment.toml").write_text(text)
    (tmp_path / "STDIN.txt").write_text("")
    with pytest.raises(AssignmentError) as raised:
        load_assignment(tmp_path)
    assert "checks[0] (check-win)" in str(raised.value)
    assert "depends_on" in str(raised.value)


def _answer(board: str, value: float, full: float, expected: float, limit: int) -> SearchAnswer:
    spec = SearchSpec(maximizer=O, first_player=X, scoring="unit", depth_limit=limit)
    b = Board.from_string(board)
    return SearchAnswer(b, b.to_move(X), spec, value, value, None, True, expected, (-math.inf, math.inf), full)


def test_a_cause_fitting_one_answer_by_chance_is_not_named() -> None:
    ctx = CheckContext.of(LAB05, InProcessRunner(""), frozenset())

    def explain(answers: list[SearchAnswer]) -> Cause | None:
        return search_cause(
            ctx,
            "d",
            answers,
            complete=True,
            returns=("value",),
            move_format="index",
            judge_moves=False,
            windows=False,
            failing_full=True,
        )

    chance = _answer("X...O....", 1, 1, 0, 1)  # the full-depth value, where the limit gives 0
    other = _answer("XO.......", -1, 1, 0, 1)  # neither the full-depth nor the limited value
    named = explain([chance])
    assert named is not None and named.source == "local" and "never reached" in named.sentence
    assert explain([chance, other]) is None


def test_printed_text_is_quoted_as_printed() -> None:
    experiment04 = load_assignment("experiment04")
    judged = next(c for c in experiment04.checks if c.kind == "printed-sequence")
    # Only what was printed (the game itself is judged in tests/checks/test_printed_game.py).
    check = dataclasses.replace(judged, params=dataclasses.replace(judged.params, game_call=None))
    cell = CellRecord(0, 1, "input()", CellStatus.OK, output="X moves:\nX wins!\n")
    record = ExecutionResult((cell,), (), SandboxMode.NONE, None, 0, 0.0, 0.0, False)
    result = run_check(check, CheckContext.of(experiment04, InProcessRunner(""), frozenset(), execution=record))
    assert result.message == 'The cell that runs `input(` printed "X wins!".'
    assert cause(result) == 'The 1st printed value is "X wins!" instead of "It\'s a tie!".'
