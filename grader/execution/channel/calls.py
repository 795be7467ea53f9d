"""Call a student's functions in the executed kernel and get plain data back.

A batch of :class:`Call` specs goes to the kernel in one request and comes back as
:class:`CallOutcome` values over a :class:`~grader.execution.channel.link.ShimLink`; the
kernel side is :mod:`grader.execution.channel.shim`. Values travel in the tagged JSON of
:mod:`grader.execution.channel.wire_format` and are decoded here into plain Python data,
numpy arrays and :class:`RemoteObject` snapshots. Nothing from the kernel is ever unpickled or evaluated.

Per-call timeouts are enforced inside the kernel with an alarm, so one slow call costs only
its own timeout. When a call ignores the alarm the grader interrupts the kernel; when it
ignores that too, or kills the kernel, the kernel is restarted with the notebook replayed
and the remaining calls go on. The shim writes the index of the running call to a small
progress file before each call, so the call that caused the trouble is known exactly; the
calls before it whose outcomes had not been sent yet simply run again.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from jupyter_core.utils import run_sync

from grader.execution.channel.exploration import MAX_STEPS, unpack_boards
from grader.execution.channel.link import KernelDied, KernelUnresponsive, RequestAborted, ShimLink
from grader.execution.channel.protocol import (
    OP_CALLS,
    OP_DEFINED_NAMES,
    STATUS_MISSING,
    STATUS_OK,
    STATUS_RAISED,
    STATUS_SKIPPED,
    STATUS_TIMEOUT,
    STATUS_UNSERIALIZABLE,
    BatchTail,
    CallRequest,
    DefinedNamesReply,
    ExplorationData,
    ExploreRequest,
    MadeRequest,
    OutcomeData,
)
from grader.execution.channel.wire_format import decode, encode

# Slack on top of a call's own timeout before the grader steps in: the kernel's alarm
# normally ends an overrunning call, and outcomes are sent at least every 50 ms.
_CALL_SLACK_SECONDS = 1.0


class CallStatus(str, enum.Enum):
    """What happened to one call."""

    OK = STATUS_OK
    RAISED = STATUS_RAISED
    """Student code raised an exception (``error`` says which)."""
    TIMEOUT = STATUS_TIMEOUT
    MISSING = STATUS_MISSING
    """The target, a counted name or a chained method is not defined, or is not callable."""
    KILLED = "killed"
    """The kernel died during the call; it was restarted for the calls after it."""
    UNSERIALIZABLE = STATUS_UNSERIALIZABLE
    """The result (or an argument) cannot be represented as plain data."""
    SKIPPED = STATUS_SKIPPED
    """Not started (``error`` says why): never evidence about the student's code."""


@dataclass(frozen=True)
class Explore:
    """Record the search a call runs: its nodes are the calls of the student's recursive
    code, wherever the recursion lives (a helper, a closure, ``max_value``/``min_value``,
    methods), and optionally the position each node was entered with."""

    trace: bool = False
    board_global: str | None = None
    """The notebook global that holds the board; None: the first argument holding one."""
    board_attribute: str | None = None
    """The attribute of an argument (``self.board``) that holds the board, when the board
    lives in an object."""
    marks: tuple[Any, Any, tuple[Any, ...]] = ("X", "O", (" ",))
    """How the assignment's encoding writes X, O and an empty cell
    (`reference.codecs.BoardEncoding.marks`)."""
    max_steps: int = MAX_STEPS
    """Positions recorded at most; a longer search is reported as incomplete."""

    def to_request(self) -> ExploreRequest:
        return {
            "trace": self.trace,
            "board_global": self.board_global,
            "board_attribute": self.board_attribute,
            "marks": [self.marks[0], self.marks[1], list(self.marks[2])],
            "max_steps": self.max_steps,
        }


@dataclass(frozen=True)
class CallExploration:
    """The search one call ran, as the kernel's recorder saw it."""

    nodes: int
    """Calls of the search (the root included)."""
    search: Mapping[str, int]
    """The functions taken for the search (``qualname:line``) and their calls."""
    steps: tuple[str | None, ...] | None
    """The position each node was entered with, in call order (``None`` where the board could
    not be read); None unless traced."""
    complete: bool
    """``steps`` holds every node: the search ended within the cap."""

    @classmethod
    def from_data(cls, data: ExplorationData) -> CallExploration:
        packed = data["steps"]
        return cls(
            nodes=int(data["nodes"]),
            search=dict(data["search"]),
            steps=None if packed is None else tuple(unpack_boards(packed)),
            complete=bool(data["complete"]),
        )


