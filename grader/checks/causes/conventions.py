"""Naming a convention the student followed instead of the assignment's.

A student whose minimax scores +1/-1 where the assignment asks for 10 - depth has a correct
search under another convention; "expected 5, got 1" alone does not tell them so. Each
convention here is one change to how the assignment reads an answer: another scoring, the
other player maximizing, moves numbered from 1, (row, col) pairs for cell indexes, (move,
value) for (value, move), the winning mark for True/False. Alternative answers come from the
reference search under the changed :class:`SearchSpec`, never from arithmetic on the answer.

A convention is named only when it reproduces EVERY answer the student gave, the
assignment's own reading does not, and no other convention fits as well: one board fits
several explanations by chance, a dozen rarely do.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

from grader.checks.line_game import TIC_TAC_TOE
from reference import (
    LineGame,
    O,
    Position,
    SearchSpec,
    TicTacToe,
    X,
    minimax,
    move_values,
    opponent,
    reachable_positions,
    solve,
)

__all__ = [
    "PredicateObservation",
    "SearchObservation",
    "explain_search_convention",
    "explain_win_convention",
    "explain_winner_convention",
]

MoveCode = Literal["index", "index1", "rowcol", "rowcol1"]

_CODE_OF_FORMAT: dict[str, MoveCode] = {
    "index": "index",
    "position": "index1",
    "rowcol": "rowcol",
    "rowcol1": "rowcol1",
}
_CODE_WORDS: dict[MoveCode, str] = {
    "index": "cell indexes 0-8 (row by row)",
    "index1": "cell numbers 1-9 (row by row)",
    "rowcol": "(row, col) pairs counted from 0",
    "rowcol1": "(row, col) pairs counted from 1",
}
_LAYOUT_WORDS = {"value,move": "(value, move)", "move,value": "(move, value)"}


@dataclass(frozen=True)
class SearchObservation:
    """One answer of a search function, with the conventions the assignment asked it under."""

    board: Position
    spec: SearchSpec
    """The assignment's conventions for this call (maximizer, scoring, root depth, depth limit)."""
    to_move: str
    answer: Any
    """What the student's function returned, as it came back from the call."""


@dataclass(frozen=True)
class _Prediction:
    value: float
    moves: frozenset[int]
    """The moves accepted: every optimal one (or, for the flipped choice, every worst one)."""


@functools.lru_cache(maxsize=50_000)
def _predict(board: Position, spec: SearchSpec, to_move: str, worst: bool) -> _Prediction:
    """The answer under ``spec``: from the solved table when it holds the position (a lookup),
    else from a search."""
    if worst:
        values = move_values(board, spec, to_move=to_move)
        pick = min if to_move == spec.maximizer else max
        target = pick(values.values()) if values else None
        best = _predict(board, spec, to_move, False)
        return _Prediction(best.value, frozenset(m for m, v in values.items() if v == target))
    solvable = spec.depth_limit is None and not (spec.scoring == "depth-adjusted" and spec.start_depth > 0)
    first = spec.first_player
    if solvable and board in reachable_positions(first) and TicTacToe(first).to_move(board) == to_move:
        solution = solve(board, spec)
        return _Prediction(solution.value, frozenset(solution.optimal_moves))
    result = minimax(board, spec, to_move=to_move)
    return _Prediction(result.value, frozenset(result.best_moves))


@dataclass(frozen=True)
class _Reading:
    """One way of writing search answers: the assignment's, or one convention off it."""

    sentence: str
    layouts: tuple[str, ...]
    code: MoveCode
    respec: Callable[[SearchSpec], SearchSpec] | None = None
    worst: bool = False

    def fits(self, o: SearchObservation) -> bool:
        spec = self.respec(o.spec) if self.respec else o.spec
        expected = _predict(o.board, spec, o.to_move, self.worst)
        for layout in self.layouts:
            read = _read(o.answer, layout, self.code)
            if read is None:
                continue
            value, move = read
            if (value is None or value == expected.value) and (move is None or move in expected.moves):
                return True
        return False


def _number(raw: Any) -> float | None:
    if isinstance(raw, bool) or not isinstance(raw, (int, float)):
        return None
    return raw


def _move(raw: Any, code: MoveCode) -> int | None:
    base = 1 if code in ("index1", "rowcol1") else 0
    if code in ("index", "index1"):
        number = _number(raw)
        if number is None or number != int(number) or not base <= number <= base + 8:
            return None
        return int(number) - base
    if not isinstance(raw, (list, tuple)) or len(raw) != 2:
        return None
    row, col = (_number(x) for x in raw)
    if row is None or col is None or not (base <= row <= base + 2 and base <= col <= base + 2):
        return None
    if row != int(row) or col != int(col):
        return None
    return 3 * (int(row) - base) + int(col) - base


