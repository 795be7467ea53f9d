"""A call's clocks in the kernel: the CPU time it may use, and what it used.

A call's limit is CPU time, so that a machine loaded by other work changes no verdict: a call
waiting for a core uses none. ``ITIMER_PROF`` counts the kernel process's CPU time, user and
system, of all its threads: what ``time.process_time()`` measures. The two keep their books
apart (the timer's by scheduler ticks), and on a loaded machine the timer can fire several
percent early: the alarm then checks ``process_time()`` and waits out what is left, so a call
is stopped only once the figure its outcome reports has passed its limit. ``ITIMER_VIRTUAL``
would leave out the system time a call spends (allocating, say), and ``ITIMER_REAL`` counts
the time the call waited for a core.

Child processes are not counted: a call waiting on one, like a call that sleeps or blocks,
uses no CPU and is never stopped here; the grader's wall-clock safety net ends it
(:func:`~grader.execution.channel.protocol.wall_bound`), once the kernel has stopped using CPU
(`CpuMeter` tells the grader the kernel's CPU time while a batch runs).

Shipped into the kernel as source after :mod:`grader.errors` and the protocol, like the other
kernel-side modules, so it uses only the standard library. ``SIGPROF`` makes it Unix-only; its
handler runs on the main thread, where the calls run.
"""

from __future__ import annotations

import os
import signal
import struct
import threading
import time
from types import TracebackType
from typing import Any

if __name__ != globals().get("KERNEL_NAMESPACE"):  # in the kernel, the sources sent before define these
    from grader.errors import GraderSignal
    from grader.execution.channel.protocol import (
        CLOCK_CPU,
        CLOCK_WALL,
        CPU_METER_OFFSET,
        CPU_METER_SECONDS,
        IDLE_CPU_SECONDS,
        IDLE_WINDOW_SECONDS,
        wall_bound,
    )

REFIRE_CPU_SECONDS = 0.25
"""CPU time after which the alarm fires again when the student's code swallowed it."""


class CallTimedOut(GraderSignal):
    """Raised in the student's code when a call passes its limit of CPU time."""


class CpuAlarm:
    """Raises :class:`CallTimedOut` in the student's code once the process has used a call's
    CPU time, and again every `REFIRE_CPU_SECONDS` of CPU while the code swallows it.

    With ``wall_net``, where no grader watches the calls (the in-notebook check runs them in the
    student's own kernel), it also stops a call past the wall-clock safety net of its limit
    that waits: one whose process used less than ``IDLE_CPU_SECONDS`` of CPU in the last
    ``IDLE_WINDOW_SECONDS``, as the grader's own watch does.

    In place (``with``) for a batch; each call arms it for its own limit and disarms it."""

    def __init__(self, *, wall_net: bool = False) -> None:
        self.in_student_code = False
        """The alarm raises only in the student's code, never in the grader's own."""
        self.fired: str | None = None
        """`CLOCK_CPU` or `CLOCK_WALL` once the running call passed that limit (even if its code
        swallowed the alarm)."""
        self.wall_net = wall_net
        self._previous: list[Any] = []
        self._cpu_deadline = 0.0
        """``time.process_time()`` at which the running call's limit is passed."""
        self._cpu_seen: float | None = None
        """The process's CPU time at the last wall-clock alarm, to tell waiting from computing."""

    def __enter__(self) -> CpuAlarm:
        self._previous = [signal.signal(signal.SIGPROF, self._on_cpu_alarm)]
        if self.wall_net:
            self._previous.append(signal.signal(signal.SIGALRM, self._on_wall_alarm))
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.disarm()
        for signum, previous in zip((signal.SIGPROF, signal.SIGALRM), self._previous):
            signal.signal(signum, previous)

    def arm(self, seconds: float) -> None:
        self.fired = None
        self._cpu_deadline = time.process_time() + seconds
        signal.setitimer(signal.ITIMER_PROF, seconds)
        if self.wall_net:
            self._cpu_seen = None
            signal.setitimer(signal.ITIMER_REAL, max(wall_bound(seconds) - IDLE_WINDOW_SECONDS, 0.01))

    def hurry(self) -> None:
        """Fire soon whatever the call's limit: it was stopped otherwise (at its cap of nodes),
        and should its code swallow that and go on, the alarm stops it in its place."""
        if self.in_student_code:
            self._cpu_deadline = time.process_time()
            signal.setitimer(signal.ITIMER_PROF, REFIRE_CPU_SECONDS)

    def disarm(self) -> None:
        signal.setitimer(signal.ITIMER_PROF, 0)
        if self.wall_net:
            signal.setitimer(signal.ITIMER_REAL, 0)

    def _on_cpu_alarm(self, signum: int, frame: Any) -> None:
        left = self._cpu_deadline - time.process_time()
        if left > 0 and self.fired is None:  # the timer ran ahead of the process's clock
            signal.setitimer(signal.ITIMER_PROF, left)
            return
        self._fire(CLOCK_CPU, signal.ITIMER_PROF)

    def _on_wall_alarm(self, signum: int, frame: Any) -> None:
        cpu, seen = time.process_time(), self._cpu_seen
        if self.fired is None and (seen is None or cpu - seen >= IDLE_CPU_SECONDS):  # computing, or not known yet
            self._cpu_seen = cpu
            signal.setitimer(signal.ITIMER_REAL, IDLE_WINDOW_SECONDS)
            return
        self._fire(CLOCK_WALL, signal.ITIMER_REAL)

    def _fire(self, clock: str, timer: int) -> None:
        if self.in_student_code:
            self.fired = self.fired or clock
            signal.setitimer(timer, REFIRE_CPU_SECONDS)  # again soon, in case the code swallows it
            raise CallTimedOut()