@dataclass(frozen=True)
class MadeObject:
    """An object the kernel makes for a call, within its time: ``factory(*args, **kwargs)``
    with ``attributes`` written to it, passed as the target's arguments at ``slots``."""

    factory: str
    """Dotted name of a class or function in the notebook's namespace (``"Board"``)."""
    args: tuple = ()
    kwargs: Mapping[str, object] = field(default_factory=dict)
    attributes: Mapping[str, object] = field(default_factory=dict)
    """Written to the new object: ``{"cells": [...]}``."""
    slots: tuple[int | str, ...] = ()
    """The target's arguments that receive the object: positions, or keyword names."""

    def to_request(self) -> MadeRequest:
        return {
            "factory": self.factory,
            "args": [encode(value) for value in self.args],
            "kwargs": [[name, encode(value)] for name, value in self.kwargs.items()],
            "attributes": [[name, encode(value)] for name, value in self.attributes.items()],
            "slots": list(self.slots),
        }


@dataclass(frozen=True)
class Call:
    """One call of a student's function, as the grader wants it made."""

    target: str
    """Dotted name in the notebook's namespace: ``"minimax"``, ``"State"`` (constructs)."""
    args: tuple = ()
    kwargs: Mapping[str, object] = field(default_factory=dict)
    then: tuple[tuple[str, tuple, Mapping[str, object]], ...] = ()
    """Methods called on the result in turn: ``(("minmax", ("max",), {}),)``."""
    set_globals: Mapping[str, object] = field(default_factory=dict)
    """Assigned (dotted names allowed) before the call; they stay assigned afterwards."""
    set_attributes: Mapping[str, object] = field(default_factory=dict)
    """Written to the object the target returns before the ``then`` methods are called:
    ``Game()`` with ``{"board": ...}``, then ``.minimax(0, True)``."""
    made: MadeObject | None = None
    """An object made before the call and passed as some of its arguments."""
    read_globals: tuple[str, ...] = ()
    """Dotted names read after the call into ``CallOutcome.globals_after``."""
    count: tuple[str, ...] = ()
    """Functions or methods (``"min"``, ``"State.minmax"``) whose calls are counted."""
    count_all: bool = False
    """Count every function and method the notebook defines, each under its own name."""
    check_mutation: bool = True
    """Report whether the call changed an argument or a ``set_globals`` value."""
    timeout: float = 10.0
    explore: Explore | None = None
    """Record the search the call runs (``CallOutcome.exploration``)."""
    start_within: float | None = None
    """Not started once the batch has run this many seconds (a check's share of the budget)."""
    skip_after_timeout: bool = False
    """Not started once an earlier call of the same batch ran out of its time: the grader
    decides what the rest deserve (see `grader.execution.hangs`)."""

    def to_request(self) -> CallRequest:
        return {
            "target": self.target,
            "args": [encode(value) for value in self.args],
            "kwargs": [[name, encode(value)] for name, value in self.kwargs.items()],
            "then": [
                [name, [encode(v) for v in args], [[k, encode(v)] for k, v in kwargs.items()]]
                for name, args, kwargs in self.then
            ],
            "set_globals": [[name, encode(value)] for name, value in self.set_globals.items()],
            "set_attributes": [[name, encode(value)] for name, value in self.set_attributes.items()],
            "made": None if self.made is None else self.made.to_request(),
            "read_globals": list(self.read_globals),
            "count": list(self.count),
            "count_all": self.count_all,
            "check_mutation": self.check_mutation,
            "timeout": self.timeout,
            "explore": None if self.explore is None else self.explore.to_request(),
            "start_within": self.start_within,
            "skip_after_timeout": self.skip_after_timeout,
        }


