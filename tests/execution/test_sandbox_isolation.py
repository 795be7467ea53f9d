"""What a notebook can see and reach from inside the sandbox."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from grader.execution.channel.calls import Call, CallStatus
from grader.execution.result import SandboxMode
from grader.execution.sandbox import SandboxChoice, resolve_mode
from grader.execution.session import CellStatus, ExecutionOptions
from tests.execution.support import REPO, OptionOverrides, requires_bwrap

pytestmark = pytest.mark.kernel

FAST: OptionOverrides = {"cell_timeout": 5.0, "interrupt_grace": 2.0}


@requires_bwrap
def test_network_is_unreachable(open_session) -> None:
    result = open_session("network_probe", ExecutionOptions(sandbox="bwrap", **FAST)).execute()
    record = result.cell(1)
    assert record.status is CellStatus.ERROR
    assert record.error_name == "OSError" and "unreachable" in record.error_message
    assert result.cells[-1].status is CellStatus.OK


@requires_bwrap
def test_instructor_files_are_invisible_and_only_private_places_are_writable(open_session, tmp_path: Path) -> None:
    other_submission = tmp_path / "other_student.ipynb"
    other_submission.write_text("{}")
    written_by_student = REPO / "grader" / "written_by_student.txt"
    options = ExecutionOptions(stdin=(str(REPO / "pyproject.toml"), str(written_by_student)), sandbox="bwrap", **FAST)
    session = open_session("file_probe", options)
    result = session.execute()

    assert result.sandbox_mode is SandboxMode.BWRAP and result.isolation_note is None
    assert (result.cell(2).status, result.cell(2).error_name) == (CellStatus.ERROR, "FileNotFoundError")
    assert result.cell(3).status is CellStatus.ERROR
    assert result.cell(4).output == "kept in the working directory\n"
    assert result.cells[-1].status is CellStatus.OK

    invisible = [
        REPO / "pyproject.toml",
        REPO / "grader" / "__init__.py",
        REPO / "assignments",
        other_submission,
        Path("/etc/shadow"),
    ]
    unwritable = [REPO / "grader" / "x.txt", Path("/usr/x.txt"), Path("/x.txt"), Path.home() / "x.txt"]
    calls = [Call("read", (str(path),)) for path in invisible]
    calls += [Call("write", (str(path),)) for path in unwritable]
    calls += [Call("write", ("/tmp/private.txt",)), Call("listing", (str(REPO),)), Call("listing", (".",))]
    outcomes = session.calls.call_many(calls)

    for path, outcome in zip(invisible, outcomes):
        assert outcome.status is CallStatus.RAISED and outcome.error.startswith("FileNotFoundError"), (path, outcome)
    for path, outcome in zip(unwritable, outcomes[len(invisible) :]):
        assert outcome.status is CallStatus.RAISED and "Error" in outcome.error, (path, outcome)
    private, repo_listing, workdir_listing = outcomes[-3:]
    assert private.value == "written" and not Path("/tmp/private.txt").exists()
    if REPO in Path(sys.prefix).parents:  # only the interpreter's own directory shows
        assert set(repo_listing.value) <= {".venv"}
    else:  # an interpreter kept elsewhere: nothing of the checkout is bound at all
        assert repo_listing.status is CallStatus.RAISED and repo_listing.error.startswith("FileNotFoundError")
    assert workdir_listing.value == ["notes.txt"]
    assert not written_by_student.exists()


def test_limits_mode_says_isolation_is_reduced(open_session) -> None:
    result = open_session("syntax_error_repaired", ExecutionOptions(sandbox="limits", **FAST)).execute()
    assert result.sandbox_mode is SandboxMode.LIMITS
    assert "reduced" in result.isolation_note
    assert result.cells[-1].status is CellStatus.OK


def test_none_mode_runs_without_limits_and_says_so(open_session) -> None:
    session = open_session("syntax_error_repaired", ExecutionOptions(sandbox="none", **FAST))
    result = session.execute()
    assert result.sandbox_mode is SandboxMode.NONE and "off" in result.isolation_note
    assert session.calls.call(Call("evaluate", ("X",))).value == 1


def test_auto_is_bubblewrap_where_it_works(monkeypatch: pytest.MonkeyPatch) -> None:
    """(Where it does not, ``auto`` refuses: tests/execution/test_isolation.py.)"""
    from grader.execution import sandbox

    monkeypatch.setattr(sandbox, "bwrap_problem", lambda: None)
    assert resolve_mode("auto") is SandboxMode.BWRAP


@pytest.mark.parametrize("choice", ["limits", "none"])
def test_explicit_modes_resolve_to_themselves(choice: SandboxChoice) -> None:
    assert resolve_mode(choice) is SandboxMode(choice)


def test_private_tmp_is_mounted_before_the_interpreter() -> None:
    """A checkout (and its virtualenv) under /tmp must stay visible: the private /tmp is
    mounted first and the interpreter's directories are bound on top of it."""
    from grader.execution.bwrap import python_roots
    from grader.execution.sandbox import Limits, Sandbox

    args = Sandbox(SandboxMode.BWRAP, Limits())._bwrap_prefix(1)
    tmpfs = next(i for i, a in enumerate(args) if a == "--tmpfs" and args[i + 1] == "/tmp")
    binds = [i for i, a in enumerate(args) if a == "--ro-bind" and args[i + 1] in python_roots()]
    assert binds and all(tmpfs < i for i in binds)
