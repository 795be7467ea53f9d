"""A course's support modules in the kernel: the session's own read-only copy, first on
``sys.path`` and found by name whatever the notebook does to ``sys.path`` later, so that a module
of the same name the notebook writes into its working directory is never the one it imports, and
the course's files cannot be changed from inside."""

from __future__ import annotations

import json
import stat
from pathlib import Path

import pytest
from nbformat import v4

from grader.execution.bwrap import SANDBOX_SUPPORT, bwrap_prefix
from grader.execution.result import SandboxMode
from grader.execution.sandbox import Limits, Sandbox, SandboxChoice
from grader.execution.session import CellStatus, ExecutionOptions, NotebookSession
from tests.courses.support_course import MODULE, tampered_module
from tests.execution.support import requires_bwrap

COURSE_MODULE = MODULE


def _launcher_config(sandbox: Sandbox) -> dict:
    return json.loads(sandbox._kernel_spec(1).argv[-1])


def test_bubblewrap_binds_the_support_folder_read_only_at_course(tmp_path: Path) -> None:
    args = bwrap_prefix(disk_bytes=1, runtime_dir=tmp_path, writable=[], hidden_packages=[], support_dir=tmp_path / "s")
    bind = args.index(str(tmp_path / "s"))
    assert args[bind - 1 : bind + 2] == ["--ro-bind", str(tmp_path / "s"), SANDBOX_SUPPORT]
    assert bind < args.index("--remount-ro")
    assert SANDBOX_SUPPORT not in bwrap_prefix(disk_bytes=1, runtime_dir=tmp_path, writable=[], hidden_packages=[])


@pytest.mark.parametrize("mode", [SandboxMode.BWRAP, SandboxMode.LIMITS])
def test_each_sandbox_holds_its_own_read_only_copy_and_puts_it_on_the_path(mode: SandboxMode) -> None:
    sandbox = Sandbox(mode, Limits(), [COURSE_MODULE])
    try:
        assert sandbox.support_dir is not None
        copy = sandbox.support_dir / "toygame.py"
        assert copy.read_bytes() == COURSE_MODULE.read_bytes()
        assert stat.S_IMODE(copy.stat().st_mode) == 0o444
        assert stat.S_IMODE(sandbox.support_dir.stat().st_mode) == 0o555
        expected = SANDBOX_SUPPORT if mode is SandboxMode.BWRAP else str(sandbox.support_dir)
        assert _launcher_config(sandbox)["support_dir"] == expected
    finally:
        sandbox.close()
    assert not sandbox.root.exists()


def test_without_support_modules_nothing_is_added() -> None:
    sandbox = Sandbox(SandboxMode.LIMITS, Limits())
    try:
        assert sandbox.support_dir is None and _launcher_config(sandbox)["support_dir"] is None
    finally:
        sandbox.close()


_STUDENT = [
    # The notebook writes its own toygame.py where it runs, and imports toygame.
    "open('toygame.py', 'w').write({tampered!r})",
    "import os, sys, toygame\nprint(toygame.__file__)\nprint(toygame.winner(['X', ' ', ' ', ' ', 'X', ' ', ' ', ' ', 'X']))",
    "print(sys.path[0] == os.path.dirname(toygame.__file__), os.path.isfile('toygame.py'))",
    "open(toygame.__file__, 'a').write('WINNER = None')",
    # Its own folder first on the path, the course's module forgotten, and imported again.
    "sys.path.insert(0, os.getcwd())\nsys.modules.pop('toygame')\nimport toygame\nprint(toygame.__file__)",
]


@pytest.mark.kernel
@pytest.mark.parametrize("mode", [pytest.param("bwrap", marks=requires_bwrap), "limits"])
def test_the_course_module_wins_over_the_notebooks_own_and_cannot_be_changed(mode: SandboxChoice) -> None:
    tampered = tampered_module()
    cells = [v4.new_code_cell(source.format(tampered=tampered)) for source in _STUDENT]
    options = ExecutionOptions(sandbox=mode, support=(COURSE_MODULE,), cell_timeout=20.0)
    before = COURSE_MODULE.read_bytes()
    with NotebookSession(v4.new_notebook(cells=cells), options) as session:
        result = session.execute()
        sandbox = session._sandbox
        assert sandbox is not None
        own_uid = sandbox.uid is not None
    wrote, imported, order, changed, again = result.cells
    assert wrote.status is CellStatus.OK  # the working directory is the notebook's to write
    assert imported.status is CellStatus.OK
    where, winner = imported.output.splitlines()
    assert winner == "X"  # the course's module: a diagonal wins (the notebook's own says None)
    if mode == "bwrap":
        assert where == f"{SANDBOX_SUPPORT}/toygame.py"
    else:
        assert Path(where).parent.name == "support" and Path(where).parent.parent.name.startswith("grader-kernel-")
    assert order.output == "True True\n"  # first on the path, ahead of the file the notebook wrote
    if mode == "bwrap" or own_uid:  # a read-only mount, or a copy its uid cannot write
        assert changed.status is CellStatus.ERROR and changed.error_name in ("PermissionError", "OSError")
    else:  # a kernel that runs as the grader's user can write its own copy: never the course's file
        assert changed.status is CellStatus.OK
    assert COURSE_MODULE.read_bytes() == before
    assert again.status is CellStatus.OK and again.output == f"{where}\n"
