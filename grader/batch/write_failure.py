"""Outputs that cannot be written (a full disk, a quota, a folder gone read-only) stop a
batch cleanly instead of crashing it.

Every output is written atomically (``grader.atomic_write``): a write that fails leaves the
file as it was, and its temporary file is removed. A student's stored record is written
last, so a student whose outputs could not all be written has no record and is graded
again by the next run; the records stored before are kept. Nothing is lost: once there is
space again, the same command finishes the class, with the outputs an undisturbed run
writes.
"""

from __future__ import annotations

import contextlib
import errno
from collections.abc import Iterator
from pathlib import Path

from grader.errors import UsageError

_FULL = {errno.ENOSPC, errno.EDQUOT}


class OutputsNotWritten(UsageError, RuntimeError):
    """An output of the batch could not be written; the message says where and why."""

    def __init__(self, out_dir: Path, error: OSError) -> None:
        self.out_dir = out_dir
        self.full = error.errno in _FULL
        reason = error.strerror or str(error)
        super().__init__(f"cannot write into {out_dir}: {reason}{' (the disk is full)' if self.full else ''}")

    @property
    def advice(self) -> str:
        what = f"free some space on the disk holding {self.out_dir}" if self.full else f"make {self.out_dir} writable"
        return f"Nothing is half-written: {what}, then run the same command again to finish."


@contextlib.contextmanager
def writing_outputs(out_dir: Path) -> Iterator[None]:
    """Turn a failed write under ``out_dir`` into `OutputsNotWritten`."""
    try:
        yield
    except OutputsNotWritten:
        raise
    except OSError as error:
        raise OutputsNotWritten(out_dir, error) from error
