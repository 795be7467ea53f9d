"""One `grader init` per test session for requests several test modules make alike: the folder
init writes and its report, kept under the session's temporary folder (shared by xdist's
workers, each a process of its own: a file lock lets one write it while the others wait) and
keyed by the bytes of every file the request reads and its other fields. A copy is given to
each test, in the folder it asked for, so a test may change its copy."""

from __future__ import annotations

import dataclasses
import fcntl
import hashlib
import os
import pickle
import shutil
from pathlib import Path

import pytest

from grader.authoring.create import InitReport, InitRequest, create_assignment


def _key(request: InitRequest) -> str:
    digest = hashlib.sha256()
    files = [request.solution, request.template, request.stdin, *request.support]
    for path in files:
        digest.update(b"-" if path is None else path.read_bytes() + path.name.encode())
        digest.update(b"\0")
    fields = (request.out.name, request.assignment_id, request.sandbox, request.cell_timeout, sorted(request.given))
    digest.update(repr(fields).encode())
    return digest.hexdigest()[:32]


def _session_folder(factory: pytest.TempPathFactory) -> Path:
    """The folder every worker of this session sees: the parent of a worker's own."""
    base = factory.getbasetemp()
    folder = (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "shared-init"
    folder.mkdir(exist_ok=True)
    return folder


def shared_init(request: InitRequest, factory: pytest.TempPathFactory) -> InitReport:
    """``create_assignment(request)``, run once per session for requests alike: its report,
    with the folder it wrote copied to ``request.out``."""
    entry = _session_folder(factory) / _key(request)
    with open(f"{entry}.lock", "w", encoding="utf-8") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        saved = entry / "report.pickle"
        if not saved.is_file():
            entry.mkdir(exist_ok=True)
            report = create_assignment(dataclasses.replace(request, out=entry / request.out.name))
            saved.write_bytes(pickle.dumps(report))
        report = pickle.loads(saved.read_bytes())
    if report.written is None:
        return report
    shutil.copytree(report.written, request.out)
    return dataclasses.replace(report, written=request.out)
