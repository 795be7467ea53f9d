"""Every exception the grader defines derives from `GraderException` (its errors from
`GraderError`, its two signals from `GraderSignal`), and the command line turns
each usage error into one line and exit status 2, whichever command raised it."""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
from pathlib import Path

import pytest

import grader
from grader.cli import main
from grader.cli.options import USAGE_ERROR
from grader.errors import GraderError, GraderException, GraderSignal, UsageError


def _defined_exceptions() -> list[type[BaseException]]:
    """The exception classes of every module that defines a class (two modules are programs,
    not libraries: importing them runs them, and they define none)."""
    found = []
    for info in pkgutil.walk_packages(grader.__path__, "grader."):
        path = Path(grader.__path__[0]).parent.joinpath(*info.name.split("."))
        source = path / "__init__.py" if info.ispkg else path.with_suffix(".py")
        if not any(isinstance(node, ast.ClassDef) for node in ast.walk(ast.parse(source.read_text()))):
            continue
        module = importlib.import_module(info.name)
        for _, value in inspect.getmembers(module, inspect.isclass):
            if issubclass(value, BaseException) and value.__module__ == module.__name__:
                found.append(value)
    return found


def test_every_exception_of_the_grader_derives_from_one_base() -> None:
    exceptions = _defined_exceptions()
    # The kernel side's three signals must pass a student's `except Exception`, so they cannot be Exceptions.
    signals = {e.__name__ for e in exceptions if not issubclass(e, Exception)}
    assert signals == {"CallTimedOut", "NodeCapReached", "ScriptedInputExhausted", "GraderException", "GraderSignal"}
    assert [e.__qualname__ for e in exceptions if not issubclass(e, GraderException)] == []
    errors = [e for e in exceptions if issubclass(e, Exception)]
    assert [e.__qualname__ for e in errors if not issubclass(e, GraderError)] == []
    assert all(
        issubclass(e, GraderSignal)
        for e in exceptions
        if e.__name__ in {"CallTimedOut", "NodeCapReached", "ScriptedInputExhausted"}
    )
    assert len(exceptions) >= 29


def test_a_usage_error_is_one_line_after_the_command_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["merge", str(tmp_path / "out"), str(tmp_path / "missing")]) == USAGE_ERROR
    err = capsys.readouterr().err
    assert err.startswith("grader merge: ") and err.count("\n") == 1
    assert main(["batch", str(tmp_path), "-a", "lab05", "--out", str(tmp_path / "out"), "--jobs", "0"]) == USAGE_ERROR
    assert capsys.readouterr().err == "grader batch: --jobs must be at least 1\n"
    assert main(["batch", str(tmp_path), "-a", "no-such-lab", "--out", str(tmp_path / "out")]) == USAGE_ERROR
    err = capsys.readouterr().err
    assert err.startswith("grader batch: ") and "no-such-lab" in err and err.count("\n") == 1


def test_an_error_that_is_not_about_usage_is_not_swallowed(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(args: object) -> int:
        raise GraderError("a defect, not a usage error")

    monkeypatch.setattr("grader.cli.cmd_assignments", broken)
    with pytest.raises(GraderError):
        main(["assignments"])
    assert not issubclass(GraderError, UsageError)
