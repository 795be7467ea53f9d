"""Start a student's kernel in isolation and clean up after it.

Three modes:

``bwrap``
    The kernel runs under bubblewrap with no network, its own pid namespace and a filesystem
    that shows only what Python needs, read-only: the interpreter's install, the virtualenv
    and system libraries. The working directory and ``/tmp`` are small private tmpfs mounts.
    The repository, ``assignments/``, other submissions and report directories are simply
    not there. An assignment's support modules are a read-only copy bound at ``/course``.
``limits``
    No namespaces, but the same resource limits and, when the grader runs as root, the same
    unprivileged uid. Files readable by that uid stay readable, and the network is reachable:
    the result says so in its isolation note.
``none``
    A plain kernel for trusted notebooks (solutions, templates), without limits.

In every mode the kernel is started by a small launcher (``python -S``) that applies the
resource limits, drops privileges and starts ipykernel with only the standard library and
the site-packages directories on ``sys.path``, and before them, when the assignment has
support modules, the session's read-only copy of them, which a finder first on
``sys.meta_path`` also looks each of them up in by name (`grader.spec.support`). Skipping
``site`` means the ``.pth`` hook of an editable install is never run, so ``import grader``
finds nothing; the kernel shim also refuses the grader's packages on ``sys.meta_path``. Under
bubblewrap the package sources are not even mounted. In ``limits`` mode that refusal is all
there is: code that edits ``sys.meta_path`` and ``sys.path`` could still load the grader's
files, which it can read.

When the grader runs as root (CI, containers) the kernel runs under a uid of its own, so
RLIMIT_NPROC applies (root ignores it) and every process the notebook leaves behind can be
found and killed. As an ordinary user, the process limit counts the user's existing
processes, and leftovers die with the pid namespace (bwrap) or the kernel's process group.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import signal
import site
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jupyter_client.kernelspec import KernelSpec
from jupyter_client.manager import AsyncKernelManager

from grader.errors import GraderError
from grader.execution.bwrap import SANDBOX_SUPPORT, SANDBOX_WORKDIR, bwrap_prefix, bwrap_problem
from grader.execution.exit_status import describe_exit
from grader.execution.isolation import SandboxChoice, kernel_runs_as_root
from grader.execution.result import SandboxMode
from grader.execution.runtime_dir import RuntimeDir
from grader.execution.uid_processes import count_tasks_of_uid, kill_processes_of_uid, pids_of_uid

__all__ = ["Limits", "RunningKernel", "Sandbox", "SandboxChoice", "SandboxUnavailable", "resolve_mode"]

_GiB = 1024**3
_MiB = 1024**2

# Packages that must never be importable by student code, whatever the install layout.
BLOCKED_PACKAGES = ("grader", "reference")

# Sandboxed kernels run under a uid of their own: RLIMIT_NPROC counts every process of a
# uid, so kernels graded side by side under one shared uid would eat each other's budget,
# and a uid nobody else uses lets the grader find and kill every leftover process.
_SANDBOX_UID_BASE = 1_900_000_000
_SANDBOX_UID_SPAN = 100_000_000

# The program that starts every kernel, passed to ``python -c``; a module of its own so that
# it is linted, but never imported: importing it would start a kernel.
_LAUNCHER = (Path(__file__).parent / "launcher.py").read_text(encoding="utf-8")


@dataclass(frozen=True)
class Limits:
    """Resource limits for a student's kernel (ignored in ``none`` mode)."""

    memory_bytes: int = 2 * _GiB
    """Address space (RLIMIT_AS); allocations beyond it raise MemoryError."""
    cpu_seconds: int = 1200
    """CPU time of one kernel process over its whole life, execution and calls together."""
    processes: int = 64
    """Processes and threads of the kernel's uid (RLIMIT_NPROC); ipykernel itself uses ~10."""
    file_bytes: int = 64 * _MiB
    """Largest file the kernel may write (RLIMIT_FSIZE)."""
    disk_bytes: int = 128 * _MiB
    """Size of each private tmpfs (working directory, /tmp) in bwrap mode."""
    output_chars: int = 200_000
    """Characters of output kept per cell and per call; the kernel stops sending beyond it."""


class SandboxUnavailable(GraderError, RuntimeError):
    """The requested isolation cannot be provided on this machine."""


class KernelStartFailed(GraderError, RuntimeError):
    """A kernel did not come up; the message ends with the tail of its log."""


