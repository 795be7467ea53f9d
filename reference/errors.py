"""Typed errors shared by every game in the package.

Both derive from ``ValueError`` so a caller that only wants "bad input" can catch one
type, while a grader that must tell a malformed board from an illegal move can tell them
apart. Messages always say what is wrong and where, because they end up verbatim in
student feedback.
"""

from __future__ import annotations

__all__ = ["IllegalMove", "MalformedBoard"]


class MalformedBoard(ValueError):
    """A board (or a student's encoding of one) that cannot be a position of the game."""


class IllegalMove(ValueError):
    """A move that the rules forbid in the given position."""
