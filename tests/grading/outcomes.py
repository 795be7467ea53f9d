"""The outcomes `tests/submissions/expected.toml` records for the wrong submissions, and the
one assertion that a graded result matches its entry."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from grader.check_wording import cause_line
from grader.results import CheckStatus, SubmissionResult
from grader.spec.model import Assignment

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib  # type: ignore[import-not-found,unused-ignore]

SUBMISSIONS = Path(__file__).resolve().parent.parent / "submissions"
EXPECTED: dict[str, dict[str, dict[str, Any]]] = tomllib.loads((SUBMISSIONS / "expected.toml").read_text())


def assert_outcome(result: SubmissionResult, assignment: Assignment, expected: dict[str, Any]) -> None:
    """Every check has the status the entry lists (passed unless listed), and the checks it
    names show the words that identify the bug."""
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
        text = " ".join(filter(None, [feedback.message, cause_line(feedback)]))
        assert cause["words"] in text, (cause["check"], text)
        if feedback.status == CheckStatus.FAILED and feedback.counterexample and feedback.counterexample.board:
            # the board that shows the bug is drawn
            if assignment.game is None:
                assert len(feedback.counterexample.board) == 9
            else:
                drawing = feedback.counterexample.drawing
                assert drawing is not None
                assert (drawing.rows, drawing.cols) == (assignment.game.game.rows, assignment.game.game.cols)
