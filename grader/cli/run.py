"""``grader run NOTEBOOK``: execute one notebook in the sandbox and show what happened.

With ``--assignment`` the notebook runs as grading runs it: with the assignment's scripted
input and time limits (options given explicitly still win). Cells are numbered as Jupyter
numbers them (``In [n]``): from 1, code cells only.

Exit status: 0 when every code cell ran without error, 1 when some cell failed (error,
timeout, killed kernel, not reached), 2 when the notebook could not be run at all.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from grader.cli.options import add_sandbox_option, chosen_isolation
from grader.execution.sandbox import SandboxUnavailable
from grader.execution.session import ExecutionOptions, ExecutionResult, execute_notebook
from grader.spec.loader import load_assignment
from grader.submission.reader import SubmissionUnreadable

EXIT_OK = 0
EXIT_CELLS_FAILED = 1
EXIT_NOT_RUN = 2

_DEFAULTS = ExecutionOptions()


def add_run_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Register ``run`` on an argparse subparsers object; the handler is ``args.handler``."""
    parser = subparsers.add_parser(
        "run",
        help="execute a notebook in the sandbox and report each cell",
        description="Execute a notebook (or .py file) top to bottom in the grader's sandbox "
        "and report each cell's status, the scripted input and the isolation used.",
    )
    parser.add_argument("notebook", type=Path, help=".ipynb or .py file")
    parser.add_argument(
        "--assignment",
        "-a",
        metavar="ID",
        help="run as grading this assignment would: its scripted input and time limits",
    )
    parser.add_argument(
        "--stdin",
        nargs="+",
        action="extend",
        default=None,
        metavar="ANSWER",
        help="answers for input(), in order (the option may be repeated; default: the assignment's, or none)",
    )
    parser.add_argument("--json", dest="json_out", type=Path, metavar="OUT", help="write the result as JSON to OUT")
    add_sandbox_option(parser)
    parser.add_argument(
        "--cell-timeout",
        type=float,
        default=None,
        metavar="S",
        help=f"seconds per cell (default: the assignment's, or {_DEFAULTS.cell_timeout:g})",
    )
    parser.add_argument(
        "--notebook-timeout",
        type=float,
        default=None,
        metavar="S",
        help=f"seconds for the whole notebook (default: the assignment's, or {_DEFAULTS.notebook_timeout:g})",
    )
    parser.set_defaults(handler=run_command)
    return parser


def execution_options(args: argparse.Namespace) -> ExecutionOptions:
    """The options grading would use for ``--assignment`` (as ``grader.grading`` builds them),
    with the options given on the command line on top. The isolation is decided here, before
    anything runs (`IsolationRefused` where it cannot be had)."""
    base = _DEFAULTS
    sandbox_setting = None
    if args.assignment is not None:
        assignment = load_assignment(args.assignment)
        sandbox_setting = assignment.sandbox
        base = ExecutionOptions(
            stdin=assignment.stdin,
            cell_timeout=assignment.cell_timeout,
            notebook_timeout=assignment.notebook_timeout,
            support=tuple(module.path for module in assignment.support),
        )
    return ExecutionOptions(
        stdin=base.stdin if args.stdin is None else tuple(args.stdin),
        cell_timeout=base.cell_timeout if args.cell_timeout is None else args.cell_timeout,
        notebook_timeout=base.notebook_timeout if args.notebook_timeout is None else args.notebook_timeout,
        sandbox=chosen_isolation(args, sandbox_setting).choice,
        support=base.support,
    )


def run_command(args: argparse.Namespace) -> int:
    options = execution_options(args)
    try:
        result = execute_notebook(args.notebook, options)
    except (SubmissionUnreadable, SandboxUnavailable) as error:
        print(f"grader run: {error}", file=sys.stderr)
        return EXIT_NOT_RUN
    if args.json_out is not None:
        args.json_out.write_text(result.to_json(indent=2) + "\n", encoding="utf-8")
        print(f"wrote {args.json_out}")
    else:
        print(format_result(result, args.notebook))
    return EXIT_CELLS_FAILED if result.failed_cells else EXIT_OK


def format_result(result: ExecutionResult, notebook: Path | str) -> str:
    """The result as a few readable lines."""
    lines = [
        f"{notebook}: {len(result.cells)} code cells in {result.total_duration:.2f} s "
        f"(sandbox: {result.sandbox_mode.value}, kernel start {result.kernel_start_seconds:.2f} s)"
    ]
    numbers = {record.index: record.number for record in result.cells}
    if result.isolation_note:
        lines.append(f"  note: {result.isolation_note}")
    lines.append(f"  {'cell':>4}  {'status':<8} {'time':>7}")
    for record in result.cells:
        problem = record.error_message or ""
        if record.error_name:
            problem = f"{record.error_name}: {problem}" if problem else record.error_name
        first_line = problem.strip().splitlines()[0] if problem.strip() else ""
        lines.append(f"  {record.number:>4}  {record.status.value:<8} {record.duration:>6.2f}s  {first_line}".rstrip())
    if result.stdin_transcript:
        lines.append("  scripted input:")
        for exchange in result.stdin_transcript:
            answer = repr(exchange.answer) if exchange.answer is not None else "(the script ran out)"
            lines.append(f"    cell {numbers[exchange.cell_index]}: {exchange.prompt!r} -> {answer}")
    if result.kernel_restarts:
        lines.append(f"  the kernel was restarted {result.kernel_restarts} time(s)")
    if result.notebook_timed_out:
        lines.append("  the notebook's time limit was reached")
    return "\n".join(lines)
