"""The grader's exceptions share one base, so that a caller can tell the grader's own failures
from any other, and the command line can turn every usage error into one line and exit status 2.

Each exception is defined next to the code that raises it; this module holds only the bases.
It uses nothing beyond the language: it is also sent into the student's kernel, before the
kernel-side modules whose exceptions derive from `GraderError`
(:mod:`grader.execution.channel.link`).

Two signals stay outside on purpose: the kernel side's call timeout and "scripted input ran
out" derive from ``BaseException``, so that a student's ``except Exception`` cannot swallow
them.
"""

from __future__ import annotations


class GraderError(Exception):
    """A failure the grader itself raises and names."""


class UsageError(GraderError):
    """A command cannot do its job as asked: an unknown or broken assignment, an input that
    cannot be used, a bad option value, an output folder that is not what it should be. The
    message is one line that says what to change; the command line prints it after the
    command's name and exits with status 2."""
