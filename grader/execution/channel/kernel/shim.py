"""The part of the grader that lives inside the student's kernel: its IPython wiring.

The grader sends the source of :mod:`~grader.execution.channel.protocol`, of the wire format,
of :mod:`~grader.execution.channel.kernel.references`, of :mod:`~grader.execution.channel.kernel.executor`
and then this file's, and executes them in one
private namespace whose builtins are a copy taken before any student code ran: a notebook
that defines ``max``/``min`` or monkeypatches ``builtins`` does not change what this code
sees. Loaded as a module (tests, type checking), it imports those neighbours instead. Once
installed, the shim:

* answers ``input()`` from the scripted answers and raises :class:`ScriptedInputExhausted`,
  a ``BaseException``, once they run out; each exchange is appended to a log file at once,
  so it is known even when the kernel dies right after;
* caps what a cell can print, so a flood of output never leaves the kernel;
* turns ``exit()``/``quit()`` into ``SystemExit`` (which ends only the cell) instead of a
  kernel shutdown;
* hides the grader's own packages from ``import``;
* puts back the builtins a notebook deletes or replaces (``builtins.__import__ = None``)
  after each statement, which the kernel's own machinery needs (the executor's
  :class:`~grader.execution.channel.kernel.builtins_guard.BuiltinsGuard`, which also runs after each call);
* runs batches of function calls for the grader with a :class:`CallExecutor` on the
  notebook's namespace, and reports plain data back.

Requests come as messages on a Jupyter comm the grader opens once the shim is installed
(its target's name is private to the session); they run in the kernel's main thread like a
cell would, without IPython's cell machinery. Replies are messages on the same comm whose
payload carries a per-session nonce, so nothing a notebook prints or displays can pass for
a reply. For a run of requests (the checks' calls) the grader sends ``OP_SERVE`` and the
shim stays in that comm message, reading requests from a Unix socket it connected to at
install and answering on it: a round trip then costs no trip through the kernel's threads
and message loop (a few hundredths of a millisecond instead of about half a millisecond).
Replies hold only tagged JSON; the grader decodes it without unpickling or evaluating
anything, and computes every verdict itself. Only the standard library is used.
"""

from __future__ import annotations

import builtins
import contextlib
import getpass
import os
import select
import socket
import sys
import time
from collections.abc import Callable
from json import dumps as _json_dumps
from json import loads as _json_loads
from typing import Any

if __name__ != globals().get("KERNEL_NAMESPACE"):  # in the kernel, the sources sent before define these
    from grader.errors import GraderSignal
    from grader.execution.channel.kernel.call_clock import CpuMeter
    from grader.execution.channel.kernel.executor import CallExecutor, student_traceback
    from grader.execution.channel.protocol import (
        ERROR_CHARS,
        FLUSH_INTERVAL,
        FRAME_LENGTH_BYTES,
        FRAME_MAX_BYTES,
        OP_CALLS,
        OP_DEFINED_NAMES,
        OP_LEAVE,
        OP_SERVE,
        OP_STDIN_POSITION,
        REPLY_DONE,
        REPLY_ERROR,
        REPLY_LEFT,
        REPLY_OUTCOMES,
        REPLY_READY,
        SPIN_SECONDS,
        STDIN_LOG_ENTRIES,
        BatchTail,
        CallRequest,
        OutcomeData,
        cell_output_truncated,
    )

_NO_BUILTIN = object()
# Builtins that IPython and ipykernel set while a cell runs (see _Shim.enter_cell_context).
_CELL_BUILTINS = ("input", "get_ipython", "exit", "quit")


class ScriptedInputExhausted(GraderSignal):
    """``input()`` was called after the scripted answers ran out.

    A `GraderSignal`, not an ``Exception``, so that a student's ``except Exception`` retry loop cannot
    swallow it and spin until the cell times out.
    """


class _BlockedImports:
    """A meta path entry that refuses the grader's own packages."""

    def __init__(self, names: list[str]) -> None:
        self.names = frozenset(names)

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> None:
        if name.partition(".")[0] in self.names:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None


