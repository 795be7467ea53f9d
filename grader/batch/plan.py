"""Grade a whole class: in parallel, resumable, and without ever losing a graded result.

Submissions are graded by a pool: local worker processes (``grader.batch.local``, ``jobs``
of them) or, with ``cluster``, a Dask scheduler (``grader.batch.cluster``); with ``shard``
only part of the class is graded (``grader.batch.sharding``, combined by ``grader merge``).
As soon as one is graded its outputs are written (``grader.class_folder.outputs``), the stored
record last, with a fingerprint of what was graded (``grader.class_folder.records``). A batch
stopped at any moment and started again grades only the submissions whose fingerprint is
missing or different (``force`` regrades all). ``index.html``, ``grades.csv`` and
``similarity.csv`` are rebuilt from the stored records and the copies of the submissions
stored with them at the end (and when interrupted, from what is done).

The output folder is marked as this grader's (``grader.submission.own_outputs``) before the
input is read, so that an output folder inside the input folder is never graded as a
student, on the first run as on a rerun. It is locked for one batch at a time
(``grader.batch.output_lock``) before anything is written into it. An output that cannot be
written (a full disk) stops the batch with what was stored kept (``grader.batch.write_failure``).
"""

from __future__ import annotations

import contextlib
import logging
import statistics
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from grader.atomic_write import remove_leftovers, write_atomic
from grader.batch.cluster import DaskPool
from grader.batch.local import LocalPool
from grader.batch.options import BatchOptions
from grader.batch.output_lock import output_folder_lock
from grader.batch.pool import GradeFunction, GradingPool, GradingTask
from grader.batch.progress import ProgressReport, first_line, format_duration
from grader.batch.sharding import Shard, ShardManifest
from grader.batch.write_failure import OutputsNotWritten, writing_outputs
from grader.class_folder.layout import REPORT_FILE, RESULT_FILE, ClassFolder
from grader.class_folder.outputs import (
    class_output_lines,
    write_class_outputs,
    write_student_feedback,
    write_student_outputs,
    write_submitted_copy,
)
from grader.class_folder.records import GradingRecord, assignment_sha256, fingerprint
from grader.execution.isolation import Isolation, decide_isolation
from grader.grading import grade_submission, not_graded_result
from grader.overrides.apply import NO_DECISIONS, FittedDecisions, class_decisions
from grader.spec.loader import differences_from_folder
from grader.spec.model import Assignment, AssignmentError
from grader.submission.inputs import (
    InputError,
    RefusedMember,
    StudentSubmission,
    SubmissionSet,
    collect_submissions,
)
from grader.submission.own_outputs import OWN_OUTPUT_REASON, mark_output_folder

_log = logging.getLogger(__name__)

__all__ = ["BatchJob", "BatchOptions", "BatchResult", "run_batch", "run_batches"]


@dataclass(frozen=True)
class BatchJob:
    """One class to grade: its submissions, the assignment, where the outputs go."""

    source: Path
    """A folder, an nbgrader tree or an LMS zip."""
    assignment: Assignment
    out_dir: Path


