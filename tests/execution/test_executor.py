"""The call executor on a plain namespace, without a kernel: the call contract itself, and
the kernel-side sources loading in the private namespace they are shipped into."""

from __future__ import annotations

import ast
import builtins
import sys
import traceback
from typing import Any

import pytest

from grader.execution.channel import link
from grader.execution.channel.calls import Call, CallOutcome, CallStatus, RemoteObject, StopClock, outcome_from
from grader.execution.channel.kernel import executor
from grader.execution.channel.kernel.executor import CallExecutor, describe, student_traceback
from grader.execution.channel.protocol import (
    CALL_OUTPUT_TRUNCATED,
    KERNEL_NAMESPACE,
    TRACEBACK_CHARS,
    TRACEBACK_FRAMES,
    OutcomeData,
    wall_bound,
)

SOURCE = """
import math
import time

calls = []

def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)

def helper(x):
    return x + 1

def uses_helper(x):
    return helper(x) * 2

def append_one(items):
    items.append(1)
    return len(items)

def read_board():
    return board[0]

def spin():
    while True:
        pass

def burn(seconds):
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass

def trickle(seconds, duty):
    # compute a duty share of the wall time, as a search on a crowded core does
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        burst = time.process_time() + 0.01
        while time.process_time() < burst:
            pass
        time.sleep(0.01 / duty - 0.01)
    return seconds

def nap(seconds):
    time.sleep(seconds)
    return seconds

def fail():
    return 1 / 0

def chatty():
    print("x" * 500)

class Counter:
    def __init__(self, start):
        self.value = start

    def bump(self, by):
        self.value += by
        return self

    def minmax(self):
        return self.value

NOT_A_FUNCTION = 42
"""


def run(*calls: Call, source: str = SOURCE, output_chars: int = 200_000, wall_net: bool = False) -> list[CallOutcome]:
    namespace: dict[str, Any] = {"__name__": "__main__"}
    exec(compile(source, "<notebook>", "exec"), namespace)
    executor = CallExecutor(namespace, output_chars=output_chars, wall_net=wall_net)
    reported: list[OutcomeData] = []
    executor.run_batch([call.to_request() for call in calls], lambda _, outcome: reported.append(outcome))
    return [outcome_from(outcome) for outcome in reported]


def test_recursive_calls_are_counted_through_the_global_name() -> None:
    (outcome,) = run(Call("fib", (10,), count=("fib",)))
    assert outcome.value == 55 and outcome.counts == {"fib": 177}


def test_count_all_counts_the_helpers_and_the_wrappers_are_removed_afterwards() -> None:
    namespace: dict[str, Any] = {"__name__": "__main__"}
    exec(compile(SOURCE, "<notebook>", "exec"), namespace)
    original = namespace["helper"]
    executor = CallExecutor(namespace, output_chars=1000)
    reported: list[OutcomeData] = []
    executor.run_batch([Call("uses_helper", (1,), count_all=True).to_request()], lambda _, o: reported.append(o))
    assert reported[0]["counts"]["helper"] == 1 and reported[0]["counts"]["Counter.bump"] == 0
    assert namespace["helper"] is original and not executor.in_call


def test_chained_methods_run_on_the_result_and_objects_come_back_as_snapshots() -> None:
    (outcome,) = run(Call("Counter", (1,), then=(("bump", (2,), {}), ("minmax", (), {}))))
    assert outcome.value == 3
    (snapshot,) = run(Call("Counter", (5,)))
    assert isinstance(snapshot.value, RemoteObject)
    assert snapshot.value.type_name == "Counter" and snapshot.value.value == 5


def test_mutation_of_an_argument_or_a_global_is_reported() -> None:
    changed, unchanged = run(Call("append_one", ([],)), Call("read_board", set_globals={"board": [7]}))
    assert changed.mutated and changed.value == 1
    assert not unchanged.mutated and unchanged.value == 7


