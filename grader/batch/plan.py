"""Grade a whole class: in parallel, resumable, and without ever losing a graded result.

Submissions are graded in worker processes (``jobs`` of them), each taking one submission
after another; a submission that crashes or hangs its worker costs only itself (the worker
is replaced). With ``cluster`` the work goes to a Dask scheduler instead
(``grader.batch.cluster``), and with ``shard`` only part of the class is graded
(``grader.batch.sharding``, combined by ``grader merge``). As soon as one is graded its
outputs are written, each atomically (temporary file + ``os.replace``), to
``OUT/<student>/``: ``report.html`` (returned to the student), ``results.json`` (Gradescope
format) and, last, ``submission_result.json``, which also records a fingerprint of what was
graded: the submission's bytes, the assignment spec and the grader's code. A batch stopped
at any moment and started again grades only the submissions whose fingerprint is missing
or different (``force`` regrades all). ``index.html`` and ``grades.csv`` are rebuilt from
the stored results at the end (and when interrupted, from what is done).
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.metadata
import json
import multiprocessing
import multiprocessing.connection
import os
import signal
import statistics
import sys
import tempfile
import time
import traceback
from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import Any, Protocol

from grader.batch.sharding import MANIFEST_FILE, Shard, ShardManifest
from grader.execution.sandbox import resolve_mode
from grader.execution.spare_kernels import SpareKernel
from grader.feedback.gradebook import GradebookRow, grades_csv
from grader.feedback.gradescope import results_json
from grader.feedback.html import ClassEntry, render_class_index, render_student_report
from grader.grading import GradingOptions, grade_submission, not_graded_result
from grader.results import SubmissionResult
from grader.spec.loader import load_assignment
from grader.spec.model import Assignment
from grader.submission.inputs import StudentSubmission, SubmissionSet, collect_submissions

RESULT_FILE = "submission_result.json"
REPORT_FILE = "report.html"
GRADESCOPE_FILE = "results.json"
INDEX_FILE = "index.html"
GRADES_FILE = "grades.csv"

GradeFunction = Callable[[Path, Assignment, GradingOptions], SubmissionResult]
"""What grades one file; module-level so a worker process can import it by name."""

_PACKAGE_ROOT = Path(__file__).resolve().parents[2]
_TERMINATE_GRACE_SECONDS = 5.0


@dataclass(frozen=True)
class BatchOptions:
    jobs: int | None = None
    """Submissions graded at once (default: one per available core)."""
    force: bool = False
    """Regrade everything, even submissions whose stored result is up to date."""
    sandbox: str = "auto"
    progress: bool = True
    """Show a progress bar on stderr (only when it is a terminal)."""
    deadline_seconds: float | None = None
    """Stop grading one submission after this long (default: derived from the assignment's
    own time limits, as a safety net behind them)."""
    cluster: str | None = None
    """Grade on the Dask scheduler at this address instead of local processes
    (``grader.batch.cluster``; needs the ``dask`` extra). ``jobs`` is then ignored."""
    shard: Shard | None = None
    """Grade only this shard of each class (``grader.batch.sharding``) and leave a manifest for
    ``grader merge``."""

    def worker_count(self) -> int:
        if self.jobs:
            return max(1, self.jobs)
        try:
            return max(1, len(os.sched_getaffinity(0)))
        except AttributeError:  # not on Linux
            return max(1, os.cpu_count() or 1)


# -- what is stored per student ---------------------------------------------------------------


@dataclass(frozen=True)
class GradingRecord:
    """One student's outcome, as stored in ``OUT/<student>/submission_result.json``."""

    submission: StudentSubmission
    result: SubmissionResult
    fingerprint: str
    failure: str | None = None
    """Why the submission could not be graded (unreadable, did not run, grader failure)."""
    grader_fault: bool = False
    """The grader (not the submission) failed: withheld from grades.csv, retried on resume."""
    seconds: float = 0.0
    reused: bool = False
    """Taken from an earlier run rather than graded now."""

    def to_dict(self) -> dict[str, Any]:
        s = self.submission
        return {
            "batch": {
                "fingerprint": self.fingerprint,
                "student_id": s.student_id,
                "display_name": s.display_name,
                "original_name": s.original_name,
                "late": s.late,
                "notes": list(s.notes),
                "failure": self.failure,
                "grader_fault": self.grader_fault,
                "seconds": round(self.seconds, 3),
            },
            **self.result.to_dict(),
        }

    @classmethod
    def load(cls, path: Path, submission: StudentSubmission) -> GradingRecord | None:
        """The stored record, or None when there is none or it cannot be read."""
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            meta = data["batch"]
            result = SubmissionResult.from_dict(data)
        except (OSError, ValueError, KeyError, TypeError):
            return None
        return cls(
            submission,
            result,
            str(meta.get("fingerprint", "")),
            meta.get("failure"),
            bool(meta.get("grader_fault")),
            float(meta.get("seconds", 0.0)),
            reused=True,
        )


