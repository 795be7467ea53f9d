"""The ``kernel`` marker is kept honest: a test without it that starts a Jupyter kernel or a
worker process fails at once, so ``pytest -m 'not kernel'`` stays the fast unit layer."""

from __future__ import annotations

import multiprocessing.process
from collections.abc import Iterator
from typing import Any

import pytest

from grader.execution.sandbox import Sandbox


@pytest.fixture(autouse=True)
def _kernels_only_where_marked(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    if request.node.get_closest_marker("kernel") is None:

        def refuse(*_: Any, **__: Any) -> Any:
            raise AssertionError(f"{request.node.nodeid} starts a kernel or a worker: mark it @pytest.mark.kernel")

        monkeypatch.setattr(Sandbox, "start_kernel", refuse)
        monkeypatch.setattr(multiprocessing.process.BaseProcess, "start", refuse)
    yield
