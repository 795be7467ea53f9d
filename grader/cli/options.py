"""What several commands share: exit statuses, options and Gradescope's folders."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from grader.execution.isolation import ENVIRONMENT_VARIABLE, SANDBOX_CHOICES, Isolation, SandboxChoice, decide_isolation

USAGE_ERROR = 2
"""Exit status for a command that could not do its job as asked (unknown assignment, a file
that is missing or not a notebook, a bad option value)."""
INTERRUPTED = 130
"""Exit status after Ctrl-C, as a shell reports a process killed by SIGINT."""

AUTOGRADER_SUBMISSION_DIR = Path("/autograder/submission")
"""Where Gradescope unpacks the student's upload inside its container."""
AUTOGRADER_RESULTS_PATH = Path("/autograder/results/results.json")
"""Where Gradescope reads the results from."""


def add_sandbox_option(parser: argparse.ArgumentParser, *, falls_back: bool = False) -> None:
    """``--sandbox``; None when not given, so that ``GRADER_SANDBOX`` and the assignment's
    own setting can choose (`grader.execution.isolation`). ``falls_back``: the command runs
    the caller's own files, and uses resource limits where bubblewrap cannot run."""
    default = "where it cannot run, resource limits, said on the terminal" if falls_back else "refuse where it cannot"
    parser.add_argument(
        "--sandbox",
        choices=SANDBOX_CHOICES,
        default=None,
        help=f"isolation of the kernel: bwrap (bubblewrap), limits (resource limits only), none (a trusted file), "
        f"or auto (default: bubblewrap; {default}); else {ENVIRONMENT_VARIABLE} or the assignment's sandbox setting",
    )


def chosen_isolation(
    args: argparse.Namespace, assignment_setting: SandboxChoice | None = None, *, fall_back: bool = False
) -> Isolation:
    """The isolation this command runs under, decided before anything runs; anything less than
    bubblewrap is said on stderr first. Raises `IsolationRefused` (a usage error: one line,
    exit status 2) where nobody chose a weaker mode and bubblewrap cannot run."""
    isolation = decide_isolation(args.sandbox, assignment_setting, fall_back=fall_back)
    if isolation.reduced:
        print(f"grader {args.command}: {isolation.summary()}", file=sys.stderr)
    return isolation


def add_assignment_option(
    parser: argparse.ArgumentParser, *, required: bool = True, description: str = "assignment id or folder"
) -> None:
    parser.add_argument("--assignment", "-a", required=required, default=None, help=description)
