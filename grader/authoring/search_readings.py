"""The conventions under which a search function's answers are the reference's.

A search function is asked about games in progress begun by either player, for both values
of its ``is_max`` (or ``player``) argument. A reading (who moved first, who maximizes, the
scoring, the root's depth, the answer's shape, the move format, the side it plays) fits
when the reference under it gives every answer the function gave; the answers of the
``is_max`` that does not match the reading are not used by it. Fields an answer does not
depend on (the maximizer of a function that returns only a move) are left open: ``None``.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any

from grader.authoring.draft import NEAR_MISS, NearMiss
from grader.authoring.probes import Conventions, Prober, search_positions
from grader.authoring.signatures import Signature
from grader.checks.answers import SEARCH_SHAPES, ShapeError, read_search_result
from grader.checks.played_moves import cell_played
from grader.checks.reference_answers import reference_answer
from grader.execution.channel.calls import CallOutcome
from grader.spec.model import MOVE_FORMATS, Maximizer, MoveFormat, Scoring, Side
from reference import BoardGame, O, Position, SearchSpec, X

MIN_BOARDS = 5
"""A reading restricted to one side to move must still explain this many answers."""

IN_PLACE = "in-place"
"""The reading of a function that returns nothing and plays its move on the board it was
given (``ai_move(board)``): its move is the one mark the call added."""


@dataclass(frozen=True)
class SearchReading:
    first_player: Side
    maximizer: Maximizer | None
    scoring: Scoring | None
    start_depth: int
    returns: str
    move: MoveFormat | None
    to_move: Side | None
    """The only side the function plays (a ``best_move(board)`` written for the computer)."""

    @property
    def values(self) -> bool:
        return self.returns not in ("move", IN_PLACE)


def search_case(reading: SearchReading, board: Position, game: BoardGame[Position, int]) -> dict[str, Any]:
    """The values of one call of a search read as ``reading`` on ``board``, a position of
    ``game`` (begun by the reading's first player): the side to move as the player, ``is_max``
    when that side maximizes (or the reading leaves it open), the full window and no depth
    limit short of the game's end."""
    side = game.to_move(board)
    is_max = reading.maximizer in (None, "to-move") or side == reading.maximizer
    return {"board": board, "player": side, "is_max": is_max, "alpha": -math.inf, "beta": math.inf, "depth_limit": 9}


@dataclass(frozen=True)
class SearchFunction:
    signature: Signature
    readings: tuple[SearchReading, ...]
    """Every reading that reproduces all the answers it uses."""
    answers: int

    @property
    def function(self) -> str:
        return self.signature.function.name


@dataclass(frozen=True)
class _Asked:
    board: Position
    side: str
    variant: Any
    outcome: CallOutcome


def _variants(signature: Signature) -> tuple[Any, ...]:
    if signature.has("is_max"):
        return (True, False)
    if signature.has("player"):
        return (X, O)
    return (None,)


def ask_search(
    prober: Prober, signature: Signature, base: Conventions, *, depth_limit: int = 9
) -> dict[Side, list[_Asked]]:
    """The function's answers on games begun by X and by O."""
    asked: dict[Side, list[_Asked]] = {}
    first: Side
    for first in (X, O):  # type: ignore[assignment]
        boards = search_positions(first)
        conventions = replace(base, first_player=first)
        game = conventions.game
        cases = []
        for board, variant in itertools.product(boards, _variants(signature)):
            case: dict[str, Any] = {"board": board, "alpha": -math.inf, "beta": math.inf, "depth_limit": depth_limit}
            if signature.has("is_max"):
                case["is_max"] = variant
            if signature.has("player"):
                # beside a flag, the player is the side the search plays: the side to move
                case["player"] = game.to_move(board) if signature.has("is_max") else variant
            cases.append(case)
        outcomes = prober.ask(signature, conventions, cases, read_board=True)
        asked[first] = [
            _Asked(c["board"], conventions.game.to_move(c["board"]), c.get("is_max", c.get("player")), o)
            for c, o in zip(cases, outcomes)
        ]
    return asked


def _used(asked: Sequence[_Asked], signature: Signature, maximizer: Maximizer, to_move: Side | None) -> list[_Asked]:
    """The answers a reading explains: the right ``is_max``/player for the side to move."""
    used = []
    for a in asked:
        if to_move is not None and a.side != to_move:
            continue
        if signature.has("is_max") and a.variant != (maximizer == "to-move" or a.side == maximizer):
            continue
        if signature.has("player") and a.variant != a.side:
            continue
        used.append(a)
    return used


class _Reads:
    """Each answer read once per (shape, move format): None where it does not read so."""

    def __init__(self, prober: Prober, signature: Signature, conventions: Conventions) -> None:
        self.ctx = prober.context(conventions)
        self.board_after = functools.partial(prober.board_after, signature, conventions)
        self.cache: dict[tuple[int, str, MoveFormat | None], tuple[float | None, int | None] | None] = {}

    def read(self, a: _Asked, returns: str, move: MoveFormat | None) -> tuple[float | None, int | None] | None:
        key = (id(a), returns, move)
        if key not in self.cache:
            try:
                self.cache[key] = self._read(a, returns, move) if a.outcome.ok else None
            except ShapeError:
                self.cache[key] = None
        return self.cache[key]

    def _read(self, a: _Asked, returns: str, move: MoveFormat | None) -> tuple[float | None, int | None]:
        moves = self.ctx.moves(move)
        if returns == IN_PLACE:
            return None, cell_played(self.ctx, a.board, self.board_after(a.outcome), a.side, moves)
        return read_search_result(a.outcome.value, (returns,), moves)


def _fits(a: _Asked, spec: SearchSpec, returns: str, move: MoveFormat | None, reads: _Reads) -> bool:
    read = reads.read(a, returns, move)
    if read is None:
        return False
    value, cell = read
    expected = reference_answer(a.board, spec, a.side)
    if value is not None and (returns != "move") and value != expected.value:
        return False
    return returns == "value" or cell in expected.best_moves


def _misses(
    used: Sequence[_Asked],
    spec: SearchSpec,
    maximizer: Maximizer | None,
    shape: tuple[str, MoveFormat | None],
    reads: _Reads,
) -> list[_Asked]:
    """The answers a reading does not explain, counted until it cannot be a near miss."""
    allowed = (1 - NEAR_MISS) * len(used)
    misses: list[_Asked] = []
    for a in used:
        if not _fits(a, _spec_for(spec, maximizer, a), *shape, reads):
            misses.append(a)
            if len(misses) > allowed:
                break
    return misses


def _candidates(
    returns: str, signature: Signature
) -> Iterator[tuple[Maximizer | None, Scoring | None, int, MoveFormat | None]]:
    moves: tuple[MoveFormat | None, ...] = (None,) if returns in ("value", IN_PLACE) else MOVE_FORMATS
    if returns in ("value,row,col", "row,col,value"):
        moves = ("rowcol", "rowcol1")
    maximizer: Maximizer
    if returns in ("move", IN_PLACE):
        # Which moves are best does not depend on the scores, only on which side is asked.
        sides: tuple[Maximizer | None, ...] = ("X", "O", "to-move") if signature.has("is_max") else (None,)
        for maximizer, move in itertools.product(sides, moves):  # type: ignore[assignment]
            yield maximizer, None, 0, move
        return
    for maximizer, move in itertools.product(("X", "O", "to-move"), moves):  # type: ignore[assignment]
        yield maximizer, "unit", 0, move
        for start in (0, 1, -1):
            yield maximizer, "depth-adjusted", start, move


def read_search(prober: Prober, signature: Signature, base: Conventions) -> SearchFunction | NearMiss | None:
    """Every reading of ``signature``'s answers that reproduces them all; else the reading
    that comes closest, if it explains most of them (a wrong search); else None."""
    asked = ask_search(prober, signature, base)
    if not any(a.outcome.ok for answers in asked.values() for a in answers):
        return None
    readings: list[SearchReading] = []
    closest: tuple[int, int, _Asked, SearchSpec, str] | None = None
    restrictions: tuple[Side | None, ...] = (None,)
    if not (signature.has("is_max") or signature.has("player")):
        restrictions = (None, "X", "O")
    for first, answers in asked.items():
        reads = _Reads(prober, signature, replace(base, first_player=first))
        for returns in (*SEARCH_SHAPES, IN_PLACE):
            for maximizer, scoring, start, move in _candidates(returns, signature):
                for to_move in restrictions:
                    used = _used(answers, signature, maximizer or "X", to_move)
                    if len(used) < MIN_BOARDS:
                        continue
                    spec = SearchSpec(
                        maximizer=X if maximizer in (None, "to-move") else maximizer,
                        first_player=first,
                        scoring=scoring or "unit",
                        start_depth=start,
                    )
                    misses = _misses(used, spec, maximizer, (returns, move), reads)
                    if not misses:
                        readings.append(SearchReading(first, maximizer, scoring, start, returns, move, to_move))
                    elif closest is None or len(used) - len(misses) > closest[0]:
                        closest = (
                            len(used) - len(misses),
                            len(used),
                            misses[0],
                            _spec_for(spec, maximizer, misses[0]),
                            returns,
                        )
    if not readings:
        return _near_miss(signature, closest)
    # A function that returns its move and also plays it is read by what it returns.
    if any(r.returns != IN_PLACE for r in readings):
        readings = [r for r in readings if r.returns != IN_PLACE]
    # A reading that needs no restriction to one side is the better one.
    if any(r.to_move is None for r in readings):
        readings = [r for r in readings if r.to_move is None]
    return SearchFunction(signature, tuple(readings), sum(len(v) for v in asked.values()))


def _near_miss(signature: Signature, closest: tuple[int, int, _Asked, SearchSpec, str] | None) -> NearMiss | None:
    if closest is None or closest[0] < NEAR_MISS * closest[1] or not closest[2].outcome.ok:
        return None
    agreed, asked, a, spec, returns = closest
    ref = reference_answer(a.board, spec, a.side)
    moves = returns in ("move", IN_PLACE)
    expected = f"a move in {list(ref.best_moves)}" if moves else f"value {ref.value:g}"
    role = "a best-move function" if moves else "a minimax"
    return NearMiss(
        signature.function.name, role, agreed, asked, f"{a.board} ({a.side} to move)", a.outcome.value, expected
    )


def _spec_for(spec: SearchSpec, maximizer: Maximizer | None, a: _Asked) -> SearchSpec:
    return replace(spec, maximizer=a.side) if maximizer == "to-move" else spec
