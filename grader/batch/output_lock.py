"""One writer at a time per output folder (``grader batch``, ``grader merge``).

Two batches writing into one folder would each grade every student and rebuild
``grades.csv`` and ``index.html`` from the records they see, the last to finish overwriting
the other's. A writer therefore holds an exclusive lock on a file in its output folder
(``flock``, released by the system when the process ends, however it ends: a lock is never
left behind by a batch that was killed). A second writer on the same folder is refused at
once, with who holds the lock; it has written nothing.
"""

from __future__ import annotations

import contextlib
import datetime
import fcntl
import os
import socket
from collections.abc import Iterator
from pathlib import Path

from grader.errors import UsageError

LOCK_FILE = ".grader-batch.lock"
"""Hidden, in the output folder; never a submission (not ``.ipynb`` nor ``.py``). It stays
after the batch: removing a lock file that another process may have opened would let two
batches hold two different files."""


class OutputFolderBusy(UsageError, RuntimeError):
    """Another batch or merge is writing into this output folder."""


@contextlib.contextmanager
def output_folder_lock(folder: Path, command: str = "grader batch") -> Iterator[None]:
    """Hold the output folder (created when missing) for the duration of the block, or raise
    `OutputFolderBusy` when another process holds it; ``command`` names this writer to the
    ones refused."""
    folder.mkdir(parents=True, exist_ok=True)
    fd = os.open(folder / LOCK_FILE, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise OutputFolderBusy(
                f"{folder} is being written by {_holder(fd)}; wait until it has finished, or write elsewhere"
            ) from None
        _note_holder(fd, command)
        try:
            yield
        finally:
            # An unheld lock says nothing: a note left behind would name a holder long gone,
            # and would change the folder of a batch that stopped before writing anything.
            with contextlib.suppress(OSError):
                os.ftruncate(fd, 0)
    finally:
        os.close(fd)  # releases the lock


def _note_holder(fd: int, command: str) -> None:
    """Who holds the lock, for the message of a batch that is refused. Best effort: a disk
    too full to take these few bytes must not stop the batch here (its writes say so)."""
    started = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")
    note = f"{command} (pid {os.getpid()} on {socket.gethostname()}, started {started})\n".encode()
    with contextlib.suppress(OSError):
        os.ftruncate(fd, 0)
        os.pwrite(fd, note, 0)


def _holder(fd: int) -> str:
    try:
        note = os.pread(fd, 512, 0).decode("utf-8", errors="replace").strip()
    except OSError:
        note = ""
    return note or "another grader run, starting"
