"""When the grader interrupts a call: past its CPU limit by a margin (the alarm was swallowed),
or past the wall-clock safety net while the kernel uses no CPU; never while it computes, however
long that takes on the wall clock. Fed with readings, never timed."""

from __future__ import annotations

import struct
from collections.abc import Sequence

from grader.execution.channel.call_data import StopClock
from grader.execution.channel.call_watch import (
    NO_PROGRESS,
    SWALLOWED_CPU_SECONDS,
    CallPatience,
    WallPatience,
    read_progress,
)
from grader.execution.channel.protocol import CPU_METER_OFFSET, IDLE_WINDOW_SECONDS, wall_bound

LIMIT = 2.0


def watched(readings: Sequence[tuple[float, float | None]], limit: float = LIMIT) -> list[StopClock | None]:
    """What the patience says at each (wall, kernel CPU) reading of a call that started at 0."""
    patience = CallPatience(lambda running: limit)
    patience.restart(0.0, 0)
    return [patience.overdue(now, cpu) for now, cpu in readings]


def test_a_call_that_computes_slowly_under_load_is_never_interrupted() -> None:
    # A tenth of a core: ten wall seconds per CPU second, far past the wall bound, under the limit.
    readings = [(t / 10, 100.0 + t / 100) for t in range(0, int(10 * 10 * LIMIT) - 5)]
    assert readings[-1][0] > wall_bound(LIMIT) and readings[-1][1] - 100.0 < LIMIT
    assert set(watched(readings)) == {None}


def test_a_call_that_waits_is_interrupted_past_the_wall_bound_only() -> None:
    readings = [(t / 10, 100.0) for t in range(0, int(10 * (wall_bound(LIMIT) + 1)))]
    said = watched(readings)
    first = said.index(StopClock.WALL)
    assert readings[first][0] > wall_bound(LIMIT) and set(said[:first]) == {None}


def test_a_kernel_that_reports_no_cpu_counts_as_waiting() -> None:
    bound = wall_bound(LIMIT)
    assert watched([(bound - 0.1, None), (bound + 0.1, None)]) == [None, StopClock.WALL]


def test_a_call_that_went_idle_after_computing_is_interrupted_once_idle_for_the_window() -> None:
    bound = wall_bound(LIMIT)
    rate = LIMIT / (bound + 1)  # slow enough to stay under its CPU limit until the wall bound
    computing = [(t / 10, 100.0 + rate * t / 10) for t in range(0, int(10 * bound) + 1)]
    last = computing[-1][1]
    idle = [(bound + t / 10, last) for t in range(0, int(10 * (IDLE_WINDOW_SECONDS + 1)))]
    said = watched(computing + idle)
    first = said.index(StopClock.WALL)
    assert (computing + idle)[first][0] >= bound + IDLE_WINDOW_SECONDS - 0.1


def test_a_call_past_its_cpu_limit_by_the_margin_is_interrupted_on_the_cpu_clock() -> None:
    start = 50.0
    just_under = [(1.0, start), (2.0, start + LIMIT + SWALLOWED_CPU_SECONDS - 0.01)]
    assert watched(just_under) == [None, None]
    assert watched([(1.0, start), (2.0, start + LIMIT + SWALLOWED_CPU_SECONDS + 0.01)]) == [None, StopClock.CPU]


def test_each_call_of_a_batch_gets_its_own_limit_and_start() -> None:
    limits = {0: 1.0, 1: 10.0}
    patience = CallPatience(lambda running: limits.get(running, 10.0) if running is not None else 10.0)
    patience.restart(0.0, 0)
    assert patience.overdue(wall_bound(1.0) + 3, 7.0) is None  # the first reading: CPU at the start
    assert patience.overdue(wall_bound(1.0) + 6, 7.0) is StopClock.WALL
    patience.restart(wall_bound(1.0) + 6, 1)  # the next call started
    assert patience.overdue(wall_bound(1.0) + 20, 7.0) is None  # within its own, longer bound


def test_other_requests_get_a_fixed_wall_clock_patience() -> None:
    patience = WallPatience(30.0)
    patience.restart(100.0, None)
    assert patience.overdue(129.0, 5.0) is None and patience.overdue(131.0, 9.0) is StopClock.WALL


def test_the_progress_file_holds_the_running_call_then_the_kernel_cpu_time() -> None:
    assert read_progress(b"") == (None, None)
    assert read_progress(NO_PROGRESS) == (None, None)  # what the grader writes before a batch
    assert read_progress((3).to_bytes(4, "little")) == (3, None)
    data = (3).to_bytes(4, "little") + struct.pack("<d", 12.5)
    assert CPU_METER_OFFSET == 4 and read_progress(data) == (3, 12.5)


def test_a_call_that_waits_past_its_batchs_wall_time_is_interrupted_before_its_own_bound() -> None:
    """The submission's deadline, or the check's wall-clock safety net, ends a waiting call."""
    patience = CallPatience(lambda running: 20.0, until=10.0)
    patience.restart(0.0, 0)
    waiting = [(t / 10, 5.0) for t in range(0, 130)]
    said = [patience.overdue(now, cpu) for now, cpu in waiting]
    first = said.index(StopClock.WALL)
    assert 10.0 < waiting[first][0] < wall_bound(20.0)
    computing = CallPatience(lambda running: 20.0, until=10.0)
    computing.restart(0.0, 0)
    assert {computing.overdue(t / 10, 5.0 + t / 100) for t in range(0, 300)} == {None}
