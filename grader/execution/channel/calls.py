"""Call a student's functions in the executed kernel and get plain data back.

A batch of :class:`Call` specs goes to the kernel in one request and comes back as
:class:`CallOutcome` values over a :class:`~grader.execution.channel.link.ShimLink`; the
kernel side is :mod:`grader.execution.channel.kernel.shim`. Values travel in the tagged JSON of
:mod:`grader.execution.channel.wire_format` and are decoded here into plain Python data,
numpy arrays and :class:`RemoteObject` snapshots. Nothing from the kernel is ever unpickled or evaluated.

Per-call limits are the kernel's CPU time, enforced inside the kernel with an alarm, so one
slow call costs only its own limit and a loaded machine stops none that would finish on a quiet
one. The grader's wall-clock patience is only a safety net, several times the limit
(:func:`~grader.execution.channel.protocol.wall_bound`): for a call that waits without using
CPU (a ``sleep``), which the alarm never stops, or one that swallows the alarm, the grader
interrupts the kernel; when the call ignores that too, or kills the kernel, the kernel is
restarted with the notebook replayed and the remaining calls go on. The shim writes the index
of the running call to a small progress file before each call, so the call that caused the
trouble is known exactly; the calls before it whose outcomes had not been sent yet simply run
again.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import Protocol

from jupyter_core.utils import run_sync

from grader.errors import GraderError
from grader.execution.channel.call_data import (
    Call,
    CallExploration,
    CallOutcome,
    CallStatus,
    DefinedNames,
    Explore,
    MadeObject,
    RemoteObject,
    StopClock,
    Unrepresented,
    decode_value,
)
from grader.execution.channel.call_watch import CallPatience
from grader.execution.channel.link import KernelDied, KernelUnresponsive, RequestAborted, ShimLink
from grader.execution.channel.protocol import (
    OP_CALLS,
    OP_DEFINED_NAMES,
    BatchTail,
    CallRequest,
    DefinedNamesReply,
    OutcomeData,
    wall_bound,
)


class KernelUnavailable(GraderError, RuntimeError):
    """The session used up its kernel restarts; nothing more can run."""


class KernelOwner(Protocol):
    """What the channel needs from the session that owns the kernel."""

    @property
    def link(self) -> ShimLink: ...

    async def recover_kernel(self) -> None:
        """Replace a dead or stuck kernel with a fresh one that has the notebook replayed.

        Raises :class:`KernelUnavailable` when no further restart is allowed.
        """


class CallChannel:
    """Calls into one session's kernel; get it from ``NotebookSession.calls``."""

    def __init__(self, owner: KernelOwner) -> None:
        self._owner = owner

    def call(self, call: Call) -> CallOutcome:
        return self.call_many([call])[0]

    def call_many(self, calls: Iterable[Call]) -> list[CallOutcome]:
        """Run calls in order, in as few kernel round trips as possible."""
        return run_sync(self._call_many)(list(calls))

    def defined_names(self) -> DefinedNames:
        reply: DefinedNamesReply = run_sync(self._owner.link.request)(OP_DEFINED_NAMES)
        return DefinedNames(
            functions=tuple(reply["functions"]),
            classes={name: tuple(methods) for name, methods in reply["classes"].items()},
            variables=tuple(reply["variables"]),
            references={name: tuple(named) for name, named in reply.get("references", {}).items()},
        )

    async def _call_many(self, calls: list[Call]) -> list[CallOutcome]:
        requests = [call.to_request() for call in calls]
        outcomes: list[CallOutcome | None] = [None] * len(calls)
        aborted = 0
        while todo := [i for i, outcome in enumerate(outcomes) if outcome is None]:
            try:
                await self._run_batch(todo, requests, calls, outcomes)
            except (KernelDied, KernelUnresponsive) as trouble:
                running = self._owner.link.running_call()
                culprit = todo[running] if running is not None and running < len(todo) else None
                if culprit is None or outcomes[culprit] is not None:
                    # Unknown culprit: blame the first call without an outcome.
                    culprit = next(i for i in todo if outcomes[i] is None)
                outcomes[culprit] = _trouble_outcome(trouble, calls[culprit])
                if outcomes[culprit].status is CallStatus.TIMEOUT:  # type: ignore[union-attr]
                    for index in todo:
                        if outcomes[index] is None and calls[index].skip_after_timeout:
                            outcomes[index] = CallOutcome(
                                CallStatus.SKIPPED, error="not started: an earlier call of the batch ran out of time"
                            )
                try:
                    await self._owner.recover_kernel()
                except KernelUnavailable as error:
                    for index in range(len(outcomes)):
                        outcomes[index] = outcomes[index] or CallOutcome(CallStatus.KILLED, error=str(error))
            except RequestAborted:
                aborted += 1
                if aborted > 3:
                    for index in todo:
                        outcomes[index] = outcomes[index] or CallOutcome(
                            CallStatus.KILLED, error="the kernel kept abandoning the grader's requests"
                        )
        return [outcome for outcome in outcomes if outcome is not None]

    async def _run_batch(
        self,
        batch: list[int],
        requests: list[CallRequest],
        calls: list[Call],
        outcomes: list[CallOutcome | None],
    ) -> None:
        def limit_of(running: int | None) -> float:
            if running is None or running >= len(batch):
                return max(calls[i].timeout for i in batch)
            return calls[batch[running]].timeout

        # Past the submission's deadline a call that waits is not waited for.
        wait_until = [until for i in batch if (until := calls[i].wait_until) is not None]
        until = time.monotonic() + min(wait_until) if wait_until else None

        def on_outcomes(start: int, reported: list[OutcomeData]) -> None:
            for offset, data in enumerate(reported):
                outcomes[batch[start + offset]] = outcome_from(data)

        self._owner.link.forget_running_call()
        last: BatchTail = await self._owner.link.request(
            OP_CALLS,
            {"calls": [requests[i] for i in batch]},
            patience=CallPatience(limit_of, until),
            on_outcomes=on_outcomes,
            served=True,  # a RequestAborted is sent again by _call_many
        )
        on_outcomes(last["start"], last["outcomes"])


