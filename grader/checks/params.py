"""What check kinds' parameter dataclasses share: the placeholders a call text may use (the
call texts are parsed and checked when the assignment loads, by `grader.serialization`)."""

from __future__ import annotations

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
        "state",
        "heuristic",
        "tree",
    }
)
"""The names a call text may use for the values a check fills in (`CheckContext.placeholders`
and the checks' own extras; ``game`` is the object holding the board, `grader.spec.board`)."""
