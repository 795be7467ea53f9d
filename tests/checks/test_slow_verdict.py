"""Slow is not wrong: a check whose answers are right but came after the soft limit is
"correct, but slower than" it, at the configured cost; one with no answer (stopped at the
hard limit) says so, apart from a wrong answer. The time of each call is set by a stand-in
runner, never measured: nothing here depends on the machine's speed."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from pathlib import Path

import pytest

from grader.check_notes import RanOutOfTime, SlowerThan
from grader.checks.context import CheckContext
from grader.checks.registry import run_check
from grader.execution.channel.calls import Call, CallOutcome, CallStatus
from grader.results import CheckResult, CheckStatus
from grader.spec.loader import load_assignment
from grader.spec.model import Assignment, AssignmentError
from tests.checks.in_process import InProcessRunner
from tests.seed_sources import LAB05_SOLUTION

LAB05 = load_assignment("lab05")


class TimedRunner:
    """The solution's real answers, reported as taking ``seconds`` each (a fake clock); with
    ``stopped``, every call comes back as stopped at its limit instead."""

    def __init__(self, source: str, seconds: float, *, stopped: bool = False) -> None:
        self.inner = InProcessRunner(source)
        self.seconds = seconds
        self.stopped = stopped

    def defined_names(self) -> list[str]:
        return self.inner.defined_names()

    def call_many(self, calls: Sequence[Call]) -> list[CallOutcome]:
        if self.stopped:
            stopped_at = self.seconds or None
            return [
                CallOutcome(CallStatus.TIMEOUT, error="stopped", duration=stopped_at or call.timeout) for call in calls
            ]
        return [dataclasses.replace(o, duration=self.seconds) for o in self.inner.call_many(calls)]


def _grade(
    check_id: str, seconds: float, *, source: str = LAB05_SOLUTION, stopped: bool = False, **settings: object
) -> CheckResult:
    assignment: Assignment = dataclasses.replace(LAB05, **settings)  # type: ignore[arg-type]
    runner = TimedRunner(source, seconds, stopped=stopped)
    ctx = CheckContext.of(assignment, runner, frozenset(runner.defined_names()))
    check = next(c for c in assignment.checks if c.id == check_id)
    return run_check(check, ctx)


def test_a_right_answer_after_the_soft_limit_is_correct_but_slow_at_the_configured_cost() -> None:
    result = _grade("minimax-value", 8.0, slow_after=5.0, slow_cost=0.25)
    assert result.status == CheckStatus.PARTIAL
    assert result.score == pytest.approx(0.75 * result.max_score)
    assert SlowerThan(5.0, 8.0, 0.25) in result.notes
    assert (
        "Correct, but slower than 5 s of CPU time (the slowest answer took 8.0 s): that costs 25% of the points."
        in (result.message)
    )


def test_slow_at_no_cost_is_said_and_keeps_full_marks() -> None:
    result = _grade("minimax-value", 8.0, slow_after=5.0)
    assert result.status == CheckStatus.PASSED and result.score == result.max_score
    assert any(isinstance(n, SlowerThan) for n in result.notes)
    assert "which costs nothing here" in result.message


def test_within_the_soft_limit_or_without_one_nothing_is_said() -> None:
    for result in (_grade("minimax-value", 4.0, slow_after=5.0, slow_cost=0.5), _grade("minimax-value", 8.0)):
        assert result.status == CheckStatus.PASSED and result.score == result.max_score
        assert not any(isinstance(n, SlowerThan) for n in result.notes)


def test_a_check_sets_its_own_cost() -> None:
    checks = tuple(dataclasses.replace(c, slow_cost=1.0) if c.id == "minimax-value" else c for c in LAB05.checks)
    result = _grade("minimax-value", 8.0, slow_after=5.0, slow_cost=0.25, checks=checks)
    assert result.status == CheckStatus.PARTIAL and result.score == 0


def test_a_wrong_answer_is_wrong_however_slow() -> None:
    swapped = LAB05_SOLUTION.replace(
        '    if check_win(board, "O"):\n        return 1\n    if check_win(board, "X"):\n        return -1\n',
        '    if check_win(board, "O"):\n        return -1\n    if check_win(board, "X"):\n        return 1\n',
    )
    assert swapped != LAB05_SOLUTION
    result = _grade("minimax-value", 8.0, source=swapped, slow_after=5.0, slow_cost=0.25)
    assert result.status == CheckStatus.FAILED and result.score == 0
    assert not any(isinstance(n, SlowerThan) for n in result.notes)
    assert result.message.startswith("Wrong answer")


def test_no_answer_by_the_hard_limit_is_told_apart_from_a_wrong_one() -> None:
    result = _grade("minimax-value", 0.0, stopped=True, slow_after=5.0)
    assert result.status == CheckStatus.FAILED and result.score == 0
    assert result.message.startswith("No answer on a position with")
    assert RanOutOfTime(LAB05.call_timeout) in result.notes
    assert "was stopped" in result.message


def test_no_answer_names_the_limit_the_call_was_stopped_at() -> None:
    """A function that hung before is given a shorter limit: the verdict says that one."""
    result = _grade("minimax-value", 5.0, stopped=True)
    assert RanOutOfTime(5.0) in result.notes and "still running at 5 s" in result.message


def test_the_verdicts_notes_are_stored_and_read_back() -> None:
    for result in (
        _grade("minimax-value", 8.0, slow_after=5.0, slow_cost=0.25),
        _grade("minimax-value", 0, stopped=True),
    ):
        again = CheckResult.from_dict(result.to_dict())
        assert again.notes == result.notes and again.message == result.message


def _load(tmp_path: Path, assignment_lines: str, check_lines: str = "") -> Assignment:
    text = (Path(LAB05.directory) / "assignment.toml").read_text()
    text = text.replace("call_timeout = 20\n", f"call_timeout = 20\n{assignment_lines}\n", 1)
    text = text.replace('id = "check-win"\n', f'id = "check-win"\n{check_lines}\n', 1)
    folder = tmp_path / "a"
    folder.mkdir()
    (folder / "assignment.toml").write_text(text)
    for source in Path(LAB05.directory).iterdir():
        if source.is_file() and source.name != "assignment.toml":
            (folder / source.name).write_bytes(source.read_bytes())
    return load_assignment(folder)


def test_the_toml_sets_the_soft_limit_and_the_costs(tmp_path: Path) -> None:
    loaded = _load(tmp_path, "slow_after = 12\nslow_cost = 0.25", "slow_cost = 0.5")
    assert loaded.slow_after == 12 and loaded.slow_cost == 0.25
    assert next(c for c in loaded.checks if c.id == "check-win").slow_cost == 0.5


@pytest.mark.parametrize(
    ("assignment_lines", "check_lines", "where"),
    [
        ("slow_cost = 1.5", "", "assignment.slow_cost"),
        ("", "slow_cost = -0.1", "slow_cost"),
        ("slow_after = 20", "", "assignment.slow_after"),
    ],
)
def test_a_cost_outside_the_points_or_a_soft_limit_past_the_hard_one_is_refused(
    tmp_path: Path, assignment_lines: str, check_lines: str, where: str
) -> None:
    with pytest.raises(AssignmentError, match=where.replace(".", r"\.")):
        _load(tmp_path, assignment_lines, check_lines)


class RecordingRunner(InProcessRunner):
    """Records the board of every call it makes."""

    def __init__(self, source: str) -> None:
        super().__init__(source)
        self.boards: list[tuple[object, ...]] = []

    def call_many(self, calls: Sequence[Call]) -> list[CallOutcome]:
        self.boards += [tuple(call.args[0]) for call in calls]
        return super().call_many(calls)


def test_a_game_check_searches_each_position_once_however_many_games_meet_it() -> None:
    """Ten games against a random opponent open on at most nine cells: some games meet the
    same position, and the AI's (slow) search of it is asked once."""
    runner = RecordingRunner(LAB05_SOLUTION)
    ctx = CheckContext.of(LAB05, runner, frozenset(runner.defined_names()))
    check = next(c for c in LAB05.checks if c.id == "random-opponent")
    result = run_check(check, ctx)
    assert result.status == CheckStatus.PASSED and result.figures["played"] == 10
    assert runner.boards and max(runner.boards.count(b) for b in runner.boards) == 1
