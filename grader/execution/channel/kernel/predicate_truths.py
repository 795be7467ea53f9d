"""What each board predicate answers on a board: the one truth the predicate checks, the
reference's stand-in in the kernel and ``grader init``'s reading of a function all use.

A board is nine cells row by row (``"X"``, ``"O"``, ``"."``): a string, or the cells of a
`reference.Board`. Each expectation of the predicate kind (``expect`` in an assignment) has one
truth here, and says how the stand-in spells that truth in the student's convention. These are
tic-tac-toe's truths alone: the predicate kind knows tic-tac-toe only (an assignment on another
game may not use it), and another game's board functions are judged by the game-predicate kind
against the game itself, their stand-ins reading the game's grid (``next_boards``).

Shipped into the kernel as source before the stand-ins that use it: standard library only,
and every top-level name says whose it is (the kernel sources share one namespace).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

TRUTH_LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
TRUTH_EMPTY = "."


def truth_winners(cells: Sequence[str]) -> frozenset[str]:
    """The players with a complete line (both on an arbitrary board that holds two)."""
    return frozenset(
        cells[a] for a, b, c in TRUTH_LINES if cells[a] != TRUTH_EMPTY and cells[a] == cells[b] == cells[c]
    )


def truth_full(cells: Sequence[str]) -> bool:
    return TRUTH_EMPTY not in cells


class PredicateTruth:
    """One expectation's answer on a board: ``player`` is the one a win test is asked about,
    ``position`` the 1-based cell a move test tries, ``maximizer`` whose score a static
    evaluation gives."""

    name = ""

    def truth(self, cells: Sequence[str], player: str | None, position: int | None, maximizer: str) -> Any:
        raise NotImplementedError

    def spelled(self, value: Any, codes: Mapping[str, Any], move: Callable[[int], Any]) -> Any:
        """``value`` as the student's function writes it: ``codes`` per outcome (X, O, tie,
        ongoing), ``move`` a cell index as a move."""
        return value


class WinsTruth(PredicateTruth):
    name = "wins"

    def truth(self, cells: Sequence[str], player: str | None, position: int | None, maximizer: str) -> Any:
        return player in truth_winners(cells)


class FullTruth(PredicateTruth):
    name = "full"

    def truth(self, cells: Sequence[str], player: str | None, position: int | None, maximizer: str) -> Any:
        return truth_full(cells)


class DrawTruth(PredicateTruth):
    name = "draw"

    def truth(self, cells: Sequence[str], player: str | None, position: int | None, maximizer: str) -> Any:
        return truth_full(cells) and not truth_winners(cells)


class TerminalTruth(PredicateTruth):
    name = "terminal"

    def truth(self, cells: Sequence[str], player: str | None, position: int | None, maximizer: str) -> Any:
        return bool(truth_winners(cells)) or truth_full(cells)


class WinnerTruth(PredicateTruth):
    """The winner's mark, or None (``"ongoing"``) while nobody has won."""

    name = "winner"

    def truth(self, cells: Sequence[str], player: str | None, position: int | None, maximizer: str) -> Any:
        won = sorted(truth_winners(cells))
        return won[0] if won else None

    def spelled(self, value: Any, codes: Mapping[str, Any], move: Callable[[int], Any]) -> Any:
        return codes["ongoing" if value is None else value]


class OutcomeTruth(WinnerTruth):
    """The winner's mark, ``"tie"`` on a full board with no line, else None."""

    name = "outcome"

    def truth(self, cells: Sequence[str], player: str | None, position: int | None, maximizer: str) -> Any:
        winner = super().truth(cells, player, position, maximizer)
        return "tie" if winner is None and truth_full(cells) else winner


class ScoreTruth(PredicateTruth):
    """A static evaluation: +1 where the maximizer alone has a line, -1 where the other has, else 0."""

    name = "score"

    def truth(self, cells: Sequence[str], player: str | None, position: int | None, maximizer: str) -> Any:
        won = truth_winners(cells)
        return 0 if len(won) != 1 else (1 if maximizer in won else -1)


class LegalMovesTruth(PredicateTruth):
    """The empty cells, row by row."""

    name = "legal-moves"

    def truth(self, cells: Sequence[str], player: str | None, position: int | None, maximizer: str) -> Any:
        return [cell for cell in range(9) if cells[cell] == TRUTH_EMPTY]

    def spelled(self, value: Any, codes: Mapping[str, Any], move: Callable[[int], Any]) -> Any:
        return [move(cell) for cell in value]


class ValidMoveTruth(PredicateTruth):
    """Whether the 1-based ``position`` is a free cell."""

    name = "valid-move"

    def truth(self, cells: Sequence[str], player: str | None, position: int | None, maximizer: str) -> Any:
        return position is not None and 1 <= position <= 9 and cells[position - 1] == TRUTH_EMPTY


class ToMoveTruth(PredicateTruth):
    """The mark of the side to move: the side with fewer marks, or ``player``, who began the
    game, where both have as many."""

    name = "to-move"

    def truth(self, cells: Sequence[str], player: str | None, position: int | None, maximizer: str) -> Any:
        xs, os = list(cells).count("X"), list(cells).count("O")
        if xs == os:
            return player
        return "O" if xs > os else "X"

    def spelled(self, value: Any, codes: Mapping[str, Any], move: Callable[[int], Any]) -> Any:
        return codes[value]


PREDICATE_TRUTHS: dict[str, PredicateTruth] = {
    truth.name: truth
    for truth in (
        WinsTruth(),
        WinnerTruth(),
        OutcomeTruth(),
        ScoreTruth(),
        DrawTruth(),
        FullTruth(),
        TerminalTruth(),
        LegalMovesTruth(),
        ValidMoveTruth(),
        ToMoveTruth(),
    )
}