# -- fingerprints -----------------------------------------------------------------------------


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        while chunk := f.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


def assignment_sha256(assignment: Assignment) -> str:
    """The spec as graded: its TOML, its adapter and its scripted input."""
    digest = hashlib.sha256()
    for name in ("assignment.toml", "adapter.py"):
        path = assignment.directory / name
        digest.update(name.encode() + b"\0" + (path.read_bytes() if path.is_file() else b"") + b"\0")
    digest.update("\n".join(assignment.stdin).encode())
    return digest.hexdigest()


@lru_cache(maxsize=1)
def grader_version() -> str:
    """The package version plus a hash of the grading code, so that an edited grader (a
    development install keeps its version number) regrades instead of reusing results."""
    try:
        version = importlib.metadata.version("gamesearch-grader")
    except importlib.metadata.PackageNotFoundError:
        version = "unknown"
    digest = hashlib.sha256()
    for package in ("grader", "reference"):
        for path in sorted((_PACKAGE_ROOT / package).rglob("*")):
            if path.is_file() and path.suffix in (".py", ".j2"):
                digest.update(path.relative_to(_PACKAGE_ROOT).as_posix().encode() + b"\0" + path.read_bytes())
    return f"{version}+{digest.hexdigest()[:12]}"


def fingerprint(submission_path: Path, assignment_digest: str, sandbox: str = "auto") -> str:
    """What a stored result is valid for: this file, this spec, this grader, this isolation
    (a notebook that ran without bubblewrap may have read files that bubblewrap hides, so
    asking for a stronger sandbox regrades it)."""
    parts = (file_sha256(submission_path), assignment_digest, grader_version(), isolation_asked(sandbox))
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()


def isolation_asked(sandbox: str) -> str:
    """The sandbox mode a ``--sandbox`` choice stands for here: ``auto`` is bubblewrap where
    it works, else limits; an explicit choice stands for itself (even where unavailable: that
    submission then fails to grade and says why)."""
    return resolve_mode("auto").value if sandbox == "auto" else sandbox


# -- writing outputs ----------------------------------------------------------------------------


