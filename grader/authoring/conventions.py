"""Choosing the assignment's conventions from what each function's answers allow.

Every function that returns a value narrows (who moved first, who maximizes, the scoring);
the assignment takes what all of them allow. A field they leave open is written commented
out with its candidates, never guessed; a field with no candidate left means the functions
disagree, and the one a later function needs is dropped with a note.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from grader.authoring.draft import Field, Undecided
from grader.authoring.search_readings import SearchFunction, SearchReading
from grader.spec.model import SIDES, Maximizer, Scoring, Side

Triple = tuple[Side, Maximizer, Scoring]

_MAXIMIZER_WORDS = {"X": "X", "O": "O", "to-move": "the player to move"}


@dataclass(frozen=True)
class ChosenConventions:
    fields: tuple[Field, ...]
    undecided: tuple[Undecided, ...]
    first_player: Side
    maximizer: Maximizer
    scoring: Scoring
    valued: tuple[SearchFunction, ...]
    """The functions whose values fixed the conventions (the others disagree with them)."""
    disagreeing: tuple[SearchFunction, ...]


def _triples(function: SearchFunction) -> set[Triple]:
    return {
        (r.first_player, r.maximizer, r.scoring)
        for r in function.readings
        if r.values and r.maximizer is not None and r.scoring is not None
    }


@dataclass(frozen=True)
class TurnEvidence:
    """A function naming the side to move: who began, where the marks are even."""

    function: str
    first_player: Side


def choose_conventions(functions: Sequence[SearchFunction], turn: TurnEvidence | None = None) -> ChosenConventions:
    """What every search function allows; who moves first narrowed further by ``turn`` when
    the searches allow the player it names."""
    valued = [f for f in functions if _triples(f)]
    allowed: set[Triple] | None = None
    kept: list[SearchFunction] = []
    disagreeing: list[SearchFunction] = []
    # The function with the fewest readings first: it narrows the most.
    for function in sorted(valued, key=lambda f: len(_triples(f))):
        narrowed = _triples(function) if allowed is None else allowed & _triples(function)
        if narrowed:
            allowed = narrowed
            kept.append(function)
        else:
            disagreeing.append(function)
    fields: list[Field] = []
    undecided: list[Undecided] = []
    names = ", ".join(f"`{f.function}`" for f in kept)
    if allowed is None:
        allowed = _open_triples(functions)
    first_players = sorted({t[0] for t in allowed})
    turn_decides = turn is not None and turn.first_player in first_players and len(first_players) > 1
    if turn is not None and turn_decides:
        allowed = {t for t in allowed if t[0] == turn.first_player}
        first_players = [turn.first_player]
    maximizers = sorted({t[1] for t in allowed})
    scorings = sorted({t[2] for t in allowed})
    first_player: Side = "X" if "X" in first_players else first_players[0]
    maximizer: Maximizer = maximizers[0] if len(maximizers) == 1 else ("O" if "O" in maximizers else maximizers[0])
    scoring: Scoring = scorings[0] if len(scorings) == 1 else "unit"

    def evidence(field_name: str, value: str) -> str:
        return f"the only {field_name} under which {names} reproduce every answer" if names else ""

    if len(maximizers) == 1 and kept:
        fields.append(Field("maximizer", maximizer, f"{names} score a position for {_MAXIMIZER_WORDS[maximizer]}"))
    else:
        undecided.append(Undecided("maximizer", tuple(maximizers), _open_reason(kept, "maximizer")))
    if turn is not None and turn_decides:
        words = f"`{turn.function}` names {first_player} to move on games in progress with as many X as O"
        fields.append(Field("first_player", first_player, words))
    elif len(first_players) == 1 and kept:
        fields.append(Field("first_player", first_player, evidence("first player", first_player)))
    else:
        undecided.append(Undecided("first_player", tuple(first_players), _open_reason(kept, "first player")))
    if len(scorings) == 1 and kept:
        words = "+1/-1/0" if scoring == "unit" else "10 - depth for a win, depth - 10 for a loss"
        fields.append(Field("scoring", scoring, f"{names} score {words}"))
    else:
        undecided.append(Undecided("scoring", tuple(scorings), _open_reason(kept, "scoring")))
    return ChosenConventions(
        tuple(fields), tuple(undecided), first_player, maximizer, scoring, tuple(kept), tuple(disagreeing)
    )


def _open_triples(functions: Sequence[SearchFunction]) -> set[Triple]:
    """With no value to go by: whatever the move-returning functions allow."""
    every: set[Triple] = {(first, m, "unit") for first in SIDES for m in SIDES}
    return {t for t in every if all(any(_allows(r, t) for r in f.readings) for f in functions)} or every


def _open_reason(kept: Sequence[SearchFunction], what: str) -> str:
    if not kept:
        return f"no function returns a value that depends on the {what}"
    return f"each of these reproduces every answer of {', '.join(f.function for f in kept)}"


def _allows(reading: SearchReading, triple: Triple) -> bool:
    first, maximizer, scoring = triple
    return (
        reading.first_player == first and reading.maximizer in (None, maximizer) and reading.scoring in (None, scoring)
    )


def reading_under(function: SearchFunction, chosen: ChosenConventions) -> SearchReading | None:
    """The function's reading under the chosen conventions (values first, then the plainest shape)."""
    triple: Triple = (chosen.first_player, chosen.maximizer, chosen.scoring)
    fitting = [r for r in function.readings if _allows(r, triple)]
    if not fitting:
        return None
    return sorted(fitting, key=lambda r: (not r.values, r.to_move is not None, r.start_depth != 0))[0]
