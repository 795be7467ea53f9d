"""`grader init` on a correct hand-in of each class in `tests/classes`, with the course's
handout: it writes a check for the side to move, the successor (and how it refuses a move)
and the initial state, from the solution's own answers; those checks, graded on the rest of
the class, fail exactly the hand-ins whose function the classes' oracle finds defective."""

from __future__ import annotations

from pathlib import Path

import pytest

from grader.authoring.create import InitRequest
from grader.checks.context import CheckContext
from grader.checks.kinds.state import SuccessorParams
from grader.checks.registry import run_check
from grader.results import CheckStatus
from grader.spec.loader import load_assignment
from grader.spec.model import Assignment
from tests.authoring.shared_init import shared_init
from tests.authoring.test_inference import _infer
from tests.checks.in_process import InProcessRunner
from tests.checks.test_course_roles import CLASSES, _handins

ABIGAIL = (CLASSES / "cs50" / "handins" / "abigail.py").read_text(encoding="utf-8")
CHECKED = """    if action not in actions(board):
        raise Exception("Invalid action")
"""


def _init(course: str, solution: str, out: Path, factory: pytest.TempPathFactory) -> Assignment:
    handin = CLASSES / course / "handins" / f"{solution}.py"
    report = shared_init(InitRequest(handin, out, template=CLASSES / course / "handout.py"), factory)
    assert report.return_code == 0, str(report)
    return load_assignment(out)


def _failed_where_the_oracle_says(assignment: Assignment, course: str, checks: dict[str, str]) -> None:
    """Each check (id -> the function it judges) on every hand-in that imports, graded in
    this process: failed exactly where the oracle finds the function defective."""
    written = {c.id: c for c in assignment.checks}
    for name, defective in _handins(course).items():
        runner = InProcessRunner((CLASSES / course / "handins" / f"{name}.py").read_text(encoding="utf-8"))
        ctx = CheckContext.of(assignment, runner, frozenset(runner.defined_names()))
        for check_id, function in checks.items():
            result = run_check(written[check_id], ctx)
            expected = CheckStatus.FAILED if function in defective else CheckStatus.PASSED
            assert result.status is expected, (name, check_id, result.message)


@pytest.mark.kernel
@pytest.mark.slow
def test_init_writes_the_cs50_roles_from_a_correct_hand_in(
    tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    assignment = _init("cs50", "abigail", tmp_path / "cs50", tmp_path_factory)
    checks = {c.id: c for c in assignment.checks}
    player, result, initial = checks["player"], checks["result"], checks["initial-state"]
    assert (player.kind, player.params.expect, player.params.boards) == ("predicate", "to-move", "unfinished")
    assert (result.kind, result.params.call.text) == ("successor", "result(board, move)")
    assert (result.params.returns, result.params.invalid) == ("state", "raise")
    assert set(result.params.refuses) == {"occupied", "off-board"}
    assert (initial.kind, initial.params.call.text) == ("initial-state", "initial_state()")
    toml = (tmp_path / "cs50" / "assignment.toml").read_text(encoding="utf-8")
    assert "raises on all 12 moves off the board ((3, 3), (-1, 0)" in toml
    _failed_where_the_oracle_says(
        assignment, "cs50", {"player": "player", "result": "result", "initial-state": "initial_state"}
    )


@pytest.mark.kernel
@pytest.mark.slow
def test_init_writes_select_space_played_in_place_from_a_correct_hand_in(
    tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    assignment = _init("codecademy", "amara", tmp_path / "codecademy", tmp_path_factory)
    check = next(c for c in assignment.checks if c.id == "select-space")
    assert check.params.call.text == "select_space(board, move, to_move)"
    assert (check.params.returns, check.params.invalid) == ("played", "false")
    assert set(check.params.refuses) == {"occupied", "off-board"}
    _failed_where_the_oracle_says(assignment, "codecademy", {"select-space": "select_space"})


def _successor_draft(source: str) -> tuple[SuccessorParams, str]:
    """The params and the evidence of the successor check init drafts for ``source``."""
    draft, _ = _infer(source)
    (check,) = [c for c in draft.checks if c.kind == "successor"]
    return check.params, check.evidence


def test_a_successor_that_refuses_nothing_is_checked_on_its_legal_moves_only() -> None:
    params, evidence = _successor_draft(ABIGAIL.replace(CHECKED, ""))
    assert params.refuses == ()
    assert "no one way of refusing the moves on a taken cell: not checked" in evidence


def test_each_refusal_is_checked_only_the_way_the_solution_shows_it() -> None:
    refusing = """    if not (0 <= action[0] < 3 and 0 <= action[1] < 3):
        raise ValueError("off the board")
    if board[action[0]][action[1]] is not None:
        return None
"""
    params, evidence = _successor_draft(ABIGAIL.replace(CHECKED, refusing))
    assert (params.invalid, params.refuses) == ("none", ("occupied",))
    assert "returns None on all 11 moves on a taken cell" in evidence
    assert "raises on the moves off the board" in evidence and "not checked" in evidence


def test_a_function_of_no_arguments_is_the_initial_state_only_when_it_returns_the_empty_board() -> None:
    draft, _ = _infer(ABIGAIL)
    (check,) = [c for c in draft.checks if c.kind == "initial-state"]
    assert check.params.call.text == "initial_state()"
    draft, _ = _infer(ABIGAIL.replace("[[EMPTY, EMPTY, EMPTY],\n", "[[X, EMPTY, EMPTY],\n", 1))
    assert not [c for c in draft.checks if c.kind == "initial-state"]
