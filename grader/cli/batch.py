"""Commands for a whole class: `batch` and `merge`.

Each handler parses nothing itself: it calls a function that returns a result object and
returns that object's exit code. The batch modules are imported by the handlers: every
command builds the whole parser, and the other commands should not pay for loading them.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from grader.cli.options import add_assignment_option, add_sandbox_option
from grader.errors import UsageError
from grader.similarity.compare import DEFAULT_THRESHOLD
from grader.spec.loader import load_assignment

SIMILARITY_OFF = "off"


def add_batch_parsers(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "batch",
        help="grade a class: a folder, an nbgrader tree or an LMS zip export",
        description="Grade every submission in INPUT into DIR: DIR/index.html, DIR/grades.csv, DIR/similarity.csv "
        "and, per student, DIR/<student>/report.html, results.json (Gradescope format), a copy of the file graded "
        "(submitted.ipynb or .py) and submission_result.json. "
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
    add_similarity_option(p)
    p.set_defaults(handler=cmd_batch)

    p = subparsers.add_parser(
        "merge",
        help="combine the output folders of a sharded class (grader batch --shard K/N) into one",
        description="Copy every student's outputs from the SHARD_DIR folders into OUT and rebuild OUT/index.html, "
        "OUT/grades.csv and OUT/similarity.csv. Exit status 1 when a shard is missing or was interrupted.",
    )
    p.add_argument("out", type=Path, metavar="OUT")
    p.add_argument("shards", type=Path, nargs="+", metavar="SHARD_DIR")
    add_assignment_option(
        p, required=False, description="assignment id or folder (default: the one the shards were graded against)"
    )
    add_similarity_option(p)
    p.set_defaults(handler=cmd_merge)


def add_similarity_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--similarity-threshold",
        type=similarity_threshold,
        default=DEFAULT_THRESHOLD,
        metavar="X",
        help=f"list pairs of students whose code is at least X alike, 0 to 1 (default {DEFAULT_THRESHOLD:g}), "
        f"in similarity.csv and index.html; {SIMILARITY_OFF!r}: do not compare",
    )


def similarity_threshold(text: str) -> float | None:
    """The option's value: a share from 0 to 1, or None for ``off``."""
    if text.strip().lower() == SIMILARITY_OFF:
        return None
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"expected a number from 0 to 1, or {SIMILARITY_OFF!r}; got {text!r}")
    return value


def cmd_batch(args: argparse.Namespace) -> int:
    from grader.batch.options import BatchOptions
    from grader.batch.plan import run_batch
    from grader.batch.sharding import Shard, ShardError

    assignment = load_assignment(args.assignment)
    if args.jobs is not None and args.jobs < 1:
        raise UsageError("--jobs must be at least 1")
    try:
        shard = Shard.parse(args.shard) if args.shard else None
    except ShardError as exc:
        raise ShardError(f"--shard {exc}") from None
    options = BatchOptions(
        jobs=args.jobs,
        force=args.force,
        sandbox=args.sandbox,
        progress=not args.quiet,
        cluster=args.cluster,
        shard=shard,
        similarity_threshold=args.similarity_threshold,
    )
    result = run_batch(args.input, assignment, args.out, options)
    print(result)
    return result.return_code


def cmd_merge(args: argparse.Namespace) -> int:
    from grader.batch.merge import merge_shards

    assignment = load_assignment(args.assignment) if args.assignment else None
    result = merge_shards(args.out, args.shards, assignment, similarity_threshold=args.similarity_threshold)
    print(result)
    return result.return_code
