"""Waiting for the kernel's next message: poll briefly, yielding the CPU, then sleep.

Both of the grader's transports (the comm's iopub socket and the shim's request socket)
wait this way: a small request's answer can come within a tenth of a millisecond, and waking
from a sleep adds about 0.3 ms to a round trip on a virtual machine, so a wait polls that long
before it sleeps (see ``SPIN_SECONDS``).
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable

from grader.execution.channel.protocol import SPIN_SECONDS


class Readiness:
    """One wait of at most ``within`` seconds, polled for ``SPIN_SECONDS`` before it sleeps."""

    def __init__(self, within: float) -> None:
        now = time.monotonic()
        self.give_up, self.spin_until = now + within, now + SPIN_SECONDS

    def wait(self, poll: Callable[[int], object]) -> bool:
        """Whether ``poll(milliseconds)`` (truthy when there is something to read) saw
        something before the wait's time ran out; it may be asked again after a read."""
        while (now := time.monotonic()) < self.give_up:
            spinning = now < self.spin_until
            if poll(0 if spinning else math.ceil((self.give_up - now) * 1000)):
                return True
            if spinning:
                os.sched_yield()
        return False
