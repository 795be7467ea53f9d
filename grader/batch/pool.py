"""What a grading pool is given and what it hands back, wherever it grades.

A batch plans the class (``grader.batch.plan``) and gives a pool its tasks; the pool grades
them somewhere (local worker processes, ``grader.batch.local``; a Dask cluster,
``grader.batch.cluster``) and hands each task's record to ``finished`` in the batch's own
process, which writes the outputs. Both pools send the same ``WorkOrder`` to the code that
grades, ``grade_order``, and turn the `WorkerReport` that comes back into a record with
``record_for``.
"""

from __future__ import annotations

import logging
import traceback
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Protocol

from grader.batch.options import BatchOptions
from grader.class_folder.records import GradingRecord
from grader.execution.isolation import SandboxChoice
from grader.execution.spare_kernels import SpareKernel
from grader.grading import GradingOptions, not_graded_result
from grader.results import SubmissionResult
from grader.spec.loader import load_assignment
from grader.spec.model import Assignment
from grader.submission.inputs import StudentSubmission

_log = logging.getLogger(__name__)

HARD_DEADLINE_GRACE_SECONDS = 300.0
"""How long past its deadline grading may go on before its process is stopped: a call that
ignores its alarm and a kernel replaced with the notebook replayed."""

GradeFunction = Callable[[Path, Assignment, GradingOptions], SubmissionResult]
"""What grades one file; module-level so a worker process can import it by name."""


@dataclass(frozen=True, eq=False)
class GradingTask:
    """One submission to grade, as a pool receives it. Tasks compare by identity: the batch
    finds a finished task's class by the task itself."""

    submission: StudentSubmission
    fingerprint: str
    assignment: Assignment
    sandbox: SandboxChoice
    """The mode its class was decided to be graded in (never ``auto``: decided once, before
    any grading, by `grader.execution.isolation`)."""

    def deadline(self, options: BatchOptions) -> float:
        """Seconds after which grading this submission starts nothing more (inside grading)."""
        return options.deadline_seconds or self.assignment.grading_deadline

    def hard_deadline(self, options: BatchOptions) -> float:
        """Seconds after which the pool stops the process grading this submission: the
        deadline plus what a call in flight may still take (never more than doubling it)."""
        deadline = self.deadline(options)
        return deadline + min(deadline, HARD_DEADLINE_GRACE_SECONDS)

    def grading_options(self, options: BatchOptions) -> GradingOptions:
        return GradingOptions(sandbox=self.sandbox, deadline_seconds=self.deadline(options))

    def stopped_reason(self, options: BatchOptions) -> str:
        """Why the pool stopped grading it (at ``hard_deadline``)."""
        return (
            f"grading took longer than {self.deadline(options):.0f} s and did not end by itself "
            f"within {self.hard_deadline(options) - self.deadline(options):.0f} s more, so it was stopped"
        )


Finished = Callable[[GradingTask, GradingRecord], None]
"""Called in the batch's process once per task, with the record to store."""


class GradingPool(Protocol):
    """Grades tasks somewhere (local processes, a Dask cluster) and hands each record to
    ``finished`` in this process, which writes the outputs."""

    def description(self, task_count: int) -> str: ...

    def run(self, tasks: Sequence[GradingTask], finished: Finished) -> None: ...


@dataclass(frozen=True)
class WorkOrder:
    """One file to grade, as a worker process receives it (picklable: the assignment
    travels as its folder)."""

    path: Path
    source: str
    assignment_dir: Path
    options: GradingOptions
    grade: GradeFunction
    last: bool = False
    """No order follows it to the same worker: its kernel is taken without launching a spare."""


@dataclass(frozen=True)
class WorkerReport:
    """What the code that grades sends back to the pool for one order (picklable: the result
    travels as plain data). Empty: nothing came back (the process died, or was stopped)."""

    result: Mapping[str, Any] | None = None
    """`SubmissionResult.to_dict()`, when grading finished."""
    error: str | None = None
    """``Type: message`` when the grader itself raised, with its ``traceback``."""
    traceback: str = ""
    seconds: float | None = None
    """How long grading took where it ran (a Dask task: the client cannot see it start)."""
    grader_version: str | None = None
    """The version of the grader that graded it (a Dask worker may run another one)."""

    @property
    def empty(self) -> bool:
        return self.result is None and self.error is None


def grade_order(order: WorkOrder, assignments: dict[Path, Assignment], spare: SpareKernel | None) -> WorkerReport:
    """Grade one file in this process: the report for the pool (result or error)."""
    try:
        assignment = assignments.get(order.assignment_dir)
        if assignment is None:
            assignment = assignments[order.assignment_dir] = load_assignment(order.assignment_dir)
        if spare is not None:
            spare.launch_ahead = not order.last
        result = order.grade(order.path, assignment, replace(order.options, spare_kernel=spare))
        return WorkerReport(result=replace(result, submission=order.source).to_dict())
    except Exception as exc:  # noqa: BLE001 - everything must reach the parent as text
        return WorkerReport(error=f"{type(exc).__name__}: {exc}", traceback=traceback.format_exc())


def record_for(
    task: GradingTask,
    seconds: float,
    report: WorkerReport,
    *,
    stop_reason: str | None = None,
    death: str | None = None,
) -> GradingRecord:
    """What a pool learned about one task, as the record to store: the ``report`` that came
    back (empty when none did), ``stop_reason``: why the pool stopped it (its deadline);
    ``death``: how the process grading it died."""
    submission = task.submission
    if report.result is not None and stop_reason is None:
        result = SubmissionResult.from_dict(report.result)
        fault = result.machine_fault  # a kernel that could not start: graded again on a rerun
        return GradingRecord(submission, result, task.fingerprint, result.not_graded_reason, fault, seconds)
    if stop_reason:
        reason, fault = f"Not graded: {stop_reason}.", False
    elif report.error is not None:
        reason, fault = f"The grader failed on this submission ({report.error}).", True
        _log.error(f"grader: {submission.student_id}: {report.error}\n{report.traceback}")
    else:
        reason, fault = f"The grading process died ({death or 'no exit status'}).", True
    result = not_graded_result(submission.original_name, task.assignment, reason)
    return GradingRecord(submission, result, task.fingerprint, reason, fault, seconds)
