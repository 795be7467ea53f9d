"""Write a file so that readers see the old version or the new one, never half of either.

Used for every output a person or an import reads while a batch may still be running or may
be killed midway: reports, ``grades.csv``, ``results.json``, the stored records.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def write_atomic(path: Path, content: str | bytes) -> None:
    """Write ``content`` (text as UTF-8, or bytes as they are) to ``path`` through a
    temporary file in the same folder, then rename.

    The file gets the mode a plain ``open(path, "w")`` would give it (``0666`` less the
    umask), not the private ``0600`` of a temporary file: reports and gradebooks are meant
    to be read by others (a web server, a teaching assistant, the LMS import).
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        os.fchmod(fd, 0o666 & ~current_umask())
        data = content.encode("utf-8") if isinstance(content, str) else content
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def remove_leftovers(folder: Path) -> None:
    """Delete the temporary files `write_atomic` left in ``folder`` and the folders in it: a
    writer killed between creating one and renaming it leaves it behind. Only while no other
    writer may be writing there (the batch's lock on its output folder is held)."""
    for leftover in [*folder.glob(".*.tmp"), *folder.glob("*/.*.tmp")]:
        leftover.unlink(missing_ok=True)


def current_umask() -> int:
    """The process's umask, read without changing it where Linux shows it (setting it to
    read it back would briefly affect files other threads create)."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def write_atomic_if_changed(path: Path, content: str | bytes) -> bool:
    """`write_atomic`, unless the file already holds exactly ``content`` (a rerun leaves an
    up-to-date output untouched); True when it wrote."""
    data = content.encode("utf-8") if isinstance(content, str) else content
    try:
        if path.read_bytes() == data:
            return False
    except OSError:
        pass
    write_atomic(path, data)
    return True
