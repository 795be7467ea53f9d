"""How the format page writes a spec field's type and value in TOML's words: ``list of
integers``, ``one of `"unit"`, `"depth-adjusted"` ``, ``default `[1, 2, 3]` ``."""

from __future__ import annotations

import dataclasses
import math
import types
import typing
from collections.abc import Callable
from typing import Any

from grader.spec.call_template import CallTemplate
from reference import Position, TicTacToe, WrittenPosition

__all__ = ["NAMED_TYPES", "default", "default_text", "table_type", "type_text", "value_text"]


NAMED_TYPES: dict[object, str] = {
    str: "string",
    int: "integer",
    float: "number",
    bool: "true or false",
    dict: "table",
    CallTemplate: "call text",
}


def type_text(hint: Any) -> str:
    """How a field's type reads in TOML terms."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is typing.Literal:
        return "one of " + ", ".join(f"`{value_text(a)}`" for a in args)
    if origin in (typing.Union, types.UnionType):
        present = [a for a in args if a is not type(None)]
        return " or ".join(type_text(a) for a in present)
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        return f"list of {_plural(type_text(args[0]))}"
    if origin is tuple:
        return "[" + ", ".join(type_text(a) for a in args) + "]"
    if origin is dict:
        return f"table of {_plural(type_text(args[1]))}" if args else "table"
    if hint in NAMED_TYPES:
        return NAMED_TYPES[hint]
    if _written(hint):
        return hint.spec_words()[0]
    if hint is Position:  # a position of the assignment's game; the kinds that hold one know tic-tac-toe alone
        return TicTacToe().spec_words()[0]
    if table_type(hint) is not None:
        return "table, with the fields below"
    raise LookupError(f"no TOML name for the type {hint!r}: add it to NAMED_TYPES")


def _plural(text: str) -> str:
    if text.startswith(("one of", "[", "list of", "table")):
        return text if not text.startswith("one of") else "values " + text
    first, sep, rest = text.partition(",")
    return first + "s" + sep + rest


def default_text(f: dataclasses.Field[Any]) -> str:
    if f.default is not dataclasses.MISSING:
        return default(f.default)
    factory: Callable[[], Any] | Any = f.default_factory
    if factory is not dataclasses.MISSING:
        return default(factory())
    return "required"


def default(value: Any) -> str:
    """``default `...` ``, or ``optional`` for a field that is left out unless given."""
    return "optional" if value is None else f"default `{value_text(value)}`"


def value_text(value: Any) -> str:
    """A value as it is written in TOML (``none`` where the field is left out)."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and math.isinf(value):
        return "inf" if value > 0 else "-inf"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, (str, WrittenPosition)):
        return f'"{value}"'
    if isinstance(value, tuple):
        return "[" + ", ".join(value_text(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k} = {value_text(v)}" for k, v in value.items()) + "}"
    return str(value)


def table_type(hint: Any) -> type | None:
    """The parameters class a field holds as a table of its own (``prune = { ratio = 0.8 }``)."""
    union = typing.get_origin(hint) in (typing.Union, types.UnionType)
    candidates = [
        c for c in ([hint, *typing.get_args(hint)] if union else [hint]) if c not in NAMED_TYPES and not _written(c)
    ]
    return next((c for c in candidates if isinstance(c, type) and dataclasses.is_dataclass(c)), None)


def _written(hint: Any) -> bool:
    """A position type the spec writes as text (its own words name it)."""
    return isinstance(hint, type) and issubclass(hint, WrittenPosition)
