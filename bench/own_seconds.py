"""The grader's own time for one graded submission, defined once for every benchmark.

A submission's ``SubmissionResult.timings`` hold the total and the parts that are not the
grader's: the wait for its kernel (``kernel_start``), the notebook's cells (``execute``) and the
students' functions the checks called, in the kernel (``student_code``). What is left is what
would go away with a grader that cost nothing: reading, the checks' own work (the reference's
answers, diagnosis, the call channel) and closing the kernel.
"""

from __future__ import annotations

from collections.abc import Mapping

NOT_THE_GRADERS = ("kernel_start", "execute", "student_code")
"""The timings subtracted from the total."""


def own_seconds(timings: Mapping[str, float]) -> float:
    """The total minus the kernel start, the cells and the students' calls (a missing timing
    counts 0: a submission that was never run has no cells)."""
    return float(timings.get("total", 0.0)) - sum(float(timings.get(name, 0.0)) for name in NOT_THE_GRADERS)