@dataclass
class BatchResult:
    out_dir: Path
    records: list[GradingRecord]
    skipped: list[tuple[str, str]]
    total: int
    """Submissions found in the input."""
    interrupted: bool = False
    elapsed: float = 0.0
    """This class's own time: finding and planning its submissions, then from the start of
    its first grading to the end of its last (classes graded together overlap)."""
    own_outputs: tuple[str, ...] = ()
    """Output folders of this grader inside the input, left out (``graded/``)."""
    decision_problems: tuple[str, ...] = ()
    """Entries of ``overrides.toml`` that do not fit the class (kept in the file, not applied)."""
    not_written: OutputsNotWritten | None = None
    """Why the batch stopped early, or its class files are not up to date: an output could not
    be written (a full disk). What was stored is kept; a rerun finishes the class."""
    isolation: Isolation | None = None
    """The isolation its submissions were graded under this time."""

    @property
    def graded(self) -> list[GradingRecord]:
        return [r for r in self.records if r.failure is None]

    @property
    def not_graded(self) -> list[GradingRecord]:
        return [r for r in self.records if r.failure is not None]

    @property
    def return_code(self) -> int:
        """130 when interrupted, 1 when an output could not be written or the grader itself
        failed on a submission, else 0 (submissions that could not be read or run are
        results, not errors)."""
        if self.interrupted:
            return 130
        return 1 if self.not_written or any(r.grader_fault for r in self.records) else 0

    def __str__(self) -> str:
        reused = sum(r.reused for r in self.records)
        state = "Interrupted" if self.interrupted else "Stopped" if self.not_written else "Done"
        lines = [
            f"{state}: {len(self.records)} of {self.total} submission(s) in "
            f"{format_duration(self.elapsed)} ({len(self.records) - reused} graded now, "
            f"{reused} kept from an earlier run)."
        ]
        scores = [r.result.score for r in self.graded]
        if scores:
            top = max(r.result.max_score for r in self.graded)
            lines.append(
                f"Graded: {len(scores)}. Mean score {statistics.fmean(scores):.1f}, "
                f"median {statistics.median(scores):g} (out of {top:g})."
            )
        if self.not_graded:
            lines.append(f"Could not be graded: {len(self.not_graded)}.")
            lines += [f"  {r.submission.student_id}: {first_line(r.failure or '')}" for r in self.not_graded]
        if self.skipped:
            lines.append(f"Files left out: {len(self.skipped)}.")
            lines += [f"  {path}: {reason}" for path, reason in self.skipped]
        lines += [f"Skipped {folder}: {OWN_OUTPUT_REASON}." for folder in self.own_outputs]
        if self.decision_problems:
            lines.append(f"Instructor's decisions not applied: {len(self.decision_problems)}.")
            lines += [f"  {problem}" for problem in self.decision_problems]
        if self.isolation is not None and self.isolation.reduced:
            lines.append(self.isolation.summary())
        if self.not_written:
            lines += [f"Stopped: {self.not_written}.", self.not_written.advice]
        else:
            lines += class_output_lines(self.out_dir)
        if self.interrupted:
            lines.append("Run the same command again to grade the rest.")
        return "\n".join(lines)


def run_batch(
    source: Path,
    assignment: Assignment,
    out_dir: Path,
    options: BatchOptions = BatchOptions(),
    grade: GradeFunction = grade_submission,
) -> BatchResult:
    """Grade every submission in ``source`` (folder, nbgrader tree or LMS zip) into ``out_dir``."""
    return run_batches([BatchJob(source, assignment, out_dir)], options, grade)[0]


def _refuse_an_assignment_its_folder_does_not_hold(assignment: Assignment) -> None:
    differ = differences_from_folder(assignment)
    if differ:
        raise AssignmentError(
            assignment.directory / "assignment.toml",
            differ[0],
            f"the assignment given differs from its folder in {', '.join(differ)}; a batch's workers read "
            "the assignment from its folder, so write the change there (or grade one file with grade_submission)",
        )


def run_batches(
    jobs: Sequence[BatchJob], options: BatchOptions = BatchOptions(), grade: GradeFunction = grade_submission
) -> list[BatchResult]:
    """Grade several classes through one pool of workers, so that one class's slow tail
    (a notebook looping until its time-out) overlaps with the others' work.

    Each class's isolation is decided first: where it cannot be had, this raises
    `IsolationRefused` before any input is read or any output written. The workers read each
    assignment from its folder: an `Assignment` that differs from what its folder holds (changed
    in memory) raises `AssignmentError` first, rather than being graded under the file."""
    for job in jobs:
        _refuse_an_assignment_its_folder_does_not_hold(job.assignment)
    isolations = [decide_isolation(options.sandbox, j.assignment.sandbox, fall_back=options.fall_back) for j in jobs]
    with contextlib.ExitStack() as held:
        plans = []
        for job, isolation in zip(jobs, isolations):
            planning_started = time.monotonic()
            scratch = Path(held.enter_context(tempfile.TemporaryDirectory(prefix="grader-batch-")))
            claimed = _claim_output_folder(job, held)
            found = collect_submissions(job.source, job.assignment.id, scratch)
            # read before any grading: a file that cannot be read stops the batch unchanged
            decisions = class_decisions(job.out_dir, job.assignment, {s.student_id for s in found.submissions})
            if not claimed:
                _hold_output_folder(job, held)
            plan = _plan(
                job, options.shard.select(found) if options.shard else found, isolation, decisions, force=options.force
            )
            with writing_outputs(job.out_dir):
                plan.rewrite_kept()
            plan.planning_seconds = time.monotonic() - planning_started
            plans.append(plan)
        tasks = [task for plan in plans for task in plan.tasks]
        plan_of = {task: plan for plan in plans for task in plan.tasks}
        pool = _pool(options, grade)
        progress = ProgressReport(len(tasks), enabled=options.progress)
        if tasks:
            for plan, isolation in zip(plans, isolations):
                _say_isolation(plan.job, isolation, several=len(plans) > 1)
            _log.info(f"Grading {len(tasks)} submission(s) {pool.description(len(tasks))}.")

        def finished(task: GradingTask, record: GradingRecord) -> None:
            plan = plan_of[task]
            with writing_outputs(plan.job.out_dir):  # the pool stops its workers, the batch stops
                plan.store(record)
            progress.finished(record, task.assignment.id)

        pool_started = time.monotonic()
        interrupted_at: float | None = None
        not_written: OutputsNotWritten | None = None
        try:
            pool.run(tasks, finished)
        except KeyboardInterrupt:
            interrupted_at = time.monotonic()
        except OutputsNotWritten as failure:
            interrupted_at, not_written = time.monotonic(), failure
        finally:
            progress.close()
        results = [
            replace(plan.finish(pool_started, interrupted_at, options.similarity_threshold), isolation=isolation)
            for plan, isolation in zip(plans, isolations)
        ]
        if not_written is not None:
            results = [replace(r, interrupted=False, not_written=r.not_written or not_written) for r in results]
        if options.shard:
            for plan, result in zip(plans, results):
                plan.write_manifest(options.shard, complete=interrupted_at is None and not result.not_written)
    return results


