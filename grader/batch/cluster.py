"""Grade on a Dask cluster: ``grader batch ... --cluster ADDRESS``.

The machine that runs ``grader batch`` plans the class as a local run does (what is stored
and up to date, what is left), submits one Dask task per submission to the scheduler at
ADDRESS, and writes each student's outputs as that task's future completes, with the batch's
own functions: the same output folder, the same atomic writes, the same resume rules.

What travels with a task: the submission's bytes and the assignment's files (workers need
no shared file system), the grading options and the grade function (by name). Workers need
the same grader installed (``pip install 'gamesearch-grader[dask]'``); a worker whose grader
code differs from the client's is refused, and its submission is left for a later run.
A Dask worker process grades one submission after another, so what the grader memoizes per
process is reused and the next kernel boots while a submission is graded, as in a local run.

When things go wrong:

- a worker lost midway (killed, out of memory, its machine gone): the scheduler runs the
  task again on another worker; after ``distributed.scheduler.allowed-failures`` losses
  (Dask's default: 3) the submission becomes "could not be graded";
- the grader raising: the task is retried ``retries`` times (Dask's ``retries=``), then
  the submission becomes "could not be graded", as a grader failure;
- grading past the batch's hard deadline (counted from when the task started running;
  grading itself ends with what it graded at the earlier deadline): the worker is restarted,
  which stops it, and the submission is "not graded", as locally.
"""

from __future__ import annotations

import atexit
import contextlib
import logging
import shutil
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from grader.batch.options import BatchOptions
from grader.batch.pool import (
    Finished,
    GradeFunction,
    GradingTask,
    WorkerReport,
    WorkOrder,
    grade_order,
    record_for,
)
from grader.class_folder.records import GradingRecord, contents_sha256, files_under, grader_version
from grader.errors import GraderError, UsageError
from grader.execution.spare_kernels import spare_kernel_for_this_thread
from grader.grading import GradingOptions
from grader.spec.model import Assignment

_log = logging.getLogger(__name__)

DEFAULT_RETRIES = 2
"""Times a task whose grader raised is run again before it counts as failed."""
_POLL_SECONDS = 1.0
_STARTED_TOPIC = "grader-task-started"
_MAX_ASSIGNMENT_BYTES = 50 * 1024**2


class ClusterUnavailable(UsageError, RuntimeError):
    """Dask is not installed, or the scheduler cannot be reached."""


class GradingFailed(GraderError):
    """The grader raised on a worker (so that Dask retries the task)."""

    def __init__(self, error: str, traceback: str) -> None:
        super().__init__(error, traceback)
        self.error = error
        self.traceback = traceback


# -- what travels to a worker -------------------------------------------------------------------


@dataclass(frozen=True)
class AssignmentFiles:
    """An assignment folder as bytes: rebuilt once per worker process, found by digest."""

    name: str
    files: tuple[tuple[str, bytes], ...]
    digest: str

    @classmethod
    def of(cls, folder: Path) -> AssignmentFiles:
        files, total = [], 0
        for path in files_under(folder):
            content = path.read_bytes()
            total += len(content)
            if total > _MAX_ASSIGNMENT_BYTES:
                raise ValueError(f"{folder}: more than {_MAX_ASSIGNMENT_BYTES:,} bytes to send to the workers")
            files.append((path.relative_to(folder).as_posix(), content))
        return cls(folder.name, tuple(files), contents_sha256(files))


@dataclass(frozen=True)
class RemoteOrder:
    """One submission's grading, as a Dask task receives it."""

    content: bytes
    file_name: str
    """The file's own name (its extension says how it is read; messages quote it)."""
    source: str
    """The name the student gave the file (shown in reports)."""
    assignment: AssignmentFiles
    options: GradingOptions
    grade: GradeFunction


_ASSIGNMENT_FOLDERS: dict[str, Path] = {}
_PARSED_ASSIGNMENTS: dict[Path, Assignment] = {}


def grade_on_worker(order: RemoteOrder) -> WorkerReport:
    """Runs on a Dask worker: the report a local worker process would send back, with the
    worker's grader version and its own time."""
    started = time.monotonic()
    worker = _current_worker()
    if worker is not None:
        # Tell the client this attempt started (its deadline counts from now): the
        # scheduler's "processing" also holds tasks queued behind it on the worker.
        worker.log_event(_STARTED_TOPIC, {"key": _current_key(), "worker": worker.address})
    scratch_root = worker.local_directory if worker is not None else None  # Dask purges it after a crash
    folder = _assignment_folder(order.assignment, scratch_root)
    with tempfile.TemporaryDirectory(prefix="grader-submission-", dir=scratch_root) as scratch:
        path = Path(scratch) / Path(order.file_name).name
        path.write_bytes(order.content)
        work = WorkOrder(path, order.source, folder, order.options, order.grade)
        report = grade_order(work, _PARSED_ASSIGNMENTS, spare_kernel_for_this_thread())
    if report.error is not None:
        raise GradingFailed(report.error, report.traceback)
    return replace(report, grader_version=grader_version(), seconds=time.monotonic() - started)


def _current_worker() -> Any:
    """The Dask worker running this task, or None (called directly)."""
    try:
        from distributed import get_worker

        return get_worker()
    except (ImportError, ValueError):
        return None


def _current_key() -> str:
    from distributed.worker import thread_state

    return str(thread_state.key)


