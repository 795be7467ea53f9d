"""Realistic wrong submissions lose exactly the checks they should, with feedback that shows
the bug; solutions and the seed notebooks as students wrote them score what they deserve."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from grader.assignment import load_assignment
from grader.grading import grade_submission
from grader.results import CheckStatus

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

SUBMISSIONS = Path(__file__).resolve().parent.parent / "submissions"
EXPECTED = tomllib.loads((SUBMISSIONS / "expected.toml").read_text())
CASES = [(assignment, name, spec) for assignment, entries in EXPECTED.items() for name, spec in entries.items()]

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("assignment_id, name, expected", CASES, ids=[f"{a}/{n}" for a, n, _ in CASES])
def test_wrong_submission_loses_exactly_its_checks(assignment_id: str, name: str, expected: dict) -> None:
    assignment = load_assignment(assignment_id)
    result = grade_submission(SUBMISSIONS / assignment_id / f"{name}.ipynb", assignment)
    wanted = {check.id: CheckStatus.PASSED for check in assignment.checks}
    wanted.update({c: CheckStatus.FAILED for c in expected.get("failed", [])})
    wanted.update({c: CheckStatus.PARTIAL for c in expected.get("partial", [])})
    actual = {c.check_id: c.status for c in result.checks}
    assert actual == wanted
    cause = expected["cause"]
    feedback = result.check(cause["check"])
    text = " ".join(filter(None, [feedback.message, feedback.counterexample and feedback.counterexample.cause]))
    assert cause["words"] in text
    if feedback.status == CheckStatus.FAILED and feedback.counterexample and feedback.counterexample.board:
        assert len(feedback.counterexample.board) == 9  # the board that shows the bug is drawn


@pytest.mark.parametrize("assignment_id", ["lab05", "alphabeta-challenges"])
def test_seed_notebook_as_written_gets_full_marks(assignment_id: str) -> None:
    """Both seeds are correct in the end (seed 004 repairs its syntax-error cell later)."""
    assignment = load_assignment(assignment_id)
    result = grade_submission(SUBMISSIONS / assignment_id / "seed.ipynb", assignment)
    assert result.score == result.max_score
    assert all(c.status == CheckStatus.PASSED for c in result.checks if c.check_id != "runs-cleanly")
