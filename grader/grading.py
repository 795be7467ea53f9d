"""Grade one submission: read it, execute it in the sandbox, run the rubric's checks.

This is the boundary where anything that goes wrong with a submission (unreadable file,
kernel that will not start, missing functions, crashes, hangs) becomes part of its result.
Nothing raised in here escapes to a batch. Grading keeps its own deadline: past it no check
starts and no call is made, the checks not run say so, and what was graded stands.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Protocol

from grader.checks.call_tally import CallTally
from grader.checks.context import Submission
from grader.checks.registry import needed_functions, run_check, with_later_stand_ins
from grader.collector_pause import older_objects_left_out_of_collections
from grader.execution.channel.calls import Call, CallOutcome, CallStatus, DefinedNames
from grader.execution.hangs import HangMemory
from grader.execution.isolation import SandboxChoice, decide_isolation
from grader.execution.sandbox import KernelStartFailed
from grader.execution.session import ExecutionOptions, ExecutionResult, NotebookSession
from grader.execution.spare_kernels import SpareKernel
from grader.results import CheckResult, CheckStatus, SubmissionResult
from grader.spec.board import OBJECT
from grader.spec.model import Assignment, Check
from grader.spec.support import ignored_copies
from grader.submission.reader import SubmissionUnreadable, read_submission

__all__ = ["GradingOptions", "grade_submission"]


class FunctionCalls(Protocol):
    """Where the checks' calls of the student's functions go: a kernel's call channel, or
    this process (`grader.execution.in_process`)."""

    def call_many(self, calls: Sequence[Call]) -> list[CallOutcome]: ...

    def defined_names(self) -> DefinedNames: ...


class CheckedSession(Protocol):
    """What the checks need of a session whose student code has run: its calls."""

    @property
    def calls(self) -> FunctionCalls: ...


@dataclass(frozen=True)
class GradingOptions:
    sandbox: SandboxChoice | None = None
    """The isolation asked for; None: as ``GRADER_SANDBOX`` or the assignment say, else
    bubblewrap (`grader.execution.isolation`: nothing weaker runs unless chosen)."""
    public_only: bool = False
    """Student self-check: hidden checks are not run at all."""
    spare_kernel: SpareKernel | None = field(default=None, compare=False, repr=False)
    """Where a worker that grades one submission after another keeps the next kernel
    booting (see `grader.execution.spare_kernels`); None: each submission starts its own."""
    deadline_seconds: float | None = None
    """After this long no check starts and no call is made (default: the assignment's
    ``grading_deadline``)."""


def grade_submission(
    path: Path | str,
    assignment: Assignment,
    options: GradingOptions = GradingOptions(),
    *,
    on_check: Callable[[CheckResult], None] | None = None,
) -> SubmissionResult:
    with older_objects_left_out_of_collections():
        return _grade(Path(path), assignment, options, on_check)


def _grade(
    path: Path,
    assignment: Assignment,
    options: GradingOptions,
    on_check: Callable[[CheckResult], None] | None,
) -> SubmissionResult:
    if options.public_only:
        assignment = assignment.public()
    isolation = decide_isolation(options.sandbox, assignment.sandbox)  # refuses before anything runs
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

    warming = AssignmentWarmUp.start(assignment)
    execution_options = ExecutionOptions(
        stdin=assignment.stdin,
        cell_timeout=assignment.cell_timeout,
        notebook_timeout=assignment.notebook_timeout,
        sandbox=isolation.choice,
        short_limit=assignment.short_limit,
        support=tuple(module.path for module in assignment.support),
    )
    try:
        with NotebookSession(notebook, execution_options, spare_kernel=options.spare_kernel) as session:
            execution = session.execute()
            timings["execute"] = round(execution.total_duration, 4)
            timings["kernel_start"] = round(execution.kernel_start_seconds, 4)
            warming.wait()
            checks_started = time.monotonic()
            tally = CallTally(session.calls)
            ctx, results = run_checks(session, execution, assignment, deadline, allowed, tally=tally, on_check=on_check)
            timings["checks"] = round(time.monotonic() - checks_started, 4)
            # Of the checks' time, what the student's own functions took in the kernel: the
            # rest is the grader's (references, hypothesis, the channel).
            timings["student_code"] = round(tally.kernel_seconds, 4)
    except KernelStartFailed as exc:  # this machine's fault, not the notebook's: nothing of it ran
        warming.wait()
        reason = f"The notebook could not be run: {exc}"
        return replace(not_graded_result(str(path), assignment, reason, timings), machine_fault=True)
    except Exception as exc:  # a kernel that cannot be talked to at all
        warming.wait()
        return not_graded_result(
            str(path), assignment, f"The notebook could not be run: {type(exc).__name__}: {exc}", timings
        )
    timings["total"] = round(time.monotonic() - started, 4)
    return SubmissionResult(
        submission=str(path),
        assignment_id=assignment.id,
        checks=tuple(results),
        execution=execution,
        problems=(
            *submission_problems(results, execution, ctx.hang_memory),
            *ignored_copies(path, assignment.support),
        ),
        timings=timings,
    )


def run_checks(
    session: CheckedSession,
    execution: ExecutionResult | None,
    assignment: Assignment,
    deadline: float,
    allowed: float,
    *,
    tally: CallTally | None = None,
    on_check: Callable[[CheckResult], None] | None = None,
) -> tuple[Submission, list[CheckResult]]:
    """Run the assignment's checks against a session that has executed its notebook; past
    ``deadline`` (``time.monotonic()``, ``allowed`` seconds after the start) no check starts.
    Every call the checks make goes through one `CallTally` over ``session.calls``
    (``ctx.runner``), which adds up the kernel time of the student's functions.
    ``execution`` is None where no notebook was executed (the in-notebook check): the checks
    that judge the run itself then have nothing to read. Once every check ran, a check of a
    search that calls a search found wrong by a check after it is graded again with the
    reference's search in its place (`grader.checks.registry.with_later_stand_ins`)."""
    tally = tally if tally is not None else CallTally(session.calls)
    names = session.calls.defined_names()
    submission = Submission(
        assignment=assignment,
        runner=tally,
        defined_names=_flatten(names),
        execution=execution,
        hangs=HangMemory(assignment.short_limit, names.references),
    )
    results = []
    for check in assignment.checks:
        if time.monotonic() >= deadline:
            result = CheckResult.not_run(check, f"out of time: grading reached its deadline of {allowed:.0f} s")
        elif not _should_run(check, submission):
            result = _bonus_not_attempted(check)
        else:
            result = run_check(check, submission.check_context(deadline))
        results.append(result)
        if on_check:
            on_check(result)
    for n, check in enumerate(assignment.checks):  # a search calling one whose check came after it
        if time.monotonic() < deadline:
            results[n] = with_later_stand_ins(check, submission.check_context(deadline), results[n])
    return submission, results


