"""``grader init SOLUTION --out DIR``: write an assignment from the instructor's solution.

Exit status: 0 when the folder was written, 1 when the solution could not be made into an
assignment (one message says what was found and what was not; nothing is written).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from grader.cli.options import add_sandbox_option, chosen_isolation


def add_init_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Register ``init``; the handler is ``args.handler``."""
    parser = subparsers.add_parser(
        "init",
        help="write an assignment (assignment.toml and its files) from a solution notebook",
        description="Run the solution in the sandbox, find its functions and conventions by calling them, "
        "and write DIR/assignment.toml with the solution (and template, scripted input) beside it.",
    )
    # optional to argparse only so that a solution swallowed by --support gets its own message
    parser.add_argument("solution", type=Path, nargs="?", help="the instructor's solution (.ipynb or .py)")
    parser.add_argument("--out", type=Path, required=True, help="the assignment folder to write (new or empty)")
    parser.add_argument(
        "--template", type=Path, default=None, help="the students' handout (default: made from the solution)"
    )
    parser.add_argument(
        "--stdin", type=Path, default=None, help="answers for input(), one a line (default: found by running)"
    )
    parser.add_argument(
        "--id", dest="assignment_id", default=None, help="the assignment's id (default: from the file name)"
    )
    parser.add_argument(
        "--support",
        type=Path,
        nargs="+",
        action="extend",
        default=[],
        metavar="FILE",
        help="the course's own modules the notebooks import, stored in DIR/support/ "
        "(default: the modules they import that sit beside the handout or the solution)",
    )
    add_sandbox_option(parser, falls_back=True)
    parser.set_defaults(handler=cmd_init)
    return parser


_SWALLOWED = (
    ": --support takes every file after it, so give the solution before --support "
    "(grader init SOLUTION --out DIR --support FILE...) or end the list with --"
)


def cmd_init(args: argparse.Namespace) -> int:
    from grader.authoring.create import InitRequest, create_assignment

    if args.solution is None:
        print(f"grader init: no solution given{_SWALLOWED if args.support else ''}", file=sys.stderr)
        return 2
    report = create_assignment(
        InitRequest(
            solution=args.solution,
            out=args.out,
            template=args.template,
            stdin=args.stdin,
            assignment_id=args.assignment_id,
            support=tuple(args.support),
            sandbox=chosen_isolation(args, fall_back=True).choice,  # the instructor's own solution
        )
    )
    print(report, file=sys.stdout if report.return_code == 0 else sys.stderr)
    return report.return_code