def write_atomic(path: Path, text: str) -> None:
    """Readers (and a rerun after kill -9) see the old file or the new one, never half."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_student_outputs(out_dir: Path, record: GradingRecord, assignment: Assignment) -> None:
    """The report and results.json first, the stored record last: a record on disk means
    everything for that student is."""
    folder = out_dir / record.submission.folder_name
    s = record.submission
    html = render_student_report(
        record.result,
        submission_name=s.original_name,
        student_id=s.student_id,
        display_name=s.display_name,
        late=s.late,
        assignment=assignment,
    )
    write_atomic(folder / REPORT_FILE, html)
    write_atomic(folder / GRADESCOPE_FILE, results_json(record.result, failure=record.failure))
    write_atomic(folder / RESULT_FILE, json.dumps(record.to_dict(), indent=2, ensure_ascii=False) + "\n")


def write_class_outputs(
    out_dir: Path,
    records: Sequence[GradingRecord],
    assignment: Assignment,
    skipped: Iterable[tuple[str, str]],
    complete: bool,
) -> None:
    ordered = sorted(records, key=lambda r: r.submission.student_id)
    rows = [
        GradebookRow(r.submission.student_id, r.submission.display_name, r.result, withheld=r.grader_fault)
        for r in ordered
    ]
    write_atomic(out_dir / GRADES_FILE, grades_csv(rows))
    entries = [
        ClassEntry(
            r.submission.student_id,
            r.submission.display_name,
            r.submission.late,
            r.result,
            f"{r.submission.folder_name}/{REPORT_FILE}",
            r.failure,
            r.seconds,
            r.submission.notes,
        )
        for r in ordered
    ]
    html = render_class_index(
        entries, assignment_id=assignment.id, title=assignment.title, skipped=skipped, complete=complete
    )
    write_atomic(out_dir / INDEX_FILE, html)


# -- the batch ------------------------------------------------------------------------------------


@dataclass
class BatchResult:
    out_dir: Path
    records: list[GradingRecord]
    skipped: list[tuple[str, str]]
    total: int
    """Submissions found in the input."""
    interrupted: bool = False
    elapsed: float = 0.0

    @property
    def graded(self) -> list[GradingRecord]:
        return [r for r in self.records if r.failure is None]

    @property
    def not_graded(self) -> list[GradingRecord]:
        return [r for r in self.records if r.failure is not None]

    @property
    def return_code(self) -> int:
        """130 when interrupted, 1 when the grader itself failed on a submission, else 0
        (submissions that could not be read or run are results, not errors)."""
        if self.interrupted:
            return 130
        return 1 if any(r.grader_fault for r in self.records) else 0

    def __str__(self) -> str:
        reused = sum(r.reused for r in self.records)
        lines = [
            f"{'Interrupted' if self.interrupted else 'Done'}: {len(self.records)} of {self.total} submission(s) in "
            f"{_duration(self.elapsed)} ({len(self.records) - reused} graded now, {reused} kept from an earlier run)."
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
            lines += [f"  {r.submission.student_id}: {_first_line(r.failure or '')}" for r in self.not_graded]
        if self.skipped:
            lines.append(f"Files left out: {len(self.skipped)}.")
            lines += [f"  {path}: {reason}" for path, reason in self.skipped]
        lines.append(f"Class report: {self.out_dir / INDEX_FILE}")
        lines.append(f"Gradebook:    {self.out_dir / GRADES_FILE}")
        if self.interrupted:
            lines.append("Run the same command again to grade the rest.")
        return "\n".join(lines)


@dataclass(frozen=True)
class BatchJob:
    """One class to grade: its submissions, the assignment, where the outputs go."""

    source: Path
    """A folder, an nbgrader tree or an LMS zip."""
    assignment: Assignment
    out_dir: Path


def run_batch(
    source: Path,
    assignment: Assignment,
    out_dir: Path,
    options: BatchOptions = BatchOptions(),
    grade: GradeFunction = grade_submission,
) -> BatchResult:
    """Grade every submission in ``source`` (folder, nbgrader tree or LMS zip) into ``out_dir``."""
    return run_batches([BatchJob(source, assignment, out_dir)], options, grade)[0]


def run_batches(
    jobs: Sequence[BatchJob], options: BatchOptions = BatchOptions(), grade: GradeFunction = grade_submission
) -> list[BatchResult]:
    """Grade several classes through one pool of workers, so that one class's slow tail
    (a notebook looping until its time-out) overlaps with the others' work."""
    started = time.monotonic()
    with contextlib.ExitStack() as scratch_dirs:
        plans = []
        for job in jobs:
            scratch = Path(scratch_dirs.enter_context(tempfile.TemporaryDirectory(prefix="grader-batch-")))
            found = collect_submissions(job.source, job.assignment.id, scratch)
            plans.append(_plan(job, options.shard.select(found) if options.shard else found, options))
        tasks = [task for plan in plans for task in plan.tasks]
        pool = _pool(options, grade)
        progress = _progress_bar(len(tasks), enabled=options.progress)
        if options.progress and tasks:
            log_line(f"Grading {len(tasks)} submission(s) {pool.description(len(tasks))}.")
        ungraded = 0

        def finished(task: GradingTask, record: GradingRecord) -> None:
            nonlocal ungraded
            task.plan.store(record)
            ungraded += record.failure is not None
            progress.set_postfix_str(f"not graded: {ungraded}", refresh=False)
            progress.update(1)

        interrupted = False
        try:
            pool.run(tasks, finished)
        except KeyboardInterrupt:
            interrupted = True
        finally:
            progress.close()
    results = [plan.finish(interrupted, started) for plan in plans]
    if options.shard:
        for plan in plans:
            plan.write_manifest(options.shard, complete=not interrupted)
    return results


class GradingPool(Protocol):
    """Grades tasks somewhere (local processes, a Dask cluster) and hands each record to
    ``finished`` in this process, which writes the outputs."""

    def description(self, task_count: int) -> str: ...

    def run(self, tasks: Sequence[GradingTask], finished: Callable[[GradingTask, GradingRecord], None]) -> None: ...


