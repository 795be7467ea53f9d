"""Run the grader's calls on a notebook's namespace and report what they did, as plain data.

This is the call contract, on a plain ``dict`` namespace: assign globals, resolve a dotted
target, call it and the methods chained on its result, count the calls of named functions
(recursive ones included) or record the search the call runs, wherever its recursion lives
(:mod:`~grader.execution.channel.kernel.exploration`), stop a call at its limit of CPU time
(:mod:`~grader.execution.channel.kernel.call_clock`) or of nodes
(:mod:`~grader.execution.channel.kernel.node_cap`), tell whether a call changed what it was
given, read globals back, and list what the namespace defines. It knows nothing of IPython:
inside the kernel :mod:`grader.execution.channel.kernel.shim` runs it on the notebook's
namespace; tests run it on a dict in their own process.

It is shipped into the kernel as source after the protocol, the wire format and the other
kernel-side modules (:mod:`grader.execution.channel.kernel_sources`), executed in the same
private namespace, so it uses only the standard library and imports its neighbours only when
loaded as a module. ``SIGPROF`` makes it Unix-only and main-thread-only.
"""

from __future__ import annotations

import sys
import traceback
import types
from collections.abc import Callable, Collection, Sequence
from typing import Any

if __name__ != globals().get("KERNEL_NAMESPACE"):  # in the kernel, the sources sent before define these
    from grader.execution.channel.kernel.board_reading import board_reader, pack_boards, watch_boards
    from grader.execution.channel.kernel.built_values import Written, holds_made, lookup_name, read_value, realize
    from grader.execution.channel.kernel.builtins_guard import BuiltinsGuard
    from grader.execution.channel.kernel.call_clock import CallClock, CallTimedOut, CpuAlarm, timeout_error
    from grader.execution.channel.kernel.captured_output import CappedText
    from grader.execution.channel.kernel.exploration import Exploration, ExplorationRecorder
    from grader.execution.channel.kernel.names import (
        NOT_FOUND,
        CallRefused,
        NameCounters,
        assign,
        is_ipython_bookkeeping,
        is_notebook_class,
        methods_of,
        resolve,
    )
    from grader.execution.channel.kernel.node_cap import NodeCapReached, NodeGauge, node_cap_error
    from grader.execution.channel.kernel.references import code_references
    from grader.execution.channel.kernel.stand_ins import install_stand_ins
    from grader.execution.channel.protocol import (
        CLOCK_WALL,
        ERROR_CHARS,
        STATUS_MISSING,
        STATUS_NODE_CAP,
        STATUS_OK,
        STATUS_RAISED,
        STATUS_SKIPPED,
        STATUS_TIMEOUT,
        STATUS_UNSERIALIZABLE,
        TRACEBACK_CHARS,
        TRACEBACK_FRAMES,
        CallRequest,
        DefinedNamesReply,
        ExplorationData,
        ExploreRequest,
        OutcomeData,
    )
    from grader.execution.channel.wire_format import Unserializable, decode, encode


