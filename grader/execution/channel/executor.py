"""Run the grader's calls on a notebook's namespace and report what they did, as plain data.

This is the call contract, on a plain ``dict`` namespace: assign globals, resolve a dotted
target, call it and the methods chained on its result, count the calls of named functions
(recursive ones included), stop a call at its time limit with an alarm, tell whether a call
changed what it was given, read globals back, and list what the namespace defines. It knows
nothing of IPython: inside the kernel :mod:`grader.execution.channel.shim` runs it on the
notebook's namespace; tests run it on a dict in their own process.

It is shipped into the kernel as source after the protocol, the wire format and
:mod:`~grader.execution.channel.references`, executed in
the same private namespace, so it uses only the standard library and imports its neighbours
only when loaded as a module. ``SIGALRM`` makes it Unix-only and main-thread-only.
"""

from __future__ import annotations

import io
import signal
import sys
import time
import traceback
import types
from collections.abc import Callable, Collection, Sequence
from typing import Any

if __name__ != "__grader_shim__":  # in the kernel the sources shipped before this one define these
    from grader.execution.channel.protocol import (
        CALL_OUTPUT_TRUNCATED,
        ERROR_CHARS,
        STATUS_MISSING,
        STATUS_OK,
        STATUS_RAISED,
        STATUS_SKIPPED,
        STATUS_TIMEOUT,
        STATUS_UNSERIALIZABLE,
        TRACEBACK_CHARS,
        TRACEBACK_FRAMES,
        CallRequest,
        DefinedNamesReply,
        OutcomeData,
    )
    from grader.execution.channel.references import code_references
    from grader.execution.channel.wire_format import Unserializable, decode, encode

_MISSING = object()


