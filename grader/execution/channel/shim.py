"""The part of the grader that lives inside the student's kernel.

Nothing imports this module. The grader sends the source of :mod:`grader.execution.channel.wire_format` and
then this file's source, and executes both in one private namespace whose builtins are a
copy taken before any student code ran: a notebook that defines ``max``/``min`` or
monkeypatches ``builtins`` does not change what this code sees. ``encode``, ``decode`` and
``Unserializable`` come from the wire format's source. Once installed, the shim:

* answers ``input()`` from the scripted answers and raises :class:`ScriptedInputExhausted`,
  a ``BaseException``, once they run out; each exchange is appended to a log file at once,
  so it is known even when the kernel dies right after;
* caps what a cell can print, so a flood of output never leaves the kernel;
* turns ``exit()``/``quit()`` into ``SystemExit`` (which ends only the cell) instead of a
  kernel shutdown;
* hides the grader's own packages from ``import``;
* runs batches of function calls for the grader and reports plain data back.

Requests come as messages on a Jupyter comm the grader opens once the shim is installed
(its target's name is private to the session); they run in the kernel's main thread like a
cell would, without IPython's cell machinery. Replies are messages on the same comm whose
payload carries a per-session nonce, so nothing a notebook prints or displays can pass for
a reply. They hold only tagged JSON; the grader decodes it without unpickling or evaluating
anything, and computes every verdict itself. Only the standard library is used.
"""

from __future__ import annotations

import builtins
import getpass
import io
import os
import signal
import sys
import time
import traceback
import types
from collections.abc import Callable
from json import dumps as _json_dumps
from json import loads as _json_loads
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # in the kernel these are defined by the wire format's source, run first
    from grader.execution.channel.wire_format import Unserializable, decode, encode

# Outcomes of a batch are sent at most this often: a message costs about half a millisecond,
# many times a small call.
_FLUSH_INTERVAL = 0.05
_TRACEBACK_FRAMES = 8
_TRACEBACK_CHARS = 4000
_ERROR_CHARS = 1000
_STDIN_LOG_ENTRIES = 10_000


class ScriptedInputExhausted(BaseException):
    """``input()`` was called after the scripted answers ran out.

    A ``BaseException`` so that a student's ``except Exception`` retry loop cannot
    swallow it and spin until the cell times out.
    """


class _CappedText(io.TextIOBase):
    """A stdout replacement that keeps the first ``limit`` characters and drops the rest."""

    def __init__(self, limit: int) -> None:
        super().__init__()
        self.limit = limit
        self.parts: list[str] = []
        self.size = 0
        self.truncated = False

    def write(self, text: str) -> int:
        if not isinstance(text, str):
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        room = self.limit - self.size
        if len(text) <= room:
            self.parts.append(text)
            self.size += len(text)
        elif not self.truncated:
            self.parts.append(text[:room])
            self.size = self.limit
            self.truncated = True
        return len(text)

    def writable(self) -> bool:
        return True

    def getvalue(self) -> str:
        text = "".join(self.parts)
        return text + "\n[output truncated]" if self.truncated else text


class _CallTimedOut(BaseException):
    pass


