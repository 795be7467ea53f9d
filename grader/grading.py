"""Grade one submission: read it, execute it in the sandbox, run the rubric's checks.

This is the boundary where anything that goes wrong with a submission (unreadable file,
kernel that will not start, missing functions, crashes, hangs) becomes part of its result.
Nothing raised in here escapes to a batch. Grading keeps its own deadline: past it no check
starts and no call is made, the checks not run say so, and what was graded stands.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from grader.checks.answer_memo import AnswerMemo
from grader.checks.context import CheckContext
from grader.checks.registry import needed_functions, run_check
from grader.execution.channel.calls import DefinedNames
from grader.execution.hangs import HangMemory
from grader.execution.sandbox import SandboxChoice
from grader.execution.session import ExecutionOptions, ExecutionResult, NotebookSession
from grader.execution.spare_kernels import SpareKernel
from grader.results import CheckResult, CheckStatus, SubmissionResult
from grader.spec.board import OBJECT
from grader.spec.model import Assignment, Check
from grader.submission.reader import SubmissionUnreadable, read_submission

__all__ = ["GradingOptions", "grade_submission"]


@dataclass(frozen=True)
class GradingOptions:
    sandbox: SandboxChoice = "auto"
    public_only: bool = False
    """Student self-check: hidden checks are not run at all."""
    spare_kernel: SpareKernel | None = field(default=None, compare=False, repr=False)
    """Where a worker that grades one submission after another keeps the next kernel
    booting (see `grader.execution.spare_kernels`); None: each submission starts its own."""
    deadline_seconds: float | None = None
    """After this long no check starts and no call is made (default: the assignment's
    ``grading_deadline``)."""
    memo_answers: bool = True
    """Answer a question a function was already asked twice, identically, from what it said
    (`grader.checks.answer_memo`); False: every call is made."""


def grade_submission(
    path: Path | str,
    assignment: Assignment,
    options: GradingOptions = GradingOptions(),
    *,
    on_check: Callable[[CheckResult], None] | None = None,
) -> SubmissionResult:
    path = Path(path)
    if options.public_only:
        assignment = assignment.public()
    timings: dict[str, float] = {}
    started = time.monotonic()
    allowed = options.deadline_seconds or assignment.grading_deadline
    deadline = started + allowed
    try:
        submission = read_submission(path)
    except SubmissionUnreadable as exc:
        return not_graded_result(str(path), assignment, str(exc), timings)
    timings["read"] = round(time.monotonic() - started, 4)
    notebook = submission.notebook

    execution_options = ExecutionOptions(
        stdin=assignment.stdin,
        cell_timeout=assignment.cell_timeout,
        notebook_timeout=assignment.notebook_timeout,
        sandbox=options.sandbox,
        short_limit=assignment.short_limit,
    )
    try:
        with NotebookSession(notebook, execution_options, spare_kernel=options.spare_kernel) as session:
            execution = session.execute()
            timings["execute"] = round(execution.total_duration, 4)
            timings["kernel_start"] = round(execution.kernel_start_seconds, 4)
            checks_started = time.monotonic()
            memo = AnswerMemo(session.calls, enabled=options.memo_answers)
            ctx, results = run_checks(session, execution, assignment, deadline, allowed, memo=memo, on_check=on_check)
            timings["checks"] = round(time.monotonic() - checks_started, 4)
            # Of the checks' time, what the student's own functions took in the kernel: the
            # rest is the grader's (references, hypothesis, the channel).
            timings["student_code"] = round(memo.kernel_seconds, 4)
    except Exception as exc:  # a kernel that cannot be started or talked to at all
        return not_graded_result(
            str(path), assignment, f"The notebook could not be run: {type(exc).__name__}: {exc}", timings
        )
    timings["total"] = round(time.monotonic() - started, 4)
    return SubmissionResult(
        submission=str(path),
        assignment_id=assignment.id,
        checks=tuple(results),
        execution=execution,
        problems=tuple(_problems(results, execution, ctx.hang_memory)),
        timings=timings,
    )


def run_checks(
    session: NotebookSession,
    execution: ExecutionResult,
    assignment: Assignment,
    deadline: float,
    allowed: float,
    *,
    memo: AnswerMemo | None = None,
    on_check: Callable[[CheckResult], None] | None = None,
) -> tuple[CheckContext, list[CheckResult]]:
    """Run the assignment's checks against a session that has executed its notebook; past
    ``deadline`` (``time.monotonic()``, ``allowed`` seconds after the start) no check starts.
    The checks share one `AnswerMemo` over ``session.calls`` (``ctx.runner``): a question
    asked again is answered from it once the function was seen to answer it the same way twice."""
    memo = memo if memo is not None else AnswerMemo(session.calls)
    names = session.calls.defined_names()
    ctx = CheckContext(
        assignment=assignment,
        runner=memo,
        defined_names=_flatten(names),
        execution=execution,
        hangs=HangMemory(assignment.short_limit, names.references),
    )
    results = []
    for check in assignment.checks:
        if time.monotonic() >= deadline:
            result = CheckResult.not_run(check, f"out of time: grading reached its deadline of {allowed:.0f} s")
        elif not _should_run(check, ctx):
            result = _bonus_not_attempted(check)
        else:
            ctx.begin_check(deadline)
            result = run_check(check, ctx)
        results.append(result)
        if on_check:
            on_check(result)
    return ctx, results


def _flatten(names: DefinedNames) -> frozenset[str]:
    return frozenset(names.functions) | frozenset(names.classes) | frozenset(names.variables)


def _should_run(check: Check[Any], ctx: CheckContext) -> bool:
    """Bonus checks only run when the notebook defines what they need."""
    if not check.bonus:
        return True
    factory = ctx.assignment.board.factory

    def defined(function: str) -> bool:
        root = function.split(".")[0]
        if root == OBJECT and factory is not None:  # `game.minimax(...)`: the object's class
            root = factory.function.split(".")[0]
        return any(n in ctx.defined_names for n in ctx.assignment.names_for(root))

    return all(defined(f) for f in needed_functions(check))


def _bonus_not_attempted(check: Check[Any]) -> CheckResult:
    return CheckResult.for_check(
        check, CheckStatus.NOT_RUN, "Optional task not attempted (no function with that name)."
    )


def _problems(results: list[CheckResult], execution: ExecutionResult, hangs: HangMemory) -> list[str]:
    """One line per missing function and per function that kept running out of time (however
    many checks needed it), and reduced isolation."""
    missing: dict[str, str] = {}
    for r in results:
        if r.status == CheckStatus.NOT_RUN and r.missing_function is not None:
            missing.setdefault(r.missing_function, r.not_run_reason)
    problems = list(missing.values())
    for hang in hangs.stuck.values():
        problems.append(
            f"{hang.text()}, nor within {hangs.short_limit:g} s when tried again: the checks that need it were not run."
        )
    if execution.isolation_note:
        problems.append(execution.isolation_note)
    return problems


def not_graded_result(
    submission: str, assignment: Assignment, reason: str, timings: dict[str, float] | None = None
) -> SubmissionResult:
    """A result that says why nothing could be graded: every check NOT RUN, scoring 0."""
    checks = tuple(CheckResult.not_run(check, reason) for check in assignment.checks)
    return SubmissionResult(
        submission=submission,
        assignment_id=assignment.id,
        checks=checks,
        execution=None,
        problems=(reason,),
        timings=timings or {},
    )