def _pool(options: BatchOptions, grade: GradeFunction) -> GradingPool:
    if options.cluster:
        from grader.batch.cluster import DaskPool

        return DaskPool(options.cluster, options, grade)
    return _WorkerPool(options, grade)


@dataclass
class _BatchPlan:
    """One class while it is being graded: what is stored already, what is left to grade."""

    job: BatchJob
    found: SubmissionSet
    records: dict[str, GradingRecord] = field(default_factory=dict)
    tasks: list[GradingTask] = field(default_factory=list)
    last_stored: float | None = None

    def store(self, record: GradingRecord) -> None:
        write_student_outputs(self.job.out_dir, record, self.job.assignment)
        self.records[record.submission.student_id] = record
        self.last_stored = time.monotonic()

    def finish(self, interrupted: bool, started: float) -> BatchResult:
        skipped = [(s.path, s.reason) for s in self.found.skipped]
        records = sorted(self.records.values(), key=lambda r: r.submission.student_id)
        write_class_outputs(self.job.out_dir, records, self.job.assignment, skipped, complete=not interrupted)
        elapsed = (self.last_stored or time.monotonic()) - started
        return BatchResult(self.job.out_dir, records, skipped, len(self.found.submissions), interrupted, elapsed)

    def write_manifest(self, shard: Shard, complete: bool) -> None:
        manifest = ShardManifest(
            shard,
            self.job.assignment.id,
            tuple(s.student_id for s in self.found.submissions),
            tuple((s.path, s.reason) for s in self.found.skipped),
            complete,
        )
        write_atomic(self.job.out_dir / MANIFEST_FILE, manifest.to_json())


def _plan(job: BatchJob, found: SubmissionSet, options: BatchOptions) -> _BatchPlan:
    """Keep every stored result that is still valid; everything else becomes a task."""
    job.out_dir.mkdir(parents=True, exist_ok=True)
    plan = _BatchPlan(job, found)
    spec_digest = assignment_sha256(job.assignment)
    for submission in found.submissions:
        current = fingerprint(submission.path, spec_digest, options.sandbox)
        folder = job.out_dir / submission.folder_name
        stored = GradingRecord.load(folder / RESULT_FILE, submission)
        if stored and stored.fingerprint == current and not stored.grader_fault and not options.force:
            stored = replace(stored, submission=submission)
            if not (folder / REPORT_FILE).is_file():
                write_student_outputs(job.out_dir, stored, job.assignment)
            plan.records[submission.student_id] = stored
        else:
            plan.tasks.append(GradingTask(submission, current, plan))
    if options.progress:
        log_line(
            f"{job.assignment.id}: {len(found.submissions)} submission(s) found ({found.layout.value}), "
            f"{len(plan.tasks)} to grade, {len(plan.records)} up to date."
        )
    return plan


# -- grading in worker processes -------------------------------------------------------------------


@dataclass(frozen=True)
class GradingTask:
    """One submission to grade, as a pool receives it."""

    submission: StudentSubmission
    fingerprint: str
    plan: _BatchPlan = field(compare=False, repr=False)

    @property
    def assignment(self) -> Assignment:
        return self.plan.job.assignment

    def deadline(self, options: BatchOptions) -> float:
        """Seconds after which grading this submission is stopped."""
        return options.deadline_seconds or _default_deadline(self.assignment)


def record_for(
    task: GradingTask,
    seconds: float,
    message: Mapping[str, Any],
    *,
    stop_reason: str | None = None,
    death: str | None = None,
) -> GradingRecord:
    """What a pool learned about one task, as the record to store.

    ``message``: ``{"result": SubmissionResult.to_dict()}`` when grading finished, or
    ``{"error": ..., "traceback": ...}`` when the grader raised; ``stop_reason``: why the
    pool stopped it (its deadline); ``death``: how the process grading it died.
    """
    submission = task.submission
    if "result" in message and stop_reason is None:
        result = SubmissionResult.from_dict(message["result"])
        failure = None
        if result.execution is None:
            failure = result.problems[0] if result.problems else "the notebook could not be run"
        return GradingRecord(submission, result, task.fingerprint, failure, False, seconds)
    if stop_reason:
        reason, fault = f"Not graded: {stop_reason}.", False
    elif "error" in message:
        reason, fault = f"The grader failed on this submission ({message['error']}).", True
        log_line(f"grader: {submission.student_id}: {message['error']}\n{message.get('traceback', '')}")
    else:
        reason, fault = f"The grading process died ({death or 'no exit status'}).", True
    result = not_graded_result(submission.original_name, task.assignment, reason)
    return GradingRecord(submission, result, task.fingerprint, reason, fault, seconds)