def _say_isolation(job: BatchJob, isolation: Isolation, *, several: bool) -> None:
    """On the terminal once the class is planned, before its first kernel starts: a warning
    when students' code runs with less than bubblewrap, so that it is seen even with ``--quiet``."""
    line = f"{job.assignment.id}: {isolation.summary()}" if several else isolation.summary()
    if isolation.reduced:
        _log.warning(line)
    else:
        _log.info(line)


def _claim_output_folder(job: BatchJob, held: contextlib.ExitStack) -> bool:
    """Hold an existing output folder before the input is read, so that inside the input it
    is left out even when an earlier grader wrote it without the mark; whether it is held
    (a new one is created and held once the input is read, before anything is written)."""
    if job.out_dir.resolve() == job.source.resolve():
        raise InputError(f"{job.out_dir}: the outputs need a folder of their own, not the input folder itself")
    if not job.out_dir.is_dir():
        return False
    _hold_output_folder(job, held)
    return True


def _hold_output_folder(job: BatchJob, held: contextlib.ExitStack) -> None:
    """Lock the output folder for this batch alone (`OutputFolderBusy` when another holds it)
    until ``held`` closes, and mark it as this grader's; the temporary files of a batch killed
    while writing are removed."""
    held.enter_context(output_folder_lock(job.out_dir))
    remove_leftovers(job.out_dir)
    with writing_outputs(job.out_dir):
        mark_output_folder(job.out_dir)


def _pool(options: BatchOptions, grade: GradeFunction) -> GradingPool:
    if options.cluster:
        return DaskPool(options.cluster, options, grade)
    return LocalPool(options, grade)


@dataclass(frozen=True)
class KeptResult:
    """A stored result that is still valid: it is not graded again."""

    record: GradingRecord
    report_missing: bool
    """Its report is gone, so every file of the student is written again, the record last."""


