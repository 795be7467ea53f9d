"""Time budgets: a function that never returns is waited for once at full length and once
briefly, then not called again (nor what calls it); a check stops starting calls once its
share of CPU time is spent, and says how far it got."""

from __future__ import annotations

import dataclasses
import time

import pytest

from grader.checks import call_budget
from grader.checks.context import CallsStopped, CheckContext
from grader.checks.registry import run_check
from grader.execution.channel.calls import Call, CallStatus
from grader.execution.channel.kernel.executor import CallExecutor
from grader.execution.channel.protocol import OutcomeData
from grader.execution.hangs import Allowance, HangMemory, called_names
from grader.results import CheckStatus
from grader.spec.call_template import parse_call
from grader.spec.loader import load_assignment
from reference import Board
from tests.checks.in_process import InProcessRunner
from tests.seed_sources import LAB05_SOLUTION

HANGING = LAB05_SOLUTION.replace(
    "def minimax(board, depth, maximizing_player, max_depth=math.inf):\n",
    "def minimax(board, depth, maximizing_player, max_depth=math.inf):\n    while True: pass\n",
)
# Short limits keep the test fast: a full call limit of 1 s, a short one of 0.5 s.
LAB05 = dataclasses.replace(load_assignment("lab05"), call_timeout=1.0)


def context(source: str, assignment=LAB05) -> tuple[CheckContext, InProcessRunner]:
    runner = InProcessRunner(source)
    names = runner.executor.defined_names(hidden=("__name__", "__builtins__"))
    hangs = HangMemory(0.5, names["references"])
    ctx = CheckContext.of(assignment, runner, frozenset(runner.defined_names()), execution=None, hangs=hangs)
    return ctx, runner


SPIN = "import time\ndef spin(s):\n    end = time.process_time() + s\n    while time.process_time() < end:\n        pass\n    return s\n"
POSITIONS = ["X...O....", "XO.......", "X.O......", "X..O.....", "X...O...X", "XO..X....", "X.O.X...."]


def test_the_kernel_reports_who_names_whom() -> None:
    names = CallExecutor({"__name__": "__main__"}, output_chars=100).defined_names()
    assert names["references"] == {}
    runner = InProcessRunner(LAB05_SOLUTION)
    references = runner.executor.defined_names(hidden=("__name__", "__builtins__"))["references"]
    assert "minimax" in references["best_move"] and "check_win" in references["minimax"]
    assert "minimax" not in references["minimaxAB"]


def test_a_batch_stops_at_its_first_timeout_and_at_its_time() -> None:
    runner = InProcessRunner(SPIN)
    reported: list[OutcomeData] = []
    calls = [Call("spin", (s,), timeout=0.3, skip_after_timeout=True) for s in (0.0, 1.0, 0.0)]
    runner.executor.run_batch([c.to_request() for c in calls], lambda _, o: reported.append(o))
    assert [o["status"] for o in reported] == ["ok", "timeout", "skipped"]
    reported.clear()
    calls = [Call("spin", (0.2,), start_within=0.3) for _ in range(4)]
    runner.executor.run_batch([c.to_request() for c in calls], lambda _, o: reported.append(o))
    assert [o["status"] for o in reported] == ["ok", "ok", "skipped", "skipped"]
    assert "time was up" in str(reported[-1]["error"])


def test_the_rule_suspect_short_limit_then_stuck() -> None:
    hangs = HangMemory(2.0, {"best_move": ("minimax",), "minimax": ("check_win",), "check_win": ()})
    assert hangs.allowance(["minimax"], 20) == Allowance(20)
    hangs.ran_out(["minimax"], hangs.allowance(["minimax"], 20), 20, "on the empty board")
    short = hangs.allowance(["best_move"], 20)
    assert short.seconds == 2.0 and short.because is not None and short.reached == "`best_move`"
    assert hangs.allowance(["check_win"], 20) == Allowance(20)  # it is called, it does not call
    hangs.ran_out(["minimax"], hangs.allowance(["minimax"], 20), 2.0, "on the board X........")
    stuck = hangs.allowance(["best_move"], 20)
    assert stuck.seconds is None
    assert stuck.reason(2.0) == (
        "`best_move` may call `minimax`: `minimax` did not return within 20 s on the empty board, "
        "nor within 2 s when tried again, so calls that reach it are not made"
    )


def test_a_shortened_cell_blames_only_what_reaches_the_hang() -> None:
    hangs = HangMemory(5.0, {"best_move": ("minimax",), "minimax": (), "check_win": ()})
    hangs.ran_out(["minimax"], Allowance(60), 60, "in cell 11")
    allowance = hangs.allowance(["check_win", "best_move"], 60)
    hangs.ran_out(["check_win", "best_move"], allowance, 5, "in cell 14")
    assert set(hangs.stuck) == {"best_move"}


def test_cells_are_read_for_the_functions_their_statements_call() -> None:
    source = "def f(board):\n    return g(board)\n\nprint(h(1), obj.method())\n@deco(2)\nclass C:\n    x = k()\n"
    assert called_names(source) == {"print", "h", "method", "deco"}
    assert "minimax" in called_names("%time minimax(board)\n")  # magics: read loosely


