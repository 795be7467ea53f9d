"""Headlines for calls that fail because of the function's shape, not because of its answers.

A student whose ``check_winner(board)`` is called as ``check_winner(board, player)`` gets a
TypeError on every board; telling them "wrong answer on a position with 0 pieces" sends them
looking at their logic. This module reads what the calls did (the exceptions raised, the
values returned) and, when every call failed the same way for a reason of shape (too many or
too few parameters, a method where a function is called, a stub that raises
NotImplementedError or returns None), says so in one sentence. Anything else gives ``None``:
the check then judges the answers as usual.

The rule is the diagnosis rule of the grader: a headline is given only when it accounts for
EVERY call seen. A TypeError about arguments raised inside the body (a recursive call with
one argument too few) is a bug in the body, not a shape: when the traceback is known it must
show no frame of the student's code, and the count the message names must be the count the
assignment's call passes.
"""

from __future__ import annotations

import ast
import re
import traceback
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from grader.execution.channel.calls import CallOutcome, CallStatus
from grader.spec.call_template import CallStep, CallTemplate, parse_call

__all__ = ["Observed", "Signature", "shape_headline"]


@dataclass(frozen=True)
class Observed:
    """What one call of the student's function did, as far as its shape shows."""

    value: Any = None
    error_type: str | None = None
    """``None`` when the call returned ``value``; else the exception's type name, or
    ``<timeout>``-style markers for calls that neither returned nor raised."""
    message: str = ""
    raised_in: tuple[str, ...] | None = None
    """The student's functions in the traceback, outermost first: ``()`` when the exception
    was raised by the call itself (binding the arguments), ``None`` when unknown."""

    @property
    def returned(self) -> bool:
        return self.error_type is None

    @classmethod
    def from_outcome(cls, outcome: CallOutcome) -> Observed:
        """From the call channel: ``error`` is ``"TypeError: message"``, ``traceback`` holds the
        student's frames only (empty when the channel did not report one)."""
        if outcome.status is CallStatus.OK:
            return cls(value=outcome.value)
        if outcome.status is not CallStatus.RAISED or not outcome.error:
            return cls(error_type=f"<{outcome.status.value}>", message=outcome.error or "")
        error_type, _, message = outcome.error.partition(": ")
        frames = None
        if outcome.traceback:
            frames = tuple(re.findall(r'^\s*File ".*", line \d+, in (\S+)', outcome.traceback, re.MULTILINE))
        return cls(error_type=error_type, message=message, raised_in=frames)

    @classmethod
    def from_exception(cls, error: BaseException) -> Observed:
        """From an exception caught in-process: the first frame is the caller's, where it was caught."""
        frames = tuple(frame.name for frame in traceback.extract_tb(error.__traceback__)[1:])
        return cls(error_type=type(error).__name__, message=str(error), raised_in=frames)


@dataclass(frozen=True)
class _Param:
    name: str
    kind: str
    """``positional``, ``keyword`` (keyword-only), ``*`` or ``**``."""
    default: str | None
    """The default as written, or ``None`` when the parameter is required."""

    def text(self) -> str:
        if self.kind == "*":
            return f"*{self.name}"
        if self.kind == "**":
            return f"**{self.name}"
        return self.name if self.default is None else f"{self.name}={self.default}"