class CallExecutor:
    """Runs batches of calls on ``namespace``, a notebook's globals (``wall_net``: see `CpuAlarm`)."""

    def __init__(
        self,
        namespace: dict[str, Any],
        *,
        output_chars: int,
        unguarded_builtins: Collection[str] = (),
        wall_net: bool = False,
    ) -> None:
        self.namespace = namespace
        self.builtins_guard = BuiltinsGuard(namespace, unguarded_builtins)
        self.output_chars = output_chars
        self.in_call = False
        """True while a call runs: ``input()`` has no scripted answers for calls."""
        self.alarm = CpuAlarm(wall_net=wall_net)
        # One recorder for the kernel's life: what it learns about the notebook's code objects
        # (which are the search) carries over from one call to the next.
        self.recorder = ExplorationRecorder()
        self.gauge = NodeGauge(on_reached=self.alarm.hurry)

    def run_batch(
        self,
        calls: Sequence[CallRequest],
        finished: Callable[[int, OutcomeData], None],
        starting: Callable[[int], None] | None = None,
    ) -> None:
        """Run ``calls`` in order; ``starting(index)`` before each, ``finished(index, outcome)``
        after. Counting wrappers and the alarm are in place for the batch only; a call's
        ``start_within`` counts the batch's CPU time, like the calls' limits, and its
        ``start_before`` the wall time."""
        logged = {name for call in calls for name in call.get("log") or ()}
        names = logged | {name for call in calls for name in call["count"]}
        counters = NameCounters(self.namespace, names, any(call["count_all"] for call in calls), logged, encode)
        batch = CallClock()
        timed_out = False
        try:
            with self.alarm:
                for index, call in enumerate(calls):
                    if starting is not None:
                        starting(index)
                    start_within, start_before = call.get("start_within"), call.get("start_before")
                    if (start_within is not None and batch.cpu() >= start_within) or (
                        start_before is not None and batch.wall() >= start_before
                    ):
                        finished(index, _skipped("the batch's time was up"))
                    elif timed_out and call.get("skip_after_timeout"):
                        finished(index, _skipped("an earlier call of the batch ran out of time"))
                    else:
                        outcome = self.run_call(call, counters, batch)
                        exploration = outcome["exploration"]
                        if exploration is not None and exploration["retry"] and outcome["status"] != STATUS_NODE_CAP:
                            # The search was learned during the call, after some of its nodes went
                            # by unrecorded: the same call again is recorded whole.
                            outcome = self.run_call(call, counters, batch)
                        timed_out = timed_out or outcome["status"] == STATUS_TIMEOUT
                        finished(index, outcome)
        finally:
            counters.restore()

    def run_call(self, call: CallRequest, counters: NameCounters, batch: CallClock | None = None) -> OutcomeData:
        """Make one call; whatever happens becomes the status of the returned outcome."""
        status, error, traceback_text = STATUS_OK, None, ""
        sent: list[tuple[Any, Any]] = []  # (object handed to the student, its encoding)
        after: list[list[Any]] = []  # [what, its encoding] read back after the call
        counters.reset(call["count"], self.gauge.arm(call.get("node_cap")))
        captured = CappedText(self.output_chars)
        saved_streams = sys.stdout, sys.stderr
        timeout = call["timeout"]
        result: Any = None
        explored: list[Exploration] = []
        uses: dict[str, dict[str | None, int]] = {}
        self.in_call, self.alarm.fired = True, None
        stopped_on: str | None = None
        sys.stdout = sys.stderr = captured
        clock = CallClock()
        try:
            result = self._invoke(call, counters, sent, explored, uses, after)
        except CallRefused as refusal:
            status, error = refusal.status, refusal.message
        except (CallTimedOut, NodeCapReached):
            pass
        except KeyboardInterrupt as interrupt:
            if clock.waited_out(timeout, batch, call.get("wait_until")):  # the grader stopped a waiting call
                stopped_on = CLOCK_WALL
            else:
                status, error, traceback_text = STATUS_RAISED, describe(interrupt), student_traceback(interrupt)
        except BaseException as raised:
            status, error, traceback_text = STATUS_RAISED, describe(raised), student_traceback(raised)
        finally:
            duration, wall = clock.cpu(), clock.wall()
            sys.stdout, sys.stderr = saved_streams
            self.in_call = False
            self.gauge.disarm()
        if self.alarm.fired is not None:  # even if the student's code swallowed the alarm and returned
            stopped_on = self.alarm.fired
        if stopped_on is not None:
            status, error = STATUS_TIMEOUT, timeout_error(stopped_on, timeout, wall)
        if self.gauge.reached is not None:  # the cap stopped it first, whatever its code did then
            status, error, stopped_on = STATUS_NODE_CAP, node_cap_error(self.gauge.reached), None
        value = None
        if status == STATUS_OK:
            try:
                value = encode(result, object_levels=call.get("answer_levels") or 1)
            except Unserializable as unserializable:
                status, error = STATUS_UNSERIALIZABLE, str(unserializable)
        wanted = list(call["count"]) + (counters.all_names if call["count_all"] else [])
        mutated, changed_args = _mutations(call, sent) if call["check_mutation"] else (False, [])
        return {
            "status": status,
            "value": value,
            "error": error,
            "traceback": traceback_text,
            "duration": duration,
            "wall": wall,
            "clock": stopped_on,
            "counts": {name: counters.cells[name][0] for name in wanted if name in counters.cells},
            "logged": {name: list(counters.logs[name]) for name in call.get("log") or () if name in counters.logs},
            "mutated": mutated,
            "changed_args": changed_args,
            "globals": self._read_globals(call["read_globals"]),
            "after": after,
            "stdout": captured.getvalue(),
            "exploration": _exploration_data(explored[0], uses) if explored else None,
        }

    def _invoke(
        self,
        call: CallRequest,
        counters: NameCounters,
        sent: list[tuple[Any, Any]],
        explored: list[Exploration],
        uses: dict[str, dict[str | None, int]],
        after: list[list[Any]],
    ) -> Any:
        """Assign the globals, resolve the target and call it (then the chained methods); the
        recorder's findings go to ``explored`` when the call asks to explore, the boards its
        watched functions were given to ``uses``, and what the call asks to ``read_after`` to
        ``after`` once it returned."""
        try:
            for name, data in call["set_globals"]:
                value = decode(data)
                assign(self.namespace, name, value)
                sent.append((value, data))
            args = [read_value(data) for data in call["args"]]
            kwargs = {name: read_value(data) for name, data in call["kwargs"]}
            attributes = [(name, decode(data)) for name, data in call["set_attributes"]]
            made = call["made"]
            made_args = [] if made is None else [decode(data) for data in made["args"]]
            made_kwargs = {} if made is None else {name: decode(data) for name, data in made["kwargs"]}
            made_attributes = [] if made is None else [(name, decode(data)) for name, data in made["attributes"]]
        except (ValueError, KeyError, TypeError) as error:
            raise CallRefused(STATUS_UNSERIALIZABLE, f"could not decode the arguments: {error}") from None
        # An argument the kernel makes is compared with nothing: it was never sent as a value.
        sent += [(arg, data) for arg, data in zip(args, call["args"]) if not holds_made(data)]
        sent += [(kwargs[name], data) for name, data in call["kwargs"] if not holds_made(data)]
        sent += [(value, data) for (_, value), (_, data) in zip(attributes, call["set_attributes"])]
        if made is not None:
            sent += [(value, data) for (_, value), (_, data) in zip(made_attributes, made["attributes"])]
        for name in call["count"]:
            if name in counters.refused:
                raise CallRefused(STATUS_MISSING, counters.refused[name])
        target = self._callable(call["target"])
        factory = None if made is None else self._callable(made["factory"])
        explore: ExploreRequest | None = call.get("explore")
        # The reference's helpers stand in for the student's for this call only: put back in
        # the ``finally`` below, whether the call returns, raises or runs out of time.
        restore = install_stand_ins(self.namespace, call.get("stand_ins") or [])
        self.alarm.arm(call["timeout"])
        recording = explore if explore is not None and explore["record"] else None
        if recording is not None:
            snapshot = (
                board_reader(recording["board_global"], recording["marks"], recording["board_attribute"])
                if recording["trace"]
                else None
            )
            # Named counts are the nodes when there are some: the recorder would count them again.
            gauge = None if call["count"] or self.gauge.cap is None else self.gauge
            self.recorder.start(snapshot, recording["max_steps"], gauge)
        unwatch = None
        if explore is not None and explore.get("watch"):
            unwatch, watched = watch_boards(self.namespace, explore["watch"], explore["marks"])
            uses.update(watched)
        self.alarm.in_student_code = True
        holder: Any = None  # the object whose attributes were written
        try:
            written: list[tuple[Written, Any]] = []  # read again after the call: `_mutations`
            args = [realize(arg, self.namespace, written) for arg in args]
            kwargs = {name: realize(value, self.namespace, written) for name, value in kwargs.items()}
            sent += written
            if made is not None and factory is not None:
                made_object = factory(*made_args, **made_kwargs)
                for name, value in made_attributes:
                    setattr(made_object, name, value)
                holder = made_object
                for slot in made["slots"]:
                    if isinstance(slot, int):
                        args[slot] = made_object
                    else:
                        kwargs[slot] = made_object
            result = target(*args, **kwargs)
            for name, value in attributes:
                setattr(result, name, value)
            if attributes:
                holder = result
            for method_name, method_args, method_kwargs in call["then"]:
                method: Any = getattr(result, method_name, NOT_FOUND)
                if method is NOT_FOUND:
                    kind = type(result).__name__
                    raise CallRefused(STATUS_MISSING, f"the {kind} returned has no attribute {method_name!r}")
                result = method(
                    *[decode(data) for data in method_args], **{name: decode(data) for name, data in method_kwargs}
                )
            after += _read_after(call.get("read_after") or [], args, kwargs, holder)
        finally:
            self.alarm.in_student_code = False
            self.builtins_guard.restore()  # first: what follows calls into the standard library
            restore()
            if unwatch is not None:
                unwatch()
            if recording is not None:
                explored.append(self.recorder.stop())
            elif explore is not None:  # only the watched functions' boards were asked for
                explored.append(Exploration(0, {}, None, False, False))
            self.alarm.disarm()
        return result

    def _callable(self, name: str) -> Any:
        """The function or class ``name`` holds in the notebook's namespace (a dotted name whose
        module the notebook did not bind, in the module itself: ``builtins.max``); refused otherwise."""
        found = lookup_name(self.namespace, name)
        if not callable(found):
            kind = type(found).__name__
            raise CallRefused(STATUS_MISSING, f"{name!r} holds a value of type {kind}, not a function or class")
        return found

    def _read_globals(self, names: list[str]) -> list[list[Any]]:
        found = []
        for name in names:
            try:
                found.append([name, encode(resolve(self.namespace, name))])
            except (CallRefused, Unserializable):
                continue
        return found

    def defined_names(self, hidden: Collection[str] = ()) -> DefinedNamesReply:
        """The notebook's own functions, classes (with their methods) and plain variables;
        ``hidden`` names (the shell's own) and modules are left out."""
        functions: list[str] = []
        classes: dict[str, list[str]] = {}
        variables: list[str] = []
        for name, value in list(self.namespace.items()):
            if name in hidden or is_ipython_bookkeeping(name) or isinstance(value, types.ModuleType):
                continue
            if is_notebook_class(value):
                classes[name] = methods_of(value)
            elif callable(value):
                # Any callable can be called and counted: a bound method (``minimax =
                # engine.minimax``), a partial, a callable instance, a staticmethod.
                functions.append(name)
            else:
                variables.append(name)
        return {
            "functions": functions,
            "classes": classes,
            "variables": variables,
            "references": code_references(self.namespace, functions, classes),
        }


