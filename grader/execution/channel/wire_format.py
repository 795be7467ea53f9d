"""The wire format between the grader and the kernel shim: tagged JSON for plain data.

Both ends use this one definition. The grader imports it; the kernel receives its source
text, executed into the shim's private namespace before :mod:`grader.execution.channel.kernel.shim`.

JSON null/bool/int/str/list and finite floats stand for themselves. Everything else is a
one-key object whose key starts with "$"::

    {"$float": "inf"|"-inf"|"nan"}     {"$tuple": [...]}      {"$dict": [[key, value], ...]}
    {"$set": [...]}  {"$frozenset": [...]}  {"$bytes": base64}  {"$complex": [re, im]}
    {"$ndarray": {"dtype": "<i8", "shape": [3, 3], "data": nested lists}}
    {"$object": {"type": "State", "module": "__main__", "attrs": [[name, value], ...] | null}}
    {"$opaque": type name}   an attribute that cannot be represented (a function, a lock...)
    {"$cycle": type name}    a container that contains itself

Objects carry their attributes one level deep: objects found inside those attributes are
sent as their type only (``"attrs": null``), which keeps linked structures small; a call may
ask for more levels (a course's state object whose board lives in a nested object).
``{"$name": "f"}`` (a name in the notebook's namespace) and ``{"$make": [factory, args,
kwargs]}`` (an object the kernel makes) travel only from the grader to the kernel, which reads
them (`grader.execution.channel.kernel.built_values`). Nothing
is ever pickled or evaluated: decoding builds only the types above.

Only the standard library is used; numpy is looked up in ``sys.modules`` when encoding (an
array can only exist if the notebook imported numpy) and imported when an array is decoded.
"""

from __future__ import annotations

import base64
import math
import sys
import types
from collections.abc import Callable
from typing import Any

if __name__ != globals().get("KERNEL_NAMESPACE"):  # in the kernel, the sources sent before define these
    from grader.errors import GraderError


class Unserializable(GraderError):
    """A value cannot be represented in the wire format."""


_PLAIN = (type(None), bool, int, str)
_FLAT = frozenset(_PLAIN)
_SCALARS = frozenset((*_PLAIN, float))
"""What JSON gives for itself, decoded as it is."""


