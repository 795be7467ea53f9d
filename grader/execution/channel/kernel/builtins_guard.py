"""Put back the builtins a notebook deleted or replaced, which the kernel's own machinery needs.

Shipped into the kernel as source like the other kernel-side modules (see
:mod:`grader.execution.channel.kernel`), so it uses only the standard library.
"""

from __future__ import annotations

import builtins
from collections.abc import Collection
from typing import Any

_ABSENT = object()


class BuiltinsGuard:
    """Puts back the builtins a notebook deleted or replaced: after each of its statements (the
    shim) and after each call (the executor).

    IPython, ipykernel, pyzmq and the standard library run in the kernel's process and look
    up ``__import__``, ``isinstance``, ``len``... in the real ``builtins`` module: a cell that
    set ``builtins.__import__ = None`` left the kernel unable to send its reply, so the cell
    "ran" until its time limit, and ``signal.signal`` (an enum lookup) fails without
    ``isinstance``. This code itself runs on a copy of the builtins taken before any student
    code (see the shim), but the standard library it calls does not.

    The notebook's own code keeps what it put there: a replaced builtin is copied into the
    notebook's namespace (where its functions look first), unless the notebook defines that
    name itself. ``unguarded`` names are left alone (those IPython sets for each cell).
    """

    def __init__(self, namespace: dict[str, Any], unguarded: Collection[str] = ()) -> None:
        self.namespace = namespace
        self.originals = {name: value for name, value in builtins.__dict__.items() if name not in unguarded}
        self.mirrored: dict[str, Any] = {}

    def restore(self) -> None:
        current = builtins.__dict__
        for name, original in self.originals.items():
            value = current.get(name, _ABSENT)
            if value is original:
                continue
            current[name] = original
            if value is _ABSENT or name.startswith("__"):  # a deletion, or what only the machinery uses
                continue
            own = self.namespace.get(name, _ABSENT)
            if own is _ABSENT or own is self.mirrored.get(name, _ABSENT):
                self.namespace[name] = self.mirrored[name] = value

    def mirrored_names(self) -> set[str]:
        """The names in the namespace that are copies of replaced builtins, not definitions."""
        return {name for name, value in self.mirrored.items() if self.namespace.get(name, _ABSENT) is value}
