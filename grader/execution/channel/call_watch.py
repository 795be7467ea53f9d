"""When the grader interrupts a kernel that has not answered: its patience with a request.

A call's limit is the kernel's CPU time, which the kernel enforces itself with an alarm
(:mod:`~grader.execution.channel.kernel.call_clock`). The grader steps in only when that
cannot work:

* the call went on past its limit by `SWALLOWED_CPU_SECONDS` of CPU time: its code swallowed
  the alarm;
* the call ran past the wall-clock safety net of its limit
  (:func:`~grader.execution.channel.protocol.wall_bound`), or past the submission's deadline
  (``Call.wait_until``), and the kernel used almost no CPU in the last `IDLE_WINDOW_SECONDS`:
  it waits (a ``sleep``, a blocked read, a child process)
  rather than computes. A call that computes slowly because other work shares the cores keeps
  using CPU, and runs on until its own limit stops it.

The kernel's CPU time is what it writes into the progress file while a batch runs
(:class:`~grader.execution.channel.kernel.call_clock.CpuMeter`); a kernel that writes none
counts as idle. Requests other than calls get a fixed wall-clock patience.
"""

from __future__ import annotations

import math
import os
import struct
from collections import deque
from collections.abc import Callable
from typing import Protocol

from grader.execution.channel.call_data import StopClock
from grader.execution.channel.protocol import CPU_METER_OFFSET, IDLE_CPU_SECONDS, IDLE_WINDOW_SECONDS, wall_bound

SWALLOWED_CPU_SECONDS = 1.0
"""CPU time past its limit after which a call is taken to swallow the kernel's alarm (which
fires again every quarter of a second of CPU)."""


NO_PROGRESS = b"\xff" * (CPU_METER_OFFSET + 8)
"""What the grader writes over the progress file before a batch: no call running (an index no
batch reaches) and no CPU time (a NaN). Written in place, not by truncating the file: a
truncation is a change to the file system's journal, which on a busy machine now and then
waits milliseconds for it (0.2 s over one faulty hand-in's 190 batches)."""


def forget_progress(path: str | os.PathLike[str]) -> None:
    """Write `NO_PROGRESS` over the progress file at ``path``, in place."""
    progress = os.open(path, os.O_WRONLY)
    try:
        os.pwrite(progress, NO_PROGRESS, 0)
    finally:
        os.close(progress)


def read_progress(data: bytes) -> tuple[int | None, float | None]:
    """The running call's index and the kernel's CPU time, from the progress file's bytes
    (None for each the file does not hold, or holds as `NO_PROGRESS`)."""
    running = int.from_bytes(data[:4], "little") if len(data) >= 4 else None
    if running == 0xFFFFFFFF:
        running = None
    end = CPU_METER_OFFSET + 8
    cpu = struct.unpack("<d", data[CPU_METER_OFFSET:end])[0] if len(data) >= end else None
    if cpu is not None and math.isnan(cpu):
        cpu = None
    return running, cpu


class Patience(Protocol):
    """Whether a request has waited too long; told of each sign of progress."""

    def restart(self, now: float, running: int | None) -> None:
        """A reply came, or a new call started (``running``, its index in the batch)."""

    def overdue(self, now: float, cpu: float | None) -> StopClock | None:
        """The clock that ran out, if the kernel should be interrupted now."""


class WallPatience:
    """A fixed wall-clock patience, for requests other than calls."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.since = 0.0

    def restart(self, now: float, running: int | None) -> None:
        self.since = now

    def overdue(self, now: float, cpu: float | None) -> StopClock | None:
        return StopClock.WALL if now > self.since + self.seconds else None


class CallPatience:
    """The patience with a batch of calls: ``limit_of(index)`` is the CPU limit of the call
    with that index (None: not known yet, take the batch's longest); ``until`` the
    ``time.monotonic()`` (the deadline) past which a call of the batch that waits is not
    waited for."""

    def __init__(self, limit_of: Callable[[int | None], float], until: float | None = None) -> None:
        self.until = until
        self.limit_of = limit_of
        self.limit = limit_of(None)
        self.since = 0.0
        self.cpu_at_start: float | None = None
        self.readings: deque[tuple[float, float]] = deque()
        """(wall, kernel CPU) readings of the last `IDLE_WINDOW_SECONDS` and one before."""

    def restart(self, now: float, running: int | None) -> None:
        self.limit = self.limit_of(running)
        self.since = now
        self.cpu_at_start = None

    def overdue(self, now: float, cpu: float | None) -> StopClock | None:
        if cpu is not None:
            self.readings.append((now, cpu))
            while len(self.readings) > 1 and self.readings[1][0] <= now - IDLE_WINDOW_SECONDS:
                self.readings.popleft()
            if self.cpu_at_start is None:
                self.cpu_at_start = cpu
            if cpu - self.cpu_at_start > self.limit + SWALLOWED_CPU_SECONDS:
                return StopClock.CPU
        if now <= self.since + wall_bound(self.limit) and (self.until is None or now <= self.until):
            return None
        return StopClock.WALL if self._idle(now, cpu) else None

    def _idle(self, now: float, cpu: float | None) -> bool:
        if cpu is None or not self.readings:
            return True
        then, cpu_then = self.readings[0]
        if then > now - IDLE_WINDOW_SECONDS:  # readings too recent to judge: the meter only began
            return False
        return cpu - cpu_then < IDLE_CPU_SECONDS
