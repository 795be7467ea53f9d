"""Put a student's globals back as they were once the in-notebook check is done.

The checks set globals (a global board the functions read), and the functions they call
change what they find (a board played on and not undone, a node counter, a game object's
state). In a grading kernel that is harmless; in the student's own session it would leave
their next cell looking at a board the checks played on. So the check keeps, before it
starts, what every global is bound to and what each mutable one holds, and afterwards binds
every name back and puts back in place what each object held: a name, a list element or an
attribute that pointed at the same object as another still does.
"""

from __future__ import annotations

import copy
import random
import types
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from typing import Any

_UNCOPIED = (types.ModuleType, types.FunctionType, types.BuiltinFunctionType, types.MethodType, type)


@dataclass
class SavedGlobals:
    namespace: dict[str, Any]
    bindings: dict[str, Any]
    """Every name, as it was bound."""
    restorers: list[Callable[[], None]] = field(default_factory=list)
    """Each puts one object's contents back in place."""
    random_state: object = None

    def restore(self) -> None:
        for name in [n for n in self.namespace if n not in self.bindings]:
            del self.namespace[name]
        for name, value in self.bindings.items():
            if self.namespace.get(name, _MISSING) is not value:
                self.namespace[name] = value
        for restore in self.restorers:
            restore()
        random.setstate(self.random_state)  # type: ignore[arg-type]


_MISSING = object()


def save_globals(namespace: dict[str, Any], skip: Collection[str] = ()) -> SavedGlobals:
    """What ``namespace`` binds and what its objects hold now; ``skip`` names (the shell's
    own, its output history) are bound back but their contents are not copied."""
    saved = SavedGlobals(namespace, dict(namespace), random_state=random.getstate())
    # Copies of the contents keep pointing at the originals of other globals: the memo maps
    # each global's object to itself, so shared objects stay shared once put back.
    objects = {id(value): value for name, value in namespace.items() if name not in skip}
    memo: dict[int, Any] = dict(objects)
    for value in objects.values():
        restore = _contents_restorer(value, memo)
        if restore is not None:
            saved.restorers.append(restore)
    return saved


def _contents_restorer(value: Any, memo: dict[int, Any]) -> Callable[[], None] | None:
    """A function that puts ``value``'s present contents back, or None when there is nothing
    to put back (an immutable value, a module or function) or it cannot be copied."""
    try:
        if isinstance(value, (list, bytearray)):
            items = [copy.deepcopy(item, memo) for item in value]
            return lambda: value.__setitem__(slice(None), items)
        if isinstance(value, dict):
            entries = {key: copy.deepcopy(item, memo) for key, item in value.items()}
            return lambda: _refill(value, entries)
        if isinstance(value, set):
            members = set(value)
            return lambda: _refill(value, members)
        if _is_array(value):
            held = value.copy()
            return lambda: value.__setitem__(Ellipsis, held)
        if isinstance(value, type) and value.__module__ == "__main__":
            return _class_restorer(value, memo)
        if not isinstance(value, _UNCOPIED) and isinstance(getattr(value, "__dict__", None), dict):
            attributes = copy.deepcopy(vars(value), memo)
            return lambda: _refill(vars(value), attributes)
    except Exception:  # an object that cannot be copied (a lock, a generator): left as it is
        return None
    return None


def _class_restorer(cls: type, memo: dict[int, Any]) -> Callable[[], None]:
    """A notebook class's data attributes (a node counter kept on the class, say)."""
    before = set(vars(cls))
    data = {name: copy.deepcopy(value, memo) for name, value in vars(cls).items() if _is_data(name, value)}

    def restore() -> None:
        for name in [n for n, value in vars(cls).items() if n not in before and _is_data(n, value)]:
            delattr(cls, name)
        for name, value in data.items():
            setattr(cls, name, value)

    return restore


def _is_data(name: str, value: Any) -> bool:
    return (
        not name.startswith("__")
        and not callable(value)
        and not isinstance(value, (property, classmethod, staticmethod))
    )


def _is_array(value: Any) -> bool:
    """A numpy array, known without importing numpy into a session that does not use it."""
    kind = type(value)
    return kind.__module__ == "numpy" and kind.__name__ == "ndarray"


def _refill(target: dict[Any, Any] | set[Any], contents: dict[Any, Any] | set[Any]) -> None:
    target.clear()
    target.update(contents)