def _read_after(wanted: list[Any], args: list[Any], kwargs: dict[str, Any], holder: Any) -> list[list[Any]]:
    """``[what, encoding]`` for each argument (a position or keyword name) and attribute of the
    object the board was written to (``".name"``) in ``wanted``, as the call left it: a
    function that plays its move on the board it was given answers there. What is missing
    or cannot be encoded is left out."""
    found = []
    for what in wanted:
        if isinstance(what, int):
            present, value = 0 <= what < len(args), args[what] if 0 <= what < len(args) else None
        elif what.startswith("."):
            value = getattr(holder, what[1:], NOT_FOUND) if holder is not None else NOT_FOUND
            present = value is not NOT_FOUND
        else:
            present, value = what in kwargs, kwargs.get(what)
        if not present:
            continue
        try:
            found.append([what, encode(value)])
        except Unserializable:
            continue
    return found


def _skipped(why: str) -> OutcomeData:
    return {
        "status": STATUS_SKIPPED,
        "value": None,
        "error": f"not started: {why}",
        "traceback": "",
        "duration": 0.0,
        "wall": 0.0,
        "clock": None,
        "counts": {},
        "logged": {},
        "mutated": False,
        "changed_args": [],
        "globals": [],
        "after": [],
        "stdout": "",
        "exploration": None,
    }