@dataclass(frozen=True)
class Signature:
    """A student function's parameters, read from signature text such as
    ``(self, board, player='X')`` or ``check_win(board: list, player: str) -> bool``
    (what ``inspect.signature`` prints, or the ``def`` line)."""

    params: tuple[_Param, ...]

    @classmethod
    def parse(cls, text: str) -> Signature | None:
        """``None`` when the text is not a parameter list (then it is simply not used)."""
        text = text.strip().removeprefix("def ").rstrip(":").strip()
        text = text[text.find("(") :] if "(" in text else f"({text})"
        try:
            tree = ast.parse(f"def _f{text}: pass")
        except SyntaxError:
            return None
        function = tree.body[0]
        assert isinstance(function, ast.FunctionDef)
        a = function.args
        positional = [*a.posonlyargs, *a.args]
        defaults: list[ast.expr | None] = [None] * (len(positional) - len(a.defaults)) + list(a.defaults)
        params = [_Param(p.arg, "positional", _text(d)) for p, d in zip(positional, defaults)]
        if a.vararg:
            params.append(_Param(a.vararg.arg, "*", None))
        params += [_Param(p.arg, "keyword", _text(d)) for p, d in zip(a.kwonlyargs, a.kw_defaults)]
        if a.kwarg:
            params.append(_Param(a.kwarg.arg, "**", None))
        return cls(tuple(params))

    @property
    def has_self(self) -> bool:
        return bool(self.params) and self.params[0].kind == "positional" and self.params[0].name in ("self", "cls")

    def without_self(self) -> Signature:
        return Signature(self.params[1:]) if self.has_self else self

    def accepts(self, positional: int, keywords: Sequence[str]) -> bool:
        """Whether a call with that many positional arguments and those keywords binds."""
        slots = [p for p in self.params if p.kind == "positional"]
        if positional > len(slots) and not any(p.kind == "*" for p in self.params):
            return False
        filled = {p.name for p in slots[:positional]}
        by_name = {p.name: p for p in self.params if p.kind in ("positional", "keyword")}
        for keyword in keywords:
            if keyword in filled or (keyword not in by_name and not any(p.kind == "**" for p in self.params)):
                return False
            filled.add(keyword)
        return all(p.name in filled for p in by_name.values() if p.default is None)

    def describe(self) -> str:
        """``takes 2 to 3 arguments (board, depth, max_depth=inf)``"""
        slots = [p for p in self.params if p.kind == "positional"]
        required = sum(p.default is None for p in slots)
        high = None if any(p.kind == "*" for p in self.params) else len(slots)
        return f"takes {_count_words(required, high)} ({self.names()})"

    def names(self) -> str:
        return ", ".join(p.text() for p in self.params)


def _text(node: ast.expr | None) -> str | None:
    return None if node is None else ast.unparse(node)


def _count_words(low: int, high: int | None) -> str:
    if high is None:
        return f"{low} or more arguments"
    if low == high:
        return "no argument" if low == 0 else "1 argument" if low == 1 else f"{low} arguments"
    return f"{low} to {high} arguments"


# TypeError wordings of CPython 3.10-3.13 (3.9 and older lack the class in the name). 3.13
# appends "Did you mean ...?" to the unexpected-keyword message, so messages are matched by
# their start.
_NAME = r"(?P<name>[\w.<>]+)\(\)"
_TAKES = re.compile(
    rf"{_NAME} takes (?:from (?P<low>\d+) to )?(?P<high>\d+) positional arguments? "
    r"but (?P<given>\d+)(?: positional arguments?(?: \(and \d+ keyword-only arguments?\))?)? (?:was|were) given"
)
_NO_ARGUMENTS = re.compile(rf"{_NAME} takes no arguments")
_MISSING = re.compile(rf"{_NAME} missing \d+ required (?:positional|keyword-only) arguments?: (?P<names>.+)")
_UNEXPECTED = re.compile(rf"{_NAME} got an unexpected keyword argument '(?P<keyword>\w+)'")
_TWICE = re.compile(rf"{_NAME} got multiple values for argument '(?P<keyword>\w+)'")


@dataclass(frozen=True)
class _Arity:
    """One arity TypeError, read: which function, and what it says."""

    name: str
    kind: str
    """``takes``, ``missing``, ``unexpected`` or ``twice``."""
    low: int = 0
    high: int = 0
    given: int = 0
    names: tuple[str, ...] = ()


def _read_arity(message: str) -> _Arity | None:
    if m := _TAKES.match(message):
        high = int(m["high"])
        return _Arity(m["name"], "takes", int(m["low"] or high), high, int(m["given"]))
    if m := _NO_ARGUMENTS.match(message):
        return _Arity(m["name"], "takes", 0, 0, -1)
    if m := _MISSING.match(message):
        return _Arity(m["name"], "missing", names=tuple(re.findall(r"'(\w+)'", m["names"])))
    if m := _UNEXPECTED.match(message):
        return _Arity(m["name"], "unexpected", names=(m["keyword"],))
    if m := _TWICE.match(message):
        return _Arity(m["name"], "twice", names=(m["keyword"],))
    return None


@dataclass(frozen=True)
class _Step:
    """The step of the assignment's call that an error names."""

    label: str
    step: CallStep
    bound: bool
    """Called on an instance (a method or a constructor): ``self`` is one of the arguments counted."""
    is_target: bool