def resolve_mode(choice: SandboxChoice) -> SandboxMode:
    """The mode to use for ``choice``. ``auto`` is bubblewrap and nothing less: a weaker mode
    runs only when it is asked for by name (`grader.execution.isolation` decides that, for the
    commands, before any kernel starts)."""
    mode = SandboxMode.BWRAP if choice == "auto" else SandboxMode(choice)
    if mode is SandboxMode.BWRAP and (problem := bwrap_problem()) is not None:
        raise SandboxUnavailable(f"students' code is not run without isolation: {problem}")
    return mode


@dataclass
class RunningKernel:
    """One started kernel process and the client the grader talks to it through."""

    manager: AsyncKernelManager
    client: Any
    """jupyter_client's ``AsyncKernelClient``, whose channel methods it generates untyped."""
    pid: int | None
    """Host pid of the ipykernel process itself (not bwrap's), when known."""
    start: int
    """Which of its sandbox's kernels it is (1 for the first): names its runtime files."""

    def death(self) -> str:
        """'the kernel died', with how when the exit status is known."""
        process = getattr(self.manager.provisioner, "process", None)
        code = process.poll() if process is not None else None
        if code is None:
            return "the kernel died"
        if code > 128:
            # bubblewrap, like a shell, reports a child killed by signal N as status 128 + N.
            code = 128 - code
        return f"the kernel died ({describe_exit(code)})"