class _Shim:
    def __init__(self, config: dict[str, Any]) -> None:
        from IPython import get_ipython

        self.nonce: str = config["nonce"]
        self.answers: list[str] = list(config["stdin"])
        self.position = 0
        self.output_limit: int = config["output_chars"]
        # Both files are the grader's and writable by this kernel only now, while the shim is
        # installed: the descriptors opened here are the only way to write them.
        self.progress = os.open(config["progress_path"], os.O_WRONLY)
        self.cpu_meter = CpuMeter(self.progress)
        self.stdin_log = os.open(config["stdin_log_path"], os.O_WRONLY | os.O_APPEND)
        self.stdin_log_entries = 0
        self.shell = get_ipython()
        self.kernel = self.shell.kernel
        # The builtins IPython sets per cell are its own business (see enter_cell_context).
        self.executor = CallExecutor(
            self.shell.user_ns, output_chars=self.output_limit, unguarded_builtins=(*_CELL_BUILTINS, "_")
        )
        self.builtins_guard = self.executor.builtins_guard
        self.displayhook = self.shell.displayhook
        self.excepthook = self.shell.excepthook
        self.comm: Any = None
        # The request socket (see the module's docstring), connected now, before any student
        # code; the grader unlinks its path once it accepted this connection.
        self.requests = _connect(config.get("request_socket"))
        self.serving = False
        self.cell_output_used = 0
        self.cell_output_truncated = False

    # installation ---------------------------------------------------------------------

    def install(self, comm_target: str, blocked: list[str]) -> None:
        # ipykernel points builtins.input at kernel.raw_input for every execute request
        # (grader calls set it themselves, see enter_cell_context).
        self.kernel.raw_input = self.scripted_input
        self.kernel.getpass = self.scripted_input
        self.shell.ask_exit = self.exit_instead
        # Plain, uncoloured tracebacks: IPython's default context mode takes seconds to
        # format a RecursionError, and the grader shows tracebacks as text anyway.
        self.shell.InteractiveTB.set_mode(mode="Plain")
        self.shell.colors = "nocolor"
        self.shell.events.register("pre_run_cell", self.start_cell)
        self.guard_builtins()
        sys.meta_path.insert(0, _BlockedImports(blocked))
        self.kernel.comm_manager.register_target(comm_target, self.open_comm)

    def guard_builtins(self) -> None:
        """Put the builtins back after every top-level statement IPython runs, and before it
        formats a traceback (which it does before the statement is over)."""
        run_code = self.shell.run_code
        show_traceback = self.shell.showtraceback
        restore = self.builtins_guard.restore

        async def guarded_run_code(code_obj: Any, result: Any = None, *, async_: bool = False) -> Any:
            try:
                return await run_code(code_obj, result, async_=async_)
            finally:
                restore()

        def guarded_show_traceback(*args: Any, **kwargs: Any) -> Any:
            restore()
            return show_traceback(*args, **kwargs)

        self.shell.run_code = guarded_run_code
        self.shell.showtraceback = guarded_show_traceback

    def open_comm(self, comm: Any, message: dict[str, Any]) -> None:
        """The grader opened its comm: requests arrive on it from now on.

        The target takes one comm only, so nothing opened later can be handed requests.
        """
        self.kernel.comm_manager.unregister_target(message["content"]["target_name"], self.open_comm)
        self.comm = comm
        comm.on_msg(self.on_message)
        self.send({"kind": REPLY_READY, "serving": self.requests is not None})

    def start_cell(self, info: Any = None) -> None:
        """Reset the output budget and put the cap on the streams for this cell.

        IPython re-wraps ``write`` around every cell (to record output in its history) and
        unwraps it afterwards; the cap goes on top from inside the cell, so output beyond it
        is dropped before IPython or ipykernel ever hold it.
        """
        self.cell_output_used = 0
        self.cell_output_truncated = False
        for stream in (sys.stdout, sys.stderr):
            if not getattr(stream.write, "grader_capped", False):
                stream.write = self.capped_writer(stream.write)  # type: ignore[method-assign]

    def capped_writer(self, write: Callable[[str], Any]) -> Callable[[str], Any]:
        def capped_write(text: str) -> Any:
            if not isinstance(text, str):
                return write(text)
            room = self.output_limit - self.cell_output_used
            if len(text) <= room:
                self.cell_output_used += len(text)
                return write(text)
            if not self.cell_output_truncated:
                self.cell_output_truncated = True
                self.cell_output_used = self.output_limit
                write(text[: max(room, 0)])
                write(cell_output_truncated(self.output_limit))
            return len(text)

        capped_write.grader_capped = True  # type: ignore[attr-defined]
        return capped_write

    def exit_instead(self) -> None:
        raise SystemExit("exit() was called; the grader ends this cell and goes on with the next")

    def scripted_input(self, prompt: Any = "", *args: Any, **kwargs: Any) -> str:
        prompt = str(prompt)
        if self.executor.in_call:
            raise ScriptedInputExhausted(
                "input() was called while the grader was calling a function; "
                "there are no scripted answers for function calls"
            )
        sys.stdout.write(prompt)
        if self.position >= len(self.answers):
            sys.stdout.write("\n")
            self.log_exchange(prompt, None)
            raise ScriptedInputExhausted(
                f"the scripted input ran out: all {len(self.answers)} answers were used "
                f"before this input({prompt!r}) call"
            )
        answer = self.answers[self.position]
        self.position += 1
        self.log_exchange(prompt, answer)
        sys.stdout.write(answer + "\n")
        return answer

    def log_exchange(self, prompt: str, answer: str | None) -> None:
        # A loop that keeps calling input() after the script ran out stops being logged.
        if self.stdin_log_entries < STDIN_LOG_ENTRIES:
            self.stdin_log_entries += 1
            line = _json_dumps({"prompt": prompt[:ERROR_CHARS], "answer": answer}) + "\n"
            os.write(self.stdin_log, line.encode("utf-8"))

    # requests from the grader ------------------------------------------------------------

    def send(self, payload: dict[str, Any]) -> None:
        # The function just called may have changed builtins: ipykernel needs them to send.
        self.builtins_guard.restore()
        if self.serving and self.requests is not None:
            _write_frame(self.requests, payload)
            return
        payload["nonce"] = self.nonce
        self.comm.send(payload)

    def on_message(self, message: dict[str, Any]) -> None:
        """A request on the comm; nothing escapes into ipykernel's message loop.

        An interrupt (or anything else that is not an ``Exception``) outside the calls ends
        the request without a reply, as it ended the cell when requests were cells; the
        grader sees the kernel go idle and knows the request was abandoned.
        """
        try:
            request = _json_loads(message["content"]["data"]["request"])
            if request["op"] == OP_SERVE:
                self.serve(request["session"])
            else:
                self.handle(request)
        except BaseException:  # noqa: BLE001
            pass

    def serve(self, session: int) -> None:
        """Answer requests from the request socket until the grader ends the run.

        An interrupt outside a call ends the run, as it ends a request on the comm; the last
        frame says so. A socket that broke or carried something that is not a request (a
        notebook wrote into it) is closed: the grader sees it end and uses the comm.
        """
        connection = self.requests
        if connection is None:
            return
        self.serving = True
        try:
            while (request := _next_request(connection)) is not None and request["op"] != OP_LEAVE:
                self.handle(request)
        except (OSError, ValueError, TypeError, KeyError):
            self.requests = None
            with contextlib.suppress(OSError):  # a notebook may have closed its descriptor
                connection.close()
        finally:
            self.serving = False
            if self.requests is not None:
                try:
                    _write_frame(self.requests, {"kind": REPLY_LEFT, "session": session})
                except OSError:
                    self.requests = None

    def handle(self, request: dict[str, Any]) -> None:
        request_id = request["id"]
        result: Any
        try:
            if request["op"] == OP_CALLS:
                result = self.run_batch(request_id, request["calls"])
            elif request["op"] == OP_DEFINED_NAMES:
                hidden = set(self.shell.user_ns_hidden) | self.builtins_guard.mirrored_names()
                result = self.executor.defined_names(hidden=hidden)
            elif request["op"] == OP_STDIN_POSITION:
                self.position = request["position"]
                result = None
            else:
                raise ValueError(f"unknown request {request['op']!r}")
        except Exception as error:
            self.send({"kind": REPLY_ERROR, "request": request_id, "error": student_traceback(error)})
        else:
            self.send({"kind": REPLY_DONE, "request": request_id, "result": result})

    def run_batch(self, request_id: str, calls: list[CallRequest]) -> BatchTail:
        """Run the calls; outcomes go out every 50 ms, the rest with the final reply."""
        pending: list[OutcomeData] = []
        first = 0
        last_flush = time.perf_counter()

        def finished(index: int, outcome: OutcomeData) -> None:
            nonlocal first, pending, last_flush
            pending.append(outcome)
            now = time.perf_counter()
            if now - last_flush >= FLUSH_INTERVAL:
                self.send({"kind": REPLY_OUTCOMES, "request": request_id, "start": first, "outcomes": pending})
                first, pending, last_flush = index + 1, [], now

        saved = self.enter_cell_context()
        progress = self.progress
        try:
            # The index of the running call, where the grader can read it if this kernel
            # dies or hangs before the outcomes are sent (it empties the file before a batch).

            def starting(index: int) -> None:
                os.pwrite(progress, index.to_bytes(4, "little"), 0)

            self.cpu_meter.start()
            self.executor.run_batch(calls, finished, starting)
        finally:
            self.cpu_meter.stop()
            self.leave_cell_context(saved)
        return {"start": first, "outcomes": pending}

    def enter_cell_context(self) -> tuple[dict[str, Any], tuple[Any, Any, Any]]:
        """Give the calls what code in a cell sees, which requests on the comm lack.

        ipykernel points ``input``/``getpass`` at the shim only while it runs a cell, and
        IPython swaps builtins (``get_ipython`` added; ``exit``/``quit`` hidden, so that a
        notebook's ``exit()`` finds the namespace's own and reaches :meth:`exit_instead`),
        ``sys.displayhook`` and ``sys.excepthook`` the same way. Returns what
        :meth:`leave_cell_context` puts back.
        """
        names = builtins.__dict__
        saved_builtins = {name: names.get(name, _NO_BUILTIN) for name in _CELL_BUILTINS}
        saved_hooks = getpass.getpass, sys.displayhook, sys.excepthook
        names["input"] = self.scripted_input
        names["get_ipython"] = self.shell.get_ipython
        names.pop("exit", None)
        names.pop("quit", None)
        getpass.getpass, sys.displayhook, sys.excepthook = self.scripted_input, self.displayhook, self.excepthook
        return saved_builtins, saved_hooks

    def leave_cell_context(self, saved: tuple[dict[str, Any], tuple[Any, Any, Any]]) -> None:
        saved_builtins, (getpass.getpass, sys.displayhook, sys.excepthook) = saved
        names = builtins.__dict__
        for name, value in saved_builtins.items():
            if value is _NO_BUILTIN:
                names.pop(name, None)
            else:
                names[name] = value


