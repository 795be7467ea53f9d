"""The kernel's runtime directory, the one host directory a sandboxed kernel reaches: a
notebook cannot create files there, forge or grow the input() log, or rewrite its
connection file, and the directory stays within a small budget."""

from __future__ import annotations

import os
import shutil
import stat
from pathlib import Path

import nbformat
import pytest

from grader.batch.plan import BatchOptions, run_batch
from grader.execution.bwrap import bwrap_prefix
from grader.execution.runtime_dir import RuntimeDir
from grader.execution.sandbox import SandboxChoice
from grader.execution.session import CellStatus, ExecutionOptions, StdinExchange
from grader.spec.loader import load_assignment
from tests.execution.support import OptionOverrides, fixture, requires_bwrap

FAST: OptionOverrides = {"cell_timeout": 20.0, "interrupt_grace": 2.0}
RUNTIME_BUDGET_BYTES = 64 * 1024
"""What the runtime directory may hold, all files together: connection files, sockets and
the shim's two small files."""

ATTEMPTS = 13
"""Lines the probe prints, one per attempt (cells 2-4; cell 5 asks for one scripted answer)."""


def attempts(result) -> list[str]:
    """The probe's report lines: ``<what>: refused (...)`` or ``<what>: DONE``."""
    return [
        line
        for cell in result.cells
        for line in cell.output.splitlines()
        if line.endswith(": DONE") or ": refused (" in line
    ]


def disk_use(folder: Path) -> int:
    return sum(entry.lstat().st_size for entry in folder.rglob("*"))


@pytest.mark.kernel
@pytest.mark.parametrize("sandbox", [pytest.param("bwrap", marks=requires_bwrap), "limits"])
def test_a_notebook_cannot_write_into_the_runtime_directory(open_session, sandbox: SandboxChoice) -> None:
    session = open_session("runtime_dir_probe", ExecutionOptions(sandbox=sandbox, stdin=("5",), **FAST))
    sandbox_of_session = session._sandbox
    if sandbox_of_session.uid is None:  # the grader is not root, or its Python is unreadable to others
        pytest.skip("the kernel has no uid of its own here, so only the mounts narrow it (docs/security.md)")
    runtime = sandbox_of_session.runtime
    connection = runtime.connection_file(1).read_bytes()
    result = session.execute()

    lines = attempts(result)
    assert len(lines) == ATTEMPTS, lines
    assert all(": refused (" in line for line in lines), lines
    assert [cell.status for cell in result.cells] == [CellStatus.OK] * len(result.cells)
    assert result.stdin_transcript == (StdinExchange(5, "move? ", "5"),)
    assert "answer: 5" in result.cell(5).output and "still running" in result.cells[-1].output

    assert runtime.connection_file(1).read_bytes() == connection
    names = sorted(path.name for path in runtime.path.iterdir())
    assert names == ["call-progress", "kernel-1.json", "sockets-1", "stdin-log.jsonl"]
    assert all(stat.S_ISSOCK(path.lstat().st_mode) for path in runtime.socket_dir(1).iterdir())
    assert disk_use(runtime.path) < RUNTIME_BUDGET_BYTES


# -- the directory's permissions and mounts, without a kernel ------------------------------


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_the_kernel_gets_read_only_files_and_a_socket_folder_closed_once_it_answers(tmp_path: Path) -> None:
    runtime = RuntimeDir(tmp_path / "runtime", kernel_gid=None)
    assert mode(runtime.path) == 0o755
    assert mode(runtime.progress_path) == mode(runtime.stdin_log_path) == 0o640
    runtime.connection_file(1).write_text("{}")
    runtime.prepare_kernel(1)
    assert mode(runtime.connection_file(1)) == 0o640 and mode(runtime.socket_dir(1)) == 0o770
    runtime.close_socket_dir(1)
    assert mode(runtime.socket_dir(1)) == 0o750
    with runtime.shim_files_open():
        assert mode(runtime.progress_path) == mode(runtime.stdin_log_path) == 0o660
    assert mode(runtime.progress_path) == mode(runtime.stdin_log_path) == 0o640


