"""A grade function for the tests: the fake batch grader, plus what the worker process was.

It records the worker's pid, whether the worker handed it a spare kernel and whether that
spare launches another kernel after it, in the result's timings, so that tests can see which
process graded what.
"""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

from grader.grading import GradingOptions
from grader.results import SubmissionResult
from grader.spec.model import Assignment
from tests.batch.fake_grading import grade_by_content


def grade_and_tell_pid(path: Path, assignment: Assignment, options: GradingOptions) -> SubmissionResult:
    result = grade_by_content(path, assignment, options)
    spare = options.spare_kernel
    told = {"pid": os.getpid(), "spare": spare is not None, "launch_ahead": spare is not None and spare.launch_ahead}
    return replace(result, timings={**result.timings, **told})
