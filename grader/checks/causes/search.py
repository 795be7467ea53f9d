"""The likely cause of a search check's failures, from EVERY answer the student gave.

One rule for every cause: it is named only when it reproduces all the answers seen, not the
failing one alone (one board fits several explanations by chance). In order:

1. a lower-level function another check found wrong, when a search built on it gives every
   answer (``findings.py``: "This follows from `check_win` missing the anti-diagonal");
2. a convention followed instead of the assignment's (``conventions.py``: unit scores where
   depth-adjusted ones are asked, the other player maximizing, moves numbered from 1, ...);
3. a known mistake in the search itself (``known_mistakes.py``);
4. a pattern every answer follows: the full-depth value at every depth limit, an infinite
   value on every unfinished position, one impossible value on every unfinished position, the
   values of a depth limit one move off.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from grader.check_notes import Cause
from grader.checks.answers import format_value
from grader.checks.causes.conventions import SearchObservation, explain_search_convention
from grader.checks.causes.known_mistakes import Observation, explain_alphabeta, explain_minimax, is_full_window
from grader.checks.causes.root_cause import MoveObservation, ValueObservation
from grader.checks.causes.root_cause import Observation as RootObservation
from grader.checks.context import CheckContext
from grader.checks.reference_answers import reference_answer
from grader.checks.verdicts import explain
from reference import BoardGame, Position, SearchSpec

__all__ = ["SearchAnswer", "search_cause"]


@dataclass(frozen=True)
class SearchAnswer:
    """One call of the student's search, with what the assignment asked under and the reference."""

    board: Position
    to_move: str
    spec: SearchSpec
    """The assignment's conventions for this call, depth limit and cut-off value included."""
    raw: Any
    """What the function returned (only for calls that returned)."""
    value: float | None
    move: int | None
    readable: bool
    """Whether the answer reads under the assignment's layout."""
    expected: float
    window: tuple[float, float] = (-math.inf, math.inf)
    full_value: float | None = None
    """The full-depth reference value, for a depth-limited call."""

    @property
    def full_window(self) -> bool:
        return is_full_window(self.spec, *self.window)


def search_cause(
    ctx: CheckContext,
    check_id: str,
    answers: Sequence[SearchAnswer],
    *,
    complete: bool,
    returns: Sequence[str],
    move_format: str,
    judge_moves: bool,
    windows: bool,
    failing_full: bool,
) -> Cause | None:
    """The first cause that reproduces every answer, in the module's order. ``complete``:
    every call returned and read (a root cause must explain all of them); ``windows``:
    alpha-beta called with windows; ``failing_full``: the failing call had the full window."""
    if not answers:
        return None

    def root_cause() -> Cause | None:
        if not complete:
            return None
        found = ctx.findings.root_cause(check_id, _root_observations(answers, judge_moves=judge_moves, windows=windows))
        return None if found is None else found.cause

    def convention() -> Cause | None:
        full = [a for a in answers if a.full_window]
        if not failing_full or not full:
            return None
        layouts = returns if judge_moves else [r for r in returns if r == "value"] or returns
        sentence = explain_search_convention(
            [SearchObservation(a.board, a.spec, a.to_move, a.raw) for a in full],
            returns=tuple(layouts),
            move_format=move_format,
        )
        return None if sentence is None else Cause("convention", sentence)

    def known_mistake() -> Cause | None:
        sentence = _known_mistake(answers, windows=windows, failing_full=failing_full)
        return None if sentence is None else Cause("known-mistake", sentence)

    def pattern() -> Cause | None:
        sentence = _pattern(answers, ctx.game)
        return None if sentence is None else Cause("local", sentence)

    return explain([root_cause, convention, known_mistake, pattern])


def _root_observations(answers: Sequence[SearchAnswer], *, judge_moves: bool, windows: bool) -> list[RootObservation]:
    observations: list[RootObservation] = []
    for a in answers:
        if a.value is not None:
            observations.append(ValueObservation(a.board, a.spec, a.to_move, a.value, a.window if windows else None))
        if judge_moves and a.move is not None:
            observations.append(MoveObservation(a.board, a.spec, a.to_move, a.move))
    return observations


def _known_mistake(answers: Sequence[SearchAnswer], *, windows: bool, failing_full: bool) -> str | None:
    valued = [a for a in answers if a.value is not None]
    if not valued:
        return None
    observations = [
        Observation(
            a.board,
            a.to_move,
            a.value,
            a.window[0],
            a.window[1],
            a.spec.depth_limit,
            a.spec.start_depth,
            a.expected,
            a.spec.maximizer,
        )
        for a in valued
        if a.value is not None
    ]
    spec = valued[0].spec
    spec = replace(spec, cutoff_value=0) if windows else spec
    cause = explain_alphabeta(observations, spec) if windows else None
    if cause is None and failing_full:
        cause = explain_minimax([o for o in observations if is_full_window(spec, o.alpha, o.beta)], spec)
    return cause


def _limited_value(answer: SearchAnswer, shift: int) -> float:
    """The reference value with the depth limit moved by ``shift``."""
    assert answer.spec.depth_limit is not None
    spec = replace(answer.spec, depth_limit=max(answer.spec.depth_limit + shift, 0))
    return reference_answer(answer.board, spec, answer.to_move).value


def _pattern(answers: Sequence[SearchAnswer], game: BoardGame[Position, int]) -> str | None:
    """Patterns of the values alone, each holding for every answer."""
    valued = [(a, a.value) for a in answers if a.value is not None]
    if len(valued) != len(answers):
        return None
    limited = [(a, v) for a, v in valued if a.full_value is not None]
    if (
        limited
        and len(limited) == len(valued)
        and all(v == a.full_value for a, v in limited)
        and any(a.full_value != a.expected for a, _ in limited)
    ):
        return (
            "The value is the full-depth one: the depth limit is never reached "
            "(is depth increased in the recursive call?)."
        )
    if limited and len(limited) == len(valued):
        for shift, words in ((1, "one move deeper than"), (-1, "one move short of")):
            if any(v != a.expected for a, v in limited) and all(v == _limited_value(a, shift) for a, v in limited):
                return (
                    f"The values are those of a search that stops {words} the depth limit: check the "
                    "comparison of the depth with the limit (>= stops at the limit) and the root's depth."
                )
    unfinished = [(a, v) for a, v in valued if not game.is_terminal(a.board)]
    if not unfinished:
        return None
    if all(math.isinf(v) for _, v in unfinished):
        return "The value is infinite: no move was ever tried (are terminal positions and empty cells found?)."
    values = {v for _, v in unfinished}
    if len(values) == 1 and unfinished[0][0].spec.scoring == "unit" and abs(unfinished[0][1]) > 1:
        return (
            f"{format_value(unfinished[0][1])} is not a possible game value (+1, 0 or -1): the starting best value "
            "is returned unchanged, so check its initial value and the comparison that updates it."
        )
    return None
