"""Real notebooks against the time budgets: a function that never returns costs minutes, not
the grade; a deadline keeps what was graded before it; a slow function is judged on what
its checks' shares of the time allow."""

from __future__ import annotations

import csv
import dataclasses
import shutil
import time
from pathlib import Path

import pytest

from grader.batch.plan import BatchOptions, run_batch
from grader.execution.channel.protocol import wall_bound
from grader.grading import grade_submission
from grader.results import CheckStatus
from grader.spec.loader import load_assignment
from tests.grading.outcomes import EXPECTED, assert_outcome
from tests.shorter_limits import with_limits

pytestmark = [pytest.mark.slow, pytest.mark.kernel]

FIXTURES = Path(__file__).resolve().parents[1] / "submissions" / "lab05"
LAB05 = load_assignment("lab05")


# lab05 with a 6 s cell limit instead of 60 s and a 3 s call limit instead of 20 s (its short
# limit is 2 s): the same rule, a hang that costs seconds.
SHORTER = {"cell_timeout": 6.0, "call_timeout": 3.0}


def test_a_function_that_never_returns_costs_minutes_not_the_grade(tmp_path: Path) -> None:
    lab05 = with_limits("lab05", tmp_path / "lab05", **SHORTER)
    cell, call, short = lab05.cell_timeout, lab05.call_timeout, lab05.short_limit
    assert short < call < cell  # one full limit, then short ones: told apart by their lengths
    source = tmp_path / "in"
    source.mkdir()
    shutil.copyfile(FIXTURES / "minimax-never-returns.ipynb", source / "ana.ipynb")
    started = time.monotonic()
    (record,) = run_batch(source, lab05, tmp_path / "out", BatchOptions(jobs=1, progress=False)).records
    took = time.monotonic() - started
    waits = cell + 3 * short + call + short  # the cells' time-outs, then one call limit and one short retry
    assert took < waits + 80, f"{took:.0f} s"
    assert record.failure is None
    result = record.result
    assert result.score >= 40
    status = {c.check_id: c.status for c in result.checks}
    for passed in ("check-win", "check-draw", "alphabeta-value"):
        assert status[passed] == CheckStatus.PASSED
    counterexample = result.check("minimax-value").counterexample
    assert counterexample is not None
    assert "did not return within its time limit" in counterexample.actual
    for check_id in ("minimax-no-mutation", "best-move", "node-reduction", "depth-limited", "random-opponent"):
        check = result.check(check_id)
        assert check.status == CheckStatus.NOT_RUN and f"`minimax` did not return within {call:g} s" in check.message
    assert any("`minimax` did not return" in problem for problem in result.problems)
    assert result.execution is not None
    cells = [c for c in result.execution.cells if c.status.value == "timeout"]
    assert [round(c.duration) for c in cells] == [cell, short, short, short]  # one cell limit, then short ones
    rows = list(csv.DictReader((tmp_path / "out" / "grades.csv").open()))
    assert rows[0]["total"] == str(int(result.score))
    entry = EXPECTED["lab05"]["minimax-never-returns"]
    assert entry["graded_by"] == "tests/batch/test_time_budgets.py"
    assert_outcome(result, lab05, entry)


CHECK_WIN_AND_DRAW = """
WIN_LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))

def check_win(board, player):
    return any(all(board[i] == player for i in line) for line in WIN_LINES)

def check_draw(board):
    return " " not in board and not check_win(board, "X") and not check_win(board, "O")
"""


def test_a_deadline_keeps_what_was_graded_before_it(tmp_path: Path) -> None:
    source = tmp_path / "in"
    source.mkdir()
    (source / "ben.py").write_text(
        "import time\n" + CHECK_WIN_AND_DRAW + "\ndef minimax(board, depth, is_max):\n    time.sleep(30)\n"
    )
    # The kernel's start and the two checks before `minimax` take 2 s on a quiet machine: room for load.
    options = BatchOptions(jobs=1, progress=False, deadline_seconds=15)
    (record,) = run_batch(source, LAB05, tmp_path / "out", options).records
    assert record.failure is None  # graded, not "not graded"
    status = {c.check_id: c.status for c in record.result.checks}
    assert status["check-win"] == status["check-draw"] == CheckStatus.PASSED
    assert status["minimax-value"] == CheckStatus.FAILED  # its one call returned None past the deadline
    late = [c for c in record.result.checks if c.check_id not in ("check-win", "check-draw", "minimax-value")]
    assert all(c.status == CheckStatus.NOT_RUN and "out of time" in c.message for c in late)
    assert record.result.score == 20
    rows = list(csv.DictReader((tmp_path / "out" / "grades.csv").open()))
    assert rows[0]["total"] == "20"


# lab05 with a 2 s share of CPU time per check instead of 60 s (no property budget, a 1 s call
# limit: the fixture's slowest call takes a tenth of it), so 11 s of wall time: the same rule,
# a shorter wait.
LAB05_SHORT_SHARES = dataclasses.replace(LAB05, check_budget_seconds=0.0, call_timeout=1.0)
PAUSE_SECONDS = 1


def test_a_function_that_waits_is_judged_within_its_shares_wall_clock_net(tmp_path: Path) -> None:
    """`best_move` pauses without computing (the fixture's 5 s, 1 s here): its CPU share is
    never spent, and the share's wall-clock safety net ends the check's calls."""
    lab05 = LAB05_SHORT_SHARES
    fixture = (FIXTURES / "best-move-takes-5-seconds.ipynb").read_text(encoding="utf-8")
    assert fixture.count("time.sleep(5)") == 1
    notebook = tmp_path / "best-move-pauses.ipynb"
    notebook.write_text(fixture.replace("time.sleep(5)", f"time.sleep({PAUSE_SECONDS})"), encoding="utf-8")
    started = time.monotonic()
    result = grade_submission(notebook, lab05)
    took = time.monotonic() - started
    assert took < lab05.grading_deadline
    share = lab05.check_share_seconds
    wall = wall_bound(share)
    assert PAUSE_SECONDS < wall_bound(lab05.call_timeout)  # a call pauses within its own net
    for check_id in ("best-move", "random-opponent"):
        check = result.check(check_id)
        assert check.duration <= wall + wall_bound(lab05.call_timeout) + 5
        assert check.status == CheckStatus.PASSED
        assert f"the check's {wall:g} s of wall time were spent (its share is {share:g} s of CPU time)" in check.message
    judged = result.check("best-move").figures["examples"]
    assert (
        5 <= judged <= wall / PAUSE_SECONDS + 1 and f"({judged} positions tried)" in result.check("best-move").message
    )
    others = [c for c in result.checks if c.check_id not in ("best-move", "random-opponent", "runs-cleanly")]
    assert all(c.status == CheckStatus.PASSED for c in others)
