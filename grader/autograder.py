"""The autograder inside Gradescope's container: grade the one submission Gradescope
unpacked and write its `results.json` (`grader.feedback.gradescope` says what goes in it).

It sits above grading and feedback, as the CLI does: it runs the one and writes through the
other.
"""

from __future__ import annotations

import traceback
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from grader.atomic_write import write_atomic
from grader.feedback.gradescope import results_json
from grader.grading import GradingOptions, grade_submission, not_graded_result
from grader.results import SubmissionResult
from grader.spec.model import Assignment
from grader.submission.inputs import SUBMISSION_SUFFIXES, choose_submission_file


@dataclass(frozen=True)
class AutograderOutcome:
    results_path: Path
    graded_file: Path | None
    score: float
    failure: str | None

    @property
    def return_code(self) -> int:
        """0 whenever results.json was written: Gradescope shows it, whatever the score."""
        return 0

    def __str__(self) -> str:
        graded = f"graded {self.graded_file.name}" if self.graded_file else "nothing graded"
        problem = f" ({self.failure})" if self.failure else ""
        return f"{graded}: score {self.score:g}{problem}; results in {self.results_path}"


def run_autograder(
    assignment: Assignment,
    submission_dir: Path,
    results_path: Path,
    options: GradingOptions = GradingOptions(),
    grade: Callable[[Path, Assignment, GradingOptions], SubmissionResult] = grade_submission,
) -> AutograderOutcome:
    """Grade the one submission Gradescope unpacked, hidden checks included; always writes
    results.json, even when there is nothing to grade or the grader itself fails. (In
    Gradescope's container the folders are ``grader.cli.options.AUTOGRADER_SUBMISSION_DIR``
    and ``AUTOGRADER_RESULTS_PATH``, the command's defaults.)"""
    files = sorted(
        p
        for p in submission_dir.rglob("*")
        if p.is_file()
        and p.suffix.lower() in SUBMISSION_SUFFIXES
        and not any(part.startswith(".") or part == "__MACOSX" for part in p.relative_to(submission_dir).parts)
    )
    if not files:
        received = (
            sorted(p.name for p in submission_dir.rglob("*") if p.is_file())[:20] if submission_dir.is_dir() else []
        )
        reason = "no notebook (.ipynb) or Python file was found in the submission" + (
            f" (received: {', '.join(received)})" if received else ""
        )
        return _write_failure(assignment, results_path, None, reason)
    chosen = choose_submission_file(files, assignment.id)
    try:
        result = grade(chosen, assignment, options)
    except Exception as exc:  # the grader's own bug: the student still gets a results.json
        traceback.print_exc()
        return _write_failure(
            assignment,
            results_path,
            chosen,
            f"the grader failed ({type(exc).__name__}: {exc}); please tell your instructor",
        )
    failure = result.not_graded_reason
    write_atomic(results_path, results_json(result, failure=failure))
    return AutograderOutcome(results_path, chosen, result.score, failure)


def _write_failure(assignment: Assignment, results_path: Path, graded: Path | None, reason: str) -> AutograderOutcome:
    result = not_graded_result(  # the same shape a batch gives an ungradable file
        str(graded or "submission"), assignment, reason
    )
    write_atomic(results_path, results_json(result, failure=reason))
    return AutograderOutcome(results_path, graded, 0.0, reason)
