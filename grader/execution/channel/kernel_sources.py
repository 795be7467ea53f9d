"""The kernel side of the channel as the grader sends it: the source text of each module.

The modules of :mod:`grader.execution.channel.kernel`, after the shared ones they use, are
executed in this order in one private namespace of the student's kernel
(:class:`~grader.execution.channel.link.ShimLink` sends them): each one uses the names the ones
before it defined (see the shim).
"""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

from grader import errors
from grader.execution.channel import protocol, wire_format
from grader.execution.channel.kernel import (
    board_reading,
    built_values,
    builtins_guard,
    call_clock,
    called_searches,
    captured_output,
    executor,
    exploration,
    held_moves,
    names,
    next_boards,
    node_cap,
    predicate_truths,
    references,
    shim,
    stand_ins,
)


def _source(module: ModuleType) -> str:
    assert module.__file__ is not None
    return Path(module.__file__).read_text(encoding="utf-8")


KERNEL_SOURCES = tuple(
    _source(module)
    for module in (
        errors,
        protocol,
        wire_format,
        board_reading,
        node_cap,
        exploration,
        references,
        names,
        built_values,
        predicate_truths,
        next_boards,
        held_moves,
        called_searches,
        stand_ins,
        builtins_guard,
        call_clock,
        captured_output,
        executor,
        shim,
    )
)
