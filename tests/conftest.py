"""The ``kernel`` marker is kept honest: a test without it that starts a Jupyter kernel or a
worker process, in its own body or in a fixture it sets up (of any scope), fails at once, so
``pytest -m 'not kernel'`` stays the fast unit layer.

Under xdist ``make test`` sends each module whole to one worker (``--dist loadscope``), so that
a fixture its tests share (a class graded once, an oracle's verdicts) is made once, and the
modules go in this order: those that hold ``slow`` tests first, the most kernel tests first among
them, so that the workers share out the long modules while many short ones are left to even out
the end, instead of one worker finishing a long module alone.

A test that leaves ``os.environ`` changed fails: every later test and subprocess of its worker
would inherit the change, so that what passes depends on which module ran before on that worker."""

from __future__ import annotations

import contextlib
import multiprocessing.process
import os
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

from grader.execution.sandbox import Sandbox

_GUARDED = ((Sandbox, "start_kernel"), (multiprocessing.process.BaseProcess, "start"))


@contextlib.contextmanager
def _no_kernels_unless_marked(item: pytest.Item) -> Iterator[None]:
    if item.get_closest_marker("kernel") is not None:
        yield
        return

    def refuse(*_: Any, **__: Any) -> Any:
        raise AssertionError(f"{item.nodeid} starts a kernel or a worker: mark it @pytest.mark.kernel")

    originals = [(owner, name, owner.__dict__[name]) for owner, name in _GUARDED]
    for owner, name, _ in originals:
        setattr(owner, name, refuse)
    try:
        yield
    finally:
        for owner, name, original in originals:
            setattr(owner, name, original)


@pytest.fixture(autouse=True)
def _environment_kept() -> Iterator[None]:
    """Set up before and torn down after the test's other function-scoped fixtures (``monkeypatch``
    among them), so that what it compares is what the test leaves behind."""
    before = dict(os.environ)
    yield
    keys = (before.keys() | os.environ.keys()) - {"PYTEST_CURRENT_TEST"}  # pytest's own, per phase
    changed = sorted(k for k in keys if before.get(k) != os.environ.get(k))
    if changed:
        for key in changed:
            if key in before:
                os.environ[key] = before[key]
            else:
                del os.environ[key]
        pytest.fail(
            f"the test left os.environ changed ({', '.join(changed)}); use monkeypatch, or pass env= to what it starts"
        )


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    def module(item: pytest.Item) -> str:
        return item.nodeid.split("::", 1)[0]

    slow = {module(item) for item in items if item.get_closest_marker("slow") is not None}
    kernel_tests = Counter(module(item) for item in items if item.get_closest_marker("kernel") is not None)
    # stable: a module's tests stay together and in their own order
    items.sort(key=lambda item: (module(item) not in slow, -kernel_tests[module(item)]))


@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item: pytest.Item) -> Iterator[None]:
    with _no_kernels_unless_marked(item):
        return (yield)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Iterator[None]:
    with _no_kernels_unless_marked(item):
        return (yield)
