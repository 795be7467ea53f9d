"""What init found, before it is written: assignment fields and checks, each with its evidence,
and what it could not decide, with the candidates."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from grader.checks.params import PLACEHOLDERS
from grader.spec.call_template import CallTemplate, parse_call
from grader.spec.model import Check
from grader.spec.tables import AssignmentTable, SpecFile

DEFAULT_POINTS: dict[str, float] = {
    "win-test": 10,
    "draw-test": 5,
    "terminal-test": 5,
    "moves": 5,
    "column-test": 5,
    "landing-row": 5,
    "full-test": 5,
    "undo": 10,
    "turn": 5,
    "successor": 10,
    "endgame-score": 10,
    "initial-state": 5,
    "evaluate": 5,
    "minimax": 25,
    "best-move": 15,
    "alpha-beta": 20,
    "best-leaf": 10,
    "tree-search": 5,
    "answer": 2,
    "node-reduction": 10,
    "node-counter": 5,
    "depth-limit": 10,
    "no-mutation": 5,
    "never-loses": 10,
    "deepening": 10,
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


def call(text: str) -> CallTemplate:
    """The parsed call of a check's ``call`` field, as the spec's loader parses it."""
    return parse_call(text, allowed_placeholders=PLACEHOLDERS)


@dataclass(frozen=True)
class DraftCheck:
    id: str
    role: str
    """Which part of the solution it tests (a key of DEFAULT_POINTS)."""
    title: str
    kind: str
    params: Any
    """The kind's own parameter dataclass (`grader.checks.registry.CHECK_KINDS`)."""
    evidence: str

    @property
    def points(self) -> float:
        return float(DEFAULT_POINTS[self.role])

    @property
    def call(self) -> CallTemplate | None:
        """The student call the check makes (the minimax one of a node count)."""
        found = getattr(self.params, "call", None) or getattr(self.params, "minimax_call", None)
        return found if isinstance(found, CallTemplate) else None

    def check(self) -> Check[Any]:
        """The check as the spec holds it."""
        return Check(self.id, self.kind, self.title, self.points, self.params)


@dataclass(frozen=True)
class BoardTable:
    """The `[board]` table's fields and the evidence for them."""

    fields: dict[str, str | int]
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
    api: list[str] = field(default_factory=list)
    """Which functions were taken as the course's API, and why: lines of the TOML's heading."""
    game: dict[str, Any] = field(default_factory=dict)
    """The `[game]` table, for a game other than tic-tac-toe."""
    game_evidence: str = ""
    """How the game and its board were read, written above the `[game]` table."""

    def add_check(self, check: DraftCheck) -> None:
        if all(c.id != check.id for c in self.checks):
            self.checks.append(check)

    def spec(self, assignment_id: str, title: str, **settings: Any) -> SpecFile:
        """The spec as drafted: its ``[assignment]`` table with the inferred fields and
        ``settings``, its board, aliases and checks."""
        inferred = {f.name: f.value for f in self.fields}
        table = AssignmentTable(id=assignment_id, title=title, **inferred, **settings)
        checks = tuple(c.check() for c in self.checks)
        return SpecFile(
            assignment=table,
            checks=checks,
            board=dict(self.board.fields) if self.board else {},
            game=dict(self.game),
            aliases=dict(self.aliases),
        )

    def has_role(self, role: str) -> bool:
        return any(c.role == role for c in self.checks)

    def jobs(self) -> list[tuple[str, str]]:
        """(plain function, its job) for each check that calls one: a board test's
        expectation, else the search's role."""
        found = []
        for check in self.checks:
            call = getattr(check.params, "call", None)
            named = _PLAIN_CALL.match(call.text) if isinstance(call, CallTemplate) else None
            if named is not None:
                found.append((named.group(1), getattr(check.params, "expect", check.role)))
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
