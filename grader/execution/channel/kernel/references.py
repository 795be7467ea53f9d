"""Who may call whom in a notebook: the functions and classes each one's code names.

Read from the code objects in the kernel (the definitions that are current, nested functions
and lambdas included), so it costs no parsing and follows redefinitions. A method's name
stands for its class (``self.minmax()``). The grader uses it to tell which calls may reach a
function that ran out of time (`grader.execution.hangs`).

Shipped into the kernel as source before the call executor (see
:mod:`grader.execution.channel.link`): standard library only.
"""

from __future__ import annotations

import types
from typing import Any


def code_references(
    namespace: dict[str, Any], functions: list[str], classes: dict[str, list[str]]
) -> dict[str, list[str]]:
    """Which of the notebook's functions and classes each one's code names, nested functions
    and lambdas included; a method's name stands for its class (``self.minmax()``)."""
    by_name = {name: name for name in functions}
    for klass, methods in classes.items():
        by_name[klass] = klass
        for method in methods:
            by_name.setdefault(method, klass)
    references: dict[str, list[str]] = {}
    for name in [*functions, *classes]:
        value = namespace[name]
        if name in classes:
            codes = [_code_of(raw) for raw in vars(value).values()]
        else:
            codes = [_code_of(value)]
        named: set[str] = set()
        for code in codes:
            if code is not None:
                named |= _names_in(code)
        references[name] = sorted({by_name[n] for n in named if n in by_name} - {name})
    return references


def _code_of(raw: Any) -> types.CodeType | None:
    raw = getattr(raw, "__func__", raw)  # staticmethod, classmethod
    code = getattr(raw, "__code__", None)
    return code if isinstance(code, types.CodeType) else None


def _names_in(code: types.CodeType) -> set[str]:
    names = set(code.co_names)
    for constant in code.co_consts:
        if isinstance(constant, types.CodeType):
            names |= _names_in(constant)
    return names
