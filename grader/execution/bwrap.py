"""Bubblewrap's command line for a sandboxed kernel: what is mounted, and how.

The kernel sees, read-only, only what Python needs: ``/usr`` and its merged-``/usr``
symlinks, a few ``/etc`` files, and the interpreter's install and virtualenv. Its working
directory and ``/tmp`` are small private tmpfs mounts, and the session's runtime directory
(connection file, ipc sockets, the shim's files) is bound at the same path on both sides,
read-only but for the kernel's socket folder and the shim's two files
(:mod:`grader.execution.runtime_dir`). An assignment's support modules, when it has any, are
bound read-only at ``/course``.
"""

from __future__ import annotations

import functools
import importlib.util
import os
import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

SANDBOX_WORKDIR = "/sandbox"
"""Where the private working directory appears inside the sandbox."""
SANDBOX_SUPPORT = "/course"
"""Where the course's support modules appear inside the sandbox, read-only."""

_ALWAYS_PRESENT = frozenset({Path("/"), Path("/usr"), Path("/tmp")})


@functools.lru_cache(maxsize=1)
def bwrap_problem() -> str | None:
    """Why bubblewrap cannot run a sandbox here, or None when it can."""
    bwrap = shutil.which("bwrap")
    if bwrap is None:
        return "bubblewrap (bwrap) is not installed"
    probe = [bwrap, "--unshare-pid", "--unshare-net", "--die-with-parent", "--new-session"]
    probe += _system_mounts() + ["--proc", "/proc", "--dev", "/dev", "--", "true"]
    try:
        completed = subprocess.run(probe, capture_output=True, timeout=10, check=False)
    except (OSError, subprocess.TimeoutExpired) as error:
        return f"bubblewrap failed to start: {error}"
    if completed.returncode != 0:
        detail = completed.stderr.decode(errors="replace").strip() or f"exit {completed.returncode}"
        return f"bubblewrap cannot create a sandbox here: {detail}"
    return None


def bwrap_prefix(
    *,
    disk_bytes: int,
    runtime_dir: Path,
    writable: Sequence[Path],
    hidden_packages: Sequence[str],
    support_dir: Path | None = None,
) -> list[str]:
    """The ``bwrap ...`` arguments that go before ``--`` and the kernel's command.

    ``disk_bytes`` is the size of each private tmpfs; ``runtime_dir`` is bound read-only,
    with only the ``writable`` paths inside it bound read-write; ``hidden_packages`` are
    covered by an empty tmpfs when they are installed inside a mounted directory;
    ``support_dir``, the course's modules, is bound read-only at `SANDBOX_SUPPORT`.
    """
    args = [
        shutil.which("bwrap") or "bwrap",
        "--die-with-parent",
        "--new-session",
        "--unshare-pid",
        "--unshare-net",
        "--unshare-ipc",
        "--unshare-uts",
        "--unshare-cgroup-try",
        "--hostname",
        "sandbox",
    ]
    args += _system_mounts()
    # Both private filesystems are world-writable: tmpfs mounts belong to root and the
    # kernel's uid is the only one inside. Their size caps what the notebook can store.
    # They are mounted before the interpreter and the virtualenv, which may live under
    # /tmp themselves (a checkout in /tmp): mounted after, the tmpfs would hide them.
    for private in ("/tmp", SANDBOX_WORKDIR):
        args += ["--perms", "1777", "--size", str(disk_bytes), "--tmpfs", private]
    readonly = [Path(p) for p in python_roots()]
    args += _mount_points(readonly)
    for path in readonly:
        args += ["--ro-bind", str(path), str(path)]
    args += _masks_for(hidden_packages, readonly)
    args += ["--proc", "/proc", "--dev", "/dev"]
    # The connection file and ipc sockets live here, at the same path on both sides. The
    # directory is read-only; the socket folder and the shim's files are bound on top of it.
    args += _mount_points([runtime_dir])
    args += ["--ro-bind", str(runtime_dir), str(runtime_dir)]
    for path in writable:
        args += ["--bind", str(path), str(path)]
    if support_dir is not None:
        args += ["--ro-bind", str(support_dir), SANDBOX_SUPPORT]
    args += ["--chdir", SANDBOX_WORKDIR, "--remount-ro", "/"]
    return args


def python_roots() -> list[str]:
    """Directories holding the interpreter, its standard library and installed packages."""
    roots = {sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix}
    roots.update(os.path.realpath(root) for root in list(roots))
    roots.add(os.path.dirname(os.path.realpath(sys.executable)))
    # Skip roots inside others; /usr itself is mounted with the system directories.
    ordered = sorted(root for root in roots if root != "/usr" and not root.startswith("/usr/"))
    kept: list[str] = []
    for root in ordered:
        if not any(root == k or root.startswith(k + "/") for k in kept):
            kept.append(root)
    return kept


def _system_mounts() -> list[str]:
    """/usr read-only, the merged-/usr symlinks, and the few /etc files libraries read."""
    args = ["--ro-bind", "/usr", "/usr"]
    for name in ("bin", "sbin", "lib", "lib32", "lib64", "libx32"):
        path = Path("/") / name
        if path.is_symlink():
            args += ["--symlink", os.readlink(path), str(path)]
        elif path.is_dir():
            args += ["--ro-bind", str(path), str(path)]
    args += ["--perms", "0755", "--dir", "/etc"]
    for name in ("ld.so.cache", "localtime", "nsswitch.conf", "host.conf"):
        args += ["--ro-bind-try", f"/etc/{name}", f"/etc/{name}"]
    return args


def _mount_points(paths: list[Path]) -> list[str]:
    """Create every missing parent of ``paths`` world-readable.

    bubblewrap creates implied parent directories with mode 0700, which would lock the
    unprivileged kernel out of e.g. a virtualenv inside the checkout.
    """
    args: list[str] = []
    created: set[Path] = set()
    for path in paths:
        for parent in reversed(path.parents):
            if parent in _ALWAYS_PRESENT or parent in created or Path("/usr") in parent.parents:
                continue
            created.add(parent)
            args += ["--perms", "0755", "--dir", str(parent)]
    return args


def _masks_for(packages: Sequence[str], readonly: list[Path]) -> list[str]:
    """Hide ``packages`` when they are installed inside a mounted directory.

    With an editable install they live in the repository, which is never mounted; a regular
    install puts them in site-packages, which is.
    """
    args: list[str] = []
    for name in packages:
        spec = importlib.util.find_spec(name)
        if spec is None or spec.origin is None:
            continue
        package_dir = Path(spec.origin).resolve().parent
        if any(root in package_dir.parents for root in readonly):
            args += ["--tmpfs", str(package_dir)]
    return args
