"""Call a student's functions in the executed kernel and get plain data back.

A batch of :class:`Call` specs goes to the kernel in one request and comes back as
:class:`CallOutcome` values; the kernel side is :mod:`grader.execution.channel.shim`. Values travel
in the shim's tagged JSON format and are decoded here into plain Python data, numpy arrays
and :class:`RemoteObject` snapshots. Nothing from the kernel is ever unpickled or evaluated.

Per-call timeouts are enforced inside the kernel with an alarm, so one slow call costs only
its own timeout. When a call ignores the alarm the grader interrupts the kernel; when it
ignores that too, or kills the kernel, the kernel is restarted with the notebook replayed
and the remaining calls go on. The shim writes the index of the running call to a small
progress file before each call, so the call that caused the trouble is known exactly; the
calls before it whose outcomes had not been sent yet simply run again.
"""

from __future__ import annotations

import enum
import json
import secrets
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from queue import Empty
from typing import Any, Protocol

from jupyter_core.utils import run_sync

from grader.execution.channel.wire_format import decode, encode
from grader.execution.sandbox import BLOCKED_PACKAGES, RunningKernel

# The kernel side: the wire format first, then the shim that uses it (see shim.py).
_SHIM_SOURCES = tuple(
    (Path(__file__).parent / name).read_text(encoding="utf-8") for name in ("wire_format.py", "shim.py")
)
_SHIM_FILENAME = "<grader-shim>"
_POLL_SECONDS = 0.2
# Slack on top of a call's own timeout before the grader steps in: the kernel's alarm
# normally ends an overrunning call, and outcomes are sent at least every 50 ms.
_CALL_SLACK_SECONDS = 1.0
_REQUEST_PATIENCE_SECONDS = 30.0


