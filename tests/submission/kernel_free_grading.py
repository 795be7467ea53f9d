"""`grade_submission` as a batch runs it, with one difference: no kernel is ever started.

Batch workers import the grade function by name, so it lives at module level. Everything up
to the kernel is the real thing (reading the file, refusing it with its reason, building the
result); a readable notebook then meets a session that cannot start, which `grade_submission`
turns into a "could not be run" result as it does for a kernel that will not start. So
hundreds of hostile files go through the input boundary of a batch in seconds.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any
from unittest import mock

from grader.grading import GradingOptions, grade_submission
from grader.results import SubmissionResult
from grader.spec.model import Assignment

NO_KERNEL = "no kernel is started in the input boundary tests"


class _NoKernel:
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raise RuntimeError(NO_KERNEL)


def grade_without_kernel(path: Path, assignment: Assignment, options: GradingOptions) -> SubmissionResult:
    with mock.patch("grader.grading.NotebookSession", _NoKernel):
        return grade_submission(path, assignment, options)
