"""Commands for a whole class and for students: `batch`, `merge`, `check` and `gradescope`.

Each handler parses nothing itself: it calls a function that returns a result object and
returns that object's exit code.
"""

from __future__ import annotations

import argparse
import sys
import webbrowser
from pathlib import Path

from grader.spec.loader import load_assignment

SANDBOX_CHOICES = ("auto", "bwrap", "limits", "none")
USAGE_ERROR = 2


def add_batch_parsers(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "batch",
        help="grade a class: a folder, an nbgrader tree or an LMS zip export",
        description="Grade every submission in INPUT into DIR: DIR/index.html, DIR/grades.csv and, per student, "
        "DIR/<student>/report.html, results.json (Gradescope format) and submission_result.json. "
        "Run it again after an interruption: only missing or changed submissions are graded.",
    )
    p.add_argument(
        "input", type=Path, metavar="INPUT", help="folder of .ipynb/.py files, nbgrader tree, or Canvas/Moodle zip"
    )
    p.add_argument("--assignment", "-a", required=True, help="assignment id or folder")
    p.add_argument("--out", "-o", type=Path, required=True, metavar="DIR", help="where the reports and grades go")
    p.add_argument(
        "--jobs", "-j", type=int, default=None, metavar="N", help="submissions graded at once (default: one per core)"
    )
    p.add_argument("--force", action="store_true", help="regrade everything, even up-to-date results")
    p.add_argument("--sandbox", choices=SANDBOX_CHOICES, default="auto")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    p.add_argument(
        "--cluster",
        metavar="ADDRESS",
        default=None,
        help="grade on the Dask scheduler at ADDRESS, e.g. tcp://10.0.0.5:8786 (needs the dask extra)",
    )
    p.add_argument(
        "--shard",
        metavar="K/N",
        default=None,
        help="grade only part K of N (K from 0) of the class, split by student id; combine with `grader merge`",
    )
    p.set_defaults(handler=cmd_batch)

    p = subparsers.add_parser(
        "merge",
        help="combine the output folders of a sharded class (grader batch --shard K/N) into one",
        description="Copy every student's outputs from the SHARD_DIR folders into OUT and rebuild OUT/index.html and "
        "OUT/grades.csv. Exit status 1 when a shard is missing or was interrupted.",
    )
    p.add_argument("out", type=Path, metavar="OUT")
    p.add_argument("shards", type=Path, nargs="+", metavar="SHARD_DIR")
    p.add_argument(
        "--assignment",
        "-a",
        default=None,
        help="assignment id or folder (default: the one the shards were graded against)",
    )
    p.set_defaults(handler=cmd_merge)

    p = subparsers.add_parser(
        "check",
        help="students: run the public checks on your notebook and get the feedback report",
        description="Run the public checks of an assignment on one notebook, print the results and write the "
        "HTML feedback report. Hidden checks run only when the assignment is graded.",
    )
    p.add_argument("notebook", type=Path)
    p.add_argument("--assignment", "-a", required=True, help="assignment id or folder")
    p.add_argument(
        "--report",
        type=Path,
        default=None,
        metavar="HTML",
        help="where to write the report (default: NOTEBOOK's name + -report.html, next to it)",
    )
    p.add_argument("--open", action="store_true", help="open the report in a web browser")
    p.add_argument("--sandbox", choices=SANDBOX_CHOICES, default="auto")
    p.set_defaults(handler=cmd_check)

    p = subparsers.add_parser(
        "gradescope",
        help="Gradescope autograder mode: grade /autograder/submission into results.json",
        description="Grade the submission Gradescope unpacked (hidden checks included) and write results.json. "
        "Always writes a results.json, even when nothing could be graded.",
    )
    p.add_argument("--assignment", "-a", required=True, help="assignment id or folder")
    p.add_argument("--submission-dir", type=Path, default=Path("/autograder/submission"))
    p.add_argument("--results", type=Path, default=Path("/autograder/results/results.json"))
    p.add_argument("--sandbox", choices=SANDBOX_CHOICES, default="auto")
    p.set_defaults(handler=cmd_gradescope)


def cmd_batch(args: argparse.Namespace) -> int:
    from grader.batch.cluster import ClusterUnavailable
    from grader.batch.plan import BatchOptions, run_batch
    from grader.batch.sharding import Shard, ShardError
    from grader.submission.inputs import InputError

    assignment = load_assignment(args.assignment)
    if args.jobs is not None and args.jobs < 1:
        print("grader batch: --jobs must be at least 1", file=sys.stderr)
        return USAGE_ERROR
    try:
        shard = Shard.parse(args.shard) if args.shard else None
    except ShardError as exc:
        print(f"grader batch: --shard {exc}", file=sys.stderr)
        return USAGE_ERROR
    options = BatchOptions(
        jobs=args.jobs,
        force=args.force,
        sandbox=args.sandbox,
        progress=not args.quiet,
        cluster=args.cluster,
        shard=shard,
    )
    try:
        result = run_batch(args.input, assignment, args.out, options)
    except (InputError, ClusterUnavailable) as exc:
        print(f"grader batch: {exc}", file=sys.stderr)
        return USAGE_ERROR
    print(result)
    return result.return_code


def cmd_merge(args: argparse.Namespace) -> int:
    from grader.batch.merge import MergeError, merge_shards

    assignment = load_assignment(args.assignment) if args.assignment else None
    try:
        result = merge_shards(args.out, args.shards, assignment)
    except MergeError as exc:
        print(f"grader merge: {exc}", file=sys.stderr)
        return USAGE_ERROR
    print(result)
    return result.return_code


def cmd_check(args: argparse.Namespace) -> int:
    from grader.feedback.html import render_student_report
    from grader.feedback.text import format_submission
    from grader.grading import GradingOptions, grade_submission

    assignment = load_assignment(args.assignment)
    if not args.notebook.is_file():
        print(f"grader check: {args.notebook}: no such file", file=sys.stderr)
        return USAGE_ERROR
    result = grade_submission(args.notebook, assignment, GradingOptions(sandbox=args.sandbox, public_only=True))
    print(format_submission(result))
    hidden = [c for c in assignment.checks if c.hidden]
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
    from grader.feedback.gradescope import run_autograder
    from grader.grading import GradingOptions

    assignment = load_assignment(args.assignment)
    outcome = run_autograder(assignment, args.submission_dir, args.results, GradingOptions(sandbox=args.sandbox))
    print(outcome)
    return outcome.return_code
