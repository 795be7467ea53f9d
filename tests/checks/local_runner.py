"""An in-process stand-in for the call channel, for fast tests of check logic.

It follows the `Call` contract (set globals, call a dotted target, chained methods, count
calls of named functions, report mutation) on student code exec'd in a plain dict. It is
not a sandbox and is only used on the test suite's own snippets.
"""

from __future__ import annotations

import copy
import functools
import time
from collections.abc import Sequence
from typing import Any

from grader.execution.channel.calls import Call, CallOutcome, CallStatus


class LocalRunner:
    def __init__(self, source: str) -> None:
        self.namespace: dict[str, Any] = {"__name__": "student"}
        exec(compile(source, "<student>", "exec"), self.namespace)
        self.calls_made = 0

    def defined_names(self) -> list[str]:
        return [n for n in self.namespace if not n.startswith("__")]

    def call_many(self, calls: Sequence[Call]) -> list[CallOutcome]:
        return [self._one(c) for c in calls]

    def _one(self, call: Call) -> CallOutcome:
        self.calls_made += 1
        started = time.monotonic()
        ns = self.namespace
        for name, value in call.set_globals.items():
            _assign(ns, name, copy.deepcopy(value))
        before = copy.deepcopy((call.args, dict(call.kwargs), dict(call.set_globals)))
        counts = {name: 0 for name in call.count}
        originals = {}
        for name in call.count:
            owner, attr = _owner(ns, name)
            original = _get(owner, attr)
            originals[name] = (owner, attr, original)

            def counting(*a, __name=name, __f=original, **k):
                counts[__name] += 1
                return __f(*a, **k)

            _set(owner, attr, functools.wraps(original)(counting))
        args = copy.deepcopy(call.args)
        kwargs = copy.deepcopy(dict(call.kwargs))
        try:
            try:
                target = _resolve(ns, call.target)
            except (KeyError, AttributeError):
                return CallOutcome(CallStatus.MISSING, None, f"{call.target} is not defined", {}, False, {}, "", 0.0)
            try:
                value = target(*args, **kwargs)
                for method, m_args, m_kwargs in call.then:
                    value = getattr(value, method)(*m_args, **dict(m_kwargs))
            except Exception as exc:
                return CallOutcome(CallStatus.RAISED, None, f"{type(exc).__name__}: {exc}", counts, False, {}, "", 0.0)
        finally:
            for owner, attr, original in originals.values():
                _set(owner, attr, original)
        after_globals = {name: copy.deepcopy(_resolve(ns, name)) for name in call.set_globals}
        mutated = (args, kwargs, after_globals) != before
        read = {name: _resolve(ns, name) for name in call.read_globals}
        return CallOutcome(CallStatus.OK, _plain(value), None, counts, mutated, read, "", time.monotonic() - started)


def _plain(value: Any) -> Any:
    if hasattr(value, "tolist"):
        return value.tolist()
    return copy.deepcopy(value)


def _resolve(ns: dict, dotted: str) -> Any:
    head, *rest = dotted.split(".")
    value = ns[head]
    for part in rest:
        value = getattr(value, part)
    return value


def _owner(ns: dict, dotted: str):
    if "." not in dotted:
        return ns, dotted
    head, attr = dotted.rsplit(".", 1)
    return _resolve(ns, head), attr


def _get(owner, attr):
    return owner[attr] if isinstance(owner, dict) else getattr(owner, attr)


def _set(owner, attr, value):
    if isinstance(owner, dict):
        owner[attr] = value
    else:
        setattr(owner, attr, value)


def _assign(ns: dict, dotted: str, value: Any) -> None:
    owner, attr = _owner(ns, dotted)
    _set(owner, attr, value)
