"""The moves of a game against an opponent that are not asked of the AI
(`grader.checks.kinds.games`): the opponent's, seeded, and the first move where every first
move keeps the game's value, seeded in the AI's place (the verdict says so)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from grader.checks.context import CheckContext
from reference import Board, solve


class Opened(Protocol):
    """A played game, as far as its opening goes."""

    @property
    def opening(self) -> str | None: ...


def opponent_choices(board: Board, side: str, opponent: str, ctx: CheckContext) -> tuple[int, ...]:
    """The moves the opponent picks from at random: any free cell, or the optimal ones."""
    if opponent == "random":
        return tuple(board.empty_cells())
    return solve(board, ctx.spec(board, to_move=side, scoring="unit")).optimal_moves


def seeded_opening(board: Board, side: str, ctx: CheckContext) -> tuple[int, ...]:
    """The moves a game opens with in the AI's place: every legal move, when ``board`` is the
    game's first position and every one of them keeps ``side``'s game value; else none.

    There the AI's choice cannot lose a game it could have drawn (or won), so the question is
    not worth its price: the search from the empty board is the most expensive one there is
    (549,945 positions below it for a search without pruning, against 9,399 below the AI's next
    position, one move of each side later), and it would settle nothing that the rest of the
    game does not. The AI chooses every later move."""
    if board != Board.empty():
        return ()
    every = tuple(board.empty_cells())
    keeping = solve(board, ctx.spec(board, to_move=side, scoring="unit")).optimal_moves
    return every if set(keeping) == set(every) else ()


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
