"""Which of the student's functions is the search, how often it ran, and where it went.

This module runs inside the student's kernel and uses the standard library only. While
one counted call runs, a profile hook sees every Python call; it keeps those of the
student's own code (code compiled from notebook cells, by default) and finds the search
among them by what it does rather than by its name: a code object is *recursive* when it
is entered while already on the stack, directly or through other student code. The
search's nodes are the calls of the recursive code objects, so a helper, a closure (one
code object however many closures), a mutually recursive ``max_value``/``min_value``, a
method, a lambda, a ``functools.partial`` or a callable instance all count, and the
student's ``is_end`` or ``check_win`` do not.

What is learned about each code object is kept for the recorder's life (the kernel's),
because one call cannot always tell: from a board with one empty cell ``max_value`` calls
``min_value`` once and neither recurses. A recursive code object through which the
recursion merely passes, calling the search exactly once each time it runs (a
``key=lambda c: minimax(c)`` or a public wrapper the helper calls back), is not a node.

Optionally each call of the search is recorded as ``snapshot(frame)``, the position it
was entered with (`grader.execution.channel.kernel.board_reading.board_reader`), up to
``max_steps`` calls: the exploration the grader compares with the reference's.

Optionally too, each call of a code object known to be recursive so far draws on a gauge
(`grader.execution.channel.kernel.node_cap.NodeGauge`), which stops the call once the search
has entered its cap of nodes: it raises in the hook, and Python then takes the hook away, so
the nodes a student's bare ``except:`` lets run after that are not recorded.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from types import CodeType, FrameType
from typing import Any, NamedTuple

__all__ = ["MAX_STEPS", "Exploration", "ExplorationRecorder", "is_notebook_code"]

MAX_STEPS = 200_000

_CELL_FILENAME = re.compile(r"^<ipython-input-\d+-[0-9a-f]+>$|[/\\]ipykernel_\d+[/\\][^/\\]+\.py$")
# Generators are resumed once per item and comprehensions run once per loop: neither is a
# position of the search even when the recursion passes through them.
_NOT_A_NODE = 0x20 | 0x80 | 0x200  # CO_GENERATOR | CO_COROUTINE | CO_ASYNC_GENERATOR
_COMPREHENSIONS = frozenset({"<listcomp>", "<setcomp>", "<dictcomp>", "<genexpr>"})

# What is known about a code object.
_CODE_IGNORED = 0  # not student code, or not a function that can be a node
_CODE_NEW = 1  # first met during the current run
_CODE_PLAIN = 2  # met in an earlier run and never recursive so far (is_end, check_win, ...)
_CODE_RECURSIVE = 3


def is_notebook_code(code: CodeType) -> bool:
    """Code compiled from a notebook cell, as IPython names it."""
    return _CELL_FILENAME.search(code.co_filename) is not None


class Exploration(NamedTuple):
    """What one counted call did.

    A named tuple rather than a dataclass: in the kernel this module runs in a namespace
    that is not in ``sys.modules``, where ``dataclasses`` cannot read string annotations.
    """

    nodes: int
    """Calls of the search's code objects during the call."""
    search: dict[str, int]
    """The code objects taken for the search (``qualname:line``) and their calls."""
    steps: list[Any] | None
    """``snapshot(frame)`` at each of those calls, in call order; ``None`` unless asked for."""
    complete: bool
    """``steps`` holds every call: the search ended within ``max_steps`` and nothing was missed."""
    retry: bool
    """A code object proved recursive only during this call, after some of its calls went
    unrecorded as a plain helper's; the same call made again is recorded whole."""


def _name(code: CodeType) -> str:
    return f"{getattr(code, 'co_qualname', code.co_name)}:{code.co_firstlineno}"


class ExplorationRecorder:
    """Start it around one call, stop it after; reuse it for the next call.

    Not thread-safe: the hook is the calling thread's profiler (any previous one is set
    aside while the call runs, and put back).
    """

    def __init__(self, is_student: Callable[[CodeType], bool] = is_notebook_code) -> None:
        self.is_student = is_student
        self._status: dict[int, int] = {}
        # Keys are ids: hashing a code object hashes its constants on every lookup. Keeping
        # the objects alive keeps an id from being reused by another code object.
        self._codes: dict[int, CodeType] = {}
        self._branching: set[int] = set()
        """Code objects that some time made other than exactly one call of the search."""
        self._run: _Run | None = None

    def start(
        self, snapshot: Callable[[FrameType], Any] | None = None, max_steps: int = MAX_STEPS, gauge: Any = None
    ) -> None:
        """Record the call about to run; its nodes draw on ``gauge`` (a ``NodeGauge``) if given."""
        if self._run is not None:
            raise RuntimeError("the recorder is already running")
        self._run = _Run(self, snapshot, max_steps, gauge)
        sys.setprofile(self._run.hook)

    def stop(self) -> Exploration:
        run, self._run = self._run, None
        if run is None:
            raise RuntimeError("the recorder is not running")
        sys.setprofile(run.previous)
        return run.finish()

    def classify(self, code: CodeType) -> int:
        key = id(code)
        node = (
            self.is_student(code)
            and not code.co_flags & _NOT_A_NODE
            and code.co_name not in _COMPREHENSIONS
            and code.co_name != "<module>"
        )
        self._status[key] = _CODE_NEW if node else _CODE_IGNORED
        self._codes[key] = code
        return self._status[key]


