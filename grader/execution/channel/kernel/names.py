"""Names in the notebook's namespace, for the call executor: resolving and assigning dotted
names, what the notebook itself defines, and counting wrappers around named functions (which
may also log the board each call is given, in order), and a call's arguments put in the order
of a function's parameters (for the reference's stand-ins).

Shipped into the kernel as source after the exploration recorder and before the executor,
in the same private namespace, so it uses only the standard library, and its top-level names
are unique among the kernel sources (a test checks that).
"""

from __future__ import annotations

import inspect
import types
from collections.abc import Callable, Collection
from typing import Any

if __name__ != globals().get("KERNEL_NAMESPACE"):  # in the kernel, the sources sent before define these
    from grader.errors import GraderError
    from grader.execution.channel.protocol import STATUS_MISSING

NOT_FOUND = object()

LOG_CAP = 20_000
"""Boards a logged function keeps per call: a depth-5 search on 7 columns evaluates 16,807."""


class CallRefused(GraderError):
    """The call cannot be made as asked; ``status`` is the outcome's status."""

    def __init__(self, status: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


class NameCounters:
    """Counting wrappers around notebook functions for one batch of calls.

    A wrapper replaces the function under the name the notebook looks it up by (a global
    or a class attribute), so recursive calls through that name are counted too. Each name's
    cell holds its count and the gauge its calls draw on during the running call, if capped
    (`grader.execution.channel.kernel.node_cap.NodeGauge`).
    """

    def __init__(
        self,
        namespace: dict[str, Any],
        names: set[str],
        count_all: bool,
        logged: Collection[str] = (),
        snapshot: Callable[[Any], Any] | None = None,
    ) -> None:
        self.namespace = namespace
        self.cells: dict[str, list[Any]] = {}
        self.logs: dict[str, list[Any]] = {name: [] for name in logged if snapshot is not None}
        """For each logged name, the board each call was given, in call order (`snapshot`)."""
        self.snapshot = snapshot
        self.refused: dict[str, str] = {}
        self.undo: list[Callable[[], None]] = []
        self.all_names: list[str] = []
        if count_all:
            self.all_names = notebook_callables(namespace)
        for name in sorted(names | set(self.all_names)):
            try:
                self._wrap(name)
            except CallRefused as refusal:
                self.refused[name] = refusal.message

    def _wrap(self, dotted: str) -> None:
        owner_name, _, attribute = dotted.rpartition(".")
        cell: list[Any] = [0, None]
        not_a_function = CallRefused(STATUS_MISSING, f"cannot count calls of {dotted!r}: it is not a function")
        if not owner_name:
            original = self.namespace.get(attribute, NOT_FOUND)
            if original is NOT_FOUND:
                raise CallRefused(STATUS_MISSING, f"cannot count calls of {dotted!r}: it is not defined")
            if not callable(original) or isinstance(original, type):
                raise not_a_function
            wrapper = counting(original, cell, self._log(dotted))
            self.namespace[attribute] = wrapper
            self.undo.append(lambda: self._restore_global(attribute, original, wrapper))
        else:
            owner = resolve(self.namespace, owner_name)
            own = isinstance(owner, type) and attribute in owner.__dict__
            raw = owner.__dict__[attribute] if own else getattr(owner, attribute, NOT_FOUND)
            if raw is NOT_FOUND:
                raise CallRefused(STATUS_MISSING, f"cannot count calls of {dotted!r}: it is not defined")
            if isinstance(raw, staticmethod):
                method: Any = staticmethod(counting(raw.__func__, cell, self._log(dotted)))
            elif isinstance(raw, classmethod):
                method = classmethod(counting(raw.__func__, cell))
            elif isinstance(raw, types.FunctionType) or not isinstance(owner, type):
                if not callable(raw):
                    raise not_a_function
                method = counting(raw, cell)  # a method's first argument is its object
            else:
                raise CallRefused(STATUS_MISSING, f"cannot count calls of {dotted!r}: it is not a method")
            setattr(owner, attribute, method)
            self.undo.append(lambda: self._restore_attribute(owner, attribute, raw, method, own))
        self.cells[dotted] = cell

    def _restore_global(self, name: str, original: Any, wrapper: Any) -> None:
        if self.namespace.get(name) is wrapper:
            self.namespace[name] = original

    @staticmethod
    def _restore_attribute(owner: Any, name: str, original: Any, wrapper: Any, own: bool) -> None:
        current = owner.__dict__.get(name, NOT_FOUND) if isinstance(owner, type) else getattr(owner, name, NOT_FOUND)
        if current is not wrapper:
            return
        if own:
            setattr(owner, name, original)
        else:
            delattr(owner, name)

    def _log(self, dotted: str) -> Callable[[Any], None] | None:
        """What a logged function's wrapper does with the board it is given: a snapshot of it
        (taken at the call: the student's search may change the board afterwards), appended to
        the name's log until ``LOG_CAP`` are kept."""
        log, snapshot = self.logs.get(dotted), self.snapshot
        if log is None or snapshot is None:
            return None

        def keep(board: Any) -> None:
            if len(log) < LOG_CAP:
                try:
                    log.append(snapshot(board))
                except Exception:  # a board that cannot be sent is logged as None
                    log.append(None)

        return keep

    def reset(self, capped: Collection[str] = (), gauge: Any = None) -> None:
        """Counts to zero for the next call; the calls of the ``capped`` names draw on ``gauge``."""
        for name, cell in self.cells.items():
            cell[0] = 0
            cell[1] = gauge if name in capped else None
        for log in self.logs.values():
            log.clear()

    def restore(self) -> None:
        for undo in reversed(self.undo):
            undo()


def counting(
    original: Callable[..., Any], cell: list[Any], log: Callable[[Any], None] | None = None
) -> Callable[..., Any]:
    """``original`` counted in ``cell[0]``, drawing on the gauge in ``cell[1]`` when there is one."""
    if log is not None:

        def logged(*args: Any, **kwargs: Any) -> Any:
            cell[0] += 1
            if cell[1] is not None:
                cell[1].take()
            log(args[0] if args else kwargs.get("board"))
            return original(*args, **kwargs)

        return logged

    def counted(*args: Any, **kwargs: Any) -> Any:
        cell[0] += 1
        if cell[1] is not None:
            cell[1].take()
        return original(*args, **kwargs)

    for attribute in ("__name__", "__qualname__", "__doc__"):
        try:
            setattr(counted, attribute, getattr(original, attribute))
        except (AttributeError, TypeError):
            pass
    counted.__wrapped__ = original  # type: ignore[attr-defined]
    return counted


def resolve(namespace: dict[str, Any], dotted: str) -> Any:
    first, *rest = dotted.split(".")
    if first not in namespace:
        raise CallRefused(STATUS_MISSING, f"name {first!r} is not defined")
    value = namespace[first]
    walked = first
    for part in rest:
        try:
            value = getattr(value, part)
        except AttributeError:
            raise CallRefused(STATUS_MISSING, f"{walked!r} has no attribute {part!r}") from None
        walked += "." + part
    return value


def assign(namespace: dict[str, Any], dotted: str, value: Any) -> None:
    owner_name, _, attribute = dotted.rpartition(".")
    if owner_name:
        setattr(resolve(namespace, owner_name), attribute, value)
    else:
        namespace[attribute] = value


def is_notebook_function(value: Any) -> bool:
    return isinstance(value, types.FunctionType) and value.__module__ == "__main__"


def is_notebook_class(value: Any) -> bool:
    return isinstance(value, type) and value.__module__ == "__main__"


def methods_of(klass: type) -> list[str]:
    return [
        name for name, raw in vars(klass).items() if isinstance(raw, (types.FunctionType, staticmethod, classmethod))
    ]


def notebook_callables(namespace: dict[str, Any]) -> list[str]:
    names = []
    for name, value in list(namespace.items()):
        if is_notebook_function(value):
            names.append(name)
        elif is_notebook_class(value):
            names.extend(f"{name}.{method}" for method in methods_of(value))
    return names


def is_ipython_bookkeeping(name: str) -> bool:
    stripped = name.lstrip("_")
    return (
        name in ("In", "Out", "get_ipython", "exit", "quit")
        or (name.startswith("_") and (stripped == "" or stripped.isdigit()))
        or (name.startswith("_i") and (name[2:] in ("", "i", "ii") or name[2:].isdigit()))
    )


def _signature(original: Any) -> inspect.Signature | None:
    """``original``'s signature; None when there is none to read (a builtin)."""
    try:
        return inspect.signature(original)
    except (TypeError, ValueError):
        return None


def _bound(signature: inspect.Signature, args: tuple[Any, ...], kwargs: dict[str, Any]) -> dict[str, Any]:
    """The call's arguments by parameter name, in the parameters' order, an omitted one at its
    default; a call the signature refuses raises its TypeError."""
    bound = signature.bind(*args, **kwargs)
    bound.apply_defaults()
    return dict(bound.arguments)


def argument_binder(original: Any) -> Callable[[tuple[Any, ...], dict[str, Any]], tuple[Any, ...]]:
    """What puts a call's arguments in the order of ``original``'s parameters, as the request's
    positions count them: a keyword argument at its parameter's place, an omitted one at its
    default. A call ``original`` would refuse raises its TypeError; with no signature to read
    (a builtin) the positional arguments are taken as they come."""
    signature = _signature(original)

    def arguments(args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Any, ...]:
        if not kwargs or signature is None:
            return args
        return tuple(_bound(signature, args, kwargs).values())

    return arguments


def named_argument_binder(original: Any) -> Callable[[tuple[Any, ...], dict[str, Any]], dict[str, Any]]:
    """What names a call's arguments by ``original``'s parameters, in their order, an omitted one
    at its default; a call ``original`` would refuse raises its TypeError. With no signature to
    read (a builtin) the positional arguments come in order, under their positions, and the
    keyword ones under their names."""
    signature = _signature(original)

    def arguments(args: tuple[Any, ...], kwargs: dict[str, Any]) -> dict[str, Any]:
        if signature is None:
            return {str(n): value for n, value in enumerate(args)} | dict(kwargs)
        return _bound(signature, args, kwargs)

    return arguments