@dataclass(frozen=True)
class WorkOrder:
    """One file to grade, as a worker process receives it (picklable: the assignment
    travels as its folder)."""

    path: Path
    source: str
    assignment_dir: Path
    options: GradingOptions
    grade: GradeFunction


def grade_order(order: WorkOrder, assignments: dict[Path, Assignment], spare: SpareKernel | None) -> dict[str, Any]:
    """Grade one file in this process: the message for the pool (result or error)."""
    try:
        assignment = assignments.get(order.assignment_dir)
        if assignment is None:
            assignment = assignments[order.assignment_dir] = load_assignment(order.assignment_dir)
        result = order.grade(order.path, assignment, replace(order.options, spare_kernel=spare))
        return {"result": replace(result, submission=order.source).to_dict()}
    except Exception as exc:  # noqa: BLE001 - everything must reach the parent as text
        return {"error": f"{type(exc).__name__}: {exc}", "traceback": traceback.format_exc()}


def _serve(channel: multiprocessing.connection.Connection) -> None:
    """A worker process: grade one order after another until told to stop (None) or the
    parent is gone. Staying alive keeps what the grader memoizes per process (reference
    answers, generated positions, the parsed assignment) and lets the next submission's
    kernel boot while this one is graded."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides what Ctrl-C stops
    signal.signal(signal.SIGTERM, _exit_on_sigterm)  # lets the kernels be shut down on the way out
    spare = SpareKernel()
    assignments: dict[Path, Assignment] = {}
    try:
        while (order := channel.recv()) is not None:
            channel.send(grade_order(order, assignments, spare))
    except (EOFError, OSError):
        pass  # the parent is gone
    finally:
        spare.close()
        channel.close()


def _exit_on_sigterm(signum: int, frame: object) -> None:
    raise SystemExit(f"stopped by the batch (signal {signum})")


@dataclass
class _Worker:
    process: multiprocessing.process.BaseProcess
    channel: multiprocessing.connection.Connection
    task: GradingTask | None = None
    started: float = 0.0
    message: Mapping[str, Any] | None = None
    terminating_since: float | None = None
    stop_reason: str | None = None
    dead: bool = False


class _WorkerPool:
    """At most ``jobs`` worker processes, each grading one submission after another and
    watched for death and for running past the deadline; a worker that dies or is stopped
    costs only its submission and is replaced. Results are handed to ``finished`` here."""

    def __init__(self, options: BatchOptions, grade: GradeFunction) -> None:
        self.options = options
        self.grade = grade
        self.jobs = options.worker_count()
        self.context = _process_context()

    def description(self, task_count: int) -> str:
        return f"with {min(self.jobs, task_count)} worker(s)"

    def run(self, tasks: Sequence[GradingTask], finished: Callable[[GradingTask, GradingRecord], None]) -> None:
        pending = deque(tasks)
        workers: list[_Worker] = []
        try:
            while pending or any(w.task for w in workers):
                for worker in workers:
                    if worker.task is None and pending:
                        self._assign(worker, pending.popleft())
                while pending and len(workers) < self.jobs:
                    workers.append(self._assign(self._spawn(), pending.popleft()))
                busy = [w for w in workers if w.task is not None]
                waitables = [w.channel for w in busy if w.message is None] + [w.process.sentinel for w in busy]
                multiprocessing.connection.wait(waitables, timeout=0.5)
                for worker in busy:
                    record = self._poll(worker)
                    if record is None:
                        continue
                    task, worker.task = worker.task, None
                    assert task is not None
                    finished(task, record)
                workers = [w for w in workers if not w.dead]
        except KeyboardInterrupt:
            for worker in workers:
                if worker.task is not None:
                    self._stop(worker, "interrupted")
            raise
        finally:
            self._shut_down(workers)

    def _spawn(self) -> _Worker:
        parent_end, child_end = self.context.Pipe(duplex=True)
        process = self.context.Process(target=_serve, args=(child_end,), name="grader-worker", daemon=False)
        process.start()
        child_end.close()  # the parent sees EOF when the worker dies
        return _Worker(process, parent_end)

    def _assign(self, worker: _Worker, task: GradingTask) -> _Worker:
        order = WorkOrder(
            path=task.submission.path,
            source=task.submission.original_name,
            assignment_dir=task.assignment.directory,
            options=GradingOptions(sandbox=self.options.sandbox),
            grade=self.grade,
        )
        worker.task, worker.started, worker.message = task, time.monotonic(), None
        try:
            worker.channel.send(order)
        except OSError:
            worker.message = {}  # died while idle: _poll records the death
        return worker

    def _poll(self, worker: _Worker) -> GradingRecord | None:
        """The record of the worker's task once it is over, else None (and enforce the deadline)."""
        assert worker.task is not None
        alive = worker.process.is_alive()  # before reading: once it is gone, all it sent is in the pipe
        if worker.message is None and worker.channel.poll():
            try:
                worker.message = worker.channel.recv()
            except (EOFError, OSError):
                worker.message = {}
        now = time.monotonic()
        if worker.message and worker.stop_reason is None:
            return record_for(worker.task, now - worker.started, worker.message)
        if alive and worker.message is None:
            deadline = worker.task.deadline(self.options)
            if worker.terminating_since is None and now - worker.started > deadline:
                self._stop(worker, f"grading took longer than {deadline:.0f} s and was stopped")
            elif worker.terminating_since is not None and now - worker.terminating_since > _TERMINATE_GRACE_SECONDS:
                worker.process.kill()
            return None
        self._bury(worker)
        return record_for(
            worker.task,
            now - worker.started,
            worker.message or {},
            stop_reason=worker.stop_reason,
            death=_exit_description(worker.process.exitcode),
        )

    def _stop(self, worker: _Worker, reason: str) -> None:
        worker.stop_reason = reason
        worker.terminating_since = time.monotonic()
        worker.process.terminate()

    def _bury(self, worker: _Worker) -> None:
        worker.process.join(_TERMINATE_GRACE_SECONDS)
        if worker.process.is_alive():
            worker.process.kill()
            worker.process.join()
        worker.channel.close()
        worker.dead = True

    def _shut_down(self, workers: list[_Worker]) -> None:
        """Idle workers are told to stop (they close their spare kernels); busy ones, left
        only by an interruption, were sent SIGTERM already."""
        for worker in workers:
            if worker.task is None and not worker.dead:
                with contextlib.suppress(OSError):
                    worker.channel.send(None)
        for worker in workers:
            if not worker.dead:
                self._bury(worker)