class _Encoder:
    def __init__(self, max_nodes: int, max_chars: int, object_levels: int = 1) -> None:
        self.object_levels = object_levels
        """How many levels of nested objects carry their attributes; deeper ones, their type only."""
        self.nodes = 0
        self.chars = 0
        self.max_nodes = max_nodes
        self.max_chars = max_chars
        self.active: set[int] = set()
        """Containers and objects being encoded, by id: meeting one again is a cycle."""

    def encode(self, value: Any, object_depth: int = 0) -> Any:
        self.nodes += 1
        if self.nodes > self.max_nodes:
            raise _too_large(f"{self.max_nodes} parts")
        kind = type(value)
        if kind is str:
            self.chars += len(value)
            if self.chars > self.max_chars:
                raise _too_large(f"{self.max_chars} characters")
            return value
        if kind in _PLAIN:
            return value
        if kind is float:
            return value if math.isfinite(value) else {"$float": repr(value)}
        if kind is list:
            return self._sequence(value, None, object_depth)
        if kind is tuple:
            return self._sequence(value, "$tuple", object_depth)
        if kind is dict:
            return self._mapping(value, object_depth)
        if kind is set or kind is frozenset:
            return self._sequence(value, "$" + kind.__name__, object_depth)
        numpy_value = self._numpy(value, object_depth)
        if numpy_value is not _NOT_NUMPY:
            return numpy_value
        if isinstance(value, bool):
            return bool(value)
        if isinstance(value, (int, str)) and not _is_enum(value):
            return self.encode(int(value) if isinstance(value, int) else str(value), object_depth)
        if isinstance(value, float):
            return self.encode(float(value), object_depth)
        if isinstance(value, (bytes, bytearray)):
            return {"$bytes": base64.b64encode(bytes(value)).decode("ascii")}
        if isinstance(value, complex):
            return {"$complex": [self.encode(value.real), self.encode(value.imag)]}
        if isinstance(value, (list, tuple, dict, set, frozenset)):
            # Subclasses (namedtuple, defaultdict, OrderedDict...) travel as their base type.
            base = next(b for b in (list, tuple, dict, set, frozenset) if isinstance(value, b))
            return self.encode(base(value), object_depth)
        return self._object(value, object_depth)

    def _sequence(self, value: Any, tag: str | None, object_depth: int) -> Any:
        flat = self._flat(value)
        if flat is not None:
            return flat if tag is None else {tag: flat}
        with _Visit(self.active, value) as cycle:
            if cycle:
                return {"$cycle": type(value).__name__}
            items = [self.encode(item, object_depth) for item in value]
        return items if tag is None else {tag: items}

    def _flat(self, value: Any) -> list[Any] | None:
        """The items of a sequence that holds only None, bools, ints and strings (a board's
        row, a list of moves), as :meth:`encode` would give them, counted against the same
        limits, without the dispatch per item and the cycle check a nested sequence needs;
        None when any item is something else."""
        kinds = set(map(type, value))  # the types in one pass in C: this runs once per row sent
        if not kinds <= _FLAT:
            return None
        items = list(value)
        self.nodes += len(items)
        if self.nodes > self.max_nodes:
            raise _too_large(f"{self.max_nodes} parts")
        if str in kinds:
            strings = items if len(kinds) == 1 else [item for item in items if type(item) is str]
            self.chars += sum(map(len, strings))
        if self.chars > self.max_chars:
            raise _too_large(f"{self.max_chars} characters")
        return items

    def _mapping(self, value: dict, object_depth: int) -> Any:
        with _Visit(self.active, value) as cycle:
            if cycle:
                return {"$cycle": type(value).__name__}
            pairs = [[self.encode(key, object_depth), self.encode(item, object_depth)] for key, item in value.items()]
        return {"$dict": pairs}

    def _numpy(self, value: Any, object_depth: int) -> Any:
        numpy = sys.modules.get("numpy")
        if numpy is None:
            return _NOT_NUMPY
        if isinstance(value, numpy.ndarray):
            if value.size > self.max_nodes:
                raise Unserializable(f"the array is too large to transfer ({value.size} elements)")
            self.nodes += value.size
            data = value.tolist()
            if value.dtype.kind == "O":
                data = self.encode(data, object_depth)
            elif value.dtype.kind == "f":
                data = _finite_floats(data)
            elif value.dtype.kind not in "biuUSb":
                raise Unserializable(f"arrays of dtype {value.dtype} cannot be transferred")
            return {"$ndarray": {"dtype": value.dtype.str, "shape": list(value.shape), "data": data}}
        if isinstance(value, numpy.generic):
            return self.encode(value.item(), object_depth)
        return _NOT_NUMPY

    def _object(self, value: Any, object_depth: int) -> Any:
        kind = type(value)
        if isinstance(
            value,
            (
                types.FunctionType,
                types.BuiltinFunctionType,
                types.MethodType,
                types.ModuleType,
                types.GeneratorType,
                type,
            ),
        ) or _is_iterator(value):
            raise Unserializable(f"a {kind.__name__} cannot be transferred")
        attributes = _plain_attributes(value)
        if attributes is None:
            raise Unserializable(f"a {kind.__name__} object has no attributes to transfer")
        header = {"type": kind.__qualname__, "module": getattr(kind, "__module__", None)}
        if object_depth >= self.object_levels:
            return {"$object": {**header, "attrs": None}}
        with _Visit(self.active, value) as cycle:
            if cycle:
                return {"$cycle": kind.__name__}
            pairs = []
            for name, item in attributes:
                try:
                    encoded = self.encode(item, object_depth + 1)
                except Unserializable:
                    encoded = {"$opaque": type(item).__name__}
                pairs.append([name, encoded])
        return {"$object": {**header, "attrs": pairs}}


_NOT_NUMPY = object()


def _too_large(limit: str) -> Unserializable:
    """The error for a value past one of the encoder's limits (checked per item and per flat row)."""
    return Unserializable(f"the value is too large to transfer (over {limit})")


