"""Fields that check kinds' parameter dataclasses share, parsed and checked when the
assignment loads (see `grader.spec.loader.build_params`)."""

from __future__ import annotations

from dataclasses import field
from typing import Any

from grader.spec.call_template import CallTemplate, parse_call
from reference import Board, MalformedBoard

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


def call_field(**kwargs: Any) -> Any:
    """A params field holding a call text, parsed (and checked) at load time."""
    return field(metadata={"parse": parse_call_text}, **kwargs)


def parse_call_text(text: Any) -> CallTemplate:
    if not isinstance(text, str):
        raise ValueError(f'must be a call text such as "f(board)", not {text!r}')
    return parse_call(text, allowed_placeholders=PLACEHOLDERS)


def boards_field(**kwargs: Any) -> Any:
    """A params field holding a list of 9-character boards."""
    return field(metadata={"parse": _parse_boards}, **kwargs)


def _parse_boards(raw: Any) -> tuple[Board, ...]:
    if not isinstance(raw, list):
        raise ValueError('must be a list of 9-character boards such as "X.O......"')
    try:
        return tuple(Board.from_string(s) for s in raw)
    except (MalformedBoard, TypeError) as exc:
        raise ValueError(f"bad board: {exc}") from None