def _default_deadline(assignment: Assignment) -> float:
    """Generous: the notebook's own limit plus every check's budget and a slow call each."""
    per_check = assignment.check_budget_seconds + 2 * assignment.call_timeout
    return assignment.notebook_timeout + 60 + per_check * len(assignment.checks)


def _process_context() -> multiprocessing.context.BaseContext:
    """A fork server when the platform has one: each worker is a cheap fork of a process
    that has already imported the grader but holds no threads or open kernels."""
    if "forkserver" in multiprocessing.get_all_start_methods():
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(["grader.grading", "grader.batch.plan"])
        return context
    return multiprocessing.get_context("spawn")


def _exit_description(exitcode: int | None) -> str:
    if exitcode is None:
        return "no exit status"
    if exitcode < 0:
        try:
            name = signal.Signals(-exitcode).name
        except ValueError:
            name = f"signal {-exitcode}"
        hint = ", perhaps out of memory" if -exitcode == signal.SIGKILL else ""
        return f"killed by {name}{hint}"
    return f"exit status {exitcode}"


class _NoProgress:
    def update(self, n: int = 1) -> None: ...
    def set_postfix_str(self, s: str = "", refresh: bool = True) -> None: ...
    def close(self) -> None: ...


def _progress_bar(total: int, enabled: bool) -> Any:
    if not enabled or not total or not sys.stderr.isatty():
        return _NoProgress()
    from tqdm import tqdm

    return tqdm(total=total, unit="notebook", file=sys.stderr, dynamic_ncols=True, smoothing=0.1)


def log_line(text: str) -> None:
    """A line on stderr that does not break a progress bar being drawn there."""
    from tqdm import tqdm

    tqdm.write(text, file=sys.stderr)


def _first_line(text: str) -> str:
    return text.strip().splitlines()[0] if text.strip() else ""


def _duration(seconds: float) -> str:
    minutes, rest = divmod(int(round(seconds)), 60)
    return f"{minutes}m{rest:02d}s" if minutes else f"{seconds:.1f}s"
