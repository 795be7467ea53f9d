"""Realistic wrong submissions lose exactly the checks they should, with feedback that shows
the bug; solutions and the seed notebooks as students wrote them score what they deserve."""

from __future__ import annotations

from pathlib import Path

import pytest

from grader.check_details import SelfPlayTable
from grader.execution.result import CellStatus
from grader.grading import grade_submission
from grader.results import CheckStatus
from grader.spec.loader import load_assignment
from grader.submission.reader import read_submission
from tests.grading.outcomes import EXPECTED, SUBMISSIONS, assert_outcome
from tests.shorter_limits import with_limits

# An entry with `graded_by` is graded in that test, which asserts the entry too: a hanging
# notebook costs minutes, a fixture that a test of its own grades costs its grading again.
CASES = [
    (assignment, name, spec)
    for assignment, entries in EXPECTED.items()
    for name, spec in entries.items()
    if "graded_by" not in spec
]

pytestmark = [pytest.mark.slow, pytest.mark.kernel]


def test_an_entry_graded_elsewhere_is_asserted_there() -> None:
    """`graded_by` names a test module that grades the fixture and asserts its entry."""
    root = SUBMISSIONS.parent.parent
    elsewhere = [
        (a, n, spec["graded_by"])
        for a, entries in EXPECTED.items()
        for n, spec in entries.items()
        if "graded_by" in spec
    ]
    assert elsewhere
    for assignment_id, name, module in elsewhere:
        source = (root / module).read_text(encoding="utf-8")
        assert f'"{name}' in source and "assert_outcome(" in source, (assignment_id, name, module)


@pytest.mark.parametrize("assignment_id, name, expected", CASES, ids=[f"{a}/{n}" for a, n, _ in CASES])
def test_wrong_submission_loses_exactly_its_checks(assignment_id: str, name: str, expected: dict) -> None:
    assignment = load_assignment(assignment_id)
    result = grade_submission(SUBMISSIONS / assignment_id / f"{name}.ipynb", assignment)
    assert_outcome(result, assignment, expected)


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
def test_seed_notebook_as_written_gets_what_it_deserves(assignment_id: str, tmp_path: Path) -> None:
    if assignment_id == "depth-limits":
        # Its depth-9 numpy game takes tens of seconds of CPU in one cell, and a cell's limit is
        # wall-clock: a copy allows that cell five times the built-in's 120 s, so that a loaded
        # machine does not end it.
        assignment = with_limits(assignment_id, tmp_path / assignment_id, cell_timeout=600)
    else:
        assignment = load_assignment(assignment_id)
    result = grade_submission(SUBMISSIONS / assignment_id / "seed.ipynb", assignment)
    expected = {c.id: CheckStatus.MANUAL if c.kind == "manual" else CheckStatus.PASSED for c in assignment.checks}
    expected.update(SEED_DESERVES[assignment_id])
    assert {c.check_id: c.status for c in result.checks} == expected
    assert result.score == result.max_score
    # The checks' time, and the share of it the student's own functions took in the kernel.
    assert 0 < result.timings["student_code"] <= result.timings["checks"]
    if assignment_id == "depth-limits":  # the numpy seed takes tens of seconds and still gets the figures
        table = result.check("selfplay-table").detail_as(SelfPlayTable)
        assert table is not None
        rows = table.rows
        assert [(r.winner, r.generated) for r in rows] == [
            ("Player 1 Wins", 89),
            ("Player 1 Wins", 4064),
            ("Drawn", 618175),
        ]
        # The seed as its author saw it run (the execution tests' seed 000): every cell ran, the
        # depth table's full game is drawn and the printed game at depth 2 is won by player 1.
        execution = result.execution
        assert execution is not None and execution.kernel_restarts == 0
        assert all(cell.status is CellStatus.OK for cell in execution.cells), execution.cells
        assert "| D=9         | Drawn" in execution.cell(3).output
        assert "Winner is 1" in execution.cell(5).output


def test_the_execution_tests_seed_000_is_the_depth_limits_seed() -> None:
    """Seed 000 runs as its author saw in the depth-limits seed's grading above, not in a run of its own."""
    seed_000 = SUBMISSIONS.parent / "execution" / "fixtures" / "seeds" / "000.ipynb"
    cells = [
        [(cell.cell_type, cell.source) for cell in read_submission(path).notebook.cells]
        for path in (seed_000, SUBMISSIONS / "depth-limits" / "seed.ipynb")
    ]
    assert cells[0] == cells[1]