class CallStatus(str, enum.Enum):
    """What happened to one call."""

    OK = "ok"
    RAISED = "raised"
    """Student code raised an exception (``error`` says which)."""
    TIMEOUT = "timeout"
    MISSING = "missing"
    """The target, a counted name or a chained method is not defined, or is not callable."""
    KILLED = "killed"
    """The kernel died during the call; it was restarted for the calls after it."""
    UNSERIALIZABLE = "unserializable"
    """The result (or an argument) cannot be represented as plain data."""


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
    read_globals: tuple[str, ...] = ()
    """Dotted names read after the call into ``CallOutcome.globals_after``."""
    count: tuple[str, ...] = ()
    """Functions or methods (``"min"``, ``"State.minmax"``) whose calls are counted."""
    count_all: bool = False
    """Count every function and method the notebook defines, each under its own name."""
    check_mutation: bool = True
    """Report whether the call changed an argument or a ``set_globals`` value."""
    timeout: float = 10.0

    def to_request(self) -> dict[str, Any]:
        return {
            "target": self.target,
            "args": [encode(value) for value in self.args],
            "kwargs": [[name, encode(value)] for name, value in self.kwargs.items()],
            "then": [
                [name, [encode(v) for v in args], [[k, encode(v)] for k, v in kwargs.items()]]
                for name, args, kwargs in self.then
            ],
            "set_globals": [[name, encode(value)] for name, value in self.set_globals.items()],
            "read_globals": list(self.read_globals),
            "count": list(self.count),
            "count_all": self.count_all,
            "check_mutation": self.check_mutation,
            "timeout": self.timeout,
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

    def callables(self) -> tuple[str, ...]:
        """Functions, classes and ``Class.method`` names, the way a ``Call`` targets them."""
        methods = [f"{name}.{m}" for name, ms in self.classes.items() for m in ms]
        return (*self.functions, *self.classes, *methods)


def decode_value(data: Any) -> Any:
    """Decode tagged data from the kernel into grader-side values."""
    return decode(data, on_object=RemoteObject, on_marker=Unrepresented)


# --- the request/reply link ----------------------------------------------------------------


class KernelDied(RuntimeError):
    """The kernel process ended while the grader was waiting for it."""


class KernelUnresponsive(RuntimeError):
    """The kernel ignored an interrupt and kept running."""


class KernelUnavailable(RuntimeError):
    """The session used up its kernel restarts; nothing more can run."""


class ShimFailed(RuntimeError):
    """The shim reported an error of its own (not the student's)."""


class RequestAborted(RuntimeError):
    """The request ended without a reply (an interrupt landed outside a call)."""


class ShimLink:
    """The grader's end of the shim protocol for one running kernel."""

    def __init__(self, kernel: RunningKernel, *, runtime_dir: Path, interrupt_grace: float) -> None:
        self.kernel = kernel
        # Files the shim writes synchronously, so the grader can read them even after the
        # kernel died: the index of the running call, and every input() exchange.
        self.progress_path = runtime_dir / "call-progress"
        self.stdin_log_path = runtime_dir / "stdin-log.jsonl"
        self.nonce = secrets.token_hex(16)
        # Requests travel on one comm, opened at install: a comm message skips IPython's
        # cell machinery, so a round trip costs about a third of an execute request's.
        self.comm_target = f"grader_shim_{self.nonce[:12]}"
        self.comm_id = secrets.token_hex(16)
        self.interrupt_grace = interrupt_grace

    async def install(self, *, stdin: Sequence[str], output_chars: int, timeout: float) -> None:
        """Send the shim into the kernel and open the request comm; must run before any
        student code."""
        config = json.dumps(
            {
                "nonce": self.nonce,
                "comm_target": self.comm_target,
                "stdin": list(stdin),
                "output_chars": output_chars,
                "progress_path": str(self.progress_path),
                "stdin_log_path": str(self.stdin_log_path),
                "blocked_packages": list(BLOCKED_PACKAGES),
            }
        )
        wire_format, shim = _SHIM_SOURCES
        sources = (wire_format, shim + f"\ninstall({config!r})\n")
        # One expression, so the install leaves no name behind in the notebook's namespace.
        private = "{'__name__': '__grader_shim__', '__builtins__': dict(__import__('builtins').__dict__)}"
        code = (
            f"(lambda namespace: [exec(compile(source, {_SHIM_FILENAME!r}, 'exec'), namespace) "
            f"for source in {sources!r}])({private})"
        )
        client = self.kernel.client
        msg_id = client.execute(code, silent=True, store_history=False, allow_stdin=False, stop_on_error=False)
        deadline = time.monotonic() + timeout
        while True:
            reply = await self._receive(client.get_shell_msg, deadline, "finish setting up the grader's shim")
            if reply["parent_header"].get("msg_id") == msg_id:
                break
        content = reply["content"]
        if content["status"] != "ok":
            raise ShimFailed(f"installing the grader's shim failed: {content.get('ename')}: {content.get('evalue')}")
        await self._open_comm(deadline)

    async def _open_comm(self, deadline: float) -> None:
        """Open the request comm and wait until the shim says it is listening."""
        client = self.kernel.client
        msg = client.session.msg("comm_open", {"comm_id": self.comm_id, "target_name": self.comm_target, "data": {}})
        client.shell_channel.send(msg)
        msg_id = msg["header"]["msg_id"]
        while True:
            reply = await self._receive(client.get_iopub_msg, deadline, "open the grader's comm")
            if reply["parent_header"].get("msg_id") != msg_id:
                continue
            payload = self._payload(reply)
            if payload is not None and payload.get("kind") == "ready":
                return
            if reply["msg_type"] == "status" and reply["content"]["execution_state"] == "idle":
                raise ShimFailed("the grader's shim did not take the request comm")

    async def _receive(self, receive: Callable[..., Any], deadline: float, doing: str) -> dict:
        """The next message from ``receive`` (a channel's getter), checking the kernel is
        alive while it waits; :class:`KernelUnresponsive` once ``deadline`` passes."""
        while True:
            try:
                return await receive(timeout=_POLL_SECONDS)
            except Empty:
                await self._check_alive()
                if time.monotonic() > deadline:
                    raise KernelUnresponsive(f"the kernel did not {doing}") from None

    async def request(
        self,
        op: str,
        body: Mapping[str, Any] | None = None,
        *,
        patience: Callable[[], float] = lambda: _REQUEST_PATIENCE_SECONDS,
        on_outcomes: Callable[[int, list[dict]], None] | None = None,
    ) -> Any:
        """Send one request and wait for its reply.

        ``patience()`` is how long the kernel may go without progress (a message, or a new
        call starting) before it is interrupted; it is asked again each time, so it can
        follow a batch.
        """
        request_id = secrets.token_hex(8)
        # The request travels as one JSON string, not as nested data: ipykernel parses a
        # comm message's content twice (once to route it), which costs far more on a large
        # batch than parsing a string. Replies come as nested data, which is the cheaper way.
        text = json.dumps({"id": request_id, "op": op, **(body or {})}, allow_nan=False)
        client = self.kernel.client
        msg = client.session.msg("comm_msg", {"comm_id": self.comm_id, "data": {"request": text}})
        client.shell_channel.send(msg)
        msg_id = msg["header"]["msg_id"]
        last_progress = time.monotonic()
        running = self.running_call()
        interrupted_at: float | None = None
        while True:
            try:
                msg = await client.get_iopub_msg(timeout=_POLL_SECONDS)
            except Empty:
                await self._check_alive()
                now = time.monotonic()
                if (now_running := self.running_call()) != running:
                    running, last_progress = now_running, now
                if interrupted_at is None and now > last_progress + patience():
                    await self.kernel.manager.interrupt_kernel()
                    interrupted_at = now
                elif interrupted_at is not None and now > interrupted_at + self.interrupt_grace:
                    raise KernelUnresponsive("the kernel did not stop when interrupted") from None
                continue
            if msg["parent_header"].get("msg_id") != msg_id:
                continue
            if msg["msg_type"] == "status" and msg["content"]["execution_state"] == "idle":
                raise RequestAborted(f"the kernel ended the {op!r} request without replying")
            payload = self._payload(msg)
            if payload is None or payload.get("request") != request_id:
                continue
            last_progress, interrupted_at = time.monotonic(), None
            if payload["kind"] == "outcomes" and on_outcomes is not None:
                on_outcomes(payload["start"], payload["outcomes"])
            elif payload["kind"] == "done":
                # Returning before the kernel reports idle saves a message per request; the
                # idle status is skipped with the next request's unrelated messages.
                return payload["result"]
            elif payload["kind"] == "error":
                raise ShimFailed(f"the grader's shim failed: {payload['error']}")

    def forget_running_call(self) -> None:
        """Clear the progress file, so a stale index from an earlier batch cannot mislead."""
        self.progress_path.unlink(missing_ok=True)

    def running_call(self) -> int | None:
        """Index (within the last batch) of the call that was running, from the progress file."""
        try:
            data = self.progress_path.read_bytes()
        except OSError:
            return None
        return int.from_bytes(data[:4], "little") if len(data) >= 4 else None

    def read_stdin_log(self, offset: int) -> tuple[list[tuple[str, str | None]], int]:
        """``input()`` exchanges logged since byte ``offset``, and the new offset."""
        try:
            with open(self.stdin_log_path, "rb") as log:
                log.seek(offset)
                data = log.read()
        except FileNotFoundError:
            return [], offset
        complete = data[: data.rfind(b"\n") + 1]
        exchanges = []
        for line in complete.splitlines():
            try:
                entry = json.loads(line)
                exchanges.append((str(entry["prompt"]), entry["answer"] if isinstance(entry["answer"], str) else None))
            except (ValueError, KeyError, TypeError):
                continue  # a line the notebook scribbled into the log itself
        return exchanges, offset + len(complete)

    def _payload(self, msg: dict) -> dict | None:
        """The shim payload of a message, if it is one on this session's comm and carries
        this session's nonce."""
        if msg["msg_type"] != "comm_msg" or msg["content"].get("comm_id") != self.comm_id:
            return None
        payload = msg["content"].get("data")
        if not isinstance(payload, dict) or payload.get("nonce") != self.nonce:
            return None
        return payload

    async def _check_alive(self) -> None:
        if not await self.kernel.manager.is_alive():
            raise KernelDied(describe_exit(self.kernel))


def describe_exit(kernel: RunningKernel) -> str:
    """'the kernel died' with the exit status when it is known."""
    process = getattr(kernel.manager.provisioner, "process", None)
    code = process.poll() if process is not None else None
    if code is None:
        return "the kernel died"
    if code < 0 or code > 128:
        number = -code if code < 0 else code - 128
        return f"the kernel died (killed by signal {number})"
    return f"the kernel died (exit status {code})"


# --- the public channel -----------------------------------------------------------------------


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
        reply = run_sync(self._owner.link.request)("defined_names")
        return DefinedNames(
            functions=tuple(reply["functions"]),
            classes={name: tuple(methods) for name, methods in reply["classes"].items()},
            variables=tuple(reply["variables"]),
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
        requests: list[dict],
        calls: list[Call],
        outcomes: list[CallOutcome | None],
    ) -> None:
        def patience() -> float:
            running = self._owner.link.running_call()
            if running is None or running >= len(batch):
                return max(calls[i].timeout for i in batch) + _CALL_SLACK_SECONDS
            return calls[batch[running]].timeout + _CALL_SLACK_SECONDS

        def on_outcomes(start: int, reported: list[dict]) -> None:
            for offset, data in enumerate(reported):
                outcomes[batch[start + offset]] = _outcome_from(data)

        self._owner.link.forget_running_call()
        last = await self._owner.link.request(
            "calls",
            {"calls": [requests[i] for i in batch]},
            patience=patience,
            on_outcomes=on_outcomes,
        )
        on_outcomes(last["start"], last["outcomes"])


def _outcome_from(data: Mapping[str, Any]) -> CallOutcome:
    status = CallStatus(data["status"])
    try:
        value = decode_value(data["value"])
        globals_after = {name: decode_value(value) for name, value in data["globals"]}
    except (ValueError, TypeError, KeyError) as error:
        status, value, globals_after = CallStatus.UNSERIALIZABLE, None, {}
        data = {**data, "error": f"the reply could not be decoded: {error}"}
    return CallOutcome(
        status=status,
        value=value,
        error=data["error"],
        counts=dict(data["counts"]),
        mutated=bool(data["mutated"]),
        globals_after=globals_after,
        stdout=data["stdout"],
        duration=float(data["duration"]),
        traceback=data["traceback"],
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
    "CallOutcome",
    "CallStatus",
    "DefinedNames",
    "RemoteObject",
    "Unrepresented",
]
