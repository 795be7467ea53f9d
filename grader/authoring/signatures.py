"""Reading a function's parameters as the placeholders of a call template.

A parameter's name says what it takes (``board``, ``player``, ``depth``, ``is_max``,
``alpha``...); the first parameter of a board function is its board whatever it is called.
A function with a required parameter no name explains is not probed: init says so rather
than guess what to pass, unless its body compares the parameter with strings
(``strategy == "max"``): each of those is a candidate argument, kept only if the answers
say so (`grader.authoring.inference`).

A class whose constructor takes the board (and the side to move) has its methods called
on an object made per call: ``State(board, to_move, max_depth=9).minmax('max')``.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, replace
from typing import Literal

from grader.authoring.discovery import Function, Parameter
from grader.spec.board import OBJECT

Slot = Literal["board", "player", "to_move", "depth", "is_max", "alpha", "beta", "depth_limit", "move"]
"""``to_move`` is the side to move on the board asked about, given to a constructor; ``move`` a
move to play (a successor's)."""

_PATTERNS: tuple[tuple[Slot, re.Pattern[str]], ...] = (
    ("depth_limit", re.compile(r"^(max_?depth|depth_?limit|limit|maxd|max_d|cutoff|search_depth|max_plies)$", re.I)),
    ("is_max", re.compile(r"^(is_?max.*|max(imi[sz]ing|_?player|_?turn|imi[sz]er)?.*|maximi[sz]e|ismax\w*)$", re.I)),
    ("alpha", re.compile(r"^(alpha|a_?lo|lower)$", re.I)),
    ("beta", re.compile(r"^(beta|b_?hi|upper)$", re.I)),
    ("depth", re.compile(r"^(depth|d|ply|level|plies)$", re.I)),
    ("move", re.compile(r"^(action|move|mv|cell|square|space|spot|choice)$", re.I)),
    (
        "player",
        re.compile(r"^(player|turn|mark|symbol|piece|letter|who|current_?player|to_?move|side|me|p|sign|token)$", re.I),
    ),
    ("board", re.compile(r"^(board|state|grid|game_?board|gameboard|brd|bd|b|s|node|position|pos|cells|game)$", re.I)),
)


FULL_GAME = 9
"""A depth limit that covers a whole game: at most nine moves are left."""


@dataclass(frozen=True)
class Constructor:
    """A class whose constructor takes the board: its methods are called on an object made
    for each call."""

    name: str
    slots: tuple[Slot, ...]
    """Its required parameters: the board, and the side to move if it takes a player."""
    keywords: tuple[tuple[str, Slot], ...] = ()
    """Parameters with a default it is given by name: a depth limit (``max_depth``)."""
    defaults: tuple[str | None, ...] = ()
    """The keywords' defaults in the source, for the evidence."""

    def evidence(self) -> str:
        """Why the keywords are given: a depth limit raised to cover a whole game."""
        said = [
            f"{self.name}'s {name} (default {default}) reads as a depth limit; it is given {FULL_GAME}, "
            "the most moves a game has left, for a full search"
            for (name, slot), default in zip(self.keywords, self.defaults)
            if slot == "depth_limit"
        ]
        return "; ".join(said)


@dataclass(frozen=True)
class Signature:
    """What each required parameter of a function takes."""

    function: Function
    slots: tuple[Slot, ...]
    constructor: Constructor | None = None
    """The class the method is called through, when the board goes to its constructor."""
    literal: tuple[int, str] | None = None
    """A string argument and its place among the arguments (``'max'`` at 0), one candidate
    of those the body compares the parameter with."""

    @property
    def all_slots(self) -> tuple[Slot, ...]:
        made = (*self.constructor.slots, *(s for _, s in self.constructor.keywords)) if self.constructor else ()
        return (*made, *self.slots)

    @property
    def inputs(self) -> tuple[Slot, ...]:
        """The slots a probe fills besides the board and the side to move (the board's own)."""
        return tuple(s for s in self.all_slots if s not in ("board", "to_move"))

    @property
    def takes_board(self) -> bool:
        return "board" in self.all_slots

    def has(self, slot: Slot) -> bool:
        return slot in self.all_slots

    def without_keywords(self) -> Signature:
        """The same call with the constructor's defaults: a board test needs no depth limit."""
        if self.constructor is None or not self.constructor.keywords:
            return self
        return replace(self, constructor=replace(self.constructor, keywords=(), defaults=()))

    @property
    def receiver(self) -> str:
        """What is given the board and the depth limit: the function, or its class's constructor."""
        return f"{self.constructor.name}'s constructor" if self.constructor else self.function.name

    @property
    def depth_limit_name(self) -> str:
        """The parameter taking the depth limit."""
        if self.constructor is not None:
            for name, slot in self.constructor.keywords:
                if slot == "depth_limit":
                    return name
        return self.function.parameters[-1].name

    @property
    def literal_text(self) -> str:
        """The literal argument, as ``strategy = 'max'``, or ''."""
        if self.literal is None:
            return ""
        return f"{self.function.parameters[self.literal[0]].name} = {self.literal[1]!r}"

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
        words["to_move"] = "to_move"
        words["move"] = "move"
        args = [words[s] for s in self.slots]
        if self.literal is not None:
            args.insert(self.literal[0], repr(self.literal[1]))
        if self.constructor is not None:
            made = [words[s] for s in self.constructor.slots]
            made += [f"{name}={words[s]}" for name, s in self.constructor.keywords]
            target = f"{self.constructor.name}({', '.join(made)}).{self.function.short_name}"
        else:
            target = f"{OBJECT}.{self.function.short_name}" if self.function.owner else self.function.name
        return f"{target}({', '.join(args)})"


def _slot(parameter: Parameter, position: int) -> Slot | None:
    for slot, pattern in _PATTERNS:
        if pattern.match(parameter.name):
            return slot
    return "board" if position == 0 else None


def read_signature(function: Function, constructor: Constructor | None = None) -> Signature | None:
    """The function's first reading (`read_signatures`), or None."""
    return next(iter(read_signatures(function, constructor)), None)


def read_signatures(function: Function, constructor: Constructor | None = None) -> list[Signature]:
    """The function's slots, one signature per candidate string argument; none when a
    required parameter is not understood (or appears twice). A method called through
    ``constructor`` finds the board there, not in its first parameter."""
    slots: list[Slot] = []
    literal: tuple[int, tuple[str, ...]] | None = None
    first = 0 if constructor is None else 1
    for position, parameter in enumerate(function.required):
        slot = _slot(parameter, position + first)
        if slot is None and parameter.compared_with and literal is None:
            literal = (position, parameter.compared_with)
            continue
        if slot is None or slot in slots:
            return []
        slots.append(slot)
    # A depth limit with a default, right after the required parameters, is still one to
    # test; so is a string argument the body tells apart (a default is one candidate).
    rest = function.parameters[len(function.required) :]
    if rest and _slot(rest[0], 1) == "depth_limit" and "depth_limit" not in slots:
        slots.append("depth_limit")
    elif rest and literal is None and _slot(rest[0], 1) is None and rest[0].compared_with:
        literal = (len(function.required), tuple(dict.fromkeys((*rest[0].compared_with, *_string(rest[0].default)))))
    if literal is None:
        return [Signature(function, tuple(slots), constructor)]
    return [Signature(function, tuple(slots), constructor, (literal[0], text)) for text in literal[1]]


def _string(source: str | None) -> tuple[str, ...]:
    """The default when it is a string literal."""
    try:
        value = ast.literal_eval(source) if source else None
    except (ValueError, SyntaxError):
        return ()
    return (value,) if isinstance(value, str) else ()


def read_constructor(name: str, parameters: tuple[Parameter, ...]) -> Constructor | None:
    """The class as a maker of boards: its required parameters the board first, then the
    side to move if it takes a player; its defaulted depth limit given by name. None when it
    takes no board or a required parameter no name explains."""
    slots: list[Slot] = []
    for position, parameter in enumerate(p for p in parameters if not p.has_default):
        slot = _slot(parameter, position)
        made: Slot | None = "to_move" if slot == "player" else "board" if slot == "board" else None
        if made is None or made in slots:
            return None
        slots.append(made)
    if "board" not in slots:
        return None
    limits = [p for p in parameters if p.has_default and _slot(p, 1) == "depth_limit"][:1]
    keywords: tuple[tuple[str, Slot], ...] = tuple((p.name, "depth_limit") for p in limits)
    return Constructor(name, tuple(slots), keywords, tuple(p.default for p in limits))