class _Visit:
    """Marks a value as being encoded for the ``with`` block; entering gives True when it
    already was (the value contains itself)."""

    __slots__ = ("active", "marker", "cycle")

    def __init__(self, active: set[int], value: Any) -> None:
        self.active = active
        self.marker = id(value)
        self.cycle = self.marker in active

    def __enter__(self) -> bool:
        if not self.cycle:
            self.active.add(self.marker)
        return self.cycle

    def __exit__(self, *exc_info: object) -> None:
        if not self.cycle:
            self.active.discard(self.marker)


def _finite_floats(data: Any) -> Any:
    if isinstance(data, list):
        return [_finite_floats(item) for item in data]
    if isinstance(data, float) and not math.isfinite(data):
        return {"$float": repr(data)}
    return data


def _is_enum(value: Any) -> bool:
    return any(base.__name__ == "Enum" and base.__module__ == "enum" for base in type(value).__mro__)


def _is_iterator(value: Any) -> bool:
    kind = type(value)
    return hasattr(kind, "__next__") and hasattr(kind, "__iter__")


def _plain_attributes(value: Any) -> list[tuple[str, Any]] | None:
    """Instance attributes from ``__dict__`` and ``__slots__``, without running properties."""
    found: dict[str, Any] = {}
    try:
        instance_dict = object.__getattribute__(value, "__dict__")
    except (AttributeError, TypeError):
        instance_dict = None
    if isinstance(instance_dict, dict):
        found.update((k, v) for k, v in instance_dict.items() if isinstance(k, str))
    for klass in type(value).__mro__:
        slots = klass.__dict__.get("__slots__", ())
        for slot in (slots,) if isinstance(slots, str) else slots:
            if slot in ("__dict__", "__weakref__") or slot in found:
                continue
            try:
                found[slot] = object.__getattribute__(value, slot)
            except AttributeError:
                continue
    if instance_dict is None and not found:
        return None
    return list(found.items())


def encode(value: Any, *, max_nodes: int = 1_000_000, max_chars: int = 50_000_000, object_levels: int = 1) -> Any:
    """Turn ``value`` into JSON-ready tagged data; raises :class:`Unserializable`. Objects
    ``object_levels`` deep carry their attributes (1: the outermost only)."""
    return _Encoder(max_nodes, max_chars, object_levels).encode(value)


def decode(
    data: Any,
    on_object: Callable[[str, str | None, dict[str, Any] | None], Any] | None = None,
    on_marker: Callable[[str, str], Any] | None = None,
) -> Any:
    """Rebuild a value from tagged data.

    ``on_object(type, module, attributes)`` builds objects and ``on_marker(tag, type)``
    stands in for ``$opaque``/``$cycle``; without them such data is rejected (the kernel
    never receives objects from the grader).
    """
    if data is None or type(data) in (bool, int, float, str):
        return data
    if type(data) is list:
        if _SCALARS.issuperset(map(type, data)):  # a row of plain items: nothing to rebuild
            return list(data)
        return [decode(item, on_object, on_marker) for item in data]
    if type(data) is not dict or len(data) != 1:
        raise ValueError(f"not tagged data: {data!r:.80}")
    ((tag, body),) = data.items()
    if tag == "$tuple":
        return tuple(decode(item, on_object, on_marker) for item in body)
    if tag == "$dict":
        return {decode(k, on_object, on_marker): decode(v, on_object, on_marker) for k, v in body}
    if tag == "$set":
        return {decode(item, on_object, on_marker) for item in body}
    if tag == "$frozenset":
        return frozenset(decode(item, on_object, on_marker) for item in body)
    if tag == "$float":
        return float(body)
    if tag == "$bytes":
        return base64.b64decode(body)
    if tag == "$complex":
        return complex(decode(body[0]), decode(body[1]))
    if tag == "$ndarray":
        import numpy

        dtype = numpy.dtype(body["dtype"])
        items = decode(body["data"], on_object, on_marker)
        return numpy.array(items, dtype=dtype).reshape(body["shape"])
    if tag == "$object" and on_object is not None:
        attrs = body["attrs"]
        attributes = None if attrs is None else {name: decode(value, on_object, on_marker) for name, value in attrs}
        return on_object(body["type"], body["module"], attributes)
    if tag in ("$opaque", "$cycle") and on_marker is not None:
        return on_marker(tag[1:], body)
    raise ValueError(f"cannot decode {tag!r} here")


__all__ = ["Unserializable", "decode", "encode"]
