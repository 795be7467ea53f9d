"""One fixture notebook per hostile behaviour: the bad cell gets its exact status, and the
notebook's last cell (which defines ``survivor()`` and prints "still running") still runs."""

from __future__ import annotations

import resource
from dataclasses import dataclass, field

import pytest

from grader.execution.channel.calls import Call
from grader.execution.sandbox import Limits, SandboxChoice
from grader.execution.session import CellStatus, ExecutionOptions
from tests.execution.support import OptionOverrides, requires_bwrap

pytestmark = pytest.mark.kernel

FAST: OptionOverrides = {"cell_timeout": 2.0, "interrupt_grace": 2.0}


@dataclass(frozen=True)
class Hostile:
    fixture: str
    cell: int
    """Notebook position of the hostile cell (position 0 is each fixture's markdown title)."""
    status: CellStatus
    error_names: tuple[str, ...] = ()
    restarts: int = 0
    options: OptionOverrides = field(default_factory=lambda: OptionOverrides())


CASES = [
    Hostile("infinite_loop", 2, CellStatus.TIMEOUT, ("Timeout",)),
    Hostile("infinite_recursion", 1, CellStatus.ERROR, ("RecursionError",)),
    Hostile("memory_bomb", 1, CellStatus.ERROR, ("MemoryError",), options={"limits": Limits(memory_bytes=1 << 30)}),
    Hostile("sys_exit", 1, CellStatus.ERROR, ("SystemExit",)),
    Hostile("sys_exit", 2, CellStatus.ERROR, ("SystemExit",)),
    Hostile("syntax_error_repaired", 1, CellStatus.ERROR, ("SyntaxError",)),
    Hostile("imports_grader", 1, CellStatus.ERROR, ("ModuleNotFoundError",)),
    Hostile("imports_grader", 2, CellStatus.ERROR, ("ModuleNotFoundError",)),
    Hostile("imports_grader", 3, CellStatus.ERROR, ("ModuleNotFoundError",)),
]


def _run_and_check_survival(open_session, case: Hostile, sandbox: SandboxChoice = "auto"):
    overrides: OptionOverrides = {**FAST, **case.options}
    session = open_session(case.fixture, ExecutionOptions(sandbox=sandbox, **overrides))
    result = session.execute()
    record = result.cell(case.cell)
    assert record.status is case.status, record
    if case.error_names:
        assert record.error_name in case.error_names, record
    last = result.cells[-1]
    assert last.status is CellStatus.OK and "still running" in last.output, last
    assert session.calls.call(Call("survivor")).value == "alive"
    assert result.kernel_restarts == case.restarts
    return session, result


@pytest.mark.parametrize("case", CASES, ids=lambda case: f"{case.fixture}-cell{case.cell}")
def test_hostile_cell_is_recorded_and_execution_goes_on(open_session, case: Hostile) -> None:
    _run_and_check_survival(open_session, case)


@pytest.mark.parametrize("sandbox", [pytest.param("bwrap", marks=requires_bwrap), "limits"])
def test_grader_packages_cannot_be_imported_in_either_sandbox(open_session, sandbox: SandboxChoice) -> None:
    case = Hostile("imports_grader", 1, CellStatus.ERROR, ("ModuleNotFoundError",))
    _run_and_check_survival(open_session, case, sandbox)


def test_killed_kernel_is_replayed_with_definitions_of_the_fatal_cell(open_session) -> None:
    session, result = _run_and_check_survival(open_session, Hostile("os_exit", 2, CellStatus.KILLED, restarts=1))
    assert "exit status 1" in result.cell(2).error_message
    outcomes = session.calls.call_many([Call("defined_before"), Call("defined_in_fatal_cell")])
    assert [o.value for o in outcomes] == ["before", "fatal cell"]


def test_segfault_is_reported_with_its_signal(open_session) -> None:
    _, result = _run_and_check_survival(open_session, Hostile("segfault", 2, CellStatus.KILLED, restarts=1))
    assert "signal 11" in result.cell(2).error_message


@pytest.mark.slow
def test_loop_that_ignores_interrupts_gets_a_new_kernel(open_session) -> None:
    session, result = _run_and_check_survival(
        open_session, Hostile("ignores_interrupt", 1, CellStatus.TIMEOUT, ("Timeout",), restarts=1)
    )
    assert "kernel was replaced" in result.cell(1).error_message
    # The stuck cell's definitions came back with the replay.
    assert session.calls.call(Call("defined_before_the_loop")).value == 2


