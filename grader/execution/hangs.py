"""Fail fast on code that already ran out of its time: what one submission's hangs teach.

A student function that never returns would cost its full time limit again on every cell and
every call that reaches it. The rule, for one submission (cells and calls each keep their own
memory; neither shortens the other's limits):

1. Code that runs out of its full limit makes *suspect* what it ran: a call's target, or the
   notebook functions a cell calls by name.
2. Code that may reach a suspect (the call's target or a cell's called functions are the
   suspect, or name it in their code, directly or through other notebook functions) runs
   with the short limit (``Assignment.short_limit``) instead of the full one.
3. A call that runs out of the short limit too makes its target *stuck*: calls that may reach
   a stuck function are not made at all, and say why.

"May reach" is read from the code objects (``DefinedNames.references``): a function may call
the notebook functions and methods its code names. A name in a branch never taken counts
too, which costs at most a shorter limit, or a call not made after the function it names was
seen to run out of its time twice. A call the names do not show (a function passed as an
argument) costs one full limit, after which its own target is suspect.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from grader.execution.channel.stop_clock import StopClock

_CALLED = re.compile(r"([A-Za-z_]\w*)\s*\(")


@dataclass(frozen=True)
class RanOut:
    """One time some code ran out of its limit."""

    function: str
    seconds: float
    where: str
    """``"on `minimax([...], 0, True)`"`` or ``"in cell 7"``."""
    clock: StopClock | None = None
    """Which time ``seconds`` counts, said in the words: a call's clock; None for a cell
    (wall time, as its limit always is)."""

    def text(self) -> str:
        counted = "" if self.clock is None else f" of {self.clock.time_words}"
        return f"`{self.function}` did not return within {self.seconds:g} s{counted} {self.where}"


@dataclass(frozen=True)
class Allowance:
    """How long code may run: ``seconds`` None means it is not run at all."""

    seconds: float | None
    because: RanOut | None = None
    """The hang that shortened (or forbade) it; None for the full limit."""
    reached: str | None = None
    """The function run, when it only reaches the one that hung."""

    @property
    def shortened(self) -> bool:
        return self.because is not None

    def reason(self, short_limit: float) -> str:
        """Why the code was not run (for ``seconds`` None)."""
        assert self.because is not None
        via = f"{self.reached} may call `{self.because.function}`: " if self.reached else ""
        return (
            f"{via}{self.because.text()}, nor within {short_limit:g} s when tried again, "
            "so calls that reach it are not made"
        )


class HangMemory:
    """What ran out of its time in one submission, and the limits that follow from it."""

    def __init__(self, short_limit: float, references: Mapping[str, Sequence[str]] | None = None) -> None:
        self.short_limit = short_limit
        self.references: dict[str, tuple[str, ...]] = {}
        self.suspect: dict[str, RanOut] = {}
        self.stuck: dict[str, RanOut] = {}
        self.learn_references(references or {})

    def learn_references(self, references: Mapping[str, Sequence[str]]) -> None:
        """Who names whom, as the kernel read it from the code (newer definitions win)."""
        self.references.update({name: tuple(named) for name, named in references.items()})

    def reach(self, names: Iterable[str]) -> set[str]:
        """The names and every notebook function they may call, transitively."""
        seen: set[str] = set()
        todo = list(names)
        while todo:
            name = todo.pop()
            if name not in seen:
                seen.add(name)
                todo.extend(self.references.get(name, ()))
        return seen

    @property
    def any(self) -> bool:
        return bool(self.suspect or self.stuck)

    def allowance(self, names: Iterable[str], full: float) -> Allowance:
        """The limit for code that runs ``names`` (a call's target, a cell's called functions)."""
        if not self.any:
            return Allowance(full)
        names = list(names)
        reached = self.reach(names)
        for table, seconds in ((self.stuck, None), (self.suspect, min(full, self.short_limit))):
            hung = sorted(reached & set(table))
            if hung:
                via = None if hung[0] in names else ", ".join(f"`{n}`" for n in names)
                return Allowance(seconds, table[hung[0]], via)
        return Allowance(full)

    def ran_out(
        self, names: Iterable[str], allowance: Allowance, seconds: float, where: str, clock: StopClock | None = None
    ) -> None:
        """Code that ran ``names`` with ``allowance`` ran out of it (``seconds`` of ``clock``,
        see `RanOut`). When the limit was shortened, only the names that reach the hang that
        shortened it are blamed: a cell that also calls a function that answers at once does
        not make that one stuck."""
        if allowance.because is not None:
            hung = allowance.because.function
            names = [name for name in names if hung in self.reach([name])] or list(names)
        for name in names:
            record = RanOut(name, seconds, where, clock)
            if allowance.shortened:
                self.stuck.setdefault(name, self.suspect.get(name, record))
            else:
                self.suspect.setdefault(name, record)


def called_names(source: str) -> set[str]:
    """The names a cell's statements call, ``f(...)`` and ``obj.method(...)``, leaving out the
    bodies of the functions and classes it defines (read loosely when the cell is not plain
    Python, e.g. it has magics)."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return set(_CALLED.findall(source))
    names = set()
    todo: list[ast.AST] = [tree]
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            todo.extend(getattr(node, "decorator_list", []))  # run when the cell runs
            continue
        if isinstance(node, ast.Call):
            if isinstance(node.func, ast.Name):
                names.add(node.func.id)
            elif isinstance(node.func, ast.Attribute):
                names.add(node.func.attr)
        todo.extend(ast.iter_child_nodes(node))
    return names