@pytest.mark.skipif(os.geteuid() != 0, reason="handing files to another group needs root")
def test_the_kernels_group_owns_what_it_may_read(tmp_path: Path) -> None:
    gid = 1_900_000_123
    runtime = RuntimeDir(tmp_path / "runtime", kernel_gid=gid)
    runtime.connection_file(1).write_text("{}")
    runtime.prepare_kernel(1)
    owned = [runtime.progress_path, runtime.stdin_log_path, runtime.connection_file(1), runtime.socket_dir(1)]
    assert [(path.stat().st_uid, path.stat().st_gid) for path in owned] == [(0, gid)] * len(owned)
    assert runtime.path.stat().st_gid != gid


def test_bubblewrap_binds_the_runtime_directory_read_only_and_only_the_kernels_paths_writable(tmp_path: Path) -> None:
    runtime = RuntimeDir(tmp_path / "runtime", kernel_gid=None)
    writable = runtime.writable_by_kernel(2)
    args = bwrap_prefix(disk_bytes=1 << 20, runtime_dir=runtime.path, writable=writable, hidden_packages=())
    binds = [(args[i], args[i + 1]) for i, arg in enumerate(args) if arg in ("--bind", "--ro-bind")]
    runtime_binds = [(kind, path) for kind, path in binds if path.startswith(str(runtime.path))]
    assert runtime_binds == [("--ro-bind", str(runtime.path))] + [("--bind", str(path)) for path in writable]
    assert writable == [runtime.socket_dir(2), runtime.progress_path, runtime.stdin_log_path]


# -- a batch with the probe among the class ---------------------------------------------------


@pytest.mark.kernel
@requires_bwrap
def test_a_batch_grades_the_probe_and_its_classmates_normally(tmp_path: Path) -> None:
    assignment = load_assignment("alphabeta-challenges")
    solution = nbformat.read(assignment.solution_path, as_version=4)
    probe = nbformat.read(fixture("runtime_dir_probe"), as_version=4)
    hostile = nbformat.from_dict(solution)
    hostile.cells = [*probe.cells[1:5], *solution.cells]  # the probe's attempts, then the solution
    source = tmp_path / "class"
    source.mkdir()
    shutil.copyfile(assignment.solution_path, source / "honest.ipynb")
    nbformat.write(hostile, source / "hostile.ipynb")
    result = run_batch(source, assignment, tmp_path / "out", BatchOptions(jobs=2, progress=False, sandbox="bwrap"))
    scores = {r.submission.student_id: (r.failure, r.result.score, r.result.max_score) for r in result.records}
    assert scores["hostile"] == scores["honest"] and scores["honest"][0] is None
    assert scores["honest"][1] == scores["honest"][2] > 0


# -- reading the shim's files back, whatever the notebook wrote into them ----------------------


def test_the_log_is_read_in_bounded_pieces_and_scribbles_are_passed_over(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from grader.execution.channel import link

    monkeypatch.setattr(link, "STDIN_LOG_READ_BYTES", 1024)
    runtime = RuntimeDir(tmp_path / "runtime", kernel_gid=None)
    shim_link = link.ShimLink(None, runtime=runtime, interrupt_grace=1.0)  # type: ignore[arg-type]
    entry = b'{"prompt": "move? ", "answer": "5"}\n'
    runtime.stdin_log_path.write_bytes(entry + b"x" * 3000 + b"\n" + entry)

    first, offset = shim_link.read_stdin_log(0)
    assert first == [("move? ", "5")] and offset == len(entry)
    scribbled, offset = shim_link.read_stdin_log(offset)  # a whole read without a line: skipped
    assert scribbled == [] and offset == len(entry) + 1024
    rest, offset = shim_link.read_stdin_log(offset)
    assert rest == [] and offset < len(entry) + 3001  # past the scribble, its end a line of its own
    last, offset = shim_link.read_stdin_log(offset)
    assert last == [("move? ", "5")] and offset == runtime.stdin_log_path.stat().st_size


def test_the_running_call_is_read_from_four_bytes_and_forgotten_in_place(tmp_path: Path) -> None:
    from grader.execution.channel.link import ShimLink

    runtime = RuntimeDir(tmp_path / "runtime", kernel_gid=None)
    shim_link = ShimLink(None, runtime=runtime, interrupt_grace=1.0)  # type: ignore[arg-type]
    runtime.progress_path.write_bytes((7).to_bytes(4, "little") + b"\xff" * 100_000)
    assert shim_link.running_call() == 7
    shim_link.forget_running_call()
    assert shim_link.running_call() is None and runtime.progress_path.is_file()
