"""A kernel launched ahead of time: taken by the next session, never shared, cleaned up."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_notebook

from grader.execution.sandbox import Limits
from grader.execution.session import CellStatus, ExecutionOptions, NotebookSession
from grader.execution.spare_kernels import SpareKernel, spare_kernel_for_this_thread

pytestmark = pytest.mark.kernel


def notebook(*sources: str) -> nbformat.NotebookNode:
    return new_notebook(cells=[new_code_cell(source) for source in sources])


def waiting_process(spare: SpareKernel) -> subprocess.Popen[bytes]:
    """The process of the kernel waiting in ``spare``."""
    assert spare._spare is not None
    process = getattr(spare._spare.kernel.manager.provisioner, "process", None)
    assert process is not None
    return process


@pytest.fixture
def spare() -> Iterator[SpareKernel]:
    spare = SpareKernel()
    yield spare
    spare.close()


def test_the_next_session_takes_the_spare_and_sees_nothing_of_the_last(spare: SpareKernel) -> None:
    options = ExecutionOptions(stdin=("7",))
    with NotebookSession(notebook("leftover = input()", "print(leftover)"), options, spare_kernel=spare) as first:
        assert [c.output for c in first.execute().cells] == ["7\n", "7\n"]  # input() echoes its answer
        assert first._kernel is not None
        first_pid = first._kernel.pid
    with NotebookSession(
        notebook("print('leftover' in globals())", "print(input())"), options, spare_kernel=spare
    ) as second:
        result = second.execute()
        assert second._kernel is not None
        second_pid = second._kernel.pid
    assert [c.output for c in result.cells] == ["False\n", "7\n7\n"]  # a fresh namespace; the script from its start
    assert (spare.handed_out, spare.from_spare) == (2, 1)
    assert first_pid != second_pid or first_pid is None


def test_no_kernel_is_launched_ahead_when_none_will_be_taken(spare: SpareKernel) -> None:
    spare.launch_ahead = False  # the last submission of a batch's worker
    with NotebookSession(notebook("print(6 * 7)"), ExecutionOptions(), spare_kernel=spare) as session:
        assert session.execute().cells[0].output == "42\n"
    assert spare._spare is None and (spare.handed_out, spare.from_spare) == (1, 0)


def test_a_spare_for_other_limits_is_not_used(spare: SpareKernel) -> None:
    with NotebookSession(notebook("x = 1"), ExecutionOptions(), spare_kernel=spare) as session:
        session.execute()
    other = ExecutionOptions(limits=Limits(memory_bytes=1024**3))
    with NotebookSession(notebook("x = 1"), other, spare_kernel=spare) as session:
        assert session.execute().cells[0].status is CellStatus.OK
    assert (spare.handed_out, spare.from_spare) == (2, 0)


def test_a_spare_that_died_is_replaced(spare: SpareKernel) -> None:
    with NotebookSession(notebook("x = 1"), ExecutionOptions(), spare_kernel=spare) as session:
        session.execute()
    process = waiting_process(spare)
    process.kill()
    process.wait()
    with NotebookSession(notebook("print(6 * 7)"), ExecutionOptions(), spare_kernel=spare) as session:
        assert session.execute().cells[0].output == "42\n"
    assert spare.from_spare == 0


def test_close_stops_the_spare_and_removes_its_sandbox() -> None:
    spare = SpareKernel()
    with NotebookSession(notebook("x = 1"), ExecutionOptions(), spare_kernel=spare) as session:
        session.execute()
    process = waiting_process(spare)
    assert spare._spare is not None
    folder = Path(spare._spare.sandbox.root)
    assert folder.is_dir() and process.poll() is None
    spare.close()
    assert process.poll() is not None
    assert not folder.exists()
    spare.close()  # twice is harmless


def test_each_thread_has_its_own_spare() -> None:
    import threading

    mine = spare_kernel_for_this_thread()
    theirs: list[SpareKernel] = []
    thread = threading.Thread(target=lambda: theirs.append(spare_kernel_for_this_thread()))
    thread.start()
    thread.join()
    assert mine is spare_kernel_for_this_thread() and theirs[0] is not mine


def test_a_spare_does_not_travel_to_another_process(spare: SpareKernel) -> None:
    import pickle

    copy = pickle.loads(pickle.dumps(spare))
    assert isinstance(copy, SpareKernel) and copy is not spare and copy._spare is None
