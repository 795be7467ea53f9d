"""Commands for one submission: `grade` (every check), `check` (students: the public checks
and the HTML report) and `gradescope` (the autograder inside Gradescope's container).

The grading modules are imported by the handlers, not here: every command builds the whole
parser, and `grader solve` or `--help` should not pay for loading the grader.
"""

from __future__ import annotations

import argparse
import json
import sys
import webbrowser
from pathlib import Path
from typing import TYPE_CHECKING, Any

from grader.cli.options import (
    AUTOGRADER_RESULTS_PATH,
    AUTOGRADER_SUBMISSION_DIR,
    USAGE_ERROR,
    add_assignment_option,
    add_sandbox_option,
    chosen_isolation,
)
from grader.spec.loader import load_assignment

if TYPE_CHECKING:
    from grader.overrides.apply import FittedDecisions
    from grader.results import SubmissionResult
    from grader.spec.model import Assignment


def add_grade_parsers(subparsers: Any) -> None:
    p = subparsers.add_parser("grade", help="grade one notebook against an assignment")
    p.add_argument("notebook", type=Path)
    add_assignment_option(p)
    p.add_argument("--json", type=Path, metavar="OUT", help="write the SubmissionResult as JSON")
    p.add_argument(
        "--overrides",
        type=Path,
        default=None,
        metavar="FILE",
        help="apply the instructor's decisions for --student from a class's overrides.toml",
    )
    p.add_argument("--student", default=None, metavar="ID", help="the student id in --overrides (default: its stem)")
    add_sandbox_option(p)
    p.set_defaults(handler=cmd_grade, public_only=False, report=None, open=False)

    p = subparsers.add_parser(
        "check",
        help="students: run the public checks on your notebook and get the feedback report",
        description="Run the public checks of an assignment on one notebook, print the results and write the "
        "HTML feedback report. Hidden checks run only when the assignment is graded.",
    )
    p.add_argument("notebook", type=Path)
    add_assignment_option(p)
    p.add_argument(
        "--report",
        type=Path,
        default=None,
        metavar="HTML",
        help="where to write the report (default: NOTEBOOK's name + -report.html, next to it)",
    )
    p.add_argument("--open", action="store_true", help="open the report in a web browser")
    add_sandbox_option(p, falls_back=True)
    p.set_defaults(handler=cmd_grade, public_only=True, json=None, overrides=None, student=None)

    p = subparsers.add_parser(
        "gradescope",
        help=f"Gradescope autograder mode: grade {AUTOGRADER_SUBMISSION_DIR} into results.json",
        description="Grade the submission Gradescope unpacked (hidden checks included) and write results.json. "
        "Always writes a results.json, even when nothing could be graded.",
    )
    add_assignment_option(p)
    p.add_argument("--submission-dir", type=Path, default=AUTOGRADER_SUBMISSION_DIR)
    p.add_argument("--results", type=Path, default=AUTOGRADER_RESULTS_PATH)
    add_sandbox_option(p)
    p.set_defaults(handler=cmd_gradescope)


def cmd_grade(args: argparse.Namespace) -> int:
    """`grader grade` (every check; ``--json``) and `grader check` (``public_only``: the
    public checks and the HTML report for the student).

    A file that is not a notebook at all gets one line, not a "not run" line per check:
    `check` then exits with status 2, as `grader run` does; `grade` still writes its result
    (an ungradable upload is a result, scoring 0) and exits 0.
    """
    from grader.grading import GradingOptions, grade_submission

    command = "check" if args.public_only else "grade"
    assignment = load_assignment(args.assignment)
    if not args.notebook.exists():
        print(f"grader {command}: {args.notebook}: no such file", file=sys.stderr)
        return USAGE_ERROR
    # A student checking their own notebook may run it with resource limits where bubblewrap
    # cannot run; grading never does unless someone chose that.
    isolation = chosen_isolation(args, assignment.sandbox, fall_back=args.public_only)
    decisions = None
    if args.overrides is not None:  # read first: a file that cannot be read stops before grading
        decisions = _read_decisions(args.overrides, assignment, command)
        if decisions is None:
            return USAGE_ERROR
    options = GradingOptions(sandbox=isolation.choice, public_only=args.public_only)
    result = grade_submission(args.notebook, assignment, options)
    if decisions is not None:
        from grader.overrides.apply import apply_decisions

        result = apply_decisions(result, decisions.of(args.student or args.notebook.stem), assignment)
        for problem in decisions.problems:
            print(f"grader {command}: not applied: {problem}", file=sys.stderr)
    if args.json:
        args.json.write_text(json.dumps(result.to_dict(), indent=2))
    return _student_feedback(args, assignment, result) if args.public_only else _print_grade(result)


def _read_decisions(path: Path, assignment: Assignment, command: str) -> FittedDecisions | None:
    """The decisions of an overrides.toml that fit ``assignment``; None (said on stderr) when
    the file cannot be read."""
    from grader.overrides.apply import fit_decisions
    from grader.overrides.model import MalformedOverrides
    from grader.overrides.store import read_decisions

    try:
        return fit_decisions(read_decisions(path), assignment)
    except MalformedOverrides as exc:
        print(f"grader {command}: {exc}", file=sys.stderr)
        return None


def _print_grade(result: SubmissionResult) -> int:
    """`grader grade`'s lines: one when nothing ran (every check would say the same "not
    run"), else every check."""
    from grader.feedback.text import format_submission

    reason = result.not_graded_reason
    if reason is not None:
        print(f"Not graded ({result.score:g} / {result.max_score:g}): {reason}")
    else:
        print(format_submission(result))
    return 0


def _student_feedback(args: argparse.Namespace, assignment: Assignment, result: SubmissionResult) -> int:
    """`grader check`'s lines and report; exit 2 when nothing could run."""
    from grader.feedback.html import render_student_report
    from grader.feedback.text import format_submission
    from grader.spec.hidden_checks import hidden_checks

    reason = result.not_graded_reason
    if reason is not None:
        print(f"grader check: {reason}", file=sys.stderr)
        return USAGE_ERROR
    print(format_submission(result))
    hidden = hidden_checks(assignment)
    if hidden:
        points = sum(c.points for c in hidden)
        print(
            f"\nThis assignment also has {len(hidden)} hidden check(s) worth {points:g} point(s); "
            "they run only when it is graded."
        )
    report = args.report or args.notebook.with_name(f"{args.notebook.stem}-report.html")
    report.write_text(render_student_report(result, assignment=assignment), encoding="utf-8")
    print(f"\nFeedback report: {report}")
    if args.open:
        webbrowser.open(report.resolve().as_uri())
    return 0


def cmd_gradescope(args: argparse.Namespace) -> int:
    from grader.autograder import run_autograder
    from grader.grading import GradingOptions

    assignment = load_assignment(args.assignment)
    outcome = run_autograder(assignment, args.submission_dir, args.results, GradingOptions(sandbox=args.sandbox))
    print(outcome, file=sys.stderr if outcome.return_code else sys.stdout)
    return outcome.return_code