def _step_named(name: str, template: CallTemplate, function: str) -> _Step | None:
    parts = name.split(".")
    target = function.split(".")[-1]
    if parts[-1] == "__init__" and (len(parts) == 1 or parts[-2] == target):
        return _Step(target, template.target, True, True)
    for step in reversed(template.chain):
        if parts[-1] == step.name:
            label = name if len(parts) > 1 else f"{target}.{step.name}"
            return _Step(label, step, True, False)
    if parts[-1] == target:
        return _Step(function, template.target, False, True)
    return None


def shape_headline(
    function: str,
    call: CallTemplate | str,
    outcomes: Sequence[Observed],
    *,
    signature: str | None = None,
    none_ok: bool = False,
) -> str | None:
    """A headline when every call failed because of the function's shape, else ``None``.

    ``function`` is the name the notebook defines (an accepted alias resolved); ``call`` the
    assignment's call (its text or the parsed template); ``signature`` the student function's
    parameters as text, when the executor reports them (``self`` included or not); ``none_ok``
    says that None is a right answer on some of the calls made (a winner function on
    unfinished games), so that answering None everywhere is not taken for a stub.
    """
    template = parse_call(call) if isinstance(call, str) else call
    shown = template.describe({}, function=function)
    if not outcomes:
        return None
    if all(o.error_type == "NotImplementedError" for o in outcomes):
        return _not_implemented(function, outcomes)
    if all(o.returned and o.value is None for o in outcomes) and not none_ok:
        return (
            f"`{function}` is not implemented yet: it returns None on every call "
            "(is its body still `pass`, or is a `return` missing?)."
        )
    if all(o.error_type == "TypeError" for o in outcomes):
        return _arity_headline(function, template, shown, outcomes, Signature.parse(signature) if signature else None)
    return None


def _not_implemented(function: str, outcomes: Sequence[Observed]) -> str:
    """Who raised: the function itself, or a helper stub it calls (the same one every time)."""
    innermost = {o.raised_in[-1] for o in outcomes if o.raised_in}
    helper = innermost.pop() if len(innermost) == 1 else None
    if helper is not None and helper != function.split(".")[-1] and not helper.startswith("<"):
        return f"`{helper}` is not implemented yet (it raises NotImplementedError), and `{function}` calls it."
    return f"`{function}` is not implemented yet: it raises NotImplementedError."


def _arity_headline(
    function: str, template: CallTemplate, shown: str, outcomes: Sequence[Observed], signature: Signature | None
) -> str | None:
    if any(o.raised_in for o in outcomes):
        return None  # raised inside the body: a call the student's code makes, not ours
    errors = {o.message for o in outcomes}
    if len(errors) != 1:
        return None
    arity = _read_arity(errors.pop())
    where = None if arity is None else _step_named(arity.name, template, function)
    if arity is None or where is None:
        return None
    given = len(where.step.args) + where.bound
    if arity.kind == "takes" and arity.given not in (given, -1):
        return None  # the count is not the one our call passes
    label = where.label
    # The signature reported is the target's: a chained method's error is read from its message alone.
    known = signature if where.is_target else None
    if known is not None:
        keywords = [k for k, _ in where.step.kwargs]
        if known.has_self and not where.bound and not known.accepts(len(where.step.args), keywords):
            return (
                f"`{label}` is written as a method (its first parameter is `self`), "
                f"but this assignment calls it as a function: `{shown}`."
            )
        known = known.without_self() if where.bound else known
        if known.accepts(len(where.step.args), keywords):
            return None  # our call binds: the TypeError came from elsewhere
        if arity.kind in ("takes", "missing"):
            return f"`{label}` {known.describe()}; this assignment calls `{shown}`."
    if arity.kind == "takes":
        low, high = max(arity.low - where.bound, 0), max(arity.high - where.bound, 0)
        return f"`{label}` takes {_count_words(low, high)}; this assignment calls `{shown}`."
    if arity.kind == "missing":
        names = " and ".join(f"`{n}`" for n in arity.names)
        noun = "an argument" if len(arity.names) == 1 else "arguments"
        return f"`{label}` requires {noun} {names} that this assignment does not pass: it calls `{shown}`."
    if arity.kind == "unexpected":
        params = f" (its parameters: {known.names()})" if known is not None else ""
        return f"`{label}` has no parameter `{arity.names[0]}`{params}; this assignment calls `{shown}`."
    return (
        f"`{label}` receives `{arity.names[0]}` twice, by position and by name: "
        f"its parameters are in another order than this assignment's call `{shown}`."
    )