def test_arguments_and_the_written_attribute_are_read_back_as_the_call_left_them() -> None:
    played, made, missing, raised = run(
        Call("append_one", ([0],), read_after=(0,)),
        Call("Counter", (1,), then=(("bump", (2,), {}),), set_attributes={"value": 10}, read_after=(".value",)),
        Call("append_one", ([0],), read_after=(3, "items", ".value")),
        Call("fail", read_after=(0,)),
    )
    assert played.after == {0: [0, 1]} and played.value == 2
    assert made.after == {".value": 12}
    assert missing.after == {} and missing.ok
    assert raised.status is CallStatus.RAISED and raised.after == {}


def test_missing_and_uncallable_targets() -> None:
    missing, uncallable, method, counted = run(
        Call("nope"),
        Call("NOT_A_FUNCTION"),
        Call("Counter", (1,), then=(("nothing", (), {}),)),
        Call("fib", (1,), count=("ghost",)),
    )
    assert missing.status is CallStatus.MISSING and "'nope' is not defined" in (missing.error or "")
    assert uncallable.status is CallStatus.MISSING and "type int" in (uncallable.error or "")
    assert method.status is CallStatus.MISSING and "no attribute 'nothing'" in (method.error or "")
    assert counted.status is CallStatus.MISSING and "'ghost'" in (counted.error or "")


def test_a_raising_call_keeps_the_students_frames_only() -> None:
    (outcome,) = run(Call("fail"))
    assert outcome.status is CallStatus.RAISED and outcome.error == "ZeroDivisionError: division by zero"
    assert "<notebook>" in outcome.traceback and "executor.py" not in outcome.traceback


def test_a_recursion_error_shows_the_same_frames_as_its_whole_traceback_extracted() -> None:
    """Only the traceback's last entries are extracted: the frames shown are still the last ones
    of the student's, the grader's own (here a relay between each two) left out."""
    namespace: dict[str, Any] = {}
    exec(compile("def relay(f, n):\n    return f(n)\n", executor.__file__, "exec"), namespace)
    exec(compile("def down(n):\n    return relay(down, n + 1)\n", "<notebook>", "exec"), namespace)
    with pytest.raises(RecursionError) as raised:
        namespace["down"](0)
    error = raised.value
    whole = [f for f in traceback.extract_tb(error.__traceback__) if f.filename != executor.__file__]
    expected = "".join(traceback.format_list(whole[-TRACEBACK_FRAMES:])) + describe(error)
    assert student_traceback(error) == expected[-TRACEBACK_CHARS:]
    assert '"<notebook>", line 2, in down' in student_traceback(error)
    assert "relay" not in student_traceback(error)


@pytest.mark.skipif(sys.platform == "win32", reason="SIGPROF")
def test_a_call_past_its_time_is_stopped_and_the_next_one_runs() -> None:
    slow, after = run(Call("spin", timeout=0.2), Call("fib", (5,)))
    assert slow.status is CallStatus.TIMEOUT and slow.stopped_by is StopClock.CPU
    assert slow.error == "the call took longer than 0.2 s of CPU time and was stopped"
    assert 0.2 <= slow.duration < 1.0 and slow.wall >= slow.duration - 0.01
    assert after.value == 5 and after.stopped_by is None


@pytest.mark.skipif(sys.platform == "win32", reason="SIGPROF")
def test_a_call_that_waits_uses_no_cpu_and_is_not_stopped_by_its_limit() -> None:
    """Time spent waiting (for a core on a loaded machine, or here asleep) is not the call's:
    only the grader's wall-clock safety net ends a call that waits too long."""
    (napped,) = run(Call("nap", (0.5,), timeout=0.2))
    assert napped.status is CallStatus.OK and napped.value == 0.5
    assert napped.duration < 0.2 <= 0.5 <= napped.wall