def _assignment_folder(files: AssignmentFiles, scratch_root: str | None) -> Path:
    folder = _ASSIGNMENT_FOLDERS.get(files.digest)
    if folder is None:
        root = Path(tempfile.mkdtemp(prefix="grader-assignment-", dir=scratch_root))
        atexit.register(shutil.rmtree, root, ignore_errors=True)
        folder = root / files.name
        for relative, content in files.files:
            target = folder / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(content)
        _ASSIGNMENT_FOLDERS[files.digest] = folder
    return folder


# -- the client side --------------------------------------------------------------------------------


@dataclass
class _Submitted:
    task: GradingTask
    submitted: float


class DaskPool:
    """Grades tasks on the Dask scheduler at ``address``; records are handed to ``finished``
    in this process as their futures complete."""

    def __init__(
        self, address: str, options: BatchOptions, grade: GradeFunction, retries: int = DEFAULT_RETRIES
    ) -> None:
        self.address = address
        self.options = options
        self.grade = grade
        self.retries = retries

    def description(self, task_count: int) -> str:
        return f"on the Dask cluster at {self.address}"

    def run(self, tasks: Sequence[GradingTask], finished: Finished) -> None:
        if not tasks:
            return
        client = _connect(self.address)
        running: dict[str, tuple[float, str]] = {}
        """Task key -> when its current attempt started (on this machine's clock), and where."""
        client.subscribe_topic(
            _STARTED_TOPIC, lambda event: running.__setitem__(event[1]["key"], (time.monotonic(), event[1]["worker"]))
        )
        submitted: dict[Any, _Submitted] = {}
        try:
            self._submit(client, tasks, submitted)
            self._collect(client, submitted, running, finished)
        except BaseException:  # Ctrl-C, or ``finished`` unable to store (a full disk)
            client.cancel(list(submitted))
            raise
        finally:
            client.unsubscribe_topic(_STARTED_TOPIC)
            client.close()

    def _submit(self, client: Any, tasks: Sequence[GradingTask], submitted: dict[Any, _Submitted]) -> None:
        bundles: dict[Path, AssignmentFiles] = {}
        for task in tasks:
            folder = task.assignment.directory
            if folder not in bundles:
                bundles[folder] = AssignmentFiles.of(folder)
            order = RemoteOrder(
                content=task.submission.path.read_bytes(),
                file_name=task.submission.path.name,
                source=task.submission.original_name,
                assignment=bundles[folder],
                options=task.grading_options(self.options),
                grade=self.grade,
            )
            key = f"grade-{task.assignment.id}-{task.submission.folder_name}-{task.fingerprint[:16]}"
            future = client.submit(grade_on_worker, order, key=key, retries=self.retries, pure=False)
            submitted[future] = _Submitted(task, time.monotonic())

    def _collect(
        self,
        client: Any,
        submitted: dict[Any, _Submitted],
        running: dict[str, tuple[float, str]],
        finished: Finished,
    ) -> None:
        from distributed import wait

        while submitted:
            with contextlib.suppress(TimeoutError):
                wait(list(submitted), timeout=_POLL_SECONDS, return_when="FIRST_COMPLETED")
            for future in [f for f in submitted if f.done()]:
                entry = submitted.pop(future)
                finished(entry.task, self._record(future, entry, running.pop(future.key, None)))
            now, workers = time.monotonic(), set()
            for future, entry in list(submitted.items()):
                started, worker = running.get(future.key, (now, ""))
                if now - started > entry.task.hard_deadline(self.options):
                    submitted.pop(future)
                    future.cancel()
                    workers.add(worker)
                    stopped = entry.task.stopped_reason(self.options)
                    finished(entry.task, record_for(entry.task, now - started, WorkerReport(), stop_reason=stopped))
            if workers:
                _restart(client, sorted(workers))

    def _record(self, future: Any, entry: _Submitted, running: tuple[float, str] | None) -> GradingRecord:
        seconds = time.monotonic() - (running[0] if running else entry.submitted)
        error = future.exception()
        if error is None:
            report = _same_version(future.result())
            return record_for(entry.task, seconds if report.seconds is None else report.seconds, report)
        if isinstance(error, GradingFailed):
            return record_for(entry.task, seconds, WorkerReport(error=error.error, traceback=error.traceback))
        return record_for(entry.task, seconds, WorkerReport(), death=f"{type(error).__name__}: {error}")


def _same_version(sent: Any) -> WorkerReport:
    """The worker's report, or an error when another version of the grader made it (an older
    one sends a plain dict)."""
    version = sent.get("grader_version") if isinstance(sent, Mapping) else getattr(sent, "grader_version", None)
    if isinstance(sent, WorkerReport) and version == grader_version():
        return sent
    return WorkerReport(
        error=f"the worker runs grader {version}, this machine {grader_version()}: install the same version on both"
    )


def _restart(client: Any, workers: list[str]) -> None:
    """Stop what those workers run: a thread cannot be stopped, its process can."""
    try:
        client.restart_workers(workers, raise_for_error=False)
    except Exception as exc:  # noqa: BLE001 - e.g. workers started without a nanny
        _log.warning(f"could not restart the Dask worker(s) {', '.join(workers)}: {exc}")


def _connect(address: str) -> Any:
    try:
        from distributed import Client
    except ImportError:
        raise ClusterUnavailable("grading on a cluster needs Dask: pip install 'gamesearch-grader[dask]'") from None
    try:
        return Client(address, timeout="20s")
    except (OSError, TimeoutError) as exc:
        raise ClusterUnavailable(f"cannot reach the Dask scheduler at {address}: {exc}") from None
