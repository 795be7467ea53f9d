"""`grader override`: the instructor's word from the command line, and `grader review`: the
same on a page served to this machine's browser.

    grader override OUT STUDENT CHECK POINTS [--comment TEXT]   # POINTS "-": a comment only
    grader override OUT STUDENT CHECK --clear
    grader override OUT STUDENT --adjust -10 --reason "late"    # --adjust 0 --clear removes it

A decision that does not fit (unknown student or check, points out of range) exits with
status 2 and one line, and changes nothing.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from grader.spec.loader import load_assignment

KEEP_AUTOMATIC = "-"


def add_override_parsers(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "override",
        help="mark a manual item, override a check's points, comment, or adjust a student's score",
        description="Write the instructor's decision into OUT/overrides.toml and render that student's report, "
        "results.json, and the class's grades.csv and index.html anew. POINTS - keeps the automatic points "
        "(a comment only).",
    )
    p.add_argument("out", type=Path, metavar="OUT", help="the class's output folder (grader batch --out)")
    p.add_argument("student", metavar="STUDENT", help="the student id, as in grades.csv")
    p.add_argument("check", nargs="?", metavar="CHECK", help="the check id, as in grades.csv's columns")
    p.add_argument("points", nargs="?", metavar="POINTS", help="0 up to the check's points, or - for none")
    p.add_argument("--comment", default="", metavar="TEXT", help="a comment the student sees beside the check")
    p.add_argument("--adjust", metavar="POINTS", help="add POINTS (negative: take them) to the whole score")
    p.add_argument("--reason", default="", metavar="TEXT", help="why the score is adjusted (with --adjust)")
    p.add_argument("--clear", action="store_true", help="remove the decision on CHECK, or the adjustment")
    p.add_argument("--by", default=None, metavar="NAME", help="who decides (default: your user name)")
    p.add_argument("--assignment", "-a", default=None, help="assignment id or folder (default: the class's)")
    p.set_defaults(handler=cmd_override)

    p = subparsers.add_parser(
        "review",
        help="serve the class on this machine for marking: manual items, overrides, comments",
        description="Serve OUT on 127.0.0.1 for the instructor: the class, each student's report, and a form per "
        "check and manual item (with what the student wrote for it). Prints the address, with its access token.",
    )
    p.add_argument("out", type=Path, metavar="OUT", help="the class's output folder (grader batch --out)")
    p.add_argument("--port", type=int, default=0, metavar="P", help="the port (default: any free one)")
    p.add_argument("--by", default=None, metavar="NAME", help="who decides (default: your user name)")
    p.add_argument("--assignment", "-a", default=None, help="assignment id or folder (default: the class's)")
    p.set_defaults(handler=cmd_review)


def cmd_override(args: argparse.Namespace) -> int:
    from grader.overrides.decide import DecisionRefused, decide_adjustment, decide_check, parse_points
    from grader.overrides.refresh import GradedClass
    from grader.overrides.store import Author

    graded = GradedClass.load(args.out, load_assignment(args.assignment) if args.assignment else None)
    author = Author.now(args.by)
    if args.adjust is not None or (args.check is None and args.clear):
        if args.check is not None:
            raise DecisionRefused("give either CHECK POINTS or --adjust, not both")
        points = None if args.clear else parse_points(args.adjust, signed=True)
        decisions = decide_adjustment(graded, args.student, points, args.reason, author)
        what = "adjustment removed" if points is None else f"score adjusted by {points:+g} ({args.reason})"
    else:
        if args.check is None or (args.points is None and not args.clear):
            raise DecisionRefused("give CHECK POINTS (or CHECK --clear, or --adjust POINTS --reason TEXT)")
        points = None if args.clear or args.points == KEEP_AUTOMATIC else parse_points(args.points)
        if points is None and not args.clear and not args.comment.strip():
            raise DecisionRefused("POINTS - keeps the automatic points: give a --comment with it")
        comment = "" if args.clear else args.comment
        decisions = decide_check(graded, args.student, args.check, points, comment, author)
        what = f"{args.check}: " + ("decision removed" if args.clear else _described(points, comment))
    print(f"{args.student}: {what}. Outputs written: its report and results.json, grades.csv, index.html.")
    for problem in decisions.problems:
        print(f"  not applied: {problem}")
    return 0


def _described(points: float | None, comment: str) -> str:
    parts = [] if points is None else [f"points set to {points:g}"]
    if comment.strip():
        parts.append("comment saved")
    return ", ".join(parts)


def cmd_review(args: argparse.Namespace) -> int:
    from grader.overrides.refresh import GradedClass
    from grader.review.server import serve

    graded = GradedClass.load(args.out, load_assignment(args.assignment) if args.assignment else None)
    graded.decisions()  # a broken overrides.toml stops here, not in the browser
    return serve(graded, port=args.port, by=args.by)
