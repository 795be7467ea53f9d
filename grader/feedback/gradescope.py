"""Gradescope's `results.json` for one graded submission (`grader.autograder` grades it and
writes the file).

Format: https://gradescope-autograders.readthedocs.io/en/latest/specs/ . One test per
automatic check, and one per manual item the instructor has marked (`grader.overrides`; the
others are marked in Gradescope itself); the instructor's points, comments and adjustment
are in the score and the output. Public checks are
``visible``; hidden checks get ``after_published`` and, like in the HTML report, their
output never carries their inputs.
"""

from __future__ import annotations

import json
from typing import Any

from grader.check_details import SearchDivergence
from grader.check_wording import cause_line
from grader.execution.result import SandboxMode
from grader.feedback.views import HIDDEN_CHECK_MESSAGES, board_rows, divergence_view, drawing_rows
from grader.results import CheckResult, CheckStatus, Counterexample, SubmissionResult

VISIBILITY_FOR_STUDENTS = {"public": "visible", "hidden": "after_published"}
"""Our visibility -> Gradescope's. A hidden check's score shows once grades are published."""


def gradescope_results(result: SubmissionResult, *, failure: str | None = None) -> dict[str, Any]:
    """The results.json document for one graded submission."""
    tests = [_test(check) for check in result.checks if check.status != CheckStatus.MANUAL or check.marked]
    manual = [c for c in result.checks if c.status == CheckStatus.MANUAL and not c.marked]
    decided = result.adjustment is not None or any(c.instructor for c in result.checks)
    lines = [f"{'Score' if decided else 'Automatic score'}: {result.score:g} / {result.max_score:g}."]
    if result.adjustment is not None:
        lines.append(f"Adjustment by your instructor: {result.adjustment.points:+g} ({result.adjustment.reason}).")
    if failure:
        lines.append(f"Your submission could not be graded: {failure}")
    lines += [f"Problem: {p}" for p in result.problems if p != failure]
    if any(c.visibility != "public" for c in result.checks):
        lines.append(
            "Some checks are hidden: their scores appear when grades are published, their test cases never do."
        )
    if manual:
        lines.append(
            f"{len(manual)} item(s) will be marked by your instructor: " + ", ".join(c.title for c in manual) + "."
        )
    return {
        "score": result.score,
        "execution_time": round(float(result.timings.get("total", 0.0) or 0.0), 2),
        "output": "\n".join(lines),
        "output_format": "text",
        "stdout_visibility": "hidden",
        "extra_data": {"isolation": isolation_data(result)},
        "tests": tests,
    }


def isolation_data(result: SubmissionResult) -> dict[str, Any]:
    """The isolation the notebook ran under, for whoever reads results.json: ``mode`` (``bwrap``,
    ``limits``, ``none``; None when it never ran), ``reduced`` and the note on what it allowed."""
    execution = result.execution
    if execution is None:
        return {"mode": None, "reduced": False, "note": None}
    mode = execution.sandbox_mode
    return {"mode": mode.value, "reduced": mode is not SandboxMode.BWRAP, "note": execution.isolation_note}


def _test(check: CheckResult) -> dict[str, Any]:
    visibility = VISIBILITY_FOR_STUDENTS.get(check.visibility, "after_published")
    shown_inputs = visibility == "visible"
    output = check.message if shown_inputs else HIDDEN_CHECK_MESSAGES[check.status]
    if shown_inputs and check.counterexample:
        output += "\n\n" + counterexample_text(check.counterexample, cause_line(check))
    parted = divergence_view(check.detail_as(SearchDivergence)) if shown_inputs else None
    if parted is not None:  # the node drawn under its heading, the facts below it
        heading, *facts = parted.facts()
        output += "\n\n" + "\n".join([heading, *(f"   {row}" for row in drawing_rows(parted.drawing)), *facts])
    if check.instructor is not None:
        output = "\n\n".join(part for part in (instructor_text(check), output) if part)
    return {
        "name": check.title,
        "score": check.score,
        "max_score": check.max_score,
        "status": "passed" if check.status == CheckStatus.PASSED or _full_marks(check) else "failed",
        "output": output,
        "output_format": "text",
        "visibility": visibility,
    }


def _full_marks(check: CheckResult) -> bool:
    """A manual item the instructor marked with all its points."""
    return check.marked and check.score >= check.max_score


def instructor_text(check: CheckResult) -> str:
    """The instructor's word on a check, above the automatic verdict."""
    mark = check.instructor
    if mark is None:
        return ""
    lines = []
    if check.overridden:
        lines.append(
            f"Points set by your instructor: {check.score:g} / {check.max_score:g} "
            f"(the automatic check gave {mark.automatic_score:g})."
        )
    elif check.marked:
        lines.append(f"Marked by your instructor: {check.score:g} / {check.max_score:g}.")
    if mark.comment:
        lines.append(f"Instructor's comment: {mark.comment}")
    return "\n".join(lines)


def counterexample_text(ce: Counterexample, cause: str | None = None) -> str:
    lines = []
    rows = board_rows(ce.board, empty=" ", separator=" | ") or drawing_rows(ce.drawing)
    if rows:
        lines += ["Position:", *(f"   {row}" for row in rows)]
    elif ce.board:
        lines.append(f"Input: {ce.board}")
    lines += [f"Call:     {ce.call}", f"Expected: {ce.expected}", f"Got:      {ce.actual}"]
    if cause:
        lines.append(f"Likely cause: {cause}")
    return "\n".join(lines)


def results_json(result: SubmissionResult, *, failure: str | None = None) -> str:
    return json.dumps(gradescope_results(result, failure=failure), indent=2, ensure_ascii=False) + "\n"
