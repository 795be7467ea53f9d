"""Arguments the kernel makes rather than receives: a name of the notebook's namespace
(``{"$name": "is_game_over_connectfour"}``), and an object made by calling a class or function
of that namespace (``{"$make": [factory, args, kwargs]}``), its arguments made the same way;
a fourth element, ``[[attribute, value], ...]``, is written to the object once made (a course's
board class whose constructor takes no board: ``ConnectFour()``, then ``board`` and
``current_player``), and each such attribute is read again after the call (:class:`Written`),
so that a call that leaves the object changed is seen.

A course whose functions take its own state object (MIT 6.034's ``AbstractGameState`` holding
a ``ConnectFourBoard`` and the lab's functions) is called with one made per call from the
position, through the course's own classes. Names are looked up when the call is made, so a
function the call counts or logs is passed wrapped; objects are made in the student's time, by
:func:`realize`, since their classes run the course's (or the student's) code.

Shipped into the kernel as source after the names it uses (:mod:`grader.execution.channel.kernel.names`),
so it uses only the standard library.
"""

from __future__ import annotations

import importlib
from typing import Any

if __name__ != globals().get("KERNEL_NAMESPACE"):  # in the kernel, the sources sent before define these
    from grader.execution.channel.kernel.names import resolve
    from grader.execution.channel.wire_format import decode

MADE_TAGS = ("$name", "$make")


class Deferred:
    """An argument to make when the call is made: a name to look up, or a factory to call."""

    __slots__ = ("name", "args", "kwargs", "attributes")

    def __init__(
        self,
        name: str,
        args: list[Any] | None = None,
        kwargs: dict[str, Any] | None = None,
        attributes: list[tuple[str, Any]] | None = None,
    ) -> None:
        self.name = name
        self.args = args
        """None: the name itself is the value; else the factory's arguments."""
        self.kwargs = kwargs or {}
        self.attributes = attributes or []
        """(name, wire data) written to the object once made."""


class Written:
    """An attribute the kernel wrote to an object it made: read again after the call."""

    __slots__ = ("holder", "name")

    def __init__(self, holder: Any, name: str) -> None:
        self.holder, self.name = holder, name

    def now(self) -> Any:
        """The attribute as the call left it (None once deleted)."""
        return getattr(self.holder, self.name, None)


def holds_made(data: Any) -> bool:
    """Whether wire data holds a value the kernel makes (anywhere inside it)."""
    if isinstance(data, list):
        return any(holds_made(item) for item in data)
    if isinstance(data, dict) and len(data) == 1:
        ((tag, body),) = data.items()
        return tag in MADE_TAGS or (tag in ("$tuple", "$dict", "$set", "$frozenset") and holds_made(body))
    return False


def read_value(data: Any) -> Any:
    """Wire data as a value, with the values to make as :class:`Deferred` (in lists and tuples
    as well); anything else as :func:`decode` reads it."""
    if isinstance(data, list):
        return [read_value(item) for item in data]
    if isinstance(data, dict) and len(data) == 1:
        ((tag, body),) = data.items()
        if tag == "$name":
            return Deferred(str(body))
        if tag == "$make":
            factory, args, kwargs, *written = body
            attributes = [(str(k), v) for k, v in written[0]] if written else None
            return Deferred(
                str(factory), [read_value(a) for a in args], {str(k): read_value(v) for k, v in kwargs}, attributes
            )
        if tag == "$tuple" and holds_made(body):
            return tuple(read_value(item) for item in body)
    return decode(data)


def deferred_in(value: Any) -> bool:
    """Whether ``value`` is or holds (in lists and tuples) a :class:`Deferred`."""
    if isinstance(value, Deferred):
        return True
    return isinstance(value, (list, tuple)) and any(deferred_in(item) for item in value)


def realize(value: Any, namespace: dict[str, Any], written: list[tuple[Written, Any]] | None = None) -> Any:
    """``value`` with every :class:`Deferred` in it made: names looked up in ``namespace``,
    factories called (their arguments first), the attributes written to what they made (each
    added to ``written`` with its wire data). A value without one is ``value`` itself, so that
    what the call changes in it is seen."""
    if not deferred_in(value):
        return value
    if isinstance(value, Deferred):
        found = lookup_name(namespace, value.name)
        if value.args is None:
            return found
        args = [realize(a, namespace, written) for a in value.args]
        kwargs = {k: realize(v, namespace, written) for k, v in value.kwargs.items()}
        made = found(*args, **kwargs)
        for name, data in value.attributes:
            setattr(made, name, decode(data))
            if written is not None:
                written.append((Written(made, name), data))
        return made
    if isinstance(value, list):
        return [realize(item, namespace, written) for item in value]
    if isinstance(value, tuple):
        return tuple(realize(item, namespace, written) for item in value)
    return value


def lookup_name(namespace: dict[str, Any], name: str) -> Any:
    """``name`` in the notebook's namespace; a dotted name whose module the notebook did not
    bind (``toytree.GameTree`` after ``from toytree import tree``) in the module itself."""
    first, _, rest = name.partition(".")
    if first in namespace or not rest:
        return resolve(namespace, name)
    try:
        module = importlib.import_module(first)
    except ImportError:
        return resolve(namespace, name)  # refused, naming what is missing
    return resolve({first: module}, name)
