"""The moves of a game against an opponent that are not asked of the AI
(`grader.checks.kinds.games`): the opponent's, seeded, and the first move where every first
move keeps the game's value, seeded in the AI's place (the verdict says so)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from grader.checks.context import CheckContext
from grader.checks.reference_answers import reference_answer
from reference import Position


class Opened(Protocol):
    """A played game, as far as its opening goes."""

    @property
    def opening(self) -> str | None: ...


def opponent_choices(board: Position, side: str, opponent: str, ctx: CheckContext) -> tuple[int, ...]:
    """The moves the opponent picks from at random, on a game not over: any legal move, or the
    optimal ones."""
    if opponent == "random":
        return tuple(ctx.game.actions(board))
    return _optimal(board, side, ctx)


def seeded_opening(board: Position, side: str, ctx: CheckContext) -> tuple[int, ...]:
    """The moves a game opens with in the AI's place: every legal move, when ``board`` is the
    game's first position and every one of them keeps ``side``'s game value; else none.

    There the AI's choice cannot lose a game it could have drawn (or won), so the question is
    not worth its price: the search from the empty board is the most expensive one there is
    (549,945 positions below it for a search without pruning, against 9,399 below the AI's next
    position, one move of each side later), and it would settle nothing that the rest of the
    game does not. The AI chooses every later move."""
    if board != ctx.game.initial_state():
        return ()
    every = tuple(ctx.game.actions(board))
    keeping = _optimal(board, side, ctx)
    return every if set(keeping) == set(every) else ()


def _optimal(board: Position, side: str, ctx: CheckContext) -> tuple[int, ...]:
    """The moves that keep ``side``'s game value, scored win, draw or loss."""
    return reference_answer(board, ctx.spec(board, to_move=side, scoring="unit"), side).best_moves


def openings_note(games: Sequence[Opened]) -> str:
    """What the verdict says about games that opened with a seeded move in the AI's place."""
    openings = [game.opening for game in games if game.opening is not None]
    if not openings:
        return ""
    which = f"the seeded move {openings[0]}" if len(openings) == 1 else "a seeded move"
    if len(games) == 1:
        games_opened = "The game opened"
    elif len(openings) == len(games):
        games_opened = "Each game opened"
    else:
        games_opened = f"{len(openings)} of the {len(games)} games opened"
    return (
        f" {games_opened} with {which} in the AI's place: every first move keeps the game's value, "
        "so the AI's own first move could not have lost it."
    )