@dataclass(frozen=True)
class CallOutcome:
    """What one call did, in plain data."""

    status: CallStatus
    value: object = None
    """The result, decoded: plain data, numpy arrays, :class:`RemoteObject` snapshots."""
    error: str | None = None
    """``"ZeroDivisionError: division by zero"``, or why the call could not run."""
    counts: Mapping[str, int] = field(default_factory=dict)
    mutated: bool = False
    globals_after: Mapping[str, object] = field(default_factory=dict)
    """Values of ``read_globals`` names that exist and could be transferred."""
    stdout: str = ""
    """What the call printed (stdout and stderr), truncated."""
    duration: float = 0.0
    traceback: str = ""
    """The last frames of the student's traceback for ``RAISED``."""
    exploration: CallExploration | None = None
    """The search the call ran, when it was asked to ``explore``."""

    @property
    def ok(self) -> bool:
        return self.status is CallStatus.OK


@dataclass(frozen=True)
class RemoteObject:
    """A snapshot of an object that lives in the kernel: its type and plain attributes.

    ``attributes`` is None for objects nested inside another object's attributes (only the
    outermost object is sent with its attributes). Attributes read as ``obj.gameplan``.
    """

    type_name: str
    module: str | None
    attributes: Mapping[str, object] | None

    def __getattr__(self, name: str) -> object:
        attributes = self.__dict__.get("attributes")
        if name.startswith("__") or not attributes or name not in attributes:
            raise AttributeError(name)
        return attributes[name]


@dataclass(frozen=True)
class Unrepresented:
    """Stands in for a value that could not be sent (``kind`` "opaque") or a cycle."""

    kind: str
    type_name: str


@dataclass(frozen=True)
class DefinedNames:
    """What a notebook defines, for suggesting look-alikes of a missing function."""

    functions: tuple[str, ...]
    classes: Mapping[str, tuple[str, ...]]
    """Class name -> its own methods."""
    variables: tuple[str, ...]
    references: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Function or class -> the notebook's functions and classes its code names."""


def decode_value(data: Any) -> Any:
    """Decode tagged data from the kernel into grader-side values."""
    return decode(data, on_object=RemoteObject, on_marker=Unrepresented)


class KernelUnavailable(RuntimeError):
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
        def patience() -> float:
            running = self._owner.link.running_call()
            if running is None or running >= len(batch):
                return max(calls[i].timeout for i in batch) + _CALL_SLACK_SECONDS
            return calls[batch[running]].timeout + _CALL_SLACK_SECONDS

        def on_outcomes(start: int, reported: list[OutcomeData]) -> None:
            for offset, data in enumerate(reported):
                outcomes[batch[start + offset]] = outcome_from(data)

        self._owner.link.forget_running_call()
        last: BatchTail = await self._owner.link.request(
            OP_CALLS,
            {"calls": [requests[i] for i in batch]},
            patience=patience,
            on_outcomes=on_outcomes,
        )
        on_outcomes(last["start"], last["outcomes"])


def outcome_from(data: OutcomeData) -> CallOutcome:
    """A call's outcome as the kernel reported it, its values decoded."""
    status, error = CallStatus(data["status"]), data["error"]
    exploration = None
    try:
        value = decode_value(data["value"])
        globals_after = {name: decode_value(value) for name, value in data["globals"]}
        explored = data.get("exploration")
        exploration = None if explored is None else CallExploration.from_data(explored)
    except (ValueError, TypeError, KeyError) as trouble:
        status, value, globals_after = CallStatus.UNSERIALIZABLE, None, {}
        error = f"the reply could not be decoded: {trouble}"
    return CallOutcome(
        status=status,
        value=value,
        error=error,
        counts=dict(data["counts"]),
        mutated=bool(data["mutated"]),
        globals_after=globals_after,
        stdout=data["stdout"],
        duration=float(data["duration"]),
        traceback=data["traceback"],
        exploration=exploration,
    )


def _trouble_outcome(trouble: Exception, call: Call) -> CallOutcome:
    if isinstance(trouble, KernelDied):
        return CallOutcome(CallStatus.KILLED, error=f"{trouble} during this call; it was restarted")
    return CallOutcome(
        CallStatus.TIMEOUT,
        error=f"the call took longer than {call.timeout:g} s and did not stop when interrupted; "
        "the kernel was restarted",
        duration=call.timeout,
    )


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
    "Unrepresented",
]
