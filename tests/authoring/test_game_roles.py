"""`grader init` on a correct hand-in of each class in `tests/classes`, with the course's
handout: it writes a check for the side to move, the successor (and how it refuses a move)
and the initial state, from the solution's own answers; those checks, graded on the rest of
the class, fail exactly the hand-ins whose function the classes' oracle finds defective."""

from __future__ import annotations

from pathlib import Path

import pytest

from grader.authoring.create import InitRequest, create_assignment
from grader.checks.context import CheckContext
from grader.checks.registry import run_check
from grader.results import CheckStatus
from grader.spec.loader import load_assignment
from grader.spec.model import Assignment
from tests.checks.in_process import InProcessRunner
from tests.checks.test_course_roles import CLASSES, _handins


def _init(course: str, solution: str, out: Path) -> Assignment:
    report = create_assignment(
        InitRequest(CLASSES / course / "handins" / f"{solution}.py", out, template=CLASSES / course / "handout.py")
    )
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
def test_init_writes_the_cs50_roles_from_a_correct_hand_in(tmp_path: Path) -> None:
    assignment = _init("cs50", "abigail", tmp_path / "cs50")
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
def test_init_writes_select_space_played_in_place_from_a_correct_hand_in(tmp_path: Path) -> None:
    assignment = _init("codecademy", "amara", tmp_path / "codecademy")
    check = next(c for c in assignment.checks if c.id == "select-space")
    assert check.params.call.text == "select_space(board, move, to_move)"
    assert (check.params.returns, check.params.invalid) == ("played", "false")
    assert set(check.params.refuses) == {"occupied", "off-board"}
    _failed_where_the_oracle_says(assignment, "codecademy", {"select-space": "select_space"})