def _exploration_data(exploration: Exploration, uses: dict[str, dict[str | None, int]]) -> ExplorationData:
    steps = exploration.steps
    return {
        "uses": {name: [pack_boards(list(seen)), list(seen.values())] for name, seen in uses.items()},
        "nodes": exploration.nodes,
        "search": exploration.search,
        "steps": None if steps is None else pack_boards(steps),
        "complete": exploration.complete,
        "retry": exploration.retry,
    }


def _mutations(call: CallRequest, sent: list[tuple[Any, Any]]) -> tuple[bool, list[list[Any]]]:
    """Whether the call changed anything it was given, and the positional arguments it changed,
    as they are now (what a function that plays on the board it is given did to it): each
    value encoded once. ``sent`` holds the globals set first, then the args sent as values
    (not those the kernel made), and last the attributes written to objects the kernel made
    (`Written`); a value that no longer encodes counts as changed."""
    first = len(call["set_globals"])
    sent_args = [position for position, data in enumerate(call["args"]) if not holds_made(data)]
    args = {first + n: position for n, position in enumerate(sent_args)}  # index in ``sent`` -> position
    mutated = False
    changed: list[list[Any]] = []
    for index, (value, data) in enumerate(sent):
        try:
            now = encode(value.now() if isinstance(value, Written) else value)
        except Unserializable:
            mutated = True
            continue
        if now != data:
            mutated = True
            if index in args:
                changed.append([args[index], now])
    return mutated, changed


def describe(error: BaseException) -> str:
    """``"ZeroDivisionError: division by zero"``, shortened."""
    try:
        message = str(error)
    except Exception:  # a student's exception whose __str__ fails
        message = "<unprintable message>"
    text = f"{type(error).__name__}: {message}" if message else type(error).__name__
    return text[:ERROR_CHARS]


def student_traceback(error: BaseException) -> str:
    """The last frames of a traceback, without the grader's own. Only the entries that hold them
    are extracted: a RecursionError's thousand frames cost more to extract (each one's source
    position and line) than the student's call took to run."""
    try:
        own_file = student_traceback.__code__.co_filename
        chain, tail = [], error.__traceback__
        while tail is not None:
            chain.append(tail)
            tail = tail.tb_next
        shown = [n for n, entry in enumerate(chain) if entry.tb_frame.f_code.co_filename != own_file]
        tail = chain[shown[-TRACEBACK_FRAMES]] if len(shown) >= TRACEBACK_FRAMES else error.__traceback__
        frames = [f for f in traceback.extract_tb(tail) if f.filename != own_file]
        text = "".join(traceback.format_list(frames[-TRACEBACK_FRAMES:]))
        return (text + describe(error))[-TRACEBACK_CHARS:]
    except Exception:
        return describe(error)
