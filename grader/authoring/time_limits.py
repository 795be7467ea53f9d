"""The time limits init writes, from the work its checks ask for, not from the solution's speed.

A check asks the student's search about positions up to some number of empty cells (the
empty board, for a game the AI opens). The game tree below the largest of them is the work
a search without pruning does there: 549,945 positions below the empty board. Both limits are
the kernel's CPU time, which the grading machine's load does not change. The hard limit
(``call_timeout``) gives every one of them `HARD_SECONDS_PER_POSITION`, so that such a search,
the slowest correct kind, still answers however slowly it is written; the soft limit
(``slow_after``) gives `SOFT_SECONDS_PER_POSITION`, about what a plain search costs. A search
answering between the two is "correct, but slower than" the soft limit
(`grader.checks.slow_verdict`), at the cost the instructor sets (``slow_cost``, 0 as written:
the course asks for optimal play, not fast play).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from grader.authoring.draft import Draft, Field
from grader.spec.model import Check
from reference import MalformedBoard, Position, TicTacToe, reachable_positions

CELLS = 9
"""Tic-tac-toe's cells: these limits are sized on its game tree."""

HARD_SECONDS_PER_POSITION = 120e-6
"""Plain Python searches of the class's hand-ins take 5 to 20 microseconds of CPU a position
(the slowest correct one: 11 s of CPU, and 25 s of wall time on a loaded 2-core machine, for
the 549,945 positions below the empty board): 120 leaves room for code six times slower,
66 s of CPU time from the empty board. (It was set when the limit was wall time, to cover a
busy machine too; it is kept so that the limits init writes stay the same.)"""
SOFT_SECONDS_PER_POSITION = 20e-6
"""About what a plain search costs a position, in CPU time: 11 s from the empty board. A
search that prunes or remembers positions (16,000 to 120,000 of them from there) is well
within it."""
LEAST_HARD = 20.0
"""Below this a call is stopped only when it is stuck: the limit init wrote before it
measured the work."""
LEAST_SOFT = 5.0


@dataclass(frozen=True)
class TimeLimits:
    call_timeout: float
    slow_after: float
    positions: int
    """The game tree below the largest position a check asks about."""
    evidence: str
    """Which check asks about it, and where."""


@functools.cache
def _tree_sizes(first: str) -> dict[int, int]:
    """For each number of empty cells, the largest game tree (positions, its root included)
    below a reachable position with that many."""

    game = TicTacToe(first)

    @functools.cache
    def size(position: Position) -> int:
        if game.is_terminal(position):
            return 1
        return 1 + sum(size(game.result(position, cell)) for cell in game.actions(position))

    largest: dict[int, int] = {}
    for position in reachable_positions(first):
        empty = CELLS - game.pieces(position)
        largest[empty] = max(largest.get(empty, 0), size(position))
    return largest


def positions_below(empty: int, first: str) -> int:
    """The positions a search without pruning visits below the largest position with
    ``empty`` empty cells, its root left out (549,945 below the empty board)."""
    return _tree_sizes(first)[empty] - 1


def largest_position(check: Check[Any], first: str) -> int | None:
    """The most empty cells of a position ``check`` asks the student's search about; None
    for a check that asks no search."""
    params = check.params
    if check.kind == "random-opponent":
        return 9 if params.ai == first else 8
    if check.kind == "move-sequence":
        return 9
    game = TicTacToe(first)
    asked = [
        CELLS - pieces
        for name in ("positions", "include")
        for position in getattr(params, name, ())
        if (pieces := _pieces(game, position)) is not None
    ]
    if isinstance(getattr(params, "max_empty", None), int):
        asked.append(params.max_empty)
    return max(asked, default=None)


def _pieces(game: TicTacToe, position: Position) -> int | None:
    """The marks on a tic-tac-toe position; None for anything else a check's params hold."""
    try:
        return game.pieces(position)
    except MalformedBoard:
        return None


def time_limits(checks: Iterable[Check[Any]], first: str) -> TimeLimits:
    """The hard and soft limits for the largest position any of ``checks`` asks about, sized on
    tic-tac-toe's game tree: another game's are `game_time_limits`."""
    asked = [(empty, check.id) for check in checks if (empty := largest_position(check, first)) is not None]
    empty, check_id = max(asked, default=(0, ""))
    positions = positions_below(empty, first)
    where = "the empty board" if empty == CELLS else f"a position with {empty} empty cells"
    evidence = (
        f"{positions:,} positions below {where} (check {check_id}), the work of a search without pruning"
        if check_id
        else "no check asks a search"
    )
    return TimeLimits(
        call_timeout=max(LEAST_HARD, math.ceil(positions * HARD_SECONDS_PER_POSITION)),
        slow_after=max(LEAST_SOFT, math.ceil(positions * SOFT_SECONDS_PER_POSITION)),
        positions=positions,
        evidence=evidence,
    )


def game_time_limits(draft: Draft) -> TimeLimits:
    """The least limits, for another game than tic-tac-toe: every search a check asks for stops
    at its depth limit, a few thousand positions at most, where a tic-tac-toe search from the
    empty board visits half a million."""
    depths = [d for c in draft.checks if c.kind == "game-search" for d in c.params.depth_limits]
    deepest = f"searches at most {max(depths)} plies deep" if depths else "asks no search"
    return TimeLimits(LEAST_HARD, LEAST_SOFT, 0, f"every check {deepest}")


TIME_FIELDS = ("call_timeout", "slow_after", "slow_cost")
"""The fields `set_time_limits` writes."""


def set_time_limits(draft: Draft) -> None:
    """The hard and soft limits from the work the draft's checks ask for, and what being slow
    costs (nothing, as written), each with its evidence."""
    if draft.game:
        limits = game_time_limits(draft)
        hard = f"the hard limit: the least init writes, since {limits.evidence}"
        soft = "a right answer after this is 'correct, but slower than' it: the least init writes (CPU time)"
    else:
        first = next((f.value for f in draft.fields if f.name == "first_player"), "X")
        limits = time_limits([c.check() for c in draft.checks], first)
        hard = f"the hard limit, {HARD_SECONDS_PER_POSITION * 1e6:g} µs a position for {limits.evidence}"
        soft = (
            f"a right answer after this is 'correct, but slower than' it: {SOFT_SECONDS_PER_POSITION * 1e6:g} µs "
            "a position for the same work (CPU time, like the hard limit)"
        )
    draft.fields = [f for f in draft.fields if f.name not in TIME_FIELDS]
    draft.fields += [
        Field("call_timeout", limits.call_timeout, hard),
        Field("slow_after", limits.slow_after, soft),
        Field("slow_cost", 0.0, "being slow costs nothing: the course asks for optimal play; 0.25 takes a quarter"),
    ]