class _Run:
    """The state of one recorded call; ``hook`` is the profile function."""

    def __init__(
        self,
        recorder: ExplorationRecorder,
        snapshot: Callable[[FrameType], Any] | None,
        max_steps: int,
        gauge: Any = None,
    ) -> None:
        self.recorder = recorder
        self.previous = sys.getprofile()
        self.calls: dict[int, int] = {}
        self.top_level: set[int] = set()
        self.steps: list[tuple[int, Any]] = []
        self.dropped: set[int] = set()
        self.missed: set[int] = set()
        self.truncated = False
        self.max_steps = max_steps
        self.room = max_steps
        self.tracing = snapshot is not None
        self.hook = self._make_hook(snapshot, None if gauge is None else gauge.take)

    def _make_hook(
        self, snapshot: Callable[[FrameType], Any] | None, take: Callable[[], None] | None
    ) -> Callable[[FrameType, str, Any], None]:
        # Everything the hook touches is a local of this closure: the hook runs on every
        # call and return of the process while the search runs, C calls included.
        status = self.recorder._status
        classify = self.recorder.classify
        branching = self.recorder._branching
        calls = self.calls
        top_level = self.top_level
        frames: list[FrameType] = []
        codes: list[int] = []
        children: list[int] = []
        depth: dict[int, int] = {}
        steps = self.steps
        run = self

        def promote(from_index: int) -> None:
            """Every code object between two entries of the same one is on a cycle."""
            for key in codes[from_index:]:
                if status[key] == _CODE_PLAIN:
                    run.missed.add(key)
                status[key] = _CODE_RECURSIVE

        def record(frame: FrameType, key: int) -> None:
            assert snapshot is not None
            if len(steps) >= run.room and not run.compact(depth):
                run.truncated = True
                return
            try:
                position = snapshot(frame)
            except Exception:  # a snapshot must never break the student's call
                position = None
            steps.append((key, position))

        def hook(frame: FrameType, event: str, arg: Any) -> None:
            if event == "call":
                key = id(frame.f_code)
                state = status.get(key)
                if state is None:
                    state = classify(frame.f_code)
                if state == _CODE_IGNORED:
                    return
                calls[key] = calls.get(key, 0) + 1
                if not frames:
                    top_level.add(key)
                if depth.get(key):
                    below = len(codes) - 1
                    while codes[below] != key:
                        below -= 1
                    promote(below)
                    state = _CODE_RECURSIVE
                if children and state == _CODE_RECURSIVE:
                    children[-1] += 1
                depth[key] = depth.get(key, 0) + 1
                frames.append(frame)
                codes.append(key)
                children.append(0)
                if snapshot is not None and not run.truncated and (state != _CODE_PLAIN or len(frames) == 1):
                    record(frame, key)
                if take is not None and state == _CODE_RECURSIVE:
                    take()
            elif event == "return" and frames and frames[-1] is frame:
                frames.pop()
                key = codes.pop()
                depth[key] -= 1
                if children.pop() != 1:
                    branching.add(key)

        return hook

    def compact(self, on_stack: dict[int, int]) -> bool:
        """Drop the steps that cannot be the search's; True if that made room.

        Kept: recursive code objects that have branched, and others still on the stack. Should a
        dropped one turn out to be the search after all, the exploration asks for a retry.
        """
        status, branching = self.recorder._status, self.recorder._branching
        kept = []
        for step in self.steps:
            key = step[0]
            if key in branching if status[key] == _CODE_RECURSIVE else on_stack.get(key):
                kept.append(step)
            else:
                self.dropped.add(key)
        self.steps[:] = kept
        searching = sum(1 for key, _ in kept if status[key] == _CODE_RECURSIVE)
        # Room for the steps the search may still take, and the helpers' steps around them.
        self.room = len(kept) + self.max_steps - searching
        return searching < self.max_steps

    def finish(self) -> Exploration:
        status = self.recorder._status
        recursive = {key for key in self.calls if status[key] == _CODE_RECURSIVE}
        search = {key for key in recursive if key in self.recorder._branching} or recursive or self.top_level
        for key in self.calls:
            if status[key] == _CODE_NEW:
                status[key] = _CODE_PLAIN
        codes = self.recorder._codes
        nodes = sum(self.calls[key] for key in search)
        steps = None
        complete = not self.truncated
        if self.tracing:
            steps = [position for key, position in self.steps if key in search]
            # Fewer steps than nodes: calls of the search went unrecorded (see ``retry``).
            complete = complete and len(steps) == nodes <= self.max_steps
            del steps[self.max_steps :]
        retry = bool(self.missed & search) or bool(self.dropped & search)
        return Exploration(
            nodes=nodes,
            search={_name(codes[key]): self.calls[key] for key in sorted(search, key=lambda k: _name(codes[k]))},
            steps=steps,
            complete=complete and not retry,
            retry=retry,
        )
