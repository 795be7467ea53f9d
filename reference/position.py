"""What the grader holds of a position of any game, apart from the game that plays it.

A :class:`Position` is opaque outside its game: the checks keep answers by it (it is hashable
and compared by value), show it by ``str`` and ask its game everything else (whose move it is,
the moves there, the position a move makes, how many pieces are down). A game refuses a
position that is not its own with :class:`~reference.errors.MalformedBoard`.

A :class:`WrittenPosition` is one an assignment's spec can write as text (``"X.O......"``).
"""

from __future__ import annotations

from typing import Protocol, TypeVar, runtime_checkable

__all__ = ["Position", "WrittenPosition"]

Written = TypeVar("Written", bound="WrittenPosition")


class Position(Protocol):
    """A position of some game: immutable, hashable, equal to another exactly when it is the
    same position, and shown by ``str``."""

    def __hash__(self) -> int: ...

    def __eq__(self, other: object) -> bool: ...


@runtime_checkable
class WrittenPosition(Position, Protocol):
    """A position a spec writes as text: read by ``from_string``, written by ``str``."""

    @classmethod
    def from_string(cls: type[Written], text: str) -> Written:
        """The position ``text`` writes; :class:`~reference.errors.MalformedBoard` when it is none."""
        ...

    @classmethod
    def spec_words(cls) -> tuple[str, str]:
        """How a spec's format page names the type (``"board, 9 characters"``), and the
        example a message about a value that is no text gives (``9-character board such as
        "X.O......"``)."""
        ...
