"""A call's cap on the nodes of its search, on a plain namespace without a kernel: a runaway
search is stopped at the cap with its own status, however it is counted, and a call within its
cap is untouched."""

from __future__ import annotations

import sys
from typing import Any

import pytest

from grader.execution.channel.calls import Call, CallOutcome, CallStatus, Explore, outcome_from
from grader.execution.channel.kernel.executor import CallExecutor
from grader.execution.channel.kernel.exploration import ExplorationRecorder
from grader.execution.channel.kernel.node_cap import NodeCapReached, NodeGauge
from grader.execution.channel.protocol import OutcomeData

CELL = "/tmp/ipykernel_1/cap.py"  # a notebook cell, as the recorder tells the student's code

SOURCE = """
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)

def runaway(n):
    # a search whose tree never ends within any sensible count: 2 ** n leaves
    total = 0
    for _ in range(2):
        total += runaway(n - 1) if n > 0 else 1
    return total

def swallows(n):
    try:
        return runaway(n)
    except BaseException:  # a bare except: the search goes on past the cap
        return runaway(n)

def hides_behind(n):
    try:
        return fib(n)
    except BaseException:
        return fib(n)
"""

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="SIGPROF")


def _namespace() -> dict[str, Any]:
    namespace: dict[str, Any] = {"__name__": "__main__"}
    exec(compile(SOURCE, CELL, "exec"), namespace)
    return namespace


def _run(namespace: dict[str, Any], *calls: Call) -> list[CallOutcome]:
    executor = CallExecutor(namespace, output_chars=1000)
    reported: list[OutcomeData] = []
    executor.run_batch([call.to_request() for call in calls], lambda _, outcome: reported.append(outcome))
    return [outcome_from(outcome) for outcome in reported]


def test_counted_names_stop_at_the_cap_and_a_call_within_it_is_untouched() -> None:
    namespace = _namespace()
    original = namespace["fib"]
    capped, within, uncapped = _run(
        namespace,
        Call("fib", (40,), count=("fib",), node_cap=1000, timeout=30),
        Call("fib", (10,), count=("fib",), node_cap=1000),
        Call("fib", (10,), count=("fib",)),
    )
    assert capped.status is CallStatus.NODE_CAP and capped.counts == {"fib": 1000}
    assert capped.error == "its search had entered 1,000 nodes, the cap on this call"
    assert capped.stopped_by is None and capped.duration < 5
    assert within.status is CallStatus.OK and within.value == 55 and within.counts == {"fib": 177}
    assert uncapped == CallOutcome(
        CallStatus.OK, 55, counts={"fib": 177}, duration=uncapped.duration, wall=uncapped.wall
    )
    assert namespace["fib"] is original


def test_a_bare_except_cannot_carry_a_counted_search_past_its_cap() -> None:
    (outcome,) = _run(_namespace(), Call("hides_behind", (40,), count=("fib",), node_cap=500, timeout=30))
    assert outcome.status is CallStatus.NODE_CAP and outcome.counts == {"fib": 501}
    assert outcome.duration < 5


def test_the_recorded_search_stops_at_the_cap() -> None:
    namespace = _namespace()
    capped, within = _run(
        namespace,
        Call("runaway", (40,), explore=Explore(), node_cap=2000, timeout=30),
        Call("runaway", (5,), explore=Explore(), node_cap=2000),
    )
    assert capped.status is CallStatus.NODE_CAP and capped.duration < 5
    # the root was entered before the recursion showed: it draws on nothing
    assert capped.exploration is not None and capped.exploration.nodes == 2001
    assert within.status is CallStatus.OK and within.value == 64
    assert within.exploration is not None and within.exploration.nodes == 63


def test_a_recorded_search_that_swallows_the_stop_is_stopped_by_the_alarm_soon_after() -> None:
    (outcome,) = _run(_namespace(), Call("swallows", (40,), explore=Explore(), node_cap=2000, timeout=60))
    assert outcome.status is CallStatus.NODE_CAP and outcome.stopped_by is None
    assert "2,000 nodes" in (outcome.error or "") and outcome.duration < 5


def test_the_gauge_raises_at_the_cap_and_again_after_it_and_not_once_disarmed() -> None:
    reached: list[int] = []
    gauge = NodeGauge(on_reached=lambda: reached.append(1))
    assert gauge.arm(None) is None
    assert gauge.arm(3) is gauge
    gauge.take()
    gauge.take()
    for _ in range(2):
        with pytest.raises(NodeCapReached):
            gauge.take()
    assert gauge.reached == 3 and reached == [1]
    gauge.disarm()
    gauge.take()  # what runs after the call is no node of its search
    assert gauge.reached == 3


def test_the_recorder_draws_only_for_recursive_code() -> None:
    namespace = _namespace()
    recorder = ExplorationRecorder()
    gauge = NodeGauge()
    recorder.start(gauge=gauge.arm(10_000))
    assert namespace["runaway"](6) == 128
    exploration = recorder.stop()
    # every call but the first, entered before the recursion showed, drew on the gauge
    assert exploration.nodes == 127 and gauge.left == 10_000 - 126 and gauge.reached is None
