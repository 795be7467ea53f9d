"""Realistic wrong submissions lose exactly the checks they should, with feedback that shows
the bug; solutions and the seed notebooks as students wrote them score what they deserve."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from grader.grading import grade_submission
from grader.results import CheckStatus
from grader.spec.loader import load_assignment

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

SUBMISSIONS = Path(__file__).resolve().parent.parent / "submissions"
EXPECTED = tomllib.loads((SUBMISSIONS / "expected.toml").read_text())
CASES = [(assignment, name, spec) for assignment, entries in EXPECTED.items() for name, spec in entries.items()]

pytestmark = [pytest.mark.slow, pytest.mark.kernel]


@pytest.mark.parametrize("assignment_id, name, expected", CASES, ids=[f"{a}/{n}" for a, n, _ in CASES])
def test_wrong_submission_loses_exactly_its_checks(assignment_id: str, name: str, expected: dict) -> None:
    assignment = load_assignment(assignment_id)
    result = grade_submission(SUBMISSIONS / assignment_id / f"{name}.ipynb", assignment)
    wanted = {
        check.id: CheckStatus.MANUAL if check.kind == "manual" else CheckStatus.PASSED for check in assignment.checks
    }
    wanted.update({c: CheckStatus.FAILED for c in expected.get("failed", [])})
    wanted.update({c: CheckStatus.PARTIAL for c in expected.get("partial", [])})
    wanted.update({c: CheckStatus.NOT_RUN for c in expected.get("not_run", [])})
    actual = {c.check_id: c.status for c in result.checks}
    assert actual == wanted
    causes = expected["cause"] if isinstance(expected["cause"], list) else [expected["cause"]]
    for cause in causes:
        feedback = result.check(cause["check"])
        text = " ".join(filter(None, [feedback.message, feedback.counterexample and feedback.counterexample.cause]))
        assert cause["words"] in text, (cause["check"], text)
        if feedback.status == CheckStatus.FAILED and feedback.counterexample and feedback.counterexample.board:
            assert len(feedback.counterexample.board) == 9  # the board that shows the bug is drawn


SEED_DESERVES = {
    # every seed is correct in the end; seed 004 repairs its syntax-error cell in a later one,
    # so only "runs cleanly" (worth nothing) records the broken cell
    "lab05": {"runs-cleanly": CheckStatus.FAILED},
    "alphabeta-challenges": {},
    "depth-limits": {},
    "experiment04": {},
    # the seed has none of the optional practice tasks
    "minimax-enhanced": {
        c: CheckStatus.NOT_RUN
        for c in ("second-best", "depth-limited-heuristic", "connect4", "random-tie-break", "game-tree")
    },
}


@pytest.mark.parametrize("assignment_id", sorted(SEED_DESERVES))
def test_seed_notebook_as_written_gets_what_it_deserves(assignment_id: str) -> None:
    assignment = load_assignment(assignment_id)
    result = grade_submission(SUBMISSIONS / assignment_id / "seed.ipynb", assignment)
    expected = {c.id: CheckStatus.MANUAL if c.kind == "manual" else CheckStatus.PASSED for c in assignment.checks}
    expected.update(SEED_DESERVES[assignment_id])
    assert {c.check_id: c.status for c in result.checks} == expected
    assert result.score == result.max_score
    if assignment_id == "depth-limits":  # the numpy seed takes tens of seconds and still gets the figures
        rows = result.check("selfplay-table").selfplay
        assert [(r.winner, r.generated) for r in rows] == [
            ("Player 1 Wins", 89),
            ("Player 1 Wins", 4064),
            ("Drawn", 618175),
        ]
