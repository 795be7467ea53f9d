"""What init found, before it is written: assignment fields and checks, each with its evidence,
and what it could not decide, with the candidates."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

DEFAULT_POINTS: dict[str, float] = {
    "win-test": 10,
    "draw-test": 5,
    "terminal-test": 5,
    "moves": 5,
    "evaluate": 5,
    "minimax": 25,
    "best-move": 15,
    "alpha-beta": 20,
    "node-reduction": 10,
    "node-counter": 5,
    "depth-limit": 10,
    "no-mutation": 5,
    "never-loses": 10,
    "runs-cleanly": 0,
}
"""Points each role's check is worth by default; the author edits them in the TOML. The
manual lists them: docs/course-authors.md, "The checks it writes"."""


@dataclass(frozen=True)
class Field:
    """One `[assignment]` field with the one-line evidence written beside it."""

    name: str
    value: Any
    evidence: str


@dataclass(frozen=True)
class Undecided:
    """A field init could not decide: written commented out with its candidates."""

    name: str
    candidates: tuple[Any, ...]
    why: str


@dataclass(frozen=True)
class DraftCheck:
    id: str
    role: str
    """Which part of the solution it tests (a key of DEFAULT_POINTS)."""
    title: str
    kind: str
    params: dict[str, Any]
    evidence: str

    @property
    def points(self) -> float:
        return DEFAULT_POINTS[self.role]


@dataclass(frozen=True)
class BoardTable:
    """The `[board]` table: (field, TOML literal) pairs, and the evidence for them."""

    fields: tuple[tuple[str, str], ...]
    evidence: str


@dataclass
class Draft:
    """The assignment as inferred so far."""

    fields: list[Field] = field(default_factory=list)
    checks: list[DraftCheck] = field(default_factory=list)
    undecided: list[Undecided] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    """What was found and not turned into a check, and why."""
    board: BoardTable | None = None
    """Set when the board is not one of the preset encodings passed as an argument."""
    aliases: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """The `[aliases]` table: other names a student may give a plain function."""

    def add_check(self, check: DraftCheck) -> None:
        if all(c.id != check.id for c in self.checks):
            self.checks.append(check)

    def has_role(self, role: str) -> bool:
        return any(c.role == role for c in self.checks)

    def jobs(self) -> list[tuple[str, str]]:
        """(plain function, its job) for each check that calls one: a board test's
        expectation, else the search's role."""
        found = []
        for check in self.checks:
            call = check.params.get("call")
            named = _PLAIN_CALL.match(call) if isinstance(call, str) else None
            if named is not None:
                found.append((named.group(1), check.params.get("expect", check.role)))
        return found


def slug(name: str) -> str:
    """A check id from a function's name: ``checkWin`` -> ``check-win``."""
    return re.sub(r"[^a-z0-9]+", "-", re.sub(r"([a-z])([A-Z])", r"\1-\2", name).lower()).strip("-")


_PLAIN_CALL = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)\([^()]*\)$")
"""A call of a plain function, not a method of an object it makes (``State(board).minmax()``)."""


NEAR_MISS = 0.75
"""A function that agrees with a reading on at least this share of its answers, but not on
all of them, is taken for that role done wrong, not for another function."""


@dataclass(frozen=True)
class NearMiss:
    """A function that is almost a board test or a search: the solution is wrong."""

    function: str
    role: str
    agreed: int
    asked: int
    board: str
    given: Any
    expected: Any

    def sentence(self) -> str:
        return (
            f"`{self.function}` answers like {self.role} on {self.agreed} of {self.asked} positions, "
            f"but on {self.board} it returned {self.given!r} where the reference gives {self.expected}"
        )
