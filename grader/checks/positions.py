"""Which positions checks ask about: reachable positions drawn from a table, their order for
"smallest" counterexamples, and the seed and cache key that make every submission of a class
be asked about the same ones.

The table and its pools are tic-tac-toe's, and the reference's (`reference.reachable`)."""

from __future__ import annotations

import zlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from hypothesis import strategies as st

from grader.checks.context import CheckContext
from grader.spec.model import Check, Side
from reference import Position
from reference.reachable import (
    board_size,
    covering_positions,
    finished_positions,
    game_result,
    positions,
    smallest_finished_positions,
)

__all__ = [
    "board_size",
    "check_seed",
    "covering_positions",
    "finished_positions",
    "game_result",
    "positions",
    "smallest_finished_positions",
]


@dataclass(frozen=True)
class Sampling:
    """Which positions a search check samples (weighted toward few empty cells)."""

    min_empty: int = 1
    max_empty: int = 6
    to_move: Side | None = None
    """Only positions with this side to move (for functions that always play one side)."""

    def strategy(self, ctx: CheckContext, *, spread: bool = False) -> st.SearchStrategy[Position]:
        return positions(
            ctx.assignment.first_player,
            self.min_empty,
            self.max_empty,
            self.to_move,
            include_terminal=False,
            spread=spread,
        )

    def covering(self, first: str) -> tuple[Position, ...]:
        """The smallest position of each result (won, lost, drawn) for each side to move."""
        return covering_positions(first, self.min_empty, self.max_empty, self.to_move)


def results_summary(counts: Mapping[str, int]) -> str:
    """What a search check's passing message adds, e.g. "Among them, for O to move: 9 won and
    4 drawn; for X to move: 20 won, 12 lost and 9 drawn."."""
    sides = []
    for side in sorted({kind.split(" for ")[1] for kind in counts}):
        parts = [f"{counts[kind]} {kind.split(' for ')[0]}" for kind in counts if kind.endswith(" for " + side)]
        listed = ", ".join(parts[:-1]) + " and " + parts[-1] if len(parts) > 1 else parts[0]
        sides.append(f"for {side}: {listed}")
    return f"Among them, {'; '.join(sides)}." if sides else ""


def check_seed(ctx: CheckContext, check: Check[Any]) -> int:
    """Fixed per assignment and check: every submission is asked about the same positions,
    which is fair between students and makes grading reproducible."""
    return zlib.crc32(f"{ctx.assignment.id}:{check.id}".encode())


def check_key(ctx: CheckContext, check: Check[Any]) -> tuple[str, str, str, str]:
    """Identifies a check's generated examples across the submissions of a batch (the
    parameters too: a course author's edit, or a test's variant, must not reuse them)."""
    return (ctx.assignment.id, str(ctx.assignment.directory), check.id, repr(check.params))