def test_a_hanging_function_costs_one_full_and_one_short_limit() -> None:
    ctx, runner = context(HANGING)
    student = ctx.student(parse_call("minimax(board, 0, is_max)"))
    requests = [(b, ctx.placeholders(Board.from_string(b))) for b in POSITIONS]
    answers = student.ask_many(requests, partial=True)
    assert [a.outcome.status for a in answers] == [CallStatus.TIMEOUT, CallStatus.TIMEOUT] + [CallStatus.SKIPPED] * 5
    # One full limit and one short one, of CPU time (the wall time depends on the machine's load).
    assert 1.0 <= answers[0].outcome.duration < 1.5 and 0.5 <= answers[1].outcome.duration < 1.0
    assert "nor within 0.5 s when tried again" in (answers[-1].outcome.error or "")
    assert student.answers() == [
        (b, a) for (b, _), a in zip(requests[:2], answers[:2])
    ]  # not-made calls are no evidence
    with pytest.raises(CallsStopped):
        student.ask(requests[-1][0], requests[-1][1])
    best_move = ctx.student(parse_call("best_move(board)"))
    calls_before = runner.calls_made
    with pytest.raises(CallsStopped, match="`best_move` may call `minimax`"):
        best_move.ask_many(requests[:1])
    assert runner.calls_made == calls_before  # not even sent


def test_checks_that_need_a_hung_function_say_why_and_the_others_pass() -> None:
    ctx, _ = context(HANGING)
    results = {}
    started = time.monotonic()
    for check in LAB05.checks:
        if check.kind != "runs-cleanly":
            results[check.id] = run_check(check, ctx.submission.check_context())
    assert time.monotonic() - started < 30
    status = {k: r.status for k, r in results.items()}
    assert status == {
        "check-win": CheckStatus.PASSED,
        "check-draw": CheckStatus.PASSED,
        "minimax-value": CheckStatus.FAILED,
        "minimax-no-mutation": CheckStatus.NOT_RUN,
        "alphabeta-value": CheckStatus.PASSED,
        "best-move": CheckStatus.NOT_RUN,
        "node-reduction": CheckStatus.NOT_RUN,
        "depth-limited": CheckStatus.NOT_RUN,
        "random-opponent": CheckStatus.NOT_RUN,
    }
    counterexample = results["minimax-value"].counterexample
    assert counterexample is not None
    assert "did not return within its time limit" in counterexample.actual
    assert "`best_move` may call `minimax`: `minimax` did not return within 1 s" in results["best-move"].message


def test_a_check_starts_no_calls_once_its_share_is_spent(monkeypatch: pytest.MonkeyPatch) -> None:
    # The share is CPU time; its wall-clock safety net (3 x 2 s + 5 s) is not what this test is
    # about, and on cores loaded 4-fold 2 s of this process's CPU time take longer than that.
    monkeypatch.setattr(call_budget, "wall_bound", lambda seconds: 60 * seconds)
    slow = LAB05_SOLUTION.replace(
        "def best_move(board):\n",
        "import time\ndef best_move(board):\n    end = time.process_time() + 0.2\n"
        "    while time.process_time() < end:\n        pass\n",
    )
    budget = dataclasses.replace(LAB05, check_budget_seconds=0.0)  # share: 2 x 1 s of CPU time
    ctx, runner = context(slow, budget)
    check = next(c for c in budget.checks if c.id == "best-move")
    result = run_check(check, ctx.submission.check_context())
    durations = [o.duration for o in ctx.submission.outcomes_log if o.status is not CallStatus.SKIPPED]
    used = sum(durations)
    assert 2.0 <= used < 2.0 + 0.5  # the share, and the call that was running when it ran out
    assert used - durations[-1] < 2.0  # no call started once the share was spent
    assert result.status == CheckStatus.PASSED
    assert 3 <= result.figures["examples"] <= 11
    assert "share of CPU time was spent" in result.message
    assert f"({result.figures['examples']} positions tried)" in result.message
    games = next(c for c in budget.checks if c.id == "random-opponent")
    result = run_check(games, ctx.submission.check_context())
    assert result.status in (CheckStatus.PASSED, CheckStatus.NOT_RUN)
    assert "share of CPU time was spent" in result.message


def test_past_the_deadline_no_call_is_made() -> None:
    ctx, runner = context(LAB05_SOLUTION)
    late = ctx.submission.check_context(deadline=time.monotonic() - 1)
    result = run_check(next(c for c in LAB05.checks if c.id == "node-reduction"), late)
    assert result.status == CheckStatus.NOT_RUN
    assert result.not_run_reason == "out of time: grading reached its deadline"
    assert result.message == "Not run: out of time: grading reached its deadline"  # the words a student reads
    assert runner.calls_made == 0


def test_a_timeout_names_a_tic_tac_toe_board_and_another_games_call() -> None:
    where = call_budget.where_it_ran_out
    assert where((str(Board.empty()), 3), "minimax(board)") == "on the empty board"
    assert where("X.O......", "minimax(board)") == "on the board X.O......"
    # Connect Four's checks key a call by its game's moves or a leaf's cells: the call shows the board.
    call = "alphabeta([[' ', ' ', ' ', ' '], ...], 4, 'X')"
    assert where(((3, 3, 2), 4), call) == f"on `{call}`"
    assert where(("." * 15 + "X", "'O'"), call) == f"on `{call}`"