@requires_bwrap
def test_fork_bomb_is_bounded(open_session) -> None:
    case = Hostile("fork_bomb", 1, CellStatus.ERROR, ("BlockingIOError",), options={"limits": Limits(processes=32)})
    overrides: OptionOverrides = {**FAST, **case.options}
    session = open_session(case.fixture, ExecutionOptions(sandbox="bwrap", **overrides))
    result = session.execute()
    assert result.cell(1).status is CellStatus.ERROR and result.cell(1).error_name == "BlockingIOError"
    assert result.cells[-1].status is CellStatus.OK
    assert session.calls.call(Call("survivor")).value == "alive"


def test_output_flood_is_truncated_in_the_kernel(open_session) -> None:
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    session = open_session("output_flood", ExecutionOptions(**FAST))
    result = session.execute()
    limit = session.options.limits.output_chars
    for index in (1, 2):
        record = result.cell(index)
        assert record.status is CellStatus.OK
        assert record.output_truncated
        assert limit <= len(record.output) <= limit + 1000
        # 100 MB never crossed to the grader: truncation happened before sending.
        assert record.duration < 3
    grown_mb = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
    assert grown_mb < 50
    assert result.cells[-1].output == "still running\n"


def test_input_loop_fed_by_a_script(open_session) -> None:
    session = open_session("input_loop", ExecutionOptions(stdin=("4", "x", "5", "0"), **FAST))
    result = session.execute()
    assert result.cell(1).status is CellStatus.OK
    assert "total 9" in result.cell(1).output
    assert "number (0 to stop): x" in result.cell(1).output
    assert [(e.cell_index, e.answer) for e in result.stdin_transcript] == [(1, "4"), (1, "x"), (1, "5"), (1, "0")]
    assert result.cells[-1].status is CellStatus.OK


def test_exhausted_script_ends_the_cell_despite_except_exception(open_session) -> None:
    session = open_session("input_loop", ExecutionOptions(stdin=("4", "x"), **FAST))
    result = session.execute()
    record = result.cell(1)
    assert record.status is CellStatus.ERROR
    assert record.error_name == "ScriptedInputExhausted"
    assert "scripted input ran out" in record.error_message
    assert [e.answer for e in result.stdin_transcript] == ["4", "x", None]
    assert result.stdin_transcript[-1].prompt == "number (0 to stop): "
    assert result.cells[-1].status is CellStatus.OK
    assert session.calls.call(Call("survivor")).value == "alive"


def test_monkeypatched_builtins_do_not_break_the_channel(open_session) -> None:
    session = open_session("monkeypatched_builtins", ExecutionOptions(**FAST))
    result = session.execute()
    assert [r.status for r in result.cells] == [CellStatus.OK] * 3
    assert result.cell(1).output == "LOG: patched\n"
    outcomes = session.calls.call_many(
        [
            Call("pair", (1, "b"), count=("pair", "max", "min"), read_globals=("_real_print",)),
            Call("max", ([1, 5],)),
            Call("min", ([1, 5],), count_all=True),
        ]
    )
    assert outcomes[0].value == (1, ["b", {"b": 1}])
    assert outcomes[0].counts == {"pair": 1, "max": 0, "min": 0}
    assert outcomes[1].value == "student max"
    assert outcomes[2].value == "student min" and outcomes[2].counts["min"] == 1
    assert set(session.calls.defined_names().functions) >= {"max", "min", "pair", "survivor"}


def test_forged_shim_messages_are_ignored(open_session) -> None:
    session = open_session("forged_messages", ExecutionOptions(stdin=("real",), **FAST))
    result = session.execute()
    assert [(e.prompt, e.answer) for e in result.stdin_transcript] == [("real prompt: ", "real")]
    assert result.cell(2).output == "real prompt: real\ngot real\n"
    # A reply sent on the grader's own comm, for the running request, without the nonce.
    assert session.calls.call(Call("forger")).value == "real"
    assert session.calls.call(Call("survivor")).value == "alive"


def test_sabotaged_builtins_cost_neither_time_nor_the_kernel(open_session) -> None:
    """Without the guard, the first cell never replied: ipykernel could not import what it
    needed to send the reply, and the cell ran until its time limit."""
    session = open_session("sabotaged_builtins", ExecutionOptions(**FAST))
    result = session.execute()
    assert [r.status for r in result.cells] == [CellStatus.OK, CellStatus.OK, CellStatus.ERROR, CellStatus.OK]
    assert result.kernel_restarts == 0
    # The notebook's own code keeps its replacement; `import` and `class` work again.
    assert result.cell(2).output == "student len -1 2 9\n"
    assert result.cell(3).error_name == "ValueError" and "after the sabotage" in (result.cell(3).error_message or "")
    assert "still running" in result.cell(4).output
    outcomes = session.calls.call_many([Call("sabotage"), Call("survivor"), Call("sabotage"), Call("survivor")])
    assert [o.value for o in outcomes] == [-1, "alive", -1, "alive"]
    names = session.calls.defined_names()
    assert {"sabotage", "survivor"} <= set(names.functions) and "len" not in names.functions
