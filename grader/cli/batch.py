"""Commands for a whole class: `batch` and `merge`.

Each handler parses nothing itself: it calls a function that returns a result object and
returns that object's exit code. The batch modules are imported by the handlers: every
command builds the whole parser, and the other commands should not pay for loading them.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from grader.cli.options import USAGE_ERROR, add_assignment_option, add_sandbox_option
from grader.spec.loader import load_assignment


def add_batch_parsers(subparsers: Any) -> None:
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
    add_assignment_option(p)
    p.add_argument("--out", "-o", type=Path, required=True, metavar="DIR", help="where the reports and grades go")
    p.add_argument(
        "--jobs", "-j", type=int, default=None, metavar="N", help="submissions graded at once (default: one per core)"
    )
    p.add_argument("--force", action="store_true", help="regrade everything, even up-to-date results")
    add_sandbox_option(p)
    p.add_argument("--quiet", "-q", action="store_true", help="no progress report")
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
    add_assignment_option(
        p, required=False, description="assignment id or folder (default: the one the shards were graded against)"
    )
    p.set_defaults(handler=cmd_merge)


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
