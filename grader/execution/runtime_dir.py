"""The host directory a session's kernels share with the grader, and what a kernel may write in it.

It is the one host directory a sandboxed kernel reaches (under bubblewrap its working
directory and ``/tmp`` are private, size-capped mounts). It holds::

    runtime/                  the grader's, 0755: a kernel creates, renames and removes nothing here
      kernel-N.json           kernel N's connection file: group = the kernel's, 0640 (read-only to it)
      sockets-N/              kernel N's ipc sockets: group-writable while it boots, 0750 once it answers
      call-progress           the shim's two files: writable by the kernel's group only while the
      stdin-log.jsonl         shim is installed (it opens them then), read-only from then on
      requests-<token>        the shim's request socket: the kernel's group may connect while the
                              shim is installed; removed once its connection is accepted

The kernel runs under a uid and gid of its own when the grader runs as root; group
permissions on files the grader owns then let it read what it must and write only through
descriptors it opened before any student code ran. Without a uid of its own the kernel
runs as the grader's user and owns all of this as much as the grader does: under
bubblewrap the directory is mounted read-only with only the socket folder and the shim's
two files writable; in ``limits`` mode nothing narrows it (see docs/security.md).
"""

from __future__ import annotations

import contextlib
import os
import socket
from collections.abc import Iterator
from pathlib import Path

PROGRESS_FILE = "call-progress"
STDIN_LOG_FILE = "stdin-log.jsonl"

_GRADER_ONLY_DIR = 0o755
_BOOTING_SOCKETS = 0o770
_CLOSED_SOCKETS = 0o750
_KERNEL_READS = 0o640
_KERNEL_WRITES = 0o660


class RuntimeDir:
    """``runtime/`` of one sandbox: created with the shim's files, both read-only to kernels."""

    def __init__(self, path: Path, kernel_gid: int | None) -> None:
        self.path = path
        self.kernel_gid = kernel_gid
        path.mkdir(mode=_GRADER_ONLY_DIR)
        path.chmod(_GRADER_ONLY_DIR)  # whatever the umask
        for name in (PROGRESS_FILE, STDIN_LOG_FILE):
            (path / name).touch()
            self._hand_over(path / name, _KERNEL_READS)

    @property
    def progress_path(self) -> Path:
        """The index of the running call, written by the shim before each call."""
        return self.path / PROGRESS_FILE

    @property
    def stdin_log_path(self) -> Path:
        """Every ``input()`` exchange, one JSON line each, appended by the shim."""
        return self.path / STDIN_LOG_FILE

    def connection_file(self, start: int) -> Path:
        return self.path / f"kernel-{start}.json"

    def socket_dir(self, start: int) -> Path:
        return self.path / f"sockets-{start}"

    def prepare_kernel(self, start: int) -> None:
        """Before kernel ``start`` launches: its connection file (written by then) becomes
        read-only to it, and its socket folder is created, writable while it boots."""
        self._hand_over(self.connection_file(start), _KERNEL_READS)
        sockets = self.socket_dir(start)
        sockets.mkdir()
        self._hand_over(sockets, _BOOTING_SOCKETS)

    def close_socket_dir(self, start: int) -> None:
        """Kernel ``start`` answered, so its sockets exist: nothing more may be created there."""
        self.socket_dir(start).chmod(_CLOSED_SOCKETS)

    def writable_by_kernel(self, start: int) -> list[Path]:
        """What kernel ``start`` may have to write into (bound read-write under bubblewrap,
        in a directory otherwise mounted read-only)."""
        return [self.socket_dir(start), self.progress_path, self.stdin_log_path]

    def listen(self, name: str) -> socket.socket | None:
        """A listening Unix socket at ``name`` the kernel's group may connect to, or None
        when the platform or the path's length allows none (requests then take the comm)."""
        path = self.path / name
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            listener.bind(str(path))
            self._hand_over(path, _KERNEL_WRITES)
            listener.listen(1)
        except OSError:
            listener.close()
            path.unlink(missing_ok=True)
            return None
        return listener

    @contextlib.contextmanager
    def shim_files_open(self) -> Iterator[None]:
        """While the shim is installed, before any student code runs: it opens its two files."""
        for path in (self.progress_path, self.stdin_log_path):
            path.chmod(_KERNEL_WRITES)
        try:
            yield
        finally:
            for path in (self.progress_path, self.stdin_log_path):
                path.chmod(_KERNEL_READS)

    def _hand_over(self, path: Path, mode: int) -> None:
        if self.kernel_gid is not None:
            os.chown(path, -1, self.kernel_gid)
        path.chmod(mode)