class _NoCalls:
    """A session that makes no call and defines every function the checks ask for."""

    def __init__(self, assignment: Assignment) -> None:
        self.assignment = assignment

    def call_many(self, calls: Sequence[Call]) -> list[CallOutcome]:
        return [CallOutcome(CallStatus.SKIPPED, error="warming up: no call is made") for _ in calls]

    def defined_names(self) -> DefinedNames:
        assignment = self.assignment
        needed = {function for check in assignment.checks for function in needed_functions(check)}
        if assignment.board.factory is not None:
            needed.add(assignment.board.factory.function)
        names = tuple(sorted({name for function in needed for name in notebook_names(assignment, function)}))
        return DefinedNames(functions=names, classes={}, variables=(), references={})

    @property
    def calls(self) -> _NoCalls:
        return self


class AssignmentWarmUp:
    """What an assignment's checks compute whatever the student wrote, computed in a thread
    while the first notebook of the assignment this process grades starts and runs.

    A check builds what it asks about (hypothesis's batches, the positions that cover a
    rule, the solved game) before its first call, and keeps it for the life of the process;
    the first submission paid for it on its own clock (0.26-0.32 s on the bundled classes,
    the next ones nothing). Here every check runs once against a session that makes no call
    and stops at its first one. It runs while the grader's process only waits for the
    kernel, with a short switch interval so that the messages of the running cells are read
    as promptly as without it.
    """

    _warm: set[tuple[str, str, tuple[str, ...]]] = set()
    _warm_lock = threading.Lock()
    _running = threading.Lock()
    """One warm-up at a time: each sets the process's switch interval and puts it back."""
    _SWITCH_INTERVAL = 0.0002

    def __init__(self, thread: threading.Thread | None) -> None:
        self._thread = thread
        self.started = thread is not None
        """False when the assignment was warm already in this process."""

    @classmethod
    def start(cls, assignment: Assignment) -> AssignmentWarmUp:
        key = (assignment.id, str(assignment.directory), tuple(check.id for check in assignment.checks))
        with cls._warm_lock:
            if key in cls._warm:
                return cls(None)
            cls._warm.add(key)
        thread = threading.Thread(target=cls._run, args=(assignment,), name="grader-warm-up", daemon=True)
        thread.start()
        return cls(thread)

    @classmethod
    def _run(cls, assignment: Assignment) -> None:
        with cls._running:
            interval = sys.getswitchinterval()
            sys.setswitchinterval(cls._SWITCH_INTERVAL)
            try:
                run_checks(_NoCalls(assignment), None, assignment, time.monotonic() + 3600, 3600)
            except Exception:  # noqa: S110 (a warm-up that fails leaves the work to the checks)
                pass
            finally:
                sys.setswitchinterval(interval)

    def wait(self) -> None:
        if self._thread is not None:
            self._thread.join()
            self._thread = None


def _flatten(names: DefinedNames) -> frozenset[str]:
    return frozenset(names.functions) | frozenset(names.classes) | frozenset(names.variables)


def _should_run(check: Check[Any], ctx: Submission) -> bool:
    """Bonus checks only run when the notebook defines what they need."""
    if not check.bonus:
        return True
    return all(
        any(name in ctx.defined_names for name in notebook_names(ctx.assignment, function))
        for function in needed_functions(check)
    )


def notebook_names(assignment: Assignment, function: str) -> tuple[str, ...]:
    """The names under which a notebook defines what ``function`` (a spec's function, maybe
    dotted) calls: its root's names, and for a method of the board object (``OBJECT``) the
    names of the class its factory makes."""
    root = function.split(".")[0]
    factory = assignment.board.factory
    if root == OBJECT and factory is not None:  # `game.minimax(...)`: the object's class
        root = factory.function.split(".")[0]
    return tuple(assignment.names_for(root))


def _bonus_not_attempted(check: Check[Any]) -> CheckResult:
    return CheckResult.for_check(
        check, CheckStatus.NOT_RUN, "Optional task not attempted (no function with that name)."
    )


def submission_problems(
    results: Sequence[CheckResult], execution: ExecutionResult | None, hangs: HangMemory
) -> list[str]:
    """One line per missing function and per function that kept running out of time (however
    many checks needed it), and reduced isolation."""
    missing: dict[str, str] = {}
    for r in results:
        if r.missing_function is not None and r.not_run_reason is not None:
            missing.setdefault(r.missing_function, r.not_run_reason)
    problems = list(missing.values())
    for hang in hangs.stuck.values():
        problems.append(
            f"{hang.text()}, nor within {hangs.short_limit:g} s when tried again: the checks that need it were not run."
        )
    if execution is not None and execution.isolation_note:
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
