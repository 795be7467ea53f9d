"""Reading a function's parameters as the placeholders of a call template.

A parameter's name says what it takes (``board``, ``player``, ``depth``, ``is_max``,
``alpha``...); the first parameter of a board function is its board whatever it is called.
A function with a required parameter no name explains is not probed: init says so rather
than guess what to pass.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from grader.authoring.discovery import Function, Parameter
from grader.spec.board import OBJECT

Slot = Literal["board", "player", "depth", "is_max", "alpha", "beta", "depth_limit"]

_PATTERNS: tuple[tuple[Slot, re.Pattern[str]], ...] = (
    ("depth_limit", re.compile(r"^(max_?depth|depth_?limit|limit|maxd|max_d|cutoff|search_depth|max_plies)$", re.I)),
    ("is_max", re.compile(r"^(is_?max.*|max(imi[sz]ing|_?player|_?turn|imi[sz]er)?.*|maximi[sz]e|ismax\w*)$", re.I)),
    ("alpha", re.compile(r"^(alpha|a_?lo|lower)$", re.I)),
    ("beta", re.compile(r"^(beta|b_?hi|upper)$", re.I)),
    ("depth", re.compile(r"^(depth|d|ply|level|plies)$", re.I)),
    (
        "player",
        re.compile(r"^(player|turn|mark|symbol|piece|letter|who|current_?player|to_?move|side|me|p|sign|token)$", re.I),
    ),
    ("board", re.compile(r"^(board|state|grid|game_?board|gameboard|brd|bd|b|s|node|position|pos|cells|game)$", re.I)),
)


@dataclass(frozen=True)
class Signature:
    """What each required parameter of a function takes."""

    function: Function
    slots: tuple[Slot, ...]

    @property
    def takes_board(self) -> bool:
        return "board" in self.slots

    def has(self, slot: Slot) -> bool:
        return slot in self.slots

    def call_text(
        self, *, depth_limit: bool = True, window: tuple[str, str] = ("alpha", "beta"), player: str = "player"
    ) -> str:
        """The call template: placeholders for the board, the player (``player`` for a test
        about a given player, ``to_move`` for a search), is_max and the window; the root's
        depth is 0, and without ``depth_limit`` the limit is past the end of the game."""
        words = {
            "board": "board",
            "player": player,
            "depth": "0",
            "is_max": "is_max",
            "alpha": window[0],
            "beta": window[1],
            "depth_limit": "depth_limit" if depth_limit else "9",
        }
        target = f"{OBJECT}.{self.function.short_name}" if self.function.owner else self.function.name
        return f"{target}({', '.join(words[s] for s in self.slots)})"


def _slot(parameter: Parameter, position: int) -> Slot | None:
    for slot, pattern in _PATTERNS:
        if pattern.match(parameter.name):
            return slot
    return "board" if position == 0 else None


def read_signature(function: Function) -> Signature | None:
    """The function's slots, or None when a required parameter is not understood (or appears twice)."""
    slots: list[Slot] = []
    for position, parameter in enumerate(function.required):
        slot = _slot(parameter, position)
        if slot is None or slot in slots:
            return None
        slots.append(slot)
    # A depth limit with a default, right after the required parameters, is still one to test.
    rest = function.parameters[len(function.required) :]
    if rest and _slot(rest[0], 1) == "depth_limit" and "depth_limit" not in slots:
        slots.append("depth_limit")
    return Signature(function, tuple(slots))
