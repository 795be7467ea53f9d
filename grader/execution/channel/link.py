"""The grader's end of the shim's transport: install the shim, then requests and replies.

:class:`ShimLink` sends the kernel-side sources into a freshly started kernel, opens the
comm the requests travel on, and waits for each request's reply while watching that the
kernel lives and makes progress. A run of requests can instead take the shim's request
socket (:mod:`grader.execution.channel.request_socket`), which skips the kernel's message
loop; the link switches back to the comm before anything else uses the kernel. Besides
these, the shim writes two small files the grader reads even after the kernel died: the
index of the running call, and every ``input()`` exchange. What the replies mean is
:mod:`grader.execution.channel.calls`' business.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from hmac import compare_digest
from queue import Empty
from typing import Any

import zmq
from jupyter_client.session import DELIM, Session
from zmq.backend import zmq_poll

from grader.errors import GraderError
from grader.execution.channel.call_data import StopClock
from grader.execution.channel.call_watch import Patience, WallPatience, forget_progress, read_progress
from grader.execution.channel.kernel_sources import KERNEL_SOURCES
from grader.execution.channel.protocol import (
    KERNEL_NAMESPACE,
    OP_LEAVE,
    OP_SERVE,
    REPLY_DONE,
    REPLY_ERROR,
    REPLY_LEFT,
    REPLY_OUTCOMES,
    REPLY_READY,
)
from grader.execution.channel.readiness import Readiness
from grader.execution.channel.request_socket import RequestListener, RequestSocket, SocketEnded
from grader.execution.runtime_dir import RuntimeDir
from grader.execution.sandbox import BLOCKED_PACKAGES, RunningKernel

_KERNEL_FILENAME = "<grader-shim>"
_POLL_SECONDS = 0.2
_DEATH_SECONDS = 1.0
"""How long the request socket's closing is taken as the kernel's death still to be seen: the
process ends a moment after its sockets close."""
_PATIENCE_SECONDS = 30.0
_POLLIN = int(zmq.POLLIN)  # zmq_poll with plain ints: a socket's own poll() and get() build enums
STDIN_LOG_READ_BYTES = 16 * 1024**2
"""The most of the input() log read at once (the shim's own entries take a few dozen bytes
each), so that a notebook writing into the shim's descriptor cannot make the grader hold
the whole file; what is left is read the next time."""


class KernelDied(GraderError, RuntimeError):
    """The kernel process ended while the grader was waiting for it."""


class KernelUnresponsive(GraderError, RuntimeError):
    """The kernel ignored an interrupt and kept running; ``clock`` ran out first."""

    def __init__(self, message: str, clock: StopClock = StopClock.WALL) -> None:
        super().__init__(message)
        self.clock = clock


class ShimFailed(GraderError, RuntimeError):
    """The shim reported an error of its own (not the student's)."""


class RequestAborted(GraderError, RuntimeError):
    """The request ended without a reply (an interrupt landed outside a call)."""


@dataclass(frozen=True)
class _Sockets:
    """The client's shell and iopub sockets, used directly for requests: a round trip then
    costs no asyncio future per message, and no parsing of the messages that answer other
    requests (the previous request's idle status, mostly)."""

    shell: zmq.Socket[bytes]
    iopub: zmq.Socket[bytes]
    """Shadows of the client's own sockets, read without asyncio."""


class RequestAnswers:
    """Picks the messages that answer one request out of raw iopub frames."""

    def __init__(self, msg_id: str, session: Session) -> None:
        self.msg_id = msg_id
        self.quoted = json.dumps(msg_id).encode()
        self.session = session

    def read(self, frames: list[bytes]) -> dict[str, Any] | None:
        """The message's type and content if it answers the request and is signed with the
        connection's key; None for any other message, which is then not parsed at all."""
        try:
            at = frames.index(DELIM)
        except ValueError:
            return None
        parts = frames[at + 1 : at + 6]
        if len(parts) < 5 or self.quoted not in parts[2]:
            return None
        signature, header, parent, _, content = parts
        if self.session.auth is not None and not compare_digest(signature, self.session.sign(parts[1:])):
            return None
        try:
            if self.session.unpack(parent).get("msg_id") != self.msg_id:
                return None
            return {"msg_type": self.session.unpack(header)["msg_type"], "content": self.session.unpack(content)}
        except (ValueError, TypeError, KeyError, AttributeError):
            return None


class ShimLink:
    """The grader's end of the shim protocol for one running kernel."""

    def __init__(self, kernel: RunningKernel, *, runtime: RuntimeDir, interrupt_grace: float) -> None:
        self.kernel = kernel
        # Files the shim writes synchronously, so the grader can read them even after the
        # kernel died: the index of the running call, and every input() exchange.
        self.progress_path = runtime.progress_path
        self.stdin_log_path = runtime.stdin_log_path
        self.nonce = secrets.token_hex(16)
        # Requests travel on one comm, opened at install: a comm message skips IPython's
        # cell machinery, so a round trip costs about a third of an execute request's.
        self.comm_target = f"grader_shim_{self.nonce[:12]}"
        self.comm_id = secrets.token_hex(16)
        self.interrupt_grace = interrupt_grace
        self._raw: _Sockets | None = None
        self._runtime = runtime
        self._requests: RequestSocket | None = None
        self._serving: int | None = None
        """The number of the run of requests the shim is serving from the socket, if any."""
        self._runs = 0

    async def install(self, *, stdin: Sequence[str], output_chars: int, timeout: float) -> None:
        """Send the shim into the kernel and open the request comm; must run before any
        student code."""
        listener = RequestListener(self._runtime, f"requests-{self.nonce[:12]}")
        try:
            await self._install(listener, stdin=stdin, output_chars=output_chars, timeout=timeout)
        finally:
            listener.close()

    async def _install(
        self, listener: RequestListener, *, stdin: Sequence[str], output_chars: int, timeout: float
    ) -> None:
        config = json.dumps(
            {
                "nonce": self.nonce,
                "comm_target": self.comm_target,
                "stdin": list(stdin),
                "output_chars": output_chars,
                "progress_path": str(self.progress_path),
                "stdin_log_path": str(self.stdin_log_path),
                "blocked_packages": list(BLOCKED_PACKAGES),
                "request_socket": listener.address,
            }
        )
        *first, last = KERNEL_SOURCES
        sources = (*first, last + f"\ninstall({config!r})\n")
        # One expression, so the install leaves no name behind in the notebook's namespace.
        private = f"{{'__name__': {KERNEL_NAMESPACE!r}, '__builtins__': dict(__import__('builtins').__dict__)}}"
        code = (
            f"(lambda namespace: [exec(compile(source, {_KERNEL_FILENAME!r}, 'exec'), namespace) "
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
        if await self._open_comm(deadline):
            self._requests = listener.accept(within=max(deadline - time.monotonic(), 0.1))

    async def _open_comm(self, deadline: float) -> bool:
        """Open the request comm and wait until the shim says it is listening; whether it
        connected to the request socket too."""
        client = self.kernel.client
        msg = client.session.msg("comm_open", {"comm_id": self.comm_id, "target_name": self.comm_target, "data": {}})
        client.shell_channel.send(msg)
        msg_id = msg["header"]["msg_id"]
        while True:
            reply = await self._receive(client.get_iopub_msg, deadline, "open the grader's comm")
            if reply["parent_header"].get("msg_id") != msg_id:
                continue
            payload = self._payload(reply)
            if payload is not None and payload.get("kind") == REPLY_READY:
                return payload.get("serving") is True
            if reply["msg_type"] == "status" and reply["content"]["execution_state"] == "idle":
                raise ShimFailed("the grader's shim did not take the request comm")

    async def _receive(self, receive: Callable[..., Any], deadline: float, doing: str) -> dict[str, Any]:
        """The next message from ``receive`` (a channel's getter), checking the kernel is
        alive while it waits; :class:`KernelUnresponsive` once ``deadline`` passes."""
        while True:
            try:
                message: dict[str, Any] = await receive(timeout=_POLL_SECONDS)
                return message
            except Empty:
                await self._check_alive()
                if time.monotonic() > deadline:
                    raise KernelUnresponsive(f"the kernel did not {doing}") from None

    async def request(
        self,
        op: str,
        body: Mapping[str, Any] | None = None,
        *,
        patience: Patience | None = None,
        on_outcomes: Callable[[int, list[Any]], None] | None = None,
        served: bool = False,
    ) -> Any:
        """Send one request (an ``OP_*`` of the protocol) and wait for its reply.

        ``patience`` says when to interrupt the kernel (by default after 30 s of wall time
        without a reply). ``served`` lets the request take the request socket: for callers
        that send runs of requests and send one again when it ends in
        :class:`RequestAborted` (the socket ending is reported that way). A request on the
        comm ends the shim's run on the socket first; anything else that uses the kernel
        (a cell, a kernel_info request) must call :meth:`leave` before.
        """
        patience = patience or WallPatience(_PATIENCE_SECONDS)
        try:
            return await self._request(op, body, patience, on_outcomes, served=served)
        except SocketEnded as ended:  # written to or read from, the socket ended
            self._stop_serving()
            if ended.closed:  # most often the kernel died: say so, as the comm's wait would
                await self._check_alive(within=_DEATH_SECONDS)
            raise RequestAborted(f"the {op!r} request was cut off: {ended}") from None

    async def _request(
        self,
        op: str,
        body: Mapping[str, Any] | None,
        patience: Patience,
        on_outcomes: Callable[[int, list[Any]], None] | None,
        *,
        served: bool,
    ) -> Any:
        request = {"id": secrets.token_hex(8), "op": op, **(body or {})}
        answers = self._send_served(request) if served and self._serve() else self._send_on_comm(request)
        running, _ = self.progress()
        patience.restart(time.monotonic(), running)
        interrupted_at: float | None = None
        while True:
            payload = answers()
            if payload is None:
                await self._check_alive()
                now = time.monotonic()
                now_running, cpu = self.progress()
                if now_running != running:
                    running = now_running
                    patience.restart(now, running)
                if interrupted_at is None and (clock := patience.overdue(now, cpu)) is not None:
                    await self.kernel.manager.interrupt_kernel()
                    interrupted_at, stopped_on = now, clock
                elif interrupted_at is not None and now > interrupted_at + self.interrupt_grace:
                    raise KernelUnresponsive("the kernel did not stop when interrupted", stopped_on) from None
                continue
            if payload.get("request") != request["id"]:
                continue
            patience.restart(time.monotonic(), running)
            interrupted_at = None
            if payload["kind"] == REPLY_OUTCOMES and on_outcomes is not None:
                on_outcomes(payload["start"], payload["outcomes"])
            elif payload["kind"] == REPLY_DONE:
                return payload["result"]
            elif payload["kind"] == REPLY_ERROR:
                raise ShimFailed(f"the grader's shim failed: {payload['error']}")

    def _send_on_comm(self, request: dict[str, Any]) -> Callable[[], dict[str, Any] | None]:
        """Send a request on the comm; returns what reads its answers: the next payload on
        the comm, or None after ``_POLL_SECONDS`` without one."""
        self.leave()  # the shim takes nothing from the comm while it serves the socket
        # The request travels as one JSON string, not as nested data: ipykernel parses a
        # comm message's content twice (once to route it), which costs far more on a large
        # batch than parsing a string. Replies come as nested data, which is the cheaper way.
        msg = self._comm_message(json.dumps(request, allow_nan=False))
        answers = RequestAnswers(msg["header"]["msg_id"], self.kernel.client.session)
        op = request["op"]

        def answer() -> dict[str, Any] | None:
            while (reply := self._next_answer(answers)) is not None:
                if reply["msg_type"] == "status" and reply["content"]["execution_state"] == "idle":
                    # The shim's last reply ends the wait before the kernel reports idle, which
                    # saves a message per request (that idle status is skipped, unparsed, with
                    # the next request's unrelated messages). Idle first: it was abandoned.
                    raise RequestAborted(f"the kernel ended the {op!r} request without replying")
                if (payload := self._payload(reply)) is not None:
                    return payload
            return None

        return answer

    def _send_served(self, request: dict[str, Any]) -> Callable[[], dict[str, Any] | None]:
        """Send a request on the request socket; returns what reads its answers: the next
        frame, None after ``_POLL_SECONDS`` without one, :class:`SocketEnded` once the run
        ended (the shim stopped serving, or the socket closed)."""
        assert self._requests is not None and self._serving is not None
        requests, run = self._requests, self._serving
        requests.send(request)

        def answer() -> dict[str, Any] | None:
            payload = requests.next_payload(_POLL_SECONDS)
            if not isinstance(payload, dict):
                return None
            if payload.get("kind") == REPLY_LEFT and payload.get("session") == run:
                raise SocketEnded("the shim stopped serving requests (it was interrupted outside a call)", closed=False)
            return payload

        return answer

    def _comm_message(self, text: str) -> dict[str, Any]:
        client = self.kernel.client
        msg: dict[str, Any] = client.session.msg("comm_msg", {"comm_id": self.comm_id, "data": {"request": text}})
        client.session.send(self._sockets().shell, msg)
        return msg

    def _serve(self) -> bool:
        """Whether the shim serves requests from the socket, asking it to when it does not yet."""
        if self._requests is None:
            return False
        if self._serving is None:
            self._runs += 1
            self._serving = self._runs
            self._comm_message(json.dumps({"id": secrets.token_hex(8), "op": OP_SERVE, "session": self._serving}))
        return True

    def leave(self) -> None:
        """End the shim's run of requests from the socket, if one is on. The kernel's main
        thread is then free for cells and other messages, which it takes in order after it."""
        if self._serving is not None and self._requests is not None:
            self._serving = None
            try:
                self._requests.send({"id": secrets.token_hex(8), "op": OP_LEAVE})
            except SocketEnded:
                self._stop_serving()

    def _stop_serving(self) -> None:
        """The socket ended, or the shim left it at an interrupt: from now on the comm
        carries every request, so that a request left unread in the socket never runs later."""
        self._serving = None
        if self._requests is not None:
            self._requests.close()
            self._requests = None

    @property
    def serves_requests(self) -> bool:
        """Whether the shim is connected to the request socket (runs of calls skip the
        kernel's message loop); False once the socket ended."""
        return self._requests is not None

    def close(self) -> None:
        """Before the kernel is stopped: release the request socket."""
        self._stop_serving()

    def _next_answer(self, answers: RequestAnswers) -> dict[str, Any] | None:
        """The next message answering the request, or None once ``_POLL_SECONDS`` passed
        without one (however many other messages came meanwhile).

        It waits synchronously: while a request is out, the event loop it runs on has
        nothing else to do (nbclient runs no cell meanwhile)."""
        iopub = self._sockets().iopub
        waiting_on = [(iopub, _POLLIN)]
        readiness = Readiness(_POLL_SECONDS)
        while readiness.wait(lambda milliseconds: zmq_poll(waiting_on, milliseconds)):
            answer = answers.read(iopub.recv_multipart())
            if answer is not None:
                return answer
        return None

    def _sockets(self) -> _Sockets:
        if self._raw is None:
            client = self.kernel.client
            self._raw = _Sockets(
                shell=zmq.Socket.shadow(client.shell_channel.socket.underlying),
                iopub=zmq.Socket.shadow(client.iopub_channel.socket.underlying),
            )
        return self._raw

    def forget_running_call(self) -> None:
        """Mark the progress file, so a stale index from an earlier batch cannot mislead."""
        forget_progress(self.progress_path)

    def running_call(self) -> int | None:
        """Index (within the last batch) of the call that was running, from the progress file."""
        return self.progress()[0]

    def progress(self) -> tuple[int | None, float | None]:
        """The running call's index and the kernel's CPU time, from the progress file."""
        try:
            with open(self.progress_path, "rb") as progress:
                return read_progress(progress.read(16))
        except OSError:
            return None, None

    def read_stdin_log(self, offset: int) -> tuple[list[tuple[str, str | None]], int]:
        """``input()`` exchanges logged since byte ``offset``, and the new offset."""
        try:
            with open(self.stdin_log_path, "rb") as log:
                log.seek(offset)
                data = log.read(STDIN_LOG_READ_BYTES)
        except FileNotFoundError:
            return [], offset
        complete = data[: data.rfind(b"\n") + 1]
        if not complete and len(data) == STDIN_LOG_READ_BYTES:  # no line in a whole read: scribbled over
            complete = data
        exchanges = []
        for line in complete.splitlines():
            try:
                entry = json.loads(line)
                exchanges.append((str(entry["prompt"]), entry["answer"] if isinstance(entry["answer"], str) else None))
            except (ValueError, KeyError, TypeError):
                continue  # a line the notebook scribbled into the log itself
        return exchanges, offset + len(complete)

    def _payload(self, msg: dict[str, Any]) -> dict[str, Any] | None:
        """The shim payload of a message, if it is one on this session's comm and carries
        this session's nonce."""
        if msg["msg_type"] != "comm_msg" or msg["content"].get("comm_id") != self.comm_id:
            return None
        payload = msg["content"].get("data")
        if not isinstance(payload, dict) or payload.get("nonce") != self.nonce:
            return None
        return payload

    async def _check_alive(self, within: float = 0.0) -> None:
        """:class:`KernelDied` if the kernel ended, or ends ``within`` seconds."""
        give_up = time.monotonic() + within
        while await self.kernel.manager.is_alive():
            if time.monotonic() >= give_up:
                return
            await asyncio.sleep(0.01)
        raise KernelDied(self.kernel.death())