class _CallRefused(Exception):
    """The call cannot be made as asked; ``status`` is the outcome's status."""

    def __init__(self, status: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


class _Counters:
    """Counting wrappers around notebook functions for one batch of calls.

    A wrapper replaces the function under the name the notebook looks it up by (a global
    or a class attribute), so recursive calls through that name are counted too.
    """

    def __init__(self, namespace: dict, names: set[str], count_all: bool) -> None:
        self.namespace = namespace
        self.cells: dict[str, list[int]] = {}
        self.refused: dict[str, str] = {}
        self.undo: list[Callable[[], None]] = []
        self.all_names: list[str] = []
        if count_all:
            self.all_names = _notebook_callables(namespace)
        for name in sorted(names | set(self.all_names)):
            try:
                self._wrap(name)
            except _CallRefused as refusal:
                self.refused[name] = refusal.message

    def _wrap(self, dotted: str) -> None:
        owner_name, _, attribute = dotted.rpartition(".")
        cell = [0]
        if not owner_name:
            original = self.namespace.get(attribute, _MISSING)
            if original is _MISSING:
                raise _CallRefused("missing", f"cannot count calls of {dotted!r}: it is not defined")
            if not callable(original) or isinstance(original, type):
                raise _CallRefused("missing", f"cannot count calls of {dotted!r}: it is not a function")
            wrapper = _counting(original, cell)
            self.namespace[attribute] = wrapper
            self.undo.append(lambda: self._restore_global(attribute, original, wrapper))
        else:
            owner = _resolve(self.namespace, owner_name)
            own = isinstance(owner, type) and attribute in owner.__dict__
            raw = owner.__dict__[attribute] if own else getattr(owner, attribute, _MISSING)
            if raw is _MISSING:
                raise _CallRefused("missing", f"cannot count calls of {dotted!r}: it is not defined")
            if isinstance(raw, staticmethod):
                wrapper = staticmethod(_counting(raw.__func__, cell))
            elif isinstance(raw, classmethod):
                wrapper = classmethod(_counting(raw.__func__, cell))
            elif isinstance(raw, types.FunctionType) or not isinstance(owner, type):
                if not callable(raw):
                    raise _CallRefused("missing", f"cannot count calls of {dotted!r}: it is not a function")
                wrapper = _counting(raw, cell)
            else:
                raise _CallRefused("missing", f"cannot count calls of {dotted!r}: it is not a method")
            setattr(owner, attribute, wrapper)
            self.undo.append(lambda: self._restore_attribute(owner, attribute, raw, wrapper, own))
        self.cells[dotted] = cell

    def _restore_global(self, name: str, original: Any, wrapper: Any) -> None:
        if self.namespace.get(name) is wrapper:
            self.namespace[name] = original

    @staticmethod
    def _restore_attribute(owner: Any, name: str, original: Any, wrapper: Any, own: bool) -> None:
        current = owner.__dict__.get(name, _MISSING) if isinstance(owner, type) else getattr(owner, name, _MISSING)
        if current is not wrapper:
            return
        if own:
            setattr(owner, name, original)
        else:
            delattr(owner, name)

    def reset(self) -> None:
        for cell in self.cells.values():
            cell[0] = 0

    def restore(self) -> None:
        for undo in reversed(self.undo):
            undo()


def _counting(original: Callable, cell: list[int]) -> Callable:
    def counted(*args: Any, **kwargs: Any) -> Any:
        cell[0] += 1
        return original(*args, **kwargs)

    for attribute in ("__name__", "__qualname__", "__doc__"):
        try:
            setattr(counted, attribute, getattr(original, attribute))
        except (AttributeError, TypeError):
            pass
    counted.__wrapped__ = original
    return counted


_MISSING = object()
# Builtins that IPython and ipykernel set while a cell runs (see _Shim.enter_cell_context).
_CELL_BUILTINS = ("input", "get_ipython", "exit", "quit")


def _resolve(namespace: dict, dotted: str) -> Any:
    first, *rest = dotted.split(".")
    if first not in namespace:
        raise _CallRefused("missing", f"name {first!r} is not defined")
    value = namespace[first]
    walked = first
    for part in rest:
        try:
            value = getattr(value, part)
        except AttributeError:
            raise _CallRefused("missing", f"{walked!r} has no attribute {part!r}") from None
        walked += "." + part
    return value


def _assign(namespace: dict, dotted: str, value: Any) -> None:
    owner_name, _, attribute = dotted.rpartition(".")
    if owner_name:
        setattr(_resolve(namespace, owner_name), attribute, value)
    else:
        namespace[attribute] = value


def _is_notebook_function(value: Any) -> bool:
    return isinstance(value, types.FunctionType) and value.__module__ == "__main__"


def _is_notebook_class(value: Any) -> bool:
    return isinstance(value, type) and value.__module__ == "__main__"


def _methods_of(klass: type) -> list[str]:
    return [
        name for name, raw in vars(klass).items() if isinstance(raw, (types.FunctionType, staticmethod, classmethod))
    ]


def _notebook_callables(namespace: dict) -> list[str]:
    names = []
    for name, value in list(namespace.items()):
        if _is_notebook_function(value):
            names.append(name)
        elif _is_notebook_class(value):
            names.extend(f"{name}.{method}" for method in _methods_of(value))
    return names


def _describe(error: BaseException) -> str:
    try:
        message = str(error)
    except Exception:  # a student's exception whose __str__ fails
        message = "<unprintable message>"
    text = f"{type(error).__name__}: {message}" if message else type(error).__name__
    return text[:_ERROR_CHARS]


def _student_traceback(error: BaseException) -> str:
    """The last frames of a traceback, without the shim's own."""
    try:
        own_file = _student_traceback.__code__.co_filename
        frames = [f for f in traceback.extract_tb(error.__traceback__) if f.filename != own_file]
        text = "".join(traceback.format_list(frames[-_TRACEBACK_FRAMES:]))
        return (text + _describe(error))[-_TRACEBACK_CHARS:]
    except Exception:
        return _describe(error)


class _BlockedImports:
    """A meta path entry that refuses the grader's own packages."""

    def __init__(self, names: list[str]) -> None:
        self.names = frozenset(names)

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> None:
        if name.partition(".")[0] in self.names:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None


class _Shim:
    def __init__(self, config: dict) -> None:
        from IPython import get_ipython

        self.nonce: str = config["nonce"]
        self.answers: list[str] = list(config["stdin"])
        self.position = 0
        self.output_limit: int = config["output_chars"]
        self.progress_path: str = config["progress_path"]
        self.stdin_log = os.open(config["stdin_log_path"], os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        self.stdin_log_entries = 0
        # Set while the grader's call runs / while student code runs inside it (for alarms).
        self.shell = get_ipython()
        self.kernel = self.shell.kernel
        self.user_ns: dict = self.shell.user_ns
        self.displayhook = self.shell.displayhook
        self.excepthook = self.shell.excepthook
        self.comm: Any = None
        self.in_call = False
        self.in_student_code = False
        self.timed_out = False
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
        sys.meta_path.insert(0, _BlockedImports(blocked))
        self.kernel.comm_manager.register_target(comm_target, self.open_comm)

    def open_comm(self, comm: Any, message: dict) -> None:
        """The grader opened its comm: requests arrive on it from now on.

        The target takes one comm only, so nothing opened later can be handed requests.
        """
        self.kernel.comm_manager.unregister_target(message["content"]["target_name"], self.open_comm)
        self.comm = comm
        comm.on_msg(self.on_message)
        self.send({"kind": "ready"})

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
                stream.write = self.capped_writer(stream.write)

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
                limit = self.output_limit
                write(f"\n[output truncated: only the first {limit} characters of a cell's output are kept]\n")
            return len(text)

        capped_write.grader_capped = True  # type: ignore[attr-defined]
        return capped_write

    def exit_instead(self) -> None:
        raise SystemExit("exit() was called; the grader ends this cell and goes on with the next")

    def scripted_input(self, prompt: Any = "", *args: Any, **kwargs: Any) -> str:
        prompt = str(prompt)
        if self.in_call:
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
        if self.stdin_log_entries < _STDIN_LOG_ENTRIES:
            self.stdin_log_entries += 1
            line = _json_dumps({"prompt": prompt[:_ERROR_CHARS], "answer": answer}) + "\n"
            os.write(self.stdin_log, line.encode("utf-8"))

    # requests from the grader ------------------------------------------------------------

    def send(self, payload: dict) -> None:
        payload["nonce"] = self.nonce
        self.comm.send(payload)

    def on_message(self, message: dict) -> None:
        """A request on the comm; nothing escapes into ipykernel's message loop.

        An interrupt (or anything else that is not an ``Exception``) outside the calls ends
        the request without a reply, as it ended the cell when requests were cells; the
        grader sees the kernel go idle and knows the request was abandoned.
        """
        try:
            self.handle(_json_loads(message["content"]["data"]["request"]))
        except BaseException:  # noqa: BLE001
            pass

    def handle(self, request: dict) -> None:
        request_id = request["id"]
        try:
            if request["op"] == "calls":
                result = self.run_batch(request_id, request["calls"])
            elif request["op"] == "defined_names":
                result = self.defined_names()
            elif request["op"] == "stdin_position":
                self.position = request["position"]
                result = None
            else:
                raise ValueError(f"unknown request {request['op']!r}")
        except Exception as error:
            self.send({"kind": "error", "request": request_id, "error": _student_traceback(error)})
        else:
            self.send({"kind": "done", "request": request_id, "result": result})

    def run_batch(self, request_id: str, calls: list[dict]) -> dict:
        """Run the calls; outcomes go out every 50 ms, the rest with the final reply."""
        names = {name for call in calls for name in call["count"]}
        counters = _Counters(self.user_ns, names, any(call["count_all"] for call in calls))
        previous_alarm = signal.signal(signal.SIGALRM, self.on_alarm)
        saved = self.enter_cell_context()
        progress = -1
        try:
            # The index of the running call, where the grader can read it if this kernel
            # dies or hangs before the outcomes are sent.
            progress = os.open(self.progress_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            pending: list[dict] = []
            first = 0
            last_flush = time.perf_counter()
            for index, call in enumerate(calls):
                os.pwrite(progress, index.to_bytes(4, "little"), 0)
                pending.append(self.run_call(call, counters))
                now = time.perf_counter()
                if now - last_flush >= _FLUSH_INTERVAL:
                    self.send({"kind": "outcomes", "request": request_id, "start": first, "outcomes": pending})
                    first, pending, last_flush = index + 1, [], now
        finally:
            if progress >= 0:
                os.close(progress)
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous_alarm)
            self.leave_cell_context(saved)
            counters.restore()
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
        saved_builtins = {name: names.get(name, _MISSING) for name in _CELL_BUILTINS}
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
            if value is _MISSING:
                names.pop(name, None)
            else:
                names[name] = value

    def on_alarm(self, signum: int, frame: Any) -> None:
        if self.in_student_code:
            self.timed_out = True
            # Fire again soon in case the student's code swallows this one.
            signal.setitimer(signal.ITIMER_REAL, 0.25)
            raise _CallTimedOut()

    def run_call(self, call: dict, counters: _Counters) -> dict:
        """Make one call; whatever happens becomes the status of the returned outcome."""
        outcome: dict[str, Any] = {"status": "ok", "value": None, "error": None, "traceback": ""}
        sent: list[tuple[Any, Any]] = []  # (object handed to the student, its encoding)
        counters.reset()
        captured = _CappedText(self.output_limit)
        saved_streams = sys.stdout, sys.stderr
        timeout = call["timeout"]
        result: Any = None
        self.in_call, self.timed_out = True, False
        sys.stdout = sys.stderr = captured
        started = time.perf_counter()
        try:
            result = self.invoke(call, counters, sent)
        except _CallRefused as refusal:
            outcome.update(status=refusal.status, error=refusal.message)
        except _CallTimedOut:
            self.timed_out = True
        except KeyboardInterrupt as error:
            # The grader interrupts only a call that overran its deadline.
            if time.perf_counter() - started >= timeout:
                self.timed_out = True
            else:
                outcome.update(status="raised", error=_describe(error), traceback=_student_traceback(error))
        except BaseException as error:
            outcome.update(status="raised", error=_describe(error), traceback=_student_traceback(error))
        finally:
            outcome["duration"] = time.perf_counter() - started
            sys.stdout, sys.stderr = saved_streams
            self.in_call = False
        if self.timed_out:  # even if the student's code swallowed the alarm and returned
            outcome.update(status="timeout", error=f"the call took longer than {timeout:g} s and was stopped")
        wanted = list(call["count"]) + (counters.all_names if call["count_all"] else [])
        outcome["counts"] = {name: counters.cells[name][0] for name in wanted if name in counters.cells}
        if outcome["status"] == "ok":
            try:
                outcome["value"] = encode(result)
            except Unserializable as error:
                outcome.update(status="unserializable", error=str(error))
        outcome["mutated"] = call["check_mutation"] and any(_changed(value, data) for value, data in sent)
        outcome["globals"] = self.read_globals(call["read_globals"])
        outcome["stdout"] = captured.getvalue()
        return outcome

    def invoke(self, call: dict, counters: _Counters, sent: list[tuple[Any, Any]]) -> Any:
        """Assign the globals, resolve the target and call it (then the chained methods)."""
        try:
            for name, data in call["set_globals"]:
                value = decode(data)
                _assign(self.user_ns, name, value)
                sent.append((value, data))
            args = [decode(data) for data in call["args"]]
            kwargs = {name: decode(data) for name, data in call["kwargs"]}
        except (ValueError, KeyError, TypeError) as error:
            raise _CallRefused("unserializable", f"could not decode the arguments: {error}") from None
        sent += list(zip(args, call["args"])) + [(kwargs[name], data) for name, data in call["kwargs"]]
        for name in call["count"]:
            if name in counters.refused:
                raise _CallRefused("missing", counters.refused[name])
        target = _resolve(self.user_ns, call["target"])
        if not callable(target):
            kind = type(target).__name__
            raise _CallRefused("missing", f"{call['target']!r} holds a value of type {kind}, not a function or class")
        signal.setitimer(signal.ITIMER_REAL, call["timeout"])
        self.in_student_code = True
        try:
            result = target(*args, **kwargs)
            for method_name, method_args, method_kwargs in call["then"]:
                method = getattr(result, method_name, _MISSING)
                if method is _MISSING:
                    kind = type(result).__name__
                    raise _CallRefused("missing", f"the {kind} returned has no attribute {method_name!r}")
                result = method(
                    *[decode(data) for data in method_args], **{name: decode(data) for name, data in method_kwargs}
                )
        finally:
            self.in_student_code = False
            signal.setitimer(signal.ITIMER_REAL, 0)
        return result

    def read_globals(self, names: list[str]) -> list[list[Any]]:
        found = []
        for name in names:
            try:
                found.append([name, encode(_resolve(self.user_ns, name))])
            except (_CallRefused, Unserializable):
                continue
        return found

    def defined_names(self) -> dict:
        hidden = set(self.shell.user_ns_hidden)
        functions, classes, variables = [], {}, []
        for name, value in list(self.user_ns.items()):
            if name in hidden or _is_ipython_bookkeeping(name) or isinstance(value, types.ModuleType):
                continue
            if _is_notebook_class(value):
                classes[name] = _methods_of(value)
            elif _is_notebook_function(value):
                functions.append(name)
            elif not callable(value):
                variables.append(name)
        return {"functions": functions, "classes": classes, "variables": variables}


def _changed(value: Any, sent: Any) -> bool:
    try:
        return encode(value) != sent
    except Unserializable:
        return True


def _is_ipython_bookkeeping(name: str) -> bool:
    stripped = name.lstrip("_")
    return (
        name in ("In", "Out", "get_ipython", "exit", "quit")
        or (name.startswith("_") and (stripped == "" or stripped.isdigit()))
        or (name.startswith("_i") and (name[2:] in ("", "i", "ii") or name[2:].isdigit()))
    )


def install(config_json: str) -> None:
    """Set the kernel up for grading; called once per kernel before any student code."""
    config = _json_loads(config_json)
    shim = _Shim(config)
    shim.install(config["comm_target"], config["blocked_packages"])