def _read(raw: Any, layout: str, code: MoveCode) -> tuple[float | None, int | None] | None:
    """(value, move) from an answer under one layout and move code; ``None`` if it does not read."""
    if layout == "value":
        value = _number(raw)
        return None if value is None else (value, None)
    if layout == "move":
        move = _move(raw, code)
        return None if move is None else (None, move)
    if not isinstance(raw, (list, tuple)) or len(raw) != len(layout.split(",")):
        return None
    if layout == "value,row,col":
        code = "rowcol1" if code in ("index1", "rowcol1") else "rowcol"
        value, move = _number(raw[0]), _move(raw[1:], code)
    elif layout == "move,value":
        value, move = _number(raw[1]), _move(raw[0], code)
    else:
        value, move = _number(raw[0]), _move(raw[1], code)
    return None if value is None or move is None else (value, move)


def _root_shifted(shift: int) -> Callable[[SearchSpec], SearchSpec]:
    return lambda spec: replace(spec, start_depth=spec.start_depth + shift)


def _maximizer_words(observations: Sequence[SearchObservation]) -> tuple[str, str]:
    maximizers = {o.spec.maximizer for o in observations}
    if len(maximizers) == 1:
        m = maximizers.pop()
        return m, opponent(m)
    return "the player to move", "the other player"


def _readings(returns: Sequence[str], move_format: str, observations: Sequence[SearchObservation]) -> list[_Reading]:
    """The conventions worth trying for an assignment that reads answers as ``returns``, one
    family at a time (which of them fits every answer is judged by the caller)."""
    code = _CODE_OF_FORMAT[move_format]
    layouts = tuple(returns)
    values = any(layout != "move" for layout in layouts)
    moves = any(layout != "value" for layout in layouts)
    return [
        *(_scoring_readings(layouts, code, [o.spec for o in observations]) if values or moves else []),
        *(_maximizer_readings(layouts, code, observations) if values else []),
        *(_move_readings(layouts, code) if moves else []),
        *_layout_readings(layouts, code),
    ]


def _scoring_readings(layouts: tuple[str, ...], code: MoveCode, specs: Sequence[SearchSpec]) -> list[_Reading]:
    """Scores under the other scoring, or depth-adjusted from another root depth."""
    if all(s.scoring == "depth-adjusted" for s in specs):
        unit = _Reading(
            "Your scores are +1 for a win and -1 for a loss; this assignment scores a win "
            "10 - depth and a loss depth - 10, so that quicker wins score more.",
            layouts,
            code,
            lambda s: replace(s, scoring="unit"),
        )
        shifted = [
            _Reading(
                f"Your depth-adjusted scores count the root {'one deeper' if shift > 0 else 'one shallower'} "
                "than this assignment does: check the depth the first call starts from.",
                layouts,
                code,
                _root_shifted(shift),
            )
            for shift in (1, -1)
        ]
        return [unit, *shifted]
    if all(s.scoring == "unit" for s in specs):
        adjusted = _Reading(
            "Your scores are depth-adjusted (10 - depth for a win); this assignment scores a win +1, "
            "a loss -1 and a draw 0.",
            layouts,
            code,
            lambda s: replace(s, scoring="depth-adjusted"),
        )
        return [adjusted]
    return []


def _maximizer_readings(
    layouts: tuple[str, ...], code: MoveCode, observations: Sequence[SearchObservation]
) -> list[_Reading]:
    """Values scored for the other player."""
    maximizer, other = _maximizer_words(observations)
    flipped = _Reading(
        f"Your values are scored for {other}, as if {other} maximized; in this assignment "
        f"{maximizer} maximizes (a win for {maximizer} is positive).",
        layouts,
        code,
        lambda s: replace(s, maximizer=opponent(s.maximizer)),
    )
    return [flipped]


def _move_readings(layouts: tuple[str, ...], code: MoveCode) -> list[_Reading]:
    """Moves best for the opponent, or numbered another way."""
    worst = _Reading(
        "Your moves are the best ones for the opponent of the player to move: is the maximizer the other player?",
        layouts,
        code,
        worst=True,
    )
    numbered = [
        _Reading(
            f"Your moves are {_CODE_WORDS[alternative]}; this assignment asks for {_CODE_WORDS[code]}.",
            layouts,
            alternative,
        )
        for alternative in _CODE_WORDS
        if alternative != code and not (alternative.startswith("index") and "value,row,col" in layouts)
    ]
    return [worst, *numbered]


