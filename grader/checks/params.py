"""What check kinds' parameter dataclasses share: the placeholders a call text may use (the
call texts are parsed and checked when the assignment loads, by `grader.serialization`)."""

from __future__ import annotations

from typing import Protocol

from grader.spec.call_template import CallTemplate

PLACEHOLDERS = frozenset(
    {
        "board",
        "to_move",
        "opponent",
        "player",
        "is_max",
        "alpha",
        "beta",
        "depth_limit",
        "position",
        "cell",
        "row",
        "col",
        "move",
        "game",
    }
)
"""The names a call text may use for the values a check fills in (`CheckContext.placeholders`
and the checks' own extras; ``game`` is the object holding the board, `grader.spec.board`)."""


class CallParams(Protocol):
    """Parameters of a kind that calls one student function, with globals set first."""

    @property
    def call(self) -> CallTemplate: ...

    @property
    def globals(self) -> dict[str, str]: ...
