"""What the test suite asks the grader to do, recorded from every Python process it starts.

Put this folder first on ``PYTHONPATH`` with ``SUITE_TRACE_DIR`` set, and every Python process
started with them (pytest's workers, a batch's workers, ``python -m grader`` run by a test)
imports this module at its start (``site`` imports ``sitecustomize``). It then wraps, as each is
imported, the three places where the grader does the work that costs the suite its time, and
writes a line of JSON for each call to ``SUITE_TRACE_DIR/<pid>.jsonl``, named with the test
that was running (``PYTEST_CURRENT_TEST``), and one more as the process exits:

- a grading (`grader.grading._grade`): the submission's bytes (hashed), the assignment and its
  checks, the wall time and this process's CPU time, the result's timings and each check's
  status and duration;
- an init (`grader.authoring.create.create_assignment`): the solution's and handout's bytes,
  the wall and CPU time;
- a notebook run (`grader.execution.session.NotebookSession.execute`): the cells (hashed) and
  the wall time;
- each process, as it exits: its first arguments, and its own CPU time (``python -m grader``
  run by a test pays its imports there).

Student kernels start without ``site`` (``python -S``), so nothing here runs in them. Nothing
changes what the wrapped functions return or raise. `bench/suite_work.py` reads the records.
"""

from __future__ import annotations

import atexit
import functools
import hashlib
import importlib.abc
import json
import os
import resource
import sys
import time
from pathlib import Path
from typing import Any

TRACE_DIR = os.environ.get("SUITE_TRACE_DIR")


def _write(record: dict[str, Any]) -> None:
    record["test"] = os.environ.get("PYTEST_CURRENT_TEST", "")
    with open(Path(TRACE_DIR or ".") / f"{os.getpid()}.jsonl", "a", encoding="utf-8") as out:
        out.write(json.dumps(record, default=str) + "\n")


def _digest(data: bytes | str) -> str:
    return hashlib.sha256(data.encode() if isinstance(data, str) else data).hexdigest()[:12]


def _file_digest(path: Any) -> str | None:
    try:
        return _digest(Path(path).read_bytes())
    except (OSError, TypeError):
        return None


def _assignment_key(assignment: Any) -> str:
    checks = repr([(check.id, check.kind, check.params) for check in assignment.checks])
    return f"{assignment.id}:{_digest(checks)}"


def _timed(function: Any, describe: Any) -> Any:
    @functools.wraps(function)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        wall, cpu = time.monotonic(), time.process_time()
        result = function(*args, **kwargs)
        try:
            record = describe(result, *args, **kwargs)
            record.update(wall=time.monotonic() - wall, cpu=time.process_time() - cpu)
            _write(record)
        except Exception as error:  # a record that cannot be made is said, never raised
            _write({"event": "unrecorded", "function": function.__name__, "error": repr(error)})
        return result

    return wrapper


def _grading(result: Any, path: Any, assignment: Any, *args: Any, **kwargs: Any) -> dict[str, Any]:
    return {
        "event": "grade",
        "submission": str(path),
        "bytes": _file_digest(path),
        "assignment": _assignment_key(assignment),
        "timings": dict(result.timings),
        "checks": [(c.check_id, c.status.value, round(c.duration, 3)) for c in result.checks],
    }


def _init(report: Any, request: Any, *args: Any, **kwargs: Any) -> dict[str, Any]:
    return {
        "event": "init",
        "solution": _file_digest(request.solution),
        "template": _file_digest(request.template) if request.template is not None else None,
        "failed": report.failure is not None,
    }


def _execution(result: Any, session: Any, *args: Any, **kwargs: Any) -> dict[str, Any]:
    cells = "\0".join(cell.source for cell in session.notebook.cells)
    return {"event": "execute", "cells": _digest(cells)}


def _wrap(module: Any) -> None:
    name = module.__name__
    if name == "grader.grading":
        module._grade = _timed(module._grade, _grading)
    elif name == "grader.authoring.create":
        module.create_assignment = _timed(module.create_assignment, _init)
    elif name == "grader.execution.session":
        module.NotebookSession.execute = _timed(module.NotebookSession.execute, _execution)


WRAPPED = ("grader.grading", "grader.authoring.create", "grader.execution.session")


class _AfterImport(importlib.abc.MetaPathFinder):
    """Finds nothing itself: it has the module found by the finders after it, and wraps the
    module once executed, before any importer reads its names."""

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> Any:
        if name not in WRAPPED:
            return None
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(name, path, target)
            if spec is not None and spec.loader is not None:
                execute = spec.loader.exec_module

                def exec_module(module: Any, execute: Any = execute) -> None:
                    execute(module)
                    _wrap(module)

                spec.loader.exec_module = exec_module  # type: ignore[method-assign]
                return spec
        return None


def _process_ended(started: float) -> None:
    argv = sys.argv[:3]  # read at the end: during start-up, ``-m``'s module is not named yet
    usage = resource.getrusage(resource.RUSAGE_SELF)
    _write(
        {
            "event": "process",
            "argv": argv,
            "xdist_worker": os.environ.get("PYTEST_XDIST_WORKER"),
            "wall": time.monotonic() - started,
            "cpu": usage.ru_utime + usage.ru_stime,
        }
    )


if TRACE_DIR:
    Path(TRACE_DIR).mkdir(parents=True, exist_ok=True)
    sys.meta_path.insert(0, _AfterImport())
    # Each process's own CPU time when it exits (not its children's): what starting one costs.
    atexit.register(_process_ended, time.monotonic())