def _layout_readings(layouts: tuple[str, ...], code: MoveCode) -> list[_Reading]:
    """(move, value) for (value, move) and the other way round; a value where a move is asked."""
    readings = [
        _Reading(
            f"Your function returns {_LAYOUT_WORDS[given]}; this assignment asks for {_LAYOUT_WORDS[asked]}.",
            (given,),
            code,
        )
        for asked, given in (("value,move", "move,value"), ("move,value", "value,move"))
        if asked in layouts and given not in layouts
    ]
    if layouts == ("move",):
        readings.append(
            _Reading(
                "Your function returns the value of the position; this assignment asks for the move to play.",
                ("value",),
                code,
            )
        )
    return readings


def explain_search_convention(
    observations: Sequence[SearchObservation], *, returns: Sequence[str] = ("value",), move_format: str = "index"
) -> str | None:
    """The one convention that reproduces every answer while the assignment's does not.

    ``returns`` lists the answer layouts the check accepts (``value``, ``move``,
    ``value,move``, ``move,value``, ``value,row,col``), ``move_format`` how it numbers moves
    (``index``, ``position``, ``rowcol``). Moves are judged against every optimal move.
    """
    if not observations:
        return None
    assignment = _Reading("", tuple(returns), _CODE_OF_FORMAT[move_format])
    if all(assignment.fits(o) for o in observations):
        return None
    fitting = [r for r in _readings(returns, move_format, observations) if all(r.fits(o) for o in observations)]
    return fitting[0].sentence if len(fitting) == 1 else None


# -- predicates ---------------------------------------------------------------


@dataclass(frozen=True)
class PredicateObservation:
    """One answer of a board predicate: ``player`` is the one asked about (``wins``); the board
    is read in ``game``."""

    board: Position
    answer: Any
    player: str | None = None
    game: LineGame[Position] = TIC_TAC_TOE

    @property
    def winners(self) -> frozenset[str]:
        return self.game.winners(self.board)


def _no_winner(raw: Any, marks: Mapping[str, Any]) -> bool:
    return raw in (None, False, "", " ", 0) and not any(raw is m for m in marks.values())


def _is_mark(raw: Any, mark: Any) -> bool:
    return raw == mark and type(raw) is type(mark)


def _answers_whether(o: PredicateObservation) -> bool:
    """The assignment's reading of a ``wins`` answer: True or False for the player asked about."""
    return (o.answer is None or isinstance(o.answer, (bool, int))) and bool(o.answer) == (o.player in o.winners)


def _answers_winning_mark(o: PredicateObservation, marks: Mapping[str, Any]) -> bool:
    winners = o.winners
    if not winners:
        return _no_winner(o.answer, marks)
    return any(_is_mark(o.answer, marks[w]) for w in winners)


def _answers_someone_won(o: PredicateObservation) -> bool:
    return isinstance(o.answer, bool) and o.answer == bool(o.winners)


def explain_win_convention(
    function: str, observations: Sequence[PredicateObservation], *, marks: Mapping[str, Any] | None = None
) -> str | None:
    """The winning mark returned where True/False is asked (``expect="wins"``), when that
    reproduces every answer and the assignment's reading does not. ``marks`` is how the
    student spells X and O."""
    spelled = dict(marks or {X: X, O: O})
    if not observations or all(_answers_whether(o) for o in observations):
        return None
    if all(_answers_winning_mark(o, spelled) for o in observations):
        return (
            f"`{function}` returns the winning mark ({spelled[X]!r} or {spelled[O]!r}); this assignment asks "
            "whether the given player has won: True or False."
        )
    return None


def explain_winner_convention(
    function: str, observations: Sequence[PredicateObservation], *, marks: Mapping[str, Any] | None = None
) -> str | None:
    """True or False returned where the winner is asked (``winner``/``outcome``), when that
    reproduces every answer and the assignment's reading does not."""
    spelled = dict(marks or {X: X, O: O})
    if not observations or all(_answers_winning_mark(o, spelled) for o in observations):
        return None
    if all(_answers_someone_won(o) for o in observations):
        return (
            f"`{function}` returns True or False (whether someone has won); this assignment asks for the "
            f"winner: {spelled[X]!r}, {spelled[O]!r} or None."
        )
    return None
