"""A call's cap on the nodes of the search it runs: a search that has entered far more nodes than
the reference's is wrong in its count whatever it does next, so it is stopped there rather than
at its time limit.

The nodes are counted where the call counts them: by the wrappers around the names it counts
(:mod:`~grader.execution.channel.kernel.names`) when it names some, else by the exploration
recorder (:mod:`~grader.execution.channel.kernel.exploration`), which draws on the gauge for each
call of a code object known to be recursive so far. A counter the student keeps in a global is
not capped: the kernel does not see it change.

Shipped into the kernel as source after :mod:`grader.errors` and the protocol, before the
modules that use it, so it uses only the standard library.
"""

from __future__ import annotations

from collections.abc import Callable

if __name__ != globals().get("KERNEL_NAMESPACE"):  # in the kernel, the sources sent before define these
    from grader.errors import GraderSignal


class NodeCapReached(GraderSignal):
    """Raised in the student's code when a call's counted nodes reach its cap."""


class NodeGauge:
    """The nodes the running call may still enter. Once they are spent, every further node
    raises :class:`NodeCapReached` again, so a student's bare ``except:`` cannot carry the
    search on past the cap through the counting wrappers; ``on_reached`` is told the first time
    (the recorder's profile hook is gone once it raised: the executor hurries the CPU alarm)."""

    def __init__(self, on_reached: Callable[[], None] | None = None) -> None:
        self.cap: int | None = None
        """The running call's cap; None between calls and for a call without one."""
        self.left = 0
        self.reached: int | None = None
        """The cap the last call reached (even if its code swallowed the signal), else None."""
        self.on_reached = on_reached

    def arm(self, cap: int | None) -> NodeGauge | None:
        """Set for one call; the gauge to draw on, or None when the call has no cap."""
        self.cap, self.reached = cap, None
        self.left = cap if cap is not None else 0
        return self if cap is not None else None

    def disarm(self) -> None:
        """The call is over: what it did next (the grader reading its result) is not a node."""
        self.cap = None

    def take(self) -> None:
        """One node entered: raise once the cap is reached."""
        self.left -= 1
        if self.left <= 0 and self.cap is not None:
            if self.reached is None:
                self.reached = self.cap
                if self.on_reached is not None:
                    self.on_reached()
            raise NodeCapReached()


def node_cap_error(cap: int) -> str:
    """What an outcome says of a call stopped at its cap (status `STATUS_NODE_CAP`)."""
    return f"its search had entered {cap:,} nodes, the cap on this call"
