"""Grade in worker processes on this machine: the pool a batch uses without ``--cluster``.

At most ``jobs`` workers, each grading one submission after another and watched for death
and for running past the hard deadline (grading keeps its own, earlier deadline and ends
with what it graded; the hard one is for a worker that does not); a worker that dies or is
stopped costs only its submission and is replaced. A worker stays alive between submissions, which keeps what the
grader memoizes per process and lets the next submission's kernel boot while this one is
graded. Workers are stopped with SIGTERM (not SIGKILL) so that their kernels are shut down.
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import multiprocessing.connection
import signal
import sys
import time
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import NoReturn

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
from grader.class_folder.records import GradingRecord
from grader.execution.exit_status import describe_exit
from grader.execution.spare_kernels import SpareKernel
from grader.printable import PrintableStream
from grader.spec.model import Assignment

_log = logging.getLogger(__name__)

_TERMINATE_GRACE_SECONDS = 5.0
_FORKSERVER_PRELOAD = ["grader.grading", "grader.batch.local"]
"""Imported once by the fork server, so that each worker starts with the grader loaded:
the module holding ``_serve`` (the workers' target) and what grading imports."""


def interrupted_message(student_id: str) -> str:
    """What the person who pressed Ctrl-C reads about a submission that was being graded."""
    return f"{student_id}: stopped: the batch was interrupted"


def _serve(channel: multiprocessing.connection.Connection) -> None:
    """A worker process: grade one order after another until told to stop (None) or the
    parent is gone."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides what Ctrl-C stops
    signal.signal(signal.SIGTERM, _exit_on_sigterm)  # lets the kernels be shut down on the way out
    # A worker starts with the terminal's own streams, not the filtered ones of `main`:
    # whatever it logs (a library quoting a notebook, say) is made printable the same way.
    sys.stdout, sys.stderr = PrintableStream(sys.stdout), PrintableStream(sys.stderr)
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


def _exit_on_sigterm(signum: int, frame: object) -> NoReturn:
    # A number, not a message: the parent says which submission was stopped and why.
    raise SystemExit(128 + signum)


@dataclass
class _Worker:
    process: multiprocessing.process.BaseProcess
    channel: multiprocessing.connection.Connection
    task: GradingTask | None = None
    started: float = 0.0
    message: WorkerReport | None = None
    """None until the worker's report (or its death: an empty report) is in."""
    terminating_since: float | None = None
    stop_reason: str | None = None
    dead: bool = False


class LocalPool:
    """Worker processes on this machine; records are handed to ``finished`` as each
    submission is over."""

    def __init__(self, options: BatchOptions, grade: GradeFunction) -> None:
        self.options = options
        self.grade = grade
        self.jobs = options.worker_count()
        self.context = _process_context()

    def description(self, task_count: int) -> str:
        return f"with {min(self.jobs, task_count)} worker(s)"

    def run(self, tasks: Sequence[GradingTask], finished: Finished) -> None:
        pending = deque(tasks)
        workers: list[_Worker] = []
        try:
            while pending or any(w.task for w in workers):
                for worker in workers:
                    if worker.task is None and pending:
                        self._assign(worker, pending)
                while pending and len(workers) < self.jobs:
                    workers.append(self._assign(self._spawn(), pending))
                busy = [w for w in workers if w.task is not None]
                waitables = [w.channel for w in busy if w.message is None] + [w.process.sentinel for w in busy]
                multiprocessing.connection.wait(waitables, timeout=0.5)
                done: list[tuple[GradingTask, GradingRecord]] = []
                for worker in busy:
                    record = self._poll(worker)
                    if record is None:
                        continue
                    task, worker.task = worker.task, None
                    assert task is not None
                    done.append((task, record))
                    if not worker.dead and pending:
                        # The next notebook runs while this one's outputs are written.
                        self._assign(worker, pending)
                for task, record in done:
                    finished(task, record)
                workers = [w for w in workers if not w.dead]
        except BaseException as stop:  # Ctrl-C, or ``finished`` unable to store (a full disk)
            for worker in workers:
                if worker.task is not None:
                    if isinstance(stop, KeyboardInterrupt):
                        _log.warning(interrupted_message(worker.task.submission.student_id))
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

    def _assign(self, worker: _Worker, pending: deque[GradingTask]) -> _Worker:
        """Give ``worker`` the next pending task; the last one says so (no spare kernel after it)."""
        task = pending.popleft()
        order = WorkOrder(
            path=task.submission.path,
            source=task.submission.original_name,
            assignment_dir=task.assignment.directory,
            options=task.grading_options(self.options),
            grade=self.grade,
            last=not pending,
        )
        worker.task, worker.started, worker.message = task, time.monotonic(), None
        try:
            worker.channel.send(order)
        except OSError:
            worker.message = WorkerReport()  # died while idle: _poll records the death
        return worker

    def _poll(self, worker: _Worker) -> GradingRecord | None:
        """The record of the worker's task once it is over, else None (and enforce the hard
        deadline)."""
        assert worker.task is not None
        alive = worker.process.is_alive()  # before reading: once it is gone, all it sent is in the pipe
        if worker.message is None and worker.channel.poll():
            try:
                worker.message = worker.channel.recv()
            except (EOFError, OSError):
                worker.message = WorkerReport()
        now = time.monotonic()
        if worker.message is not None and not worker.message.empty and worker.stop_reason is None:
            return record_for(worker.task, now - worker.started, worker.message)
        if alive and worker.message is None:
            deadline = worker.task.hard_deadline(self.options)
            if worker.terminating_since is None and now - worker.started > deadline:
                self._stop(worker, worker.task.stopped_reason(self.options))
            elif worker.terminating_since is not None and now - worker.terminating_since > _TERMINATE_GRACE_SECONDS:
                worker.process.kill()
            return None
        self._bury(worker)
        return record_for(
            worker.task,
            now - worker.started,
            worker.message or WorkerReport(),
            stop_reason=worker.stop_reason,
            death=describe_exit(worker.process.exitcode),
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
        only when the run stops early, were sent SIGTERM already."""
        for worker in workers:
            if worker.task is None and not worker.dead:
                with contextlib.suppress(OSError):
                    worker.channel.send(None)
        for worker in workers:
            if not worker.dead:
                self._bury(worker)


def _process_context() -> multiprocessing.context.ForkServerContext | multiprocessing.context.SpawnContext:
    """A fork server when the platform has one: each worker is a cheap fork of a process
    that has already imported the grader but holds no threads or open kernels."""
    if "forkserver" in multiprocessing.get_all_start_methods():
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(_FORKSERVER_PRELOAD)
        return context
    return multiprocessing.get_context("spawn")
