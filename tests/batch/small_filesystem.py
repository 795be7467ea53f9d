"""Filling the small file system a test mounts (the ``small_disk`` fixture of this folder's
conftest): for the tests of a disk that fills during a batch."""

from __future__ import annotations

import errno
import os
from pathlib import Path


def fill(path: Path) -> None:
    """Write ``path`` until its file system has not one page left."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT)
    try:
        while True:
            os.write(fd, b"\0" * 4096)
    except OSError as error:
        assert error.errno == errno.ENOSPC, error
    finally:
        os.close(fd)
