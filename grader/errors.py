"""The grader's exceptions share one base, so that a caller can tell the grader's own failures
from any other, and the command line can turn every usage error into one line and exit status 2.

Each exception is defined next to the code that raises it; this module holds only the bases.
It uses nothing beyond the language: it is also sent into the student's kernel, before the
kernel-side modules whose exceptions derive from `GraderError`
(:mod:`grader.execution.channel.link`).

Everything the grader raises derives from `GraderException`. Its errors derive from
`GraderError`, an ``Exception``. Two signals of the kernel side, the call timeout and "scripted
input ran out", derive from `GraderSignal` instead, which is not an ``Exception``, so that a
student's ``except Exception`` cannot swallow them.
"""

from __future__ import annotations


class GraderException(BaseException):
    """The root of what the grader raises: its errors and its signals."""


class GraderError(GraderException, Exception):
    """A failure the grader itself raises and names."""


class GraderSignal(GraderException):
    """Not a failure: the grader stopping the student's code (a call past its time, input past
    the scripted answers). Not an ``Exception``, so that student code cannot catch it by accident."""


class UsageError(GraderError):
    """A command cannot do its job as asked: an unknown or broken assignment, an input that
    cannot be used, a bad option value, an output folder that is not what it should be. The
    message is one line that says what to change; the command line prints it after the
    command's name and exits with status 2."""