class CallExecutor:
    """Runs batches of calls on ``namespace``, a notebook's globals."""

    def __init__(self, namespace: dict[str, Any], *, output_chars: int) -> None:
        self.namespace = namespace
        self.output_chars = output_chars
        self.in_call = False
        """True while a call runs: ``input()`` has no scripted answers for calls."""
        self._in_student_code = False
        self._timed_out = False

    def run_batch(
        self,
        calls: Sequence[CallRequest],
        finished: Callable[[int, OutcomeData], None],
        starting: Callable[[int], None] | None = None,
    ) -> None:
        """Run ``calls`` in order; ``starting(index)`` before each, ``finished(index, outcome)``
        after. Counting wrappers and the alarm are in place for the batch only."""
        names = {name for call in calls for name in call["count"]}
        counters = _Counters(self.namespace, names, any(call["count_all"] for call in calls))
        previous_alarm = signal.signal(signal.SIGALRM, self._on_alarm)
        batch_started = time.perf_counter()
        timed_out = False
        try:
            for index, call in enumerate(calls):
                if starting is not None:
                    starting(index)
                start_within = call.get("start_within")
                if start_within is not None and time.perf_counter() - batch_started >= start_within:
                    finished(index, _skipped("the batch's time was up"))
                elif timed_out and call.get("skip_after_timeout"):
                    finished(index, _skipped("an earlier call of the batch ran out of time"))
                else:
                    outcome = self.run_call(call, counters)
                    timed_out = timed_out or outcome["status"] == STATUS_TIMEOUT
                    finished(index, outcome)
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous_alarm)
            counters.restore()

    def _on_alarm(self, signum: int, frame: Any) -> None:
        if self._in_student_code:
            self._timed_out = True
            # Fire again soon in case the student's code swallows this one.
            signal.setitimer(signal.ITIMER_REAL, 0.25)
            raise _CallTimedOut()

    def run_call(self, call: CallRequest, counters: _Counters) -> OutcomeData:
        """Make one call; whatever happens becomes the status of the returned outcome."""
        status, error, traceback_text = STATUS_OK, None, ""
        sent: list[tuple[Any, Any]] = []  # (object handed to the student, its encoding)
        counters.reset()
        captured = _CappedText(self.output_chars)
        saved_streams = sys.stdout, sys.stderr
        timeout = call["timeout"]
        result: Any = None
        self.in_call, self._timed_out = True, False
        sys.stdout = sys.stderr = captured
        started = time.perf_counter()
        try:
            result = self._invoke(call, counters, sent)
        except _CallRefused as refusal:
            status, error = refusal.status, refusal.message
        except _CallTimedOut:
            self._timed_out = True
        except KeyboardInterrupt as interrupt:
            # The grader interrupts only a call that overran its deadline.
            if time.perf_counter() - started >= timeout:
                self._timed_out = True
            else:
                status, error, traceback_text = STATUS_RAISED, describe(interrupt), student_traceback(interrupt)
        except BaseException as raised:
            status, error, traceback_text = STATUS_RAISED, describe(raised), student_traceback(raised)
        finally:
            duration = time.perf_counter() - started
            sys.stdout, sys.stderr = saved_streams
            self.in_call = False
        if self._timed_out:  # even if the student's code swallowed the alarm and returned
            status, error = STATUS_TIMEOUT, f"the call took longer than {timeout:g} s and was stopped"
        value = None
        if status == STATUS_OK:
            try:
                value = encode(result)
            except Unserializable as unserializable:
                status, error = STATUS_UNSERIALIZABLE, str(unserializable)
        wanted = list(call["count"]) + (counters.all_names if call["count_all"] else [])
        return {
            "status": status,
            "value": value,
            "error": error,
            "traceback": traceback_text,
            "duration": duration,
            "counts": {name: counters.cells[name][0] for name in wanted if name in counters.cells},
            "mutated": call["check_mutation"] and any(_changed(given, data) for given, data in sent),
            "globals": self._read_globals(call["read_globals"]),
            "stdout": captured.getvalue(),
        }

    def _invoke(self, call: CallRequest, counters: _Counters, sent: list[tuple[Any, Any]]) -> Any:
        """Assign the globals, resolve the target and call it (then the chained methods)."""
        try:
            for name, data in call["set_globals"]:
                value = decode(data)
                _assign(self.namespace, name, value)
                sent.append((value, data))
            args = [decode(data) for data in call["args"]]
            kwargs = {name: decode(data) for name, data in call["kwargs"]}
        except (ValueError, KeyError, TypeError) as error:
            raise _CallRefused(STATUS_UNSERIALIZABLE, f"could not decode the arguments: {error}") from None
        sent += list(zip(args, call["args"])) + [(kwargs[name], data) for name, data in call["kwargs"]]
        for name in call["count"]:
            if name in counters.refused:
                raise _CallRefused(STATUS_MISSING, counters.refused[name])
        target = _resolve(self.namespace, call["target"])
        if not callable(target):
            kind = type(target).__name__
            raise _CallRefused(
                STATUS_MISSING, f"{call['target']!r} holds a value of type {kind}, not a function or class"
            )
        signal.setitimer(signal.ITIMER_REAL, call["timeout"])
        self._in_student_code = True
        try:
            result = target(*args, **kwargs)
            for method_name, method_args, method_kwargs in call["then"]:
                method: Any = getattr(result, method_name, _MISSING)
                if method is _MISSING:
                    kind = type(result).__name__
                    raise _CallRefused(STATUS_MISSING, f"the {kind} returned has no attribute {method_name!r}")
                result = method(
                    *[decode(data) for data in method_args], **{name: decode(data) for name, data in method_kwargs}
                )
        finally:
            self._in_student_code = False
            signal.setitimer(signal.ITIMER_REAL, 0)
        return result

    def _read_globals(self, names: list[str]) -> list[list[Any]]:
        found = []
        for name in names:
            try:
                found.append([name, encode(_resolve(self.namespace, name))])
            except (_CallRefused, Unserializable):
                continue
        return found

    def defined_names(self, hidden: Collection[str] = ()) -> DefinedNamesReply:
        """The notebook's own functions, classes (with their methods) and plain variables;
        ``hidden`` names (the shell's own) and modules are left out."""
        functions: list[str] = []
        classes: dict[str, list[str]] = {}
        variables: list[str] = []
        for name, value in list(self.namespace.items()):
            if name in hidden or _is_ipython_bookkeeping(name) or isinstance(value, types.ModuleType):
                continue
            if _is_notebook_class(value):
                classes[name] = _methods_of(value)
            elif _is_notebook_function(value):
                functions.append(name)
            elif not callable(value):
                variables.append(name)
        return {
            "functions": functions,
            "classes": classes,
            "variables": variables,
            "references": code_references(self.namespace, functions, classes),
        }


def _skipped(why: str) -> OutcomeData:
    return {
        "status": STATUS_SKIPPED,
        "value": None,
        "error": f"not started: {why}",
        "traceback": "",
        "duration": 0.0,
        "counts": {},
        "mutated": False,
        "globals": [],
        "stdout": "",
    }


class _CallTimedOut(BaseException):
    pass


