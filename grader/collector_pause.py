"""Keep a grading's garbage collections off the objects that were alive before it.

A grading makes hundreds of thousands of objects that live for a while (the reference's
positions, the calls' arguments and answers), and every few thousand of them the collector
runs a full collection, which walks every object of the process: the grader's own modules,
and a caller's data (a batch's results so far, a test session's). For the grading's time
those older objects are moved to the collector's permanent generation (`gc.freeze`), so its
collections walk only the grading's own; they go back when the last grading running in the
process ends, and garbage among them is collected as before. Nothing is freed any later
than one grading's time, and reference counting frees what it always did at once.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["older_objects_left_out_of_collections"]

_lock = threading.Lock()
_running = 0
"""Gradings under way in this process (a batch may grade in threads)."""


@contextmanager
def older_objects_left_out_of_collections() -> Iterator[None]:
    global _running
    with _lock:
        _running += 1
        gc.freeze()
    try:
        yield
    finally:
        with _lock:
            _running -= 1
            if _running == 0:
                gc.unfreeze()
