"""`StopClock`: the clock whose limit stopped a call, in a module that loads nothing else, so
that the notes stored with results can name it without the kernel machinery."""

from __future__ import annotations

import enum

from grader.execution.channel.protocol import CLOCK_CPU, CLOCK_WALL

__all__ = ["StopClock"]


class StopClock(str, enum.Enum):
    """The clock whose limit stopped a call (status ``TIMEOUT``)."""

    CPU = CLOCK_CPU
    """Its limit: the kernel's CPU time."""
    WALL = CLOCK_WALL
    """The wall-clock safety net (`grader.execution.channel.protocol.wall_bound`): the call
    waited (slept, blocked) rather than computed."""

    @property
    def time_words(self) -> str:
        """How the time this clock counts is said: "CPU time", "wall time"."""
        return "CPU time" if self is StopClock.CPU else "wall time"
