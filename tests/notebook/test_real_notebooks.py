"""The in-notebook check in real notebooks, executed by nbclient in a plain ipykernel as a
student's Jupyter runs them: what the check cell displays is what ``grader check`` finds on
the same notebook, check for check, and a minimax that never returns costs its call limit
while the session goes on. The notebooks play a few games of their experiment instead of 200
(`tests.fewer_games`): the checks never read it."""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest

from grader.check_wording import cause_line
from grader.grading import GradingOptions, grade_submission
from grader.results import CheckResult, SubmissionResult
from grader.spec.loader import load_assignment
from tests.fewer_games import with_fewer_games
from tests.notebook.notebook_runs import (
    CHECK_CELL,
    MAGIC_CELL,
    REPO,
    ShownChecks,
    displayed,
    execute,
    printed,
    unescaped,
    with_cells,
)
from tests.shorter_limits import with_limits

pytestmark = [pytest.mark.kernel, pytest.mark.slow]

LAB05 = load_assignment("lab05")
PUBLIC_FUNCTION_CHECKS = [c.id for c in LAB05.public().checks if c.kind != "runs-cleanly"]
EXAMPLES = REPO / "examples" / "lab05"


def test_the_solution_passes_every_public_check(tmp_path: Path) -> None:
    notebook = execute(with_fewer_games(with_cells(LAB05.solution_path, CHECK_CELL)), tmp_path)
    shown = ShownChecks.read(displayed(notebook.cells[-1], "text/html"))
    assert list(shown.checks) == PUBLIC_FUNCTION_CHECKS
    assert {check.status for check in shown.checks.values()} == {"passed"}
    assert "All 9 checks passed." in displayed(notebook.cells[-1], "text/plain")


@pytest.mark.parametrize(
    ("fixture", "cell"),
    [("ben-alphabeta-wrong-cutoff", CHECK_CELL), ("dan-missing-anti-diagonal", MAGIC_CELL)],
)
def test_a_notebook_with_mistakes_shows_what_grader_check_finds(fixture: str, cell: str, tmp_path: Path) -> None:
    notebook = with_fewer_games(with_cells(EXAMPLES / f"{fixture}.ipynb", cell))
    path = tmp_path / f"{fixture}.ipynb"
    nbformat.write(notebook, path)
    graded = grade_submission(path, LAB05, GradingOptions(public_only=True))  # what `grader check` runs

    executed = execute(notebook, tmp_path)
    shown = ShownChecks.read(displayed(executed.cells[-1], "text/html"))
    plain = displayed(executed.cells[-1], "text/plain")
    by_id = {c.check_id: c for c in graded.checks}
    assert list(shown.checks) == PUBLIC_FUNCTION_CHECKS
    assert any(check.status == "failed" for check in shown.checks.values())
    for check_id, seen in shown.checks.items():
        expected = by_id[check_id]
        assert seen.status == expected.status.value, check_id
        assert seen.points == f"{expected.score:g} / {expected.max_score:g}", check_id
        assert seen.facts == _facts(expected), check_id
        assert expected.message in plain, check_id
    assert _total(shown) == sum(by_id[i].score for i in PUBLIC_FUNCTION_CHECKS)
    assert f"Score: {_total(shown):g} / {sum(by_id[i].max_score for i in PUBLIC_FUNCTION_CHECKS):g}" in plain
    assert _problems_about_functions(graded) == shown.problems


def test_a_minimax_that_never_returns_is_stopped_at_its_limit_and_the_session_goes_on(tmp_path: Path) -> None:
    hanging = (
        "calls_seen = []\n"
        "def minimax(board, depth, maximizing_player, max_depth=None):\n"
        "    calls_seen.append(depth)\n"
        "    while True:\n"
        "        pass"
    )
    # lab05 with a 4 s call limit instead of 20 s (its short limit is 2 s): the same rule, a
    # hang that costs seconds
    lab05 = with_limits("lab05", tmp_path / "lab05", call_timeout=4.0)
    check = f"from grader import notebook\nnotebook.check({str(lab05.directory)!r})"
    notebook = execute(
        with_fewer_games(with_cells(LAB05.solution_path, hanging, check, "print('the next cell ran', calls_seen)")),
        tmp_path,
    )
    check_cell, next_cell = notebook.cells[-2], notebook.cells[-1]
    shown = ShownChecks.read(displayed(check_cell, "text/html"))
    assert lab05.short_limit < lab05.call_timeout < LAB05.call_timeout
    limit = f"{lab05.call_timeout:g} s of CPU time"
    assert shown.checks["minimax-value"].status == "failed"
    assert shown.checks["minimax-value"].facts["actual"] == "no answer: it did not return within its time limit"
    assert shown.checks["check-win"].status == "passed"
    assert shown.problems == [
        f"minimax did not return within {limit} on the board ......OXX, nor within {lab05.short_limit:g} s "
        "when tried again: the checks that need it were not run."
    ]
    assert not [o for o in check_cell.outputs if o.output_type == "error"]
    # the session survived, with the global the calls appended to as it was
    assert printed(next_cell) == "the next cell ran []\n"


def _facts(result: CheckResult) -> dict[str, str]:
    ce = result.counterexample
    if ce is None:
        return {}
    facts = {"call": unescaped(ce.call), "expected": unescaped(ce.expected), "actual": unescaped(ce.actual)}
    cause = cause_line(result)
    if cause:
        facts["cause"] = unescaped(cause.replace("`", ""))
    return facts


def _total(shown: ShownChecks) -> float:
    return sum(float(check.points.split("/")[0]) for check in shown.checks.values())


def _problems_about_functions(graded: SubmissionResult) -> list[str]:
    """Grading's problem lines but the sandbox's, as the page reads them (backticks become code)."""
    sandbox = graded.execution.isolation_note if graded.execution else None
    return [unescaped(p.replace("`", "")) for p in graded.problems if p != sandbox]