@pytest.mark.skipif(sys.platform == "win32", reason="SIGALRM")
def test_where_no_grader_watches_a_call_that_waits_is_stopped_at_the_wall_clock_safety_net() -> None:
    napped, after = run(Call("nap", (60,), timeout=0.1), Call("fib", (5,)), wall_net=True)
    assert napped.status is CallStatus.TIMEOUT and napped.stopped_by is StopClock.WALL
    assert napped.duration < 0.1 and wall_bound(0.1) <= napped.wall < 60
    assert "having used less than its 0.1 s of CPU time" in (napped.error or "")
    assert after.value == 5


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="SIGALRM")
def test_where_no_grader_watches_a_call_that_computes_slowly_outlasts_the_wall_clock_safety_net() -> None:
    """A twentieth of a core: past the safety net of its limit, but never waiting."""
    (slow,) = run(Call("trickle", (wall_bound(1.0) + 2, 0.05), timeout=1.0), wall_net=True)
    assert slow.status is CallStatus.OK and slow.duration < 1.0 and slow.wall > wall_bound(1.0)


def test_a_batch_stops_starting_calls_by_the_cpu_time_it_used() -> None:
    naps = run(*[Call("nap", (0.2,), start_within=0.1) for _ in range(3)])
    assert [o.status for o in naps] == [CallStatus.OK] * 3  # 0.6 s of wall time, almost no CPU
    burnt, skipped = run(Call("burn", (0.1,), start_within=0.05), Call("burn", (0.1,), start_within=0.05))
    assert burnt.status is CallStatus.OK and burnt.duration >= 0.1
    assert skipped.status is CallStatus.SKIPPED and "time was up" in (skipped.error or "")


def test_printed_output_is_captured_and_capped() -> None:
    (outcome,) = run(Call("chatty"), output_chars=100)
    assert outcome.stdout == "x" * 100 + CALL_OUTPUT_TRUNCATED


def test_defined_names_leave_out_modules_imports_and_hidden_names() -> None:
    namespace: dict[str, Any] = {"__name__": "__main__"}
    exec(compile(SOURCE, "<notebook>", "exec"), namespace)
    names = CallExecutor(namespace, output_chars=1000).defined_names(hidden={"calls", "__name__", "__builtins__"})
    assert {"fib", "helper", "spin"} <= set(names["functions"])
    assert names["classes"] == {"Counter": ["__init__", "bump", "minmax"]}
    assert names["variables"] == ["NOT_A_FUNCTION"]


def test_the_kernel_sources_load_in_their_private_namespace_in_order() -> None:
    """What the kernel receives defines everything the shim needs without importing the
    grader, which the kernel cannot import."""

    def refusing_the_grader(name: str, *args: Any, **kwargs: Any) -> Any:
        if name.split(".")[0] == "grader":
            raise ImportError(f"the kernel cannot import {name}")
        return builtins.__import__(name, *args, **kwargs)

    private = {**builtins.__dict__, "__import__": refusing_the_grader}
    namespace: dict[str, Any] = {"__name__": KERNEL_NAMESPACE, "__builtins__": private}
    for source in link.KERNEL_SOURCES:
        exec(compile(source, "<grader-shim>", "exec"), namespace)
    assert {"install", "CallExecutor", "encode", "OP_CALLS", "cell_output_truncated"} <= set(namespace)


def _top_level_names(source: str) -> set[str]:
    """What a kernel source defines at its top level (the guarded imports of its neighbours
    aside: in the kernel they are the neighbours' own names)."""
    defined: set[str] = set()
    for node in ast.parse(source).body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            defined.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            defined.update(t.id for t in targets if isinstance(t, ast.Name))
    return defined - {"__all__"}


def test_no_two_kernel_sources_define_the_same_name() -> None:
    """They share one namespace in the kernel, where a later source's name silently
    replaces an earlier one's."""
    seen: dict[str, int] = {}
    clashes = []
    for position, source in enumerate(link.KERNEL_SOURCES):
        for name in _top_level_names(source):
            if name in seen:
                clashes.append((name, seen[name], position))
            seen[name] = position
    assert clashes == []
