"""``grader release MASTER --out DIR``: the student's version, the assignment and the students'
bundle, from one master notebook with solution markers.

Exit status: 0 when everything was written and the assignment validates, 1 when the master
cannot be read (a marker's cell and line are named; nothing is written) or the assignment does
not validate (what was written is listed with the problems).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from grader.cli.options import add_sandbox_option, chosen_isolation
from grader.release.markers import DEFAULT_STUB


def add_release_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Register ``release``; the handler is ``args.handler``."""
    parser = subparsers.add_parser(
        "release",
        help="from a master notebook with solution markers: the student's version, the assignment, the bundle",
        description="Read the master's solution markers (nbgrader's ### BEGIN SOLUTION, otter's # BEGIN SOLUTION "
        "and # SOLUTION), write the student's version, the assignment folder (grader init, then the master's "
        "# GRADER CONFIG settings) and the students' bundle of wheels; a later release keeps the hand edits "
        "of the assignment's TOML.",
    )
    parser.add_argument("master", type=Path, help="the master notebook (.ipynb or .py)")
    parser.add_argument("--out", type=Path, required=True, help="the release folder (made, or the last release's)")
    parser.add_argument(
        "--id", dest="assignment_id", default=None, help="the assignment's id (default: the master's file name)"
    )
    parser.add_argument(
        "--stub", default=DEFAULT_STUB, help=f"the line that replaces a solution (default: {DEFAULT_STUB})"
    )
    parser.add_argument(
        "--stdin", type=Path, default=None, help="answers for input(), one a line (default: found by running)"
    )
    add_sandbox_option(parser, falls_back=True)
    parser.set_defaults(handler=cmd_release)
    return parser


def cmd_release(args: argparse.Namespace) -> int:
    from grader.release.release import ReleaseRequest, release_assignment

    sandbox = chosen_isolation(args, fall_back=True).choice  # the course's own master
    report = release_assignment(
        ReleaseRequest(args.master, args.out, args.assignment_id, args.stub, args.stdin, sandbox)
    )
    print(report, file=sys.stdout if report.return_code == 0 else sys.stderr)
    return report.return_code
