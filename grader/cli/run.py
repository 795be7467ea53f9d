"""``grader run NOTEBOOK``: execute one notebook in the sandbox and show what happened.

Cells are numbered as Jupyter numbers them (``In [n]``): from 1, code cells only.

Exit status: 0 when every code cell ran without error, 1 when some cell failed (error,
timeout, killed kernel, not reached), 2 when the notebook could not be run at all.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from grader.execution.sandbox import SandboxUnavailable
from grader.execution.session import ExecutionOptions, ExecutionResult, execute_notebook
from grader.submission.reader import SubmissionUnreadable

EXIT_OK = 0
EXIT_CELLS_FAILED = 1
EXIT_NOT_RUN = 2


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
        "--stdin",
        nargs="+",
        action="extend",
        default=[],
        metavar="ANSWER",
        help="answers for input(), in order (the option may be repeated)",
    )
    parser.add_argument("--json", dest="json_out", type=Path, metavar="OUT", help="write the result as JSON to OUT")
    parser.add_argument("--sandbox", choices=("auto", "bwrap", "limits", "none"), default="auto")
    parser.add_argument("--cell-timeout", type=float, default=30.0, metavar="S", help="seconds per cell (default 30)")
    parser.add_argument(
        "--notebook-timeout",
        type=float,
        default=300.0,
        metavar="S",
        help="seconds for the whole notebook (default 300)",
    )
    parser.set_defaults(handler=run_command)
    return parser


def run_command(args: argparse.Namespace) -> int:
    options = ExecutionOptions(
        stdin=tuple(args.stdin),
        cell_timeout=args.cell_timeout,
        notebook_timeout=args.notebook_timeout,
        sandbox=args.sandbox,
    )
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