def _connect(path: str | None) -> socket.socket | None:
    if not path:
        return None
    connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        connection.connect(path)
    except OSError:
        connection.close()
        return None
    return connection


def _next_request(connection: socket.socket) -> Any:
    """The next request on the socket, None once the grader closed it. Polls a moment
    before it sleeps (see ``SPIN_SECONDS``)."""
    give_up = time.perf_counter() + SPIN_SECONDS
    while not select.select([connection], [], [], 0)[0] and time.perf_counter() < give_up:
        os.sched_yield()
    header = _receive_exactly(connection, FRAME_LENGTH_BYTES)
    if header is None:
        return None
    length = int.from_bytes(header, "little")
    if length > FRAME_MAX_BYTES:
        raise ValueError(f"a frame of {length} bytes on the request socket")
    body = _receive_exactly(connection, length)
    return None if body is None else _json_loads(body)


def _receive_exactly(connection: socket.socket, size: int) -> bytearray | None:
    data = bytearray(size)
    view, got = memoryview(data), 0
    while got < size:
        received = connection.recv_into(view[got:])
        if not received:
            return None
        got += received
    return data


def _write_frame(connection: socket.socket, payload: dict[str, Any]) -> None:
    data = _json_dumps(payload, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode("utf-8")
    connection.sendall(len(data).to_bytes(FRAME_LENGTH_BYTES, "little") + data)


def install(config_json: str) -> None:
    """Set the kernel up for grading; called once per kernel before any student code."""
    config = _json_loads(config_json)
    shim = _Shim(config)
    shim.install(config["comm_target"], config["blocked_packages"])
