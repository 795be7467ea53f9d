"""What a solution's search answers on a finished game, so that a check can ask the same of the
students: ``None`` (there is no move to make), or the game's value with whatever move part it
holds. A solution that answers otherwise, or not the same way on every finished game asked,
says nothing a check could hold a student to: finished games are then not judged."""

from __future__ import annotations

from dataclasses import dataclass, replace

from grader.authoring.probes import Conventions, Prober
from grader.authoring.search_readings import SearchReading, search_case
from grader.authoring.signatures import Signature
from grader.checks.answers import ShapeError, read_value_only
from grader.checks.kinds.search import OnFinished
from grader.checks.positions import smallest_finished_positions
from grader.checks.reference_answers import reference_answer
from reference import BoardGame, Position, SearchSpec, X


@dataclass(frozen=True)
class FinishedAnswer:
    rule: OnFinished
    evidence: str


def _game_value(reading: SearchReading, board: Position, game: BoardGame[Position, int]) -> float:
    side = game.to_move(board)
    maximizer = side if reading.maximizer == "to-move" else (reading.maximizer or X)
    spec = SearchSpec(
        maximizer=maximizer,
        first_player=reading.first_player,
        scoring=reading.scoring or "unit",
        start_depth=reading.start_depth,
    )
    return reference_answer(board, spec, side).value


def finished_answer(
    prober: Prober, signature: Signature, reading: SearchReading, conventions: Conventions
) -> FinishedAnswer | None:
    """The rule the solution's answers on the smallest finished game of each outcome follow."""
    boards = smallest_finished_positions(reading.first_player, reading.to_move)
    if not boards:
        return None
    asked_under = replace(conventions, first_player=reading.first_player)
    cases = [search_case(reading, board, asked_under.game) for board in boards]
    outcomes = prober.ask(signature, asked_under, cases)
    if not all(o.ok for o in outcomes):
        return None
    name = signature.function.name
    asked = f"{len(boards)} finished games (won by either side, and full)"
    if all(o.value is None for o in outcomes):
        return FinishedAnswer("none", f"{name} returns None on all {asked}")
    if reading.values:
        try:
            values = [read_value_only(o.value, (reading.returns,)) for o in outcomes]
        except ShapeError:
            return None
        if values == [_game_value(reading, board, asked_under.game) for board in boards]:
            return FinishedAnswer("value", f"{name} gives the game's value on all {asked}")
    return None