class _CallRefused(Exception):
    """The call cannot be made as asked; ``status`` is the outcome's status."""

    def __init__(self, status: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


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
        return text + CALL_OUTPUT_TRUNCATED if self.truncated else text


class _Counters:
    """Counting wrappers around notebook functions for one batch of calls.

    A wrapper replaces the function under the name the notebook looks it up by (a global
    or a class attribute), so recursive calls through that name are counted too.
    """

    def __init__(self, namespace: dict[str, Any], names: set[str], count_all: bool) -> None:
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
        not_a_function = _CallRefused(STATUS_MISSING, f"cannot count calls of {dotted!r}: it is not a function")
        if not owner_name:
            original = self.namespace.get(attribute, _MISSING)
            if original is _MISSING:
                raise _CallRefused(STATUS_MISSING, f"cannot count calls of {dotted!r}: it is not defined")
            if not callable(original) or isinstance(original, type):
                raise not_a_function
            wrapper = _counting(original, cell)
            self.namespace[attribute] = wrapper
            self.undo.append(lambda: self._restore_global(attribute, original, wrapper))
        else:
            owner = _resolve(self.namespace, owner_name)
            own = isinstance(owner, type) and attribute in owner.__dict__
            raw = owner.__dict__[attribute] if own else getattr(owner, attribute, _MISSING)
            if raw is _MISSING:
                raise _CallRefused(STATUS_MISSING, f"cannot count calls of {dotted!r}: it is not defined")
            if isinstance(raw, staticmethod):
                method: Any = staticmethod(_counting(raw.__func__, cell))
            elif isinstance(raw, classmethod):
                method = classmethod(_counting(raw.__func__, cell))
            elif isinstance(raw, types.FunctionType) or not isinstance(owner, type):
                if not callable(raw):
                    raise not_a_function
                method = _counting(raw, cell)
            else:
                raise _CallRefused(STATUS_MISSING, f"cannot count calls of {dotted!r}: it is not a method")
            setattr(owner, attribute, method)
            self.undo.append(lambda: self._restore_attribute(owner, attribute, raw, method, own))
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


def _counting(original: Callable[..., Any], cell: list[int]) -> Callable[..., Any]:
    def counted(*args: Any, **kwargs: Any) -> Any:
        cell[0] += 1
        return original(*args, **kwargs)

    for attribute in ("__name__", "__qualname__", "__doc__"):
        try:
            setattr(counted, attribute, getattr(original, attribute))
        except (AttributeError, TypeError):
            pass
    counted.__wrapped__ = original  # type: ignore[attr-defined]
    return counted


def _resolve(namespace: dict[str, Any], dotted: str) -> Any:
    first, *rest = dotted.split(".")
    if first not in namespace:
        raise _CallRefused(STATUS_MISSING, f"name {first!r} is not defined")
    value = namespace[first]
    walked = first
    for part in rest:
        try:
            value = getattr(value, part)
        except AttributeError:
            raise _CallRefused(STATUS_MISSING, f"{walked!r} has no attribute {part!r}") from None
        walked += "." + part
    return value


def _assign(namespace: dict[str, Any], dotted: str, value: Any) -> None:
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


def _notebook_callables(namespace: dict[str, Any]) -> list[str]:
    names = []
    for name, value in list(namespace.items()):
        if _is_notebook_function(value):
            names.append(name)
        elif _is_notebook_class(value):
            names.extend(f"{name}.{method}" for method in _methods_of(value))
    return names


def _is_ipython_bookkeeping(name: str) -> bool:
    stripped = name.lstrip("_")
    return (
        name in ("In", "Out", "get_ipython", "exit", "quit")
        or (name.startswith("_") and (stripped == "" or stripped.isdigit()))
        or (name.startswith("_i") and (name[2:] in ("", "i", "ii") or name[2:].isdigit()))
    )


def _changed(value: Any, sent: Any) -> bool:
    try:
        return encode(value) != sent
    except Unserializable:
        return True


def describe(error: BaseException) -> str:
    """``"ZeroDivisionError: division by zero"``, shortened."""
    try:
        message = str(error)
    except Exception:  # a student's exception whose __str__ fails
        message = "<unprintable message>"
    text = f"{type(error).__name__}: {message}" if message else type(error).__name__
    return text[:ERROR_CHARS]


def student_traceback(error: BaseException) -> str:
    """The last frames of a traceback, without the grader's own."""
    try:
        own_file = student_traceback.__code__.co_filename
        frames = [f for f in traceback.extract_tb(error.__traceback__) if f.filename != own_file]
        text = "".join(traceback.format_list(frames[-TRACEBACK_FRAMES:]))
        return (text + describe(error))[-TRACEBACK_CHARS:]
    except Exception:
        return describe(error)
