"""The ``kernel`` marker is kept honest: a test without it that starts a Jupyter kernel or a
worker process, in its own body or in a fixture it sets up (of any scope), fails at once, so
``pytest -m 'not kernel'`` stays the fast unit layer.

Under xdist (``--dist loadgroup``, as ``make test`` runs it) the order is chosen for two cores:

- a module whose tests share a module- or session-scoped fixture of the suite's own (a class
  graded once, an oracle's verdicts) runs on one worker, so that the fixture is made once;
- the modules that hold ``slow`` tests run first, so that the workers share out the long tests
  while there are many short ones left to even out the end, instead of one worker finishing a
  minute-long test alone."""

from __future__ import annotations

import contextlib
import multiprocessing.process
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


def _shares_a_fixture(item: pytest.Item) -> bool:
    """Whether the test uses a module- or session-scoped fixture defined by the suite itself."""
    definitions = getattr(getattr(item, "_fixtureinfo", None), "name2fixturedefs", {})
    return any(
        d.scope in ("module", "session") and d.baseid.startswith("tests") for defs in definitions.values() for d in defs
    )


@pytest.hookimpl(tryfirst=True)  # before xdist's own hook reads the groups
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    def module(item: pytest.Item) -> str:
        return item.nodeid.split("::", 1)[0]

    sharing = {module(item) for item in items if _shares_a_fixture(item)}
    slow = {module(item) for item in items if item.get_closest_marker("slow") is not None}
    for item in items:
        if module(item) in sharing:
            item.add_marker(pytest.mark.xdist_group(module(item)))
    items.sort(key=lambda item: module(item) not in slow)  # stable: each module's order is kept


@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item: pytest.Item) -> Iterator[None]:
    with _no_kernels_unless_marked(item):
        return (yield)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Iterator[None]:
    with _no_kernels_unless_marked(item):
        return (yield)
