"""Which isolation a command runs students' code under, decided before any of it runs.

Fail closed: students' code runs under bubblewrap, or under a weaker mode only when someone
chose that mode, in one of three places (the first that says wins):

1. the command's ``--sandbox`` option;
2. the environment variable ``GRADER_SANDBOX`` (a machine's, or a container image's, setting);
3. ``sandbox`` in the assignment's ``[assignment]`` table (its author's, once for every grader).

When none of them chose and bubblewrap cannot run here, a grading command refuses
(`IsolationRefused`) before it reads or runs a single submission. Only commands that run the
caller's own files (a student checking a notebook, an instructor running a solution) fall back
to resource limits, and they say so.

This module loads nothing of the kernel machinery, so that the command line and the spec can
use it: the sandbox itself is :mod:`grader.execution.sandbox`.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, get_args

from grader.errors import UsageError
from grader.execution.bwrap import bwrap_problem, python_roots
from grader.execution.result import SandboxMode

SandboxChoice = Literal["auto", "bwrap", "limits", "none"]
"""What a caller may ask for: ``auto`` is bubblewrap, or nothing at all where it cannot run."""
SANDBOX_CHOICES: tuple[SandboxChoice, ...] = get_args(SandboxChoice)

ENVIRONMENT_VARIABLE = "GRADER_SANDBOX"
"""Names a sandbox choice for every command run in this environment (``--sandbox`` wins)."""

INSTALL_HINT = "install it (apt-get install bubblewrap)"
CHOICE_HINT = (
    f"where it cannot run (a container without user namespaces), choose reduced isolation: "
    f'--sandbox limits, {ENVIRONMENT_VARIABLE}=limits, or sandbox = "limits" in the assignment\'s '
    "assignment.toml (docs/security.md says what each mode protects against)"
)


class IsolationRefused(UsageError):
    """Students' code would run with less isolation than anyone chose: nothing is run. The
    message is one line that says why and how to fix it."""


@dataclass(frozen=True)
class Isolation:
    """The isolation a command runs students' code under, and who chose it."""

    mode: SandboxMode
    chosen_by: str | None = None
    """Where the mode was chosen (``--sandbox limits``, ``GRADER_SANDBOX=limits``, ...); None:
    nobody chose, bubblewrap was the default."""
    fallback_reason: str | None = None
    """Why a command that may fall back did not get bubblewrap; None when it did not fall back."""
    runs_as_root: bool = False
    """The kernels keep root's rights: the mode cannot move them to a uid of their own."""

    @property
    def reduced(self) -> bool:
        """Less than bubblewrap: the network, the files of the kernel's user, or no limits."""
        return self.mode is not SandboxMode.BWRAP

    @property
    def choice(self) -> SandboxChoice:
        """The mode as a concrete ``--sandbox`` value, for the code that starts kernels."""
        return self.mode.value

    def summary(self) -> str:
        """One line for the terminal and the class page: the mode, what it does not stop, and
        who chose it."""
        if self.mode is SandboxMode.BWRAP:
            text = "Isolation: bubblewrap (no network; only the Python installation visible; resource limits)."
        elif self.mode is SandboxMode.LIMITS:
            text = (
                "Isolation reduced: resource limits only, without bubblewrap. Students' code can reach the "
                "network and read every file its user can read."
            )
        else:
            text = "Isolation off: students' code runs as a trusted program, with no limits at all."
        if self.chosen_by:
            text += f" Chosen by {self.chosen_by}."
        if self.fallback_reason:
            text += f" Bubblewrap is not used because {self.fallback_reason}."
        if self.runs_as_root:
            text += (
                " The kernels run as root: the Python installation is not readable by an unprivileged user, "
                "so they cannot be moved to a uid of their own, and the process limit is not enforced."
            )
        return text


def decide_isolation(
    option: SandboxChoice | None,
    assignment_setting: SandboxChoice | None = None,
    *,
    fall_back: bool = False,
    environment: Mapping[str, str] | None = None,
) -> Isolation:
    """The isolation to run under, from the option, the environment and the assignment.

    ``fall_back``: where nobody chose and bubblewrap cannot run, use resource limits (and say
    why) instead of refusing; only for commands that run the caller's own files.
    Raises `IsolationRefused` when the isolation asked for (or the default) cannot be had.
    """
    choice, chosen_by = requested_choice(option, assignment_setting, environment)
    if choice in ("auto", "bwrap"):
        problem = bwrap_problem()
        if problem is None:
            return Isolation(SandboxMode.BWRAP, chosen_by if choice == "bwrap" else None)
        if choice == "auto" and fall_back:
            return _with_root(Isolation(SandboxMode.LIMITS, None, fallback_reason=problem))
        asked = f"{chosen_by} asks for bubblewrap, but" if choice == "bwrap" else "no sandbox was chosen, and"
        raise IsolationRefused(
            f"students' code is not run without isolation: {asked} {problem}. "
            f"To grade, {INSTALL_HINT}; or, {CHOICE_HINT}."
        )
    return _with_root(Isolation(SandboxMode(choice), chosen_by))


def requested_choice(
    option: SandboxChoice | None,
    assignment_setting: SandboxChoice | None,
    environment: Mapping[str, str] | None = None,
) -> tuple[SandboxChoice, str | None]:
    """The choice that wins and where it was made (None for the default, ``auto``)."""
    if option is not None:
        return option, f"--sandbox {option}"
    named = (os.environ if environment is None else environment).get(ENVIRONMENT_VARIABLE, "").strip()
    if named:
        if named not in SANDBOX_CHOICES:
            raise UsageError(
                f"{ENVIRONMENT_VARIABLE}={named!r} is not a sandbox mode; use one of {', '.join(SANDBOX_CHOICES)}"
            )
        return named, f"{ENVIRONMENT_VARIABLE}={named}"
    if assignment_setting is not None:
        return assignment_setting, f'the assignment (sandbox = "{assignment_setting}" in assignment.toml)'
    return "auto", None


def kernel_runs_as_root(mode: SandboxMode) -> bool:
    """Whether kernels started in ``mode`` keep root's rights (only when the grader is root).

    Bubblewrap binds the interpreter for a uid of the grader's choosing; resource limits alone
    can move the kernel to such a uid only when that uid can reach the interpreter's files; a
    trusted kernel (``none``) keeps the grader's own uid."""
    if os.geteuid() != 0:
        return False
    if mode is SandboxMode.BWRAP:
        return False
    if mode is SandboxMode.NONE:
        return True
    return not all(_traversable_by_anyone(Path(prefix)) for prefix in python_roots())


def _with_root(isolation: Isolation) -> Isolation:
    if isolation.mode is SandboxMode.LIMITS and kernel_runs_as_root(isolation.mode):
        return Isolation(isolation.mode, isolation.chosen_by, isolation.fallback_reason, runs_as_root=True)
    return isolation


def _traversable_by_anyone(path: Path) -> bool:
    """Whether an unprivileged user can reach ``path`` (every ancestor has o+x)."""
    for directory in [path, *path.parents]:
        try:
            if not directory.stat().st_mode & 0o001:
                return False
        except OSError:
            return False
    return True