@dataclass
class _BatchPlan:
    """One class while it is being graded: what is stored already, what is left to grade,
    and when its own grading began and ended."""

    job: BatchJob
    found: SubmissionSet
    decisions: FittedDecisions = NO_DECISIONS
    """The instructor's decisions, applied to every output written."""
    records: dict[str, GradingRecord] = field(default_factory=dict)
    kept: list[KeptResult] = field(default_factory=list)
    """The stored results kept, whose files `rewrite_kept` brings up to date."""
    not_unpacked: list[GradingRecord] = field(default_factory=list)
    """New records of hand-ins left out of the zip (not graded: nothing to run), which
    `rewrite_kept` writes."""
    tasks: list[GradingTask] = field(default_factory=list)
    planning_seconds: float = 0.0
    first_started: float | None = None
    """When the earliest of its submissions graded now began (its end less its duration)."""
    last_stored: float | None = None
    stored_now: int = 0

    def rewrite_kept(self) -> None:
        """Bring each kept result's files up to date with the instructor's decisions: all of
        them when its report is gone, else the submitted copy (it may be missing: deleted, or
        stored by an older grader), the report and results.json, each only when it changed.
        The records of hand-ins left out of the zip, new, are written whole."""
        for record in self.not_unpacked:
            write_student_outputs(self.job.out_dir, record, self.job.assignment, self.decisions)
        for kept in self.kept:
            if kept.report_missing:
                write_student_outputs(self.job.out_dir, kept.record, self.job.assignment, self.decisions)
            else:
                folder = ClassFolder(self.job.out_dir).student(kept.record.submission)
                write_submitted_copy(folder, kept.record.submission)
                write_student_feedback(folder, kept.record, self.job.assignment, self.decisions)

    def store(self, record: GradingRecord) -> None:
        write_student_outputs(self.job.out_dir, record, self.job.assignment, self.decisions)
        self.records[record.submission.student_id] = record
        self.stored_now += 1
        now = time.monotonic()
        started = now - record.seconds
        self.first_started = started if self.first_started is None else min(self.first_started, started)
        self.last_stored = now

    def finish(
        self, pool_started: float, interrupted_at: float | None, similarity_threshold: float | None
    ) -> BatchResult:
        interrupted = interrupted_at is not None
        skipped = [(s.path, s.reason) for s in self.found.skipped]
        records = sorted(self.records.values(), key=lambda r: r.submission.student_id)
        not_written = None
        try:
            with writing_outputs(self.job.out_dir):  # the earlier class files stay whole
                write_class_outputs(
                    self.job.out_dir,
                    records,
                    self.job.assignment,
                    skipped,
                    not interrupted,
                    similarity_threshold,
                    self.decisions,
                )
        except OutputsNotWritten as failure:
            not_written = failure
        elapsed = self.planning_seconds + self._grading_seconds(pool_started, interrupted_at)
        problems = tuple(str(p) for p in self.decisions.problems)
        return BatchResult(
            self.job.out_dir,
            records,
            skipped,
            len(self.found.submissions),
            interrupted,
            elapsed,
            own_outputs=self.found.own_outputs,
            decision_problems=problems,
            not_written=not_written,
        )

    def _grading_seconds(self, pool_started: float, interrupted_at: float | None) -> float:
        start, end = self.first_started, self.last_stored
        if interrupted_at is not None and self.stored_now < len(self.tasks):  # stopped while grading this class
            start, end = (start if start is not None else pool_started), interrupted_at
        return end - start if start is not None and end is not None else 0.0

    def write_manifest(self, shard: Shard, complete: bool) -> None:
        manifest = ShardManifest(
            shard,
            self.job.assignment.id,
            tuple(s.student_id for s in self.found.submissions),
            tuple((s.path, s.reason) for s in self.found.skipped),
            complete,
        )
        with writing_outputs(self.job.out_dir):
            write_atomic(ClassFolder(self.job.out_dir).manifest, manifest.to_json())


def _plan(
    job: BatchJob, found: SubmissionSet, isolation: Isolation, decisions: FittedDecisions, *, force: bool
) -> _BatchPlan:
    """Keep every stored result that is still valid; everything else becomes a task. Reads the
    output folder and writes nothing: the kept results whose files need writing again are
    listed (`_BatchPlan.kept`) for `_BatchPlan.rewrite_kept`."""
    plan = _BatchPlan(job, found, decisions)
    spec_digest = assignment_sha256(job.assignment)
    for submission in found.submissions:
        current = fingerprint(submission, spec_digest, isolation.choice)
        folder = ClassFolder(job.out_dir).student(submission)
        stored = GradingRecord.load(folder / RESULT_FILE, submission)
        if stored and stored.fingerprint == current and not stored.grader_fault and not force:
            stored = replace(stored, submission=submission)
            plan.kept.append(KeptResult(stored, report_missing=not (folder / REPORT_FILE).is_file()))
            plan.records[submission.student_id] = stored
        elif submission.refused is not None:  # nothing to run: its record says why
            plan.not_unpacked.append(not_unpacked_record(submission, submission.refused, current, job.assignment))
            plan.records[submission.student_id] = plan.not_unpacked[-1]
        else:
            plan.tasks.append(GradingTask(submission, current, job.assignment, isolation.choice))
    _log.info(
        f"{job.assignment.id}: {len(found.submissions)} submission(s) found ({found.layout.value}), "
        f"{len(plan.tasks)} to grade, {len(plan.records)} up to date."
    )
    return plan


def not_unpacked_record(
    submission: StudentSubmission, refused: RefusedMember, current: str, assignment: Assignment
) -> GradingRecord:
    """The record of a hand-in left out of the zip (``refused``): not graded, every check
    saying why, as an unreadable notebook's; the submission's fault, not the grader's, so a
    rerun keeps it."""
    reason = f"Not graded: {submission.original_name} was {refused.reason}."
    result = not_graded_result(submission.original_name, assignment, reason)
    return GradingRecord(submission, result, current, result.not_graded_reason, grader_fault=False)
