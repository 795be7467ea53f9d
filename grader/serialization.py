"""One converter between the project's typed values and plain data (TOML tables, JSON).

``converter.structure(data, SomeDataclass)`` builds frozen dataclasses from dicts, lists and
scalars and checks every value on the way: an int is not a bool, a list is not a string, a
``Literal`` field takes one of its values, an unknown key is refused, a `Positive` number is
above zero. It does not stop at the first problem: it raises one `cattrs` error group that
`problems` turns into every ``(path, problem)`` pair, such as
``("checks[2].points", "must be a number, not 'ten'")``.

``converter.unstructure(value)`` goes the other way: dataclasses become dicts, tuples lists,
enums their values.

It knows no type of the project's own: a module with its own types (the spec's call texts
and boards, `grader.spec.tables`) registers hooks on a ``converter.copy()``, not on this
one, so that reading a stored record imports nothing it does not need.
"""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Annotated, Any, Literal, get_args, get_origin

import cattrs
from cattrs.errors import (
    ClassValidationError,
    ForbiddenExtraKeysError,
    IterableValidationError,
    IterableValidationNote,
)
from cattrs.gen import make_dict_structure_fn, make_mapping_structure_fn, override

__all__ = ["OneOrMore", "Positive", "converter", "noted", "problems", "written"]


@dataclass(frozen=True)
class Positive:
    """Marks a number that must be above zero: ``Annotated[float, Positive()]``."""


@dataclass(frozen=True)
class OneOrMore:
    """Marks a list of words that may be written as one word: ``Annotated[tuple[str, ...],
    OneOrMore(choices)]``; each must be one of ``choices``."""

    choices: tuple[str, ...]


def noted(error: Exception, note: object) -> Exception:
    """``error`` with a cattrs note saying where it happened (``add_note`` is 3.11's)."""
    error.__notes__ = [*getattr(error, "__notes__", []), note]  # type: ignore[attr-defined]
    return error


def written(value: Any) -> str:
    """A value as a problem quotes it: ``'ten'``, ``true``."""
    return "true" if value is True else "false" if value is False else repr(value)


# -- scalars: what TOML and JSON give, taken as they are ---------------------------------------


def _int(value: Any, _: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"must be an integer, not {written(value)}")
    return value


def _float(value: Any, _: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"must be a number, not {written(value)}")
    return float(value)


def _str(value: Any, cl: Any) -> Any:
    if not isinstance(value, str):
        raise TypeError(f"must be a string, not {written(value)}")
    if cl is not str and issubclass(cl, enum.Enum):  # a str enum (`CellStatus`) is dispatched here
        try:
            return cl(value)
        except ValueError:
            raise ValueError(f"must be one of {', '.join(repr(m.value) for m in cl)}, not {value!r}") from None
    return value


def _bool(value: Any, _: Any) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"must be true or false, not {written(value)}")
    return value


def _literal(value: Any, cl: Any) -> Any:
    choices = get_args(cl)
    if isinstance(value, bool) or value not in choices:
        raise ValueError(f"must be one of {', '.join(map(repr, choices))}, not {written(value)}")
    return value


def _plain_dict(value: Any, _: Any) -> dict[Any, Any]:
    if not isinstance(value, Mapping):
        raise TypeError(f"must be a table, not {written(value)}")
    return dict(value)


# -- containers: every item checked, every problem kept ----------------------------------------


def _is_tuple(cl: Any) -> bool:
    return get_origin(cl) is tuple


def _tuple_hook(cl: Any, made: cattrs.Converter) -> Callable[[Any, Any], tuple[Any, ...]]:
    args = get_args(cl)
    repeated = len(args) == 2 and args[1] is Ellipsis

    def structure_tuple(value: Any, _: Any) -> tuple[Any, ...]:
        if isinstance(value, (str, bytes)) or not isinstance(value, (list, tuple)):
            raise TypeError(f"must be a list, not {written(value)}")
        if not repeated and len(value) != len(args):
            raise ValueError(f"must be a list of {len(args)}, not {written(value)}")
        types = [args[0]] * len(value) if repeated else list(args)
        items: list[Any] = []
        errors: list[Exception] = []
        for n, (item, item_type) in enumerate(zip(value, types)):
            try:
                items.append(made.structure(item, item_type))
            except Exception as problem:
                errors.append(noted(problem, IterableValidationNote(f"Structuring {cl} @ index {n}", n, item_type)))
        if errors:
            raise IterableValidationError(f"While structuring {cl}", errors, cl)
        return tuple(items)

    return structure_tuple


def _is_mapping(cl: Any) -> bool:
    return get_origin(cl) in (dict, Mapping, typing.Mapping)


def _mapping_hook(cl: Any, made: cattrs.Converter) -> Callable[[Any, Any], Any]:
    structure = make_mapping_structure_fn(cl, made, detailed_validation=True)

    def structure_mapping(value: Any, cl: Any) -> Any:
        return structure(_plain_dict(value, cl), cl)

    return structure_mapping


