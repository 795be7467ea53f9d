"""The in-notebook check: an assignment's public checks, run from a cell on the functions the
student's session defines right now.

The checks are grading's own (`grader.grading.run_checks`, the same kinds, counterexamples and
causes); only their calls go to this process (`grader.execution.in_process`) instead of a
second kernel, so nothing is executed again: no scripted ``input()``, no notebook file needed
(Colab has none). Hidden checks are never run. The checks that judge the notebook's own run
(does it run top to bottom, what did its cells print) need that run, and are left to
``grader check``. Whatever the checks do to the session's globals is undone before the result
is shown.
"""

from __future__ import annotations

import dataclasses
import sys
import time
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from grader.errors import GraderError
from grader.execution.channel.kernel.names import is_ipython_bookkeeping
from grader.execution.in_process import CallsNotPossibleHere, InProcessSession, require_alarm
from grader.feedback.views import HiddenCheckNotRun
from grader.grading import run_checks, submission_problems
from grader.notebook.finding import AssignmentNotFound, find_assignment
from grader.notebook.result_view import NotebookCheck
from grader.notebook.saved_globals import save_globals
from grader.results import SubmissionResult
from grader.spec.hidden_checks import hidden_checks
from grader.spec.model import Assignment, AssignmentError, Check

RUN_JUDGED_KINDS = frozenset({"runs-cleanly", "printed-sequence"})
"""Kinds that judge the notebook's run top to bottom: nothing ran top to bottom here."""

SUBMISSION_NAME = "this notebook"


def check(assignment: str | Path, check_id: str | None = None) -> NotebookCheck:
    """Run ``assignment``'s public checks (or the one named ``check_id``) on the functions
    this session defines, and return the result to show below the cell."""
    namespace, shell, hidden = _student_namespace()
    return check_namespace(namespace, assignment, check_id, shell=shell, hidden=hidden)


def check_namespace(
    namespace: dict[str, Any],
    assignment: str | Path,
    check_id: str | None = None,
    *,
    shell: Any = None,
    hidden: Collection[str] = ("__builtins__", "__name__"),
) -> NotebookCheck:
    """`check` on the functions ``namespace`` defines; ``hidden`` names are the shell's own,
    ``shell`` the IPython shell that owns the namespace, if any."""
    started = time.perf_counter()
    try:
        spec = find_assignment(assignment)
        plan = _plan(spec, check_id)
    except (AssignmentNotFound, AssignmentError, _NoSuchCheck) as problem:
        return NotebookCheck.problem_only(str(assignment), str(problem))
    try:
        require_alarm()  # before the checks, which would each turn it into a grader fault
    except CallsNotPossibleHere as problem:
        return NotebookCheck.problem_only(spec.id, str(problem), title=spec.title)
    session = InProcessSession(namespace, hidden=hidden, shell=shell)
    saved = save_globals(namespace, skip={*hidden, *(n for n in namespace if is_ipython_bookkeeping(n))})
    deadline_seconds = spec.grading_deadline - spec.notebook_timeout
    try:
        ctx, results = run_checks(session, None, plan.assignment, time.monotonic() + deadline_seconds, deadline_seconds)
    finally:
        saved.restore()
    shown = [r for r in results if r.check_id in plan.shown]
    seconds = time.perf_counter() - started
    result = SubmissionResult(
        submission=SUBMISSION_NAME,
        assignment_id=spec.id,
        checks=tuple(shown),
        execution=None,
        problems=tuple(submission_problems(shown, None, ctx.hang_memory)),
        timings={},
    )
    return NotebookCheck(
        assignment_id=spec.id,
        title=spec.title,
        result=result,
        hidden_not_run=plan.hidden,
        left_to_grader_check=plan.left_to_grader_check,
        seconds=seconds,
    )


@dataclass(frozen=True)
class _Plan:
    assignment: Assignment
    """The assignment with the checks to run: the ones asked for and what they build on."""
    shown: frozenset[str]
    hidden: tuple[HiddenCheckNotRun, ...]
    left_to_grader_check: tuple[str, ...]
    """Titles of the checks that judge the notebook's run."""


class _NoSuchCheck(GraderError, LookupError):
    pass


def _plan(spec: Assignment, check_id: str | None) -> _Plan:
    public = [c for c in spec.checks if not c.hidden]
    runnable = [c for c in public if c.kind not in RUN_JUDGED_KINDS]
    if check_id is None:
        return _Plan(
            dataclasses.replace(spec, checks=tuple(runnable)),
            frozenset(c.id for c in runnable),
            _hidden_checks(spec),
            tuple(c.title for c in public if c.kind in RUN_JUDGED_KINDS),
        )
    asked = next((c for c in spec.checks if c.id == check_id), None)
    if asked is None:
        ids = ", ".join(c.id for c in public)
        raise _NoSuchCheck(f"{spec.id} has no check {check_id!r}: its checks are {ids}")
    if asked.hidden:
        raise _NoSuchCheck(f"{check_id!r} is a hidden check: it runs only when the assignment is graded")
    if asked.kind in RUN_JUDGED_KINDS:
        raise _NoSuchCheck(f"{check_id!r} judges the whole notebook run: check it with `grader check`")
    needed = _built_on(asked, runnable)
    return _Plan(
        dataclasses.replace(spec, checks=tuple(c for c in runnable if c.id in needed)),
        frozenset({asked.id}),
        (),
        (),
    )


def _hidden_checks(spec: Assignment) -> tuple[HiddenCheckNotRun, ...]:
    """The hidden checks, by title and points (a student's copy names them beside its spec)."""
    return tuple(HiddenCheckNotRun(c.title, c.points) for c in hidden_checks(spec))


def _built_on(asked: Check[Any], runnable: list[Check[Any]]) -> set[str]:
    """The check and those whose findings grading carries into it: the predicate checks
    before it (a wrong ``check_win`` found there is what lets a search check be graded again
    with the reference's in its place)."""
    needed = {asked.id}
    for c in runnable:
        if c.id == asked.id:
            break
        if c.kind == "predicate":
            needed.add(c.id)
    return needed


def _student_namespace() -> tuple[dict[str, Any], Any, Collection[str]]:
    """The live namespace the student's cells run in: IPython's (Jupyter, VS Code, Colab), or
    ``__main__``'s in a plain interpreter; with its shell and the names the shell put there."""
    try:
        from IPython import get_ipython
    except ImportError:
        shell = None
    else:
        shell = get_ipython()
    if shell is not None:
        return shell.user_ns, shell, frozenset(shell.user_ns_hidden) | {"__builtins__", "__name__"}
    main = vars(sys.modules["__main__"])
    return main, None, frozenset(n for n in main if n.startswith("__"))
