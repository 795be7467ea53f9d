"""What several commands share: exit statuses, options and Gradescope's folders."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import get_args

from grader.execution.sandbox import SandboxChoice

USAGE_ERROR = 2
"""Exit status for a command that could not do its job as asked (unknown assignment, a file
that is missing or not a notebook, a bad option value)."""
INTERRUPTED = 130
"""Exit status after Ctrl-C, as a shell reports a process killed by SIGINT."""

SANDBOX_CHOICES: tuple[SandboxChoice, ...] = get_args(SandboxChoice)

AUTOGRADER_SUBMISSION_DIR = Path("/autograder/submission")
"""Where Gradescope unpacks the student's upload inside its container."""
AUTOGRADER_RESULTS_PATH = Path("/autograder/results/results.json")
"""Where Gradescope reads the results from."""


def add_sandbox_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--sandbox",
        choices=SANDBOX_CHOICES,
        default="auto",
        help="isolation of the student's kernel (default auto: bubblewrap where it works, else limits)",
    )


def add_assignment_option(
    parser: argparse.ArgumentParser, *, required: bool = True, description: str = "assignment id or folder"
) -> None:
    parser.add_argument("--assignment", "-a", required=required, default=None, help=description)