def outcome_from(data: OutcomeData) -> CallOutcome:
    """A call's outcome as the kernel reported it, its values decoded."""
    status, error = CallStatus(data["status"]), data["error"]
    exploration = None
    try:
        value = decode_value(data["value"])
        globals_after = {name: decode_value(value) for name, value in data["globals"]}
        changed_args = {int(position): decode_value(value) for position, value in data["changed_args"]}
        after = {what: decode_value(value) for what, value in data.get("after") or []}
        logged = {name: tuple(map(decode_value, boards)) for name, boards in (data.get("logged") or {}).items()}
        explored = data.get("exploration")
        exploration = None if explored is None else CallExploration.from_data(explored)
    except (ValueError, TypeError, KeyError) as trouble:
        status, value, globals_after, changed_args, after = CallStatus.UNSERIALIZABLE, None, {}, {}, {}
        logged = {}
        error = f"the reply could not be decoded: {trouble}"
    return CallOutcome(
        status=status,
        value=value,
        error=error,
        counts=dict(data["counts"]),
        logged=logged,
        mutated=bool(data["mutated"]),
        changed_args=changed_args,
        globals_after=globals_after,
        after=after,
        stdout=data["stdout"],
        duration=float(data["duration"]),
        wall=float(data.get("wall") or 0.0),
        stopped_by=None if data.get("clock") is None else StopClock(data["clock"]),
        traceback=data["traceback"],
        exploration=exploration,
    )


def _trouble_outcome(trouble: KernelDied | KernelUnresponsive, call: Call) -> CallOutcome:
    if isinstance(trouble, KernelDied):
        return CallOutcome(CallStatus.KILLED, error=f"{trouble} during this call; it was restarted")
    restarted = "did not stop when interrupted; the kernel was restarted"
    if trouble.clock is StopClock.CPU:
        error = f"the call took longer than {call.timeout:g} s of CPU time and {restarted}"
        return CallOutcome(CallStatus.TIMEOUT, error=error, duration=call.timeout, stopped_by=StopClock.CPU)
    waited = wall_bound(call.timeout)
    error = (
        f"the call was still running after {waited:g} s of wall time, having used less than its "
        f"{call.timeout:g} s of CPU time, and {restarted}"
    )
    return CallOutcome(CallStatus.TIMEOUT, error=error, wall=waited, stopped_by=StopClock.WALL)


__all__ = [
    "Call",
    "CallChannel",
    "CallExploration",
    "CallOutcome",
    "CallStatus",
    "DefinedNames",
    "Explore",
    "KernelUnavailable",
    "MadeObject",
    "RemoteObject",
    "StopClock",
    "Unrepresented",
]
