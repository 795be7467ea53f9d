"""A kernel launched ahead of time, so that the next submission does not wait for one.

A worker grades submissions one after another, each in a fresh kernel. Starting a sandboxed
kernel takes about 0.8 s: the new process boots, then jupyter_client waits for its first
answer and for 0.2 s of silence. A :class:`SpareKernel` launches the next kernel as soon as
the current one is handed out and waits for it in the background (on the event loop
``run_sync`` keeps running in its own thread), so the whole start overlaps with the current
notebook's execution and checks; the next `NotebookSession` with the same sandbox mode and
limits takes a kernel that is ready.

A spare is a kernel like any other: a sandbox and a process of its own, never used before,
so no state passes from one submission to the next. Under bubblewrap it sits in its own
namespaces; as root it runs under its own uid, which the previous student's clean-up never
touches.

Kernels belong to the event loop of the thread that launched them (``run_sync`` keeps one
loop per thread), so a `SpareKernel` must stay with one thread; :func:`spare_kernel_for_this_thread`
gives each thread its own.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import subprocess
import threading
import weakref
from dataclasses import dataclass
from pathlib import Path

from grader.execution.result import SandboxMode
from grader.execution.sandbox import Limits, RunningKernel, Sandbox


@dataclass(frozen=True)
class KernelRecipe:
    """What makes two kernels interchangeable before any code has run in them."""

    mode: SandboxMode
    limits: Limits
    support: tuple[Path, ...] = ()
    """The course's modules, copied into the sandbox when the kernel is launched."""


@dataclass
class _Launched:
    recipe: KernelRecipe
    sandbox: Sandbox
    kernel: RunningKernel
    ready: asyncio.Task[RunningKernel]
    """Waits for the kernel's first answer, in the background."""


class SpareKernel:
    """Hands out launched kernels and keeps the next one booting."""

    def __init__(self) -> None:
        self._spare: _Launched | None = None
        self.handed_out = 0
        """Kernels taken so far."""
        self.from_spare = 0
        """Of those, how many had been launched ahead of time."""
        self.launch_ahead = True
        """Whether taking a kernel launches the next one. False when no submission follows
        (a batch worker's last): no kernel boots for nothing while the last one is graded."""
        _LIVE.add(self)

    async def take(self, recipe: KernelRecipe, startup_timeout: float) -> tuple[Sandbox, RunningKernel]:
        """A ready kernel and its sandbox, now owned by the caller; then the next one is
        launched (unless `launch_ahead` is off)."""
        launched, self._spare = self._spare, None
        kernel = None
        if launched is not None and launched.recipe == recipe:
            try:
                kernel = await launched.ready
            except Exception:  # noqa: BLE001 - it died or never answered: start one now
                kernel = None
            if kernel is not None and not await kernel.manager.is_alive():
                kernel = None
        if kernel is None:
            if launched is not None:
                _kill_now(launched)
            launched = await _launch(recipe, startup_timeout)
            kernel = await launched.ready
        else:
            self.from_spare += 1
        self.handed_out += 1
        assert launched is not None  # a kernel comes from the spare or from a launch now
        if self.launch_ahead:
            with contextlib.suppress(Exception):  # no spare this time; the next take launches one
                self._spare = await _launch(recipe, startup_timeout)
        return launched.sandbox, kernel

    def close(self) -> None:
        """Stop the spare, if any (callable from any thread)."""
        launched, self._spare = self._spare, None
        if launched is not None:
            _kill_now(launched)

    def __reduce__(self) -> tuple:
        # Kernels cannot travel between processes: a copy starts without a spare.
        return (SpareKernel, ())


async def _launch(recipe: KernelRecipe, startup_timeout: float) -> _Launched:
    sandbox = Sandbox(recipe.mode, recipe.limits, recipe.support)
    try:
        kernel = await sandbox.launch_kernel()
    except BaseException:
        sandbox.close()
        raise
    ready = asyncio.ensure_future(sandbox.wait_until_ready(kernel, startup_timeout))
    ready.add_done_callback(_retrieve)
    return _Launched(recipe, sandbox, kernel, ready)


def _retrieve(task: asyncio.Task) -> None:
    """A spare that failed to start is replaced when it is taken; nothing else to report."""
    if not task.cancelled():
        task.exception()


def _kill_now(launched: _Launched) -> None:
    """Kill without the event loop the kernel belongs to: the process, then its sandbox
    (which kills whatever is left under the sandbox's uid and removes its folders)."""
    with contextlib.suppress(Exception):
        launched.kernel.client.stop_channels()
    process = getattr(launched.kernel.manager.provisioner, "process", None)
    if process is not None:
        with contextlib.suppress(OSError, subprocess.TimeoutExpired):
            process.kill()
            process.wait(timeout=5)
    with contextlib.suppress(OSError):
        launched.kernel.manager.cleanup_connection_file()
    launched.sandbox.close()


_LIVE: weakref.WeakSet[SpareKernel] = weakref.WeakSet()
_THREAD_SPARES = threading.local()


def spare_kernel_for_this_thread() -> SpareKernel:
    """The calling thread's spare kernel, created on first use."""
    spare = getattr(_THREAD_SPARES, "spare", None)
    if spare is None:
        spare = _THREAD_SPARES.spare = SpareKernel()
    return spare


@atexit.register
def _close_all() -> None:
    """A process that exits normally leaves no spare kernel behind."""
    for spare in list(_LIVE):
        spare.close()
