"""The autograder inside Gradescope's container: grade the one submission Gradescope
unpacked and write its `results.json` (`grader.feedback.gradescope` says what goes in it).

It sits above grading and feedback, as the CLI does: it runs the one and writes through the
other.
"""

from __future__ import annotations

import traceback
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from grader.atomic_write import write_atomic
from grader.execution.isolation import Isolation, IsolationRefused, decide_isolation
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
    isolation: Isolation | None = None
    """What the submission ran under (None: nothing ran)."""
    refused: bool = False
    """Nothing ran because the isolation asked for (or the default) cannot be had here."""

    @property
    def return_code(self) -> int:
        """0 whenever results.json was written: Gradescope shows it, whatever the score; 2 when
        nothing ran for want of isolation (the autograder's set-up is at fault, and its author
        should see it in a test run)."""
        return 2 if self.refused else 0

    def __str__(self) -> str:
        graded = f"graded {self.graded_file.name}" if self.graded_file else "nothing graded"
        problem = f" ({self.failure})" if self.failure else ""
        line = f"{graded}: score {self.score:g}{problem}; results in {self.results_path}"
        if self.isolation is not None and self.isolation.reduced:
            line += "\n" + self.isolation.summary()
        return line


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
    and ``AUTOGRADER_RESULTS_PATH``, the command's defaults.)

    The isolation is decided first: where it cannot be had, nothing runs and results.json says
    that the autograder is not set up (an image without bubblewrap needs ``sandbox = "limits"``
    in the assignment, or ``GRADER_SANDBOX=limits`` in the image)."""
    try:
        isolation = decide_isolation(options.sandbox, assignment.sandbox)
    except IsolationRefused as refused:
        reason = f"the autograder ran nothing: {refused}. Please tell your instructor."
        return replace(_write_failure(assignment, results_path, None, reason), refused=True)
    options = replace(options, sandbox=isolation.choice)
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
        return replace(_write_failure(assignment, results_path, None, reason), isolation=isolation)
    chosen = choose_submission_file(files, assignment.id)
    try:
        result = grade(chosen, assignment, options)
    except Exception as exc:  # the grader's own bug: the student still gets a results.json
        traceback.print_exc()
        outcome = _write_failure(
            assignment,
            results_path,
            chosen,
            f"the grader failed ({type(exc).__name__}: {exc}); please tell your instructor",
        )
        return replace(outcome, isolation=isolation)
    failure = result.not_graded_reason
    write_atomic(results_path, results_json(result, failure=failure))
    return AutograderOutcome(results_path, chosen, result.score, failure, isolation)


def _write_failure(assignment: Assignment, results_path: Path, graded: Path | None, reason: str) -> AutograderOutcome:
    result = not_graded_result(  # the same shape a batch gives an ungradable file
        str(graded or "submission"), assignment, reason
    )
    write_atomic(results_path, results_json(result, failure=reason))
    return AutograderOutcome(results_path, graded, 0.0, reason)
