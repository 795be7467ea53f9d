"""A stand-in for `grade_submission`, injected into the batch runner by the fast tests.

Batch workers import it by name, so it lives at module level. What it does depends on the
file's text, which lets one folder of tiny files exercise every path of the batch:

- ``DIE``: the worker process kills itself (SIGKILL), as an out-of-memory kill would;
- ``CRASH``: the grade function raises (a grader bug);
- ``HANG``: never returns (the batch's deadline must stop it), after leaving a file
  ``<submission>.started`` next to the submission, so that a test knows it is being graded;
- ``SLOW``: takes two seconds;
- ``STARTED``: leaves ``<submission>.started`` next to the submission, then grades as below;
- ``UNREADABLE``: a result where nothing ran, as for a file that is not a notebook;
- otherwise each check passes when its id appears in the text, fails when not.
"""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

from grader.execution.result import ExecutionResult
from grader.grading import GradingOptions
from grader.results import CheckResult, CheckStatus, Counterexample, SubmissionResult
from grader.spec.model import Assignment


def grade_by_content(path: Path, assignment: Assignment, options: GradingOptions) -> SubmissionResult:
    text = Path(path).read_text(encoding="utf-8", errors="replace")
    if "DIE" in text:
        os.kill(os.getpid(), signal.SIGKILL)
    if "CRASH" in text:
        raise RuntimeError("simulated grader bug")
    if "HANG" in text:
        Path(f"{path}.started").touch()
        time.sleep(600)
    if "SLOW" in text:
        time.sleep(2)
    if "STARTED" in text:
        Path(f"{path}.started").touch()
    if "UNREADABLE" in text:
        checks = tuple(CheckResult.not_run(c, "not a notebook") for c in assignment.checks)
        return SubmissionResult(str(path), assignment.id, checks, None, problems=("not a notebook (invalid JSON)",))
    checks = tuple(
        CheckResult.for_check(c, CheckStatus.PASSED, "ok")
        if c.id in text
        else CheckResult.for_check(
            c,
            CheckStatus.FAILED,
            "Wrong answer",
            counterexample=Counterexample("XO.......", f"{c.id}(board)", "1", "0", "a guess"),
        )
        for c in assignment.checks
    )
    execution = ExecutionResult.from_dict(
        {
            "cells": [{"index": 0, "source": text[:200], "status": "ok", "output": text[:200], "duration": 0.01}],
            "stdin_transcript": [],
            "sandbox_mode": "none",
            "isolation_note": None,
            "total_duration": 0.01,
        }
    )
    return SubmissionResult(str(path), assignment.id, checks, execution, timings={"total": 0.01})
