"""The grader's wait for the kernel's next message: polled briefly, then asleep."""

from __future__ import annotations

import math
from types import SimpleNamespace

import pytest

from grader.execution.channel import readiness as readiness_module
from grader.execution.channel.protocol import SPIN_SECONDS
from grader.execution.channel.readiness import Readiness


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> SimpleNamespace:
    """A clock that moves only when a poll says how long it slept (or by a tick per spin)."""
    now = SimpleNamespace(value=100.0)
    monkeypatch.setattr(readiness_module, "time", SimpleNamespace(monotonic=lambda: now.value))
    return now


def test_the_wait_ends_when_the_poll_sees_something(clock: SimpleNamespace) -> None:
    asked: list[int] = []

    def poll(milliseconds: int) -> bool:
        asked.append(milliseconds)
        clock.value += SPIN_SECONDS / 4
        return len(asked) == 3

    assert Readiness(5.0).wait(poll)
    assert asked == [0, 0, 0]  # within the spin: polled without sleeping


def test_after_the_spin_it_sleeps_in_the_poll_until_its_time_is_up(clock: SimpleNamespace) -> None:
    asked: list[int] = []

    def poll(milliseconds: int) -> list[object]:
        asked.append(milliseconds)
        clock.value += milliseconds / 1000 if milliseconds else SPIN_SECONDS / 2
        return []

    assert not Readiness(0.05).wait(poll)
    assert asked[:2] == [0, 0]  # the spin: two polls of no time use it up
    (slept,) = asked[2:]  # then one sleep for what is left of the 50 ms, in whole milliseconds
    assert slept == math.ceil((0.05 - SPIN_SECONDS) * 1000)