class CallClock:
    """The CPU and wall time since it was made: one call's, or one batch's."""

    def __init__(self) -> None:
        self.cpu_started = time.process_time()
        self.wall_started = time.perf_counter()

    def cpu(self) -> float:
        return time.process_time() - self.cpu_started

    def wall(self) -> float:
        return time.perf_counter() - self.wall_started

    def waited_out(self, limit: float, batch: CallClock | None = None, wait_until: float | None = None) -> bool:
        """Whether a call on this clock, limited to ``limit`` seconds of CPU, ran past its
        wall-clock safety net, or its ``batch`` past ``wait_until`` seconds of wall time (the
        deadline): the grader interrupts a call that waits only then."""
        late = batch is not None and wait_until is not None and batch.wall() >= wait_until
        return late or self.wall() >= wall_bound(limit)


def timeout_error(clock: str, limit: float, wall: float) -> str:
    """What an outcome says of a call stopped on ``clock`` (`CLOCK_CPU` or `CLOCK_WALL`)."""
    if clock == CLOCK_CPU:
        return f"the call took longer than {limit:g} s of CPU time and was stopped"
    assert clock == CLOCK_WALL
    return (
        f"the call was still running after {wall:.0f} s of wall time, having used less than its "
        f"{limit:g} s of CPU time, and was stopped"
    )


class CpuMeter:
    """Writes the kernel's CPU time into the progress file (a little-endian double at
    ``CPU_METER_OFFSET``) every ``CPU_METER_SECONDS`` while a batch runs, from a thread of its
    own: the grader tells a call that waits from one that computes on a loaded machine by it.

    The functions it uses are bound before any student code runs, so a notebook that replaces
    ``time.sleep`` does not change them. Without a thread (the notebook used up the kernel's
    processes) nothing is written, and the grader sees a kernel that uses no CPU."""

    def __init__(self, descriptor: int) -> None:
        self._descriptor = descriptor
        self._running = threading.Event()
        self._thread: threading.Thread | None = None
        self._write, self._pack, self._now, self._sleep = os.pwrite, struct.pack, time.process_time, time.sleep

    def start(self) -> None:
        if self._thread is None:
            thread = threading.Thread(target=self._run, name="grader-cpu-meter", daemon=True)
            try:
                thread.start()
            except RuntimeError:
                return
            self._thread = thread
        self._running.set()

    def stop(self) -> None:
        self._running.clear()

    def _run(self) -> None:
        while True:
            self._running.wait()
            try:
                self._write(self._descriptor, self._pack("<d", self._now()), CPU_METER_OFFSET)
            except OSError:
                return
            self._sleep(CPU_METER_SECONDS)