def _is_optional(cl: Any) -> bool:
    return get_origin(cl) in (typing.Union, types.UnionType) and type(None) in get_args(cl) and len(get_args(cl)) == 2


def _optional_hook(cl: Any, made: cattrs.Converter) -> Callable[[Any, Any], Any]:
    """``X | None``, with the marks of an ``Annotated`` X kept (cattrs' own drops them)."""
    (other,) = (a for a in get_args(cl) if a is not type(None))
    structure_other = made.get_structure_hook(other)

    def structure_optional(value: Any, _: Any) -> Any:
        return None if value is None else structure_other(value, other)

    return structure_optional


def _is_annotated(cl: Any) -> bool:
    return get_origin(cl) is Annotated


def _annotated_hook(cl: Any, made: cattrs.Converter) -> Callable[[Any, Any], Any]:
    base, *marks = get_args(cl)
    structure_base = made.get_structure_hook(base)
    one_or_more = next((m for m in marks if isinstance(m, OneOrMore)), None)
    positive = any(isinstance(m, Positive) for m in marks)

    def structure(value: Any, _: Any) -> Any:
        if one_or_more is not None:
            values = [value] if isinstance(value, str) else value
            if not isinstance(values, list) or not values or any(v not in one_or_more.choices for v in values):
                raise ValueError(f"must be one or a list of {', '.join(one_or_more.choices)}, not {written(value)}")
            return tuple(values)
        result = structure_base(value, base)
        if positive and not result > 0:
            raise ValueError(f"must be more than 0, not {written(value)}")
        return result

    return structure


def _dataclass_hook(cl: Any, made: cattrs.Converter) -> Callable[[Any, Any], Any]:
    """The dataclass's structuring with its ``Annotated`` fields honoured (cattrs reads string
    annotations without their extras), and a non-table refused in words."""
    hints = typing.get_type_hints(cl, include_extras=True)
    plain = typing.get_type_hints(cl)
    annotated = {name: hint for name, hint in hints.items() if hint != plain[name]}  # `Seconds | None` too
    marked = {name: override(struct_hook=made.get_structure_hook(hint)) for name, hint in annotated.items()}
    structure = make_dict_structure_fn(cl, made, **typing.cast(dict[str, Any], marked))

    def structure_table(value: Any, cl: Any) -> Any:
        return structure(_plain_dict(value, cl), cl)

    return structure_table


def _enum_value(value: Any) -> Any:
    return value.value if isinstance(value, enum.Enum) else value


def _make_converter() -> cattrs.Converter:
    made = cattrs.Converter(forbid_extra_keys=True, unstruct_collection_overrides={tuple: list})
    for kind, hook in ((int, _int), (float, _float), (str, _str), (bool, _bool), (dict, _plain_dict)):
        made.register_structure_hook(kind, hook)
    made.register_structure_hook_func(lambda cl: get_origin(cl) is Literal, _literal)
    made.register_structure_hook_factory(_is_tuple, _tuple_hook)
    made.register_structure_hook_factory(_is_mapping, _mapping_hook)
    made.register_structure_hook_factory(_is_annotated, _annotated_hook)
    made.register_structure_hook_factory(_is_optional, _optional_hook)
    made.register_structure_hook_factory(dataclasses.is_dataclass, _dataclass_hook)
    # A str enum (`CellStatus`) is dispatched to str's hook before Enum's: both give the value.
    made.register_unstructure_hook(enum.Enum, _enum_value)
    made.register_unstructure_hook(str, _enum_value)
    return made


converter = _make_converter()
"""The one converter: see the module's docstring."""


# -- every problem, located --------------------------------------------------------------------


def problems(error: BaseException, path: str = "") -> Iterator[tuple[str, str]]:
    """Each problem in a structuring error, as (``checks[2].points``-style path, words)."""
    if isinstance(error, (ClassValidationError, IterableValidationError)):
        located, unlocated = error.group_exceptions()
        for inner, note in located:
            name = getattr(note, "name", None)
            step = f".{name}" if name is not None else _index(getattr(note, "index", None))
            yield from problems(inner, f"{path}{step}".lstrip("."))
        for inner in unlocated:
            yield from problems(inner, path)
    elif isinstance(error, ForbiddenExtraKeysError):
        accepted = ", ".join(f.name for f in dataclasses.fields(error.cl)) if dataclasses.is_dataclass(error.cl) else ""
        for extra in sorted(error.extra_fields):
            yield f"{path}.{extra}".lstrip("."), f"unknown field; accepted here: {accepted}"
    elif isinstance(error, KeyError):
        yield path, "is required"
    else:
        yield path, str(error)


def _index(index: object) -> str:
    return f".{index}" if isinstance(index, str) and index.isidentifier() else f"[{index!r}]"
