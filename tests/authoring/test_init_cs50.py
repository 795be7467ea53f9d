"""`grader init` on a correct CS50 AI hand-in with the course's handout: each board function
is judged where the solution's searches use it, and the call limits come from the work."""

from __future__ import annotations

from pathlib import Path

import pytest

from grader.authoring.create import InitRequest
from grader.check_notes import SlowerThan
from grader.grading import GradingOptions, grade_submission
from grader.results import CheckStatus
from grader.spec.loader import load_assignment
from tests.authoring.shared_init import shared_init

CS50 = Path(__file__).resolve().parents[1] / "classes" / "cs50"


@pytest.mark.kernel
@pytest.mark.slow
def test_init_judges_where_the_program_asks_and_a_slow_correct_search_keeps_full_marks(
    tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    out = tmp_path / "cs50"
    report = shared_init(
        InitRequest(CS50 / "handins" / "abigail.py", out, template=CS50 / "handout.py"), tmp_path_factory
    )
    assert report.return_code == 0, str(report)
    assignment = load_assignment(out)
    boards = {c.id: getattr(c.params, "boards", None) for c in assignment.checks}
    assert boards["actions"] == "unfinished" and boards["utility"] == "finished"
    assert (assignment.call_timeout, assignment.slow_after, assignment.slow_cost) == (66, 11, 0)
    text = (out / "assignment.toml").read_text()
    assert "549,945 positions below the empty board" in text and "none finished" in text

    # `dara`: a search without pruning, and an `actions` that returns None on a finished game.
    result = grade_submission(CS50 / "handins" / "dara.py", assignment, GradingOptions())
    by_id = {c.check_id: c for c in result.checks}
    assert by_id["actions"].status is CheckStatus.PASSED
    never_loses = by_id["minimax-never-loses"]
    assert never_loses.status is CheckStatus.PASSED and never_loses.score == never_loses.max_score
    slow = [n for n in never_loses.notes if isinstance(n, SlowerThan)]
    assert all(n.limit == 11 and n.cost == 0 for n in slow)  # said when slow, never charged
    assert result.score == result.max_score