class _SandboxKernelManager(AsyncKernelManager):
    """A kernel manager that launches exactly the command the sandbox built.

    The kernelspec named in the student's file (or installed on the machine) is never
    consulted: the kernel is always this interpreter running ipykernel.
    """

    def __init__(self, spec: KernelSpec, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self._sandbox_spec = spec

    @property
    def kernel_spec(self) -> KernelSpec:
        return self._sandbox_spec


class Sandbox:
    """The private directories and launch recipe shared by every kernel of one session."""

    def __init__(self, mode: SandboxMode, limits: Limits, support: Sequence[Path] = ()) -> None:
        """``support``: the course's modules, which every kernel imports ahead of anything else."""
        self.mode = mode
        self.limits = limits
        self.uid = self._choose_uid()
        self.root = Path(tempfile.mkdtemp(prefix="grader-kernel-"))
        self.runtime = RuntimeDir(self.root / "runtime", self.uid)
        self.host_workdir = self.root / "work"
        self.host_tmpdir = self.root / "tmp"
        for directory in (self.host_workdir, self.host_tmpdir):
            directory.mkdir()
        self.root.chmod(0o755)
        if self.uid is not None:
            for directory in (self.host_workdir, self.host_tmpdir):
                os.chown(directory, self.uid, self.uid)
        self.log_path = self.root / "kernel.log"
        self._starts = 0
        self.support_dir = _copy_support(support, self.root / "support") if support else None

    @property
    def isolation_note(self) -> str | None:
        """Plain words on what this mode does not protect against, or None for bwrap."""
        if self.mode is SandboxMode.BWRAP:
            return None
        if self.mode is SandboxMode.NONE:
            return "Isolation is off: the notebook ran as a trusted program, without limits."
        note = (
            "Isolation is reduced: the kernel ran with resource limits but without bubblewrap, "
            "so it could reach the network and read every file its user can read."
        )
        if os.geteuid() == 0 and self.uid is None:
            note += (
                " It ran as root because the Python installation is not readable by an "
                "unprivileged user, so the process limit was not enforced."
            )
        if problem := bwrap_problem():
            note += f" ({problem}.)"
        return note

    # --- starting kernels --------------------------------------------------------------

    async def start_kernel(self, startup_timeout: float) -> RunningKernel:
        """Launch a fresh kernel and wait until it answers."""
        return await self.wait_until_ready(await self.launch_kernel(), startup_timeout)

    async def launch_kernel(self) -> RunningKernel:
        """Start a kernel process without waiting for it to answer: it boots on its own
        while the caller does something else (see :meth:`wait_until_ready`)."""
        self._starts += 1
        start = self._starts
        connection_file = self.runtime.connection_file(start)
        manager = _SandboxKernelManager(
            self._kernel_spec(start),
            transport="ipc",
            ip=str(self.runtime.socket_dir(start) / "k"),
            connection_file=str(connection_file),
        )
        # Written before launch, then made readable (not writable) by the kernel's group:
        # jupyter_client creates it readable by the grader's user only.
        manager.write_connection_file()
        self.runtime.prepare_kernel(start)
        try:
            with open(self.log_path, "ab") as log:
                await manager.start_kernel(env=self._environment(), cwd=str(self.host_workdir), stdout=log, stderr=log)
        except OSError as error:  # the interpreter or bwrap cannot be executed at all
            raise KernelStartFailed(f"the kernel could not be launched: {error}") from error
        client = manager.client()
        client.start_channels()
        client.allow_stdin = False
        return RunningKernel(manager=manager, client=client, pid=None, start=start)

    async def wait_until_ready(self, kernel: RunningKernel, startup_timeout: float) -> RunningKernel:
        """Wait until a launched kernel answers; a kernel that does not is killed."""
        try:
            await kernel.client.wait_for_ready(timeout=startup_timeout)
        except (RuntimeError, TimeoutError) as error:
            kernel.client.stop_channels()
            await _kill(kernel.manager)
            log = self.log_tail()
            said = log.strip().splitlines()[-1] if log.strip() else str(error)  # the why comes last
            raise KernelStartFailed(f"the kernel did not start: {said}\n{error}\n{log}") from error
        kernel.pid = self._kernel_pid(kernel.manager)
        self.runtime.close_socket_dir(kernel.start)
        return kernel

    def log_tail(self, limit: int = 2000) -> str:
        """The end of the kernels' stdout/stderr, for diagnosing a failed start."""
        try:
            return self.log_path.read_bytes()[-limit:].decode(errors="replace")
        except OSError:
            return ""

    def _kernel_spec(self, start: int) -> KernelSpec:
        config = {
            "rlimits": self._rlimits(),
            "uid": self.uid,
            # Inside a pid namespace ipykernel would compare JPY_PARENT_PID with a pid it
            # cannot see and exit at once; --die-with-parent covers what that check is for.
            "forget_parent_pid": self.mode is SandboxMode.BWRAP,
            "site_packages": site.getsitepackages(),
            "support_dir": self._support_path(),
            "kernel_args": [
                "-f",
                str(self.runtime.connection_file(start)),
                "--HistoryManager.enabled=False",
                "--IPKernelApp.log_level=WARN",
            ],
        }
        command = [sys.executable, "-S", "-s", "-c", _LAUNCHER, json.dumps(config)]
        if self.mode is SandboxMode.BWRAP:
            command = self._bwrap_prefix(start) + ["--"] + command
        # Interrupt by message: ipykernel signals itself, which reaches it inside bwrap's
        # new session where a signal to the launcher's process group would not.
        return KernelSpec(argv=command, display_name="grader sandbox", language="python", interrupt_mode="message")

    def _support_path(self) -> str | None:
        """Where the kernel finds the support modules: bound at a fixed place under bubblewrap."""
        if self.support_dir is None:
            return None
        return SANDBOX_SUPPORT if self.mode is SandboxMode.BWRAP else str(self.support_dir)

    def _rlimits(self) -> list[tuple[str, int]]:
        if self.mode is SandboxMode.NONE:
            return []
        limits = self.limits
        processes = limits.processes
        if os.geteuid() != 0:
            # RLIMIT_NPROC counts all of the user's processes, not just the kernel's.
            processes += count_tasks_of_uid(os.geteuid())
        return [
            ("RLIMIT_AS", limits.memory_bytes),
            ("RLIMIT_CPU", limits.cpu_seconds),
            ("RLIMIT_NPROC", processes),
            ("RLIMIT_FSIZE", limits.file_bytes),
            ("RLIMIT_CORE", 0),
        ]

    def _choose_uid(self) -> int | None:
        if self.mode is SandboxMode.NONE or os.geteuid() != 0 or kernel_runs_as_root(self.mode):
            return None
        return _SANDBOX_UID_BASE + secrets.randbelow(_SANDBOX_UID_SPAN)

    def _environment(self) -> dict[str, str]:
        inside_bwrap = self.mode is SandboxMode.BWRAP
        home = SANDBOX_WORKDIR if inside_bwrap else str(self.host_workdir)
        tmp = "/tmp" if inside_bwrap else str(self.host_tmpdir)
        env = {
            "PATH": os.pathsep.join([str(Path(sys.executable).parent), "/usr/local/bin", "/usr/bin", "/bin"]),
            "HOME": home,
            "TMPDIR": tmp,
            "LANG": "C.UTF-8",
            "LC_ALL": "C.UTF-8",
            # Same submission, same set iteration order, same result.
            "PYTHONHASHSEED": "0",
            "PYTHONDONTWRITEBYTECODE": "1",
            "PYTHONIOENCODING": "utf-8",
            # One thread per numeric library keeps RLIMIT_NPROC meaningful and timing fair.
            "OPENBLAS_NUM_THREADS": "1",
            "OMP_NUM_THREADS": "1",
            "MKL_NUM_THREADS": "1",
            "NUMEXPR_NUM_THREADS": "1",
            "VECLIB_MAXIMUM_THREADS": "1",
            "MPLBACKEND": "Agg",
            "MPLCONFIGDIR": f"{tmp}/matplotlib",
            # A fresh IPython profile: the instructor's startup files must not run here.
            "IPYTHONDIR": f"{tmp}/ipython",
            "JUPYTER_CONFIG_DIR": f"{tmp}/jupyter/config",
            "JUPYTER_DATA_DIR": f"{tmp}/jupyter/data",
            "JUPYTER_RUNTIME_DIR": f"{tmp}/jupyter/runtime",
            "XDG_CACHE_HOME": f"{tmp}/cache",
            "XDG_CONFIG_HOME": f"{tmp}/config",
            "PYDEVD_DISABLE_FILE_VALIDATION": "1",
        }
        return env

    def _bwrap_prefix(self, start: int) -> list[str]:
        return bwrap_prefix(
            disk_bytes=self.limits.disk_bytes,
            runtime_dir=self.runtime.path,
            writable=self.runtime.writable_by_kernel(start),
            hidden_packages=BLOCKED_PACKAGES,
            support_dir=self.support_dir,
        )

    def _kernel_pid(self, manager: AsyncKernelManager) -> int | None:
        if self.mode is not SandboxMode.BWRAP:
            process = getattr(manager.provisioner, "process", None)
            return process.pid if process is not None else None
        if self.uid is None:
            return None
        pids = list(pids_of_uid(self.uid))
        return pids[0] if len(pids) == 1 else None

    # --- cleaning up --------------------------------------------------------------------

    def kill_strays(self, keep: int | None) -> int:
        """Kill every process of the sandbox uid except ``keep``; returns how many.

        Only possible when the kernel has a uid of its own (the grader runs as root);
        otherwise leftovers die with the kernel's pid namespace or process group.
        """
        if self.uid is None:
            return 0
        return kill_processes_of_uid(self.uid, keep)

    async def stop_kernel(self, kernel: RunningKernel) -> None:
        """Kill a kernel and everything it started."""
        try:
            kernel.client.stop_channels()
        finally:
            await _kill(kernel.manager)
            self.kill_strays(keep=None)

    def close(self) -> None:
        """Remove the session's directories (after its kernels are stopped)."""
        self.kill_strays(keep=None)
        if self.support_dir is not None and self.support_dir.is_dir():
            self.support_dir.chmod(0o755)  # else an ordinary user could not remove the copies in it
        shutil.rmtree(self.root, ignore_errors=True)


def _copy_support(modules: Sequence[Path], folder: Path) -> Path:
    """The session's own copy of the support modules, readable by the kernel's uid and
    writable by nobody but the grader's: outside bubblewrap a kernel that runs as the grader's
    user could still change its copy, never the course's files or another kernel's."""
    folder.mkdir()
    for module in modules:
        copy = folder / module.name
        shutil.copyfile(module, copy)
        copy.chmod(0o444)
    folder.chmod(0o555)
    return folder


async def _kill(manager: AsyncKernelManager) -> None:
    provisioner = manager.provisioner
    process = getattr(provisioner, "process", None)
    if provisioner is not None and process is not None and process.poll() is None:
        # Killed and reaped here, then forgotten by the provisioner: jupyter_client would
        # look for the end every 0.1 s, and first send the dead kernel an interrupt request
        # that keeps its socket open for another 0.1 s.
        pgid = getattr(provisioner, "pgid", None)
        try:
            os.killpg(pgid, signal.SIGKILL) if pgid else process.kill()
            process.wait(timeout=5)
            await provisioner.wait()
        except (OSError, subprocess.TimeoutExpired):
            pass  # jupyter_client tries again below
    try:
        await manager.shutdown_kernel(now=True)
    except RuntimeError:
        pass  # already gone
    await manager.cleanup_resources()
