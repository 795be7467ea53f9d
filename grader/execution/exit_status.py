"""How a process ended, in words: one wording for kernels and grading workers alike."""

from __future__ import annotations

import signal


def describe_exit(code: int | None) -> str:
    """``code`` as :mod:`subprocess` and :mod:`multiprocessing` report it (negative: the
    signal that killed the process; None: still running or unknown), in words.

    >>> describe_exit(-9)
    'killed by SIGKILL (signal 9), perhaps out of memory'
    """
    if code is None:
        return "no exit status"
    if code < 0:
        number = -code
        try:
            name = f"{signal.Signals(number).name} (signal {number})"
        except ValueError:
            name = f"signal {number}"
        # Linux's out-of-memory killer ends a process with SIGKILL.
        hint = ", perhaps out of memory" if number == signal.SIGKILL else ""
        return f"killed by {name}{hint}"
    return f"exit status {code}"
