"""The declarative call syntax of assignment specs.

A course author writes how the student's function is called, as Python:

    call = "minimaxAB(board, 0, is_max, -inf, inf)"
    call = "State(board, to_move, max_depth=depth_limit).minmax('max')"
    call = "min()"                       # with globals = { current_state = "board" }

Bare names are placeholders filled per test case (``board``, ``player``, ``to_move``,
``is_max``, ``alpha``, ``beta``, ``depth_limit``, ...); ``inf`` is infinity; everything else
must be a literal. Parsing happens once, when the assignment is loaded, so a typo in a spec
is reported with its file and field rather than in the middle of grading.
"""

from __future__ import annotations

import ast
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from grader.errors import GraderError
from grader.execution.channel.call_data import Call, KernelMade, KernelName

__all__ = ["CallTemplate", "CallTemplateError", "dotted_name", "parse_call"]


class CallTemplateError(GraderError, ValueError):
    """The call text is not of the accepted form."""


@dataclass(frozen=True)
class Placeholder:
    name: str


Arg = Any  # a literal value or a Placeholder


@dataclass(frozen=True)
class CallStep:
    name: str
    args: tuple[Arg, ...]
    kwargs: tuple[tuple[str, Arg], ...]


@dataclass(frozen=True)
class CallTemplate:
    """A parsed call: the target function, then chained method calls."""

    text: str
    target: CallStep
    chain: tuple[CallStep, ...] = ()

    @property
    def function(self) -> str:
        """The student-defined name this call needs."""
        return self.target.name

    @property
    def placeholders(self) -> frozenset[str]:
        names: set[str] = set()
        for step in (self.target, *self.chain):
            for value in (*step.args, *(v for _, v in step.kwargs)):
                if isinstance(value, Placeholder):
                    names.add(value.name)
        return frozenset(names)

    def slots_of(self, placeholder: str) -> tuple[int | str, ...]:
        """The target's arguments that are ``placeholder``: positions, or keyword names."""
        positions = tuple(n for n, a in enumerate(self.target.args) if a == Placeholder(placeholder))
        return positions + tuple(k for k, a in self.target.kwargs if a == Placeholder(placeholder))

    def render(
        self,
        values: Mapping[str, Any],
        *,
        function: str | None = None,
        set_globals: Mapping[str, Any] | None = None,
        set_attributes: Mapping[str, Any] | None = None,
        count: tuple[str, ...] = (),
        count_all: bool = False,
        read_globals: tuple[str, ...] = (),
        timeout: float = 10.0,
        **fields: Any,
    ) -> Call:
        """Build the channel call with placeholders filled from ``values``.

        ``function`` replaces the target name (an accepted alias the notebook defines);
        ``set_attributes`` are written to the object the target returns, before the chain;
        ``fields`` are the call's other fields (a call is built for every case, so in one go).
        """
        return Call(
            target=function or self.target.name,
            args=tuple(_fill(a, values) for a in self.target.args),
            kwargs={k: _fill(v, values) for k, v in self.target.kwargs},
            then=tuple(
                (s.name, tuple(_fill(a, values) for a in s.args), {k: _fill(v, values) for k, v in s.kwargs})
                for s in self.chain
            ),
            set_globals=dict(set_globals or {}),
            set_attributes=dict(set_attributes or {}),
            read_globals=read_globals,
            count=count,
            count_all=count_all,
            timeout=timeout,
            **fields,
        )

    def describe(self, values: Mapping[str, Any], *, function: str | None = None) -> str:
        """The call as the student would read it, with short stand-ins for big arguments."""

        def show(value: Any) -> str:
            if isinstance(value, Placeholder):
                return value.name if value.name not in values else _short(values[value.name], value.name)
            return repr(value)

        def step_text(step: CallStep, name: str) -> str:
            parts = [show(a) for a in step.args] + [f"{k}={show(v)}" for k, v in step.kwargs]
            return f"{name}({', '.join(parts)})"

        text = step_text(self.target, function or self.target.name)
        for step in self.chain:
            text += "." + step_text(step, step.name)
        return text


def _short(value: Any, name: str) -> str:
    """The board is drawn beside the call, so it stays a name; other values are shown."""
    if name == "board":
        return "board"
    if isinstance(value, KernelMade):  # an object the kernel makes: the course's state
        return f"{value.factory}(...)"
    if isinstance(value, KernelName):
        return value.name
    if isinstance(value, float) and math.isinf(value):
        return "inf" if value > 0 else "-inf"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return repr(value)


def _fill(arg: Arg, values: Mapping[str, Any]) -> Any:
    if isinstance(arg, Placeholder):
        if arg.name not in values:
            raise CallTemplateError(f"placeholder {arg.name!r} has no value here")
        return values[arg.name]
    return arg


def parse_call(text: str, *, allowed_placeholders: frozenset[str] | None = None) -> CallTemplate:
    """Parse ``text``; raise CallTemplateError naming the problem."""
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except SyntaxError as exc:
        raise CallTemplateError(f"{text!r} is not a Python call: {exc.msg}") from None
    steps: list[CallStep] = []
    node = tree.body
    while True:
        if not isinstance(node, ast.Call):
            raise CallTemplateError(f"{text!r} must be a call such as f(board)")
        func = node.func
        step = CallStep(
            name=func.attr if isinstance(func, ast.Attribute) else _name(func, text),
            args=tuple(_literal(a, text) for a in node.args),
            kwargs=tuple((kw.arg or "", _literal(kw.value, text)) for kw in node.keywords),
        )
        if any(not k for k, _ in step.kwargs):
            raise CallTemplateError(f"{text!r}: **kwargs are not supported")
        steps.append(step)
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Call):
            node = func.value
            continue
        if isinstance(func, ast.Attribute):
            # A dotted target such as module.func(...) or Class.method(...)
            steps[-1] = CallStep(dotted_name(func, text), step.args, step.kwargs)
        break
    steps.reverse()
    template = CallTemplate(text=text.strip(), target=steps[0], chain=tuple(steps[1:]))
    if allowed_placeholders is not None:
        unknown = template.placeholders - allowed_placeholders
        if unknown:
            raise CallTemplateError(
                f"{text!r} uses unknown placeholder(s) {', '.join(sorted(unknown))}; "
                f"known: {', '.join(sorted(allowed_placeholders))}"
            )
    return template


def _name(node: ast.expr, text: str) -> str:
    if isinstance(node, ast.Name):
        return node.id
    raise CallTemplateError(f"{text!r}: the called thing must be a name")


def dotted_name(node: ast.expr, text: str) -> str:
    """``module.func`` for a dotted name of the call ``text`` (a CallTemplateError for anything else)."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return f"{dotted_name(node.value, text)}.{node.attr}"
    raise CallTemplateError(f"{text!r}: the called thing must be a dotted name")


def _literal(node: ast.expr, text: str) -> Arg:
    if isinstance(node, ast.Name):
        if node.id == "inf":
            return math.inf
        return Placeholder(node.id)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = _literal(node.operand, text)
        if isinstance(inner, (int, float)) and not isinstance(inner, bool):
            return -inner
        raise CallTemplateError(f"{text!r}: only numbers can be negated")
    try:
        return ast.literal_eval(node)
    except ValueError:
        raise CallTemplateError(
            f"{text!r}: argument {ast.unparse(node)!r} must be a literal or a placeholder name"
        ) from None
