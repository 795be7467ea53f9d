"""Command line: parses arguments and calls functions that return result objects.

Exit status: 0 when the command did its job (whatever a submission scored), 1 when a
validation it was asked for failed, 2 for a usage error (unknown assignment, bad board).

Internal to the grader: the stable names are those that `grader` and `grader.checks.api` re-export.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from grader.cli.batch import add_batch_parsers
from grader.cli.diagnostics import diagnostics_on_stderr
from grader.cli.grade import add_grade_parsers
from grader.cli.init import add_init_parser
from grader.cli.options import INTERRUPTED, USAGE_ERROR, add_sandbox_option, chosen_isolation
from grader.cli.override import add_override_parsers
from grader.cli.release import add_release_parser
from grader.cli.run import add_run_parser
from grader.errors import UsageError
from grader.printable import printable_output
from grader.serialization import converter
from grader.spec.installed import installed_assignments
from grader.spec.loader import BUILTIN_ASSIGNMENTS, list_assignments, load_assignment
from grader.spec.model import AssignmentError


def main(argv: Sequence[str] | None = None) -> int:
    # Student text (exception lines, answers, file names) is printed by every command: all of
    # it goes out through one filter here, at the edge, rather than at each place it is printed.
    with printable_output():
        return _run(argv)


def _run(argv: Sequence[str] | None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "handler", None):
        parser.print_help()
        return USAGE_ERROR
    try:
        with diagnostics_on_stderr(quiet=getattr(args, "quiet", False)):
            return args.handler(args)
    except UsageError as exc:
        print(f"grader {args.command}: {exc}", file=sys.stderr)
        return USAGE_ERROR
    except KeyboardInterrupt:
        print("grader: interrupted", file=sys.stderr)
        return INTERRUPTED


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="grader", description="Grade game-search (minimax / alpha-beta) notebooks.")
    sub = parser.add_subparsers(title="commands", metavar="COMMAND", dest="command")

    p = sub.add_parser("solve", help="the reference's answer for one board (for answer keys)")
    p.add_argument("board", help="nine cells row by row: X, O and . (or the digits 1-9) for empty")
    p.add_argument("--maximizer", choices=("X", "O"), default="O", help="which player maximizes (default O)")
    p.add_argument("--first", choices=("X", "O"), default="X", help="who moved first (default X)")
    p.add_argument("--scoring", choices=("unit", "depth-adjusted"), default="unit")
    p.add_argument("--depth", type=int, default=None, help="depth limit (value 0 at the cut-off)")
    p.add_argument("--json", action="store_true", help="print a JSON object")
    p.set_defaults(handler=cmd_solve)

    add_run_parser(sub)
    add_grade_parsers(sub)
    add_batch_parsers(sub)
    add_override_parsers(sub)
    add_init_parser(sub)
    add_release_parser(sub)

    p = sub.add_parser("assignments", help="list the built-in assignments")
    p.set_defaults(handler=cmd_assignments)

    p = sub.add_parser("validate", help="check an assignment: its solution scores full marks, its template does not")
    p.add_argument("assignment", nargs="*", help="ids or folders (default: every built-in assignment)")
    add_sandbox_option(p, falls_back=True)
    p.set_defaults(handler=cmd_validate)

    p = sub.add_parser("demo", help="grade the bundled example submissions")
    p.add_argument("--out", type=Path, default=Path("demo-out"))
    p.add_argument("--jobs", type=int, default=None)
    p.set_defaults(handler=cmd_demo)
    return parser


def cmd_solve(args: argparse.Namespace) -> int:
    from grader.tools.answer_key import solve
    from reference import MalformedBoard

    try:
        solution = solve(
            args.board, maximizer=args.maximizer, first=args.first, scoring=args.scoring, depth_limit=args.depth
        )
    except MalformedBoard as exc:
        print(f"grader solve: {exc}", file=sys.stderr)
        return USAGE_ERROR
    if args.json:
        data = converter.unstructure(solution)
        print(
            json.dumps(
                {k: data[k] for k in ("to_move", "value", "best_moves", "minimax_nodes", "alphabeta_nodes")} | data
            )
        )
    else:
        print(solution)
    return 0


def cmd_assignments(args: argparse.Namespace) -> int:
    ids = list_assignments() + sorted(installed_assignments())
    if not ids:  # an installation without its assignments: say so, and fail scripts that rely on them
        print(f"grader assignments: no assignments in {BUILTIN_ASSIGNMENTS}", file=sys.stderr)
        return 1
    for assignment_id in ids:
        try:
            assignment = load_assignment(assignment_id)
        except AssignmentError as exc:
            print(f"{assignment_id:24} BROKEN: {exc}")
            continue
        kinds = sorted({c.kind for c in assignment.checks})
        print(f"{assignment.id:24} {assignment.title}")
        print(f"{'':24} {len(assignment.checks)} checks, {assignment.max_score:g} points: {', '.join(kinds)}")
    return 0


def cmd_validate(args: argparse.Namespace) -> int:
    from grader.grading import GradingOptions
    from grader.validation import validate_assignment

    ids = args.assignment or list_assignments()
    failed = 0
    for assignment_id in ids:
        assignment = load_assignment(assignment_id)
        # The course's own solution and handout: where bubblewrap cannot run, resource limits, said first.
        isolation = chosen_isolation(args, assignment.sandbox, fall_back=True)
        report = validate_assignment(assignment, GradingOptions(sandbox=isolation.choice))
        print(report)
        failed += not report.ok
    print(f"{len(ids) - failed} of {len(ids)} assignment(s) valid")
    return 1 if failed else 0


def cmd_demo(args: argparse.Namespace) -> int:
    from grader.tools.demo import run_demo

    return run_demo(args.out, jobs=args.jobs)
