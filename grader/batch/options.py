"""What the instructor asks of a batch: workers, forcing, isolation, progress, deadline, cluster,
shard and similarity (`BatchOptions`). Its own module so that the pools read it without
importing the plan that drives them."""

from __future__ import annotations

import os
from dataclasses import dataclass

from grader.batch.sharding import Shard
from grader.execution.isolation import SandboxChoice
from grader.similarity.compare import DEFAULT_THRESHOLD

__all__ = ["BatchOptions"]


@dataclass(frozen=True)
class BatchOptions:
    jobs: int | None = None
    """Submissions graded at once (default: one per available core)."""
    force: bool = False
    """Regrade everything, even submissions whose stored result is up to date."""
    sandbox: SandboxChoice | None = None
    """The isolation asked for (``--sandbox``); None: as ``GRADER_SANDBOX`` or the assignment
    say, else bubblewrap, refusing where it cannot run (`grader.execution.isolation`)."""
    fall_back: bool = False
    """Where nobody chose a sandbox and bubblewrap cannot run, grade with resource limits
    (and say so) instead of refusing: only for files that ship with the grader (the demo)."""
    progress: bool = True
    """Report progress on stderr: a bar on a terminal, else a line per submission."""
    deadline_seconds: float | None = None
    """Grading one submission starts no check and makes no call after this long, and keeps
    what it graded before (default: the assignment's ``grading_deadline``). Its worker is
    stopped only at ``hard_deadline``, as a last resort."""
    cluster: str | None = None
    """Grade on the Dask scheduler at this address instead of local processes
    (``grader.batch.cluster``; needs the ``dask`` extra). ``jobs`` is then ignored."""
    shard: Shard | None = None
    """Grade only this shard of each class (``grader.batch.sharding``) and leave a manifest for
    ``grader merge``."""
    similarity_threshold: float | None = DEFAULT_THRESHOLD
    """List pairs of students at least this similar (``grader.similarity``); None: do not compare."""

    def worker_count(self) -> int:
        if self.jobs:
            return max(1, self.jobs)
        try:
            return max(1, len(os.sched_getaffinity(0)))
        except AttributeError:  # not on Linux
            return max(1, os.cpu_count() or 1)
