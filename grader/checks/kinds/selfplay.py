"""The self-play table check (for state-class APIs): a whole game per depth limit, judged by
its winner and the number of states it generated, through the student's counter and, where
that is off, through the grader's own.

The grader counts generated states itself only where the table's count is off: it plays
that game again with the kernel's exploration recorder, which counts the calls of the
search wherever its recursion lives (a search written as a method, a helper or a pair of
functions alike). Recording costs a whole game 2-4 times its time, so a right table is
never recorded.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from grader.check_details import SelfPlayRow, SelfPlayTable
from grader.check_notes import Cause
from grader.checks.context import CheckContext
from grader.checks.kind import CheckKind
from grader.results import CheckResult, CheckStatus, Counterexample
from grader.spec.call_template import CallTemplate
from grader.spec.model import Check, Seconds
from reference import depth_limited_selfplay

__all__ = ["SELFPLAY_TABLE", "SelfPlayParams"]


@dataclass(frozen=True)
class SelfPlayParams:
    """A self-play game per depth limit: the winner and the number of generated states, through the student's counter
    and, where that is off, through the grader's own count (``partial_credit`` when only the counter is off). The
    depths are played shallowest first, and a row that can score neither way ends the check."""

    call: CallTemplate
    """Plays a whole game at a depth limit and returns a tuple, e.g. ``run_game(depth_limit)``."""
    depths: tuple[int, ...] = (2, 4, 9)
    """The depth limits played (the ``depth_limit`` placeholder), in order."""
    winner_index: int = 0
    """Where the winner is in the returned tuple."""
    generated_index: int = 2
    """Where the number of generated states is in the returned tuple."""
    count: tuple[str, ...] = ()
    """Functions whose calls the grader counts itself (a search call per node; states generated =
    calls - searches); default: the search the exploration recorder finds."""
    partial_credit: float = 0.5
    """Given when the games are right and the grader's count matches, but the student's own
    counter does not: the search is right, the bookkeeping is not."""
    timeout: Seconds = 180.0
    """Seconds one game may take."""


def _selfplay_table(check: Check[SelfPlayParams], ctx: CheckContext) -> CheckResult:
    """The winner and the number of generated states of a self-play game per depth limit."""
    params = check.params
    student = ctx.student(params.call, count=params.count, timeout=params.timeout)
    recorded = None if params.count else ctx.student(params.call, explore=ctx.explore(), timeout=params.timeout)
    rows: list[SelfPlayRow] = []
    # One depth at a time, cheapest first: a row that fails both ways to score (the
    # reported table, or the grader's own count for partial credit) decides the check,
    # and the deeper games after it would only cost their searches.
    for depth in params.depths:
        answer = student.ask(depth, {"depth_limit": depth})
        ref = depth_limited_selfplay(depth)
        if not answer.ok:
            return CheckResult.for_check(
                check,
                CheckStatus.FAILED,
                f"`{answer.call_text}` {answer.failure_text()}",
                counterexample=Counterexample(None, answer.call_text, "a finished game", answer.given()),
                detail=SelfPlayTable(tuple(rows)),
            )
        value: Any = answer.value
        try:
            winner, generated = value[params.winner_index], value[params.generated_index]
        except (TypeError, IndexError, KeyError):
            return CheckResult.for_check(
                check,
                CheckStatus.FAILED,
                f"`{answer.call_text}` returned {value!r}, not a tuple with the winner at position "
                f"{params.winner_index} and the generated states at {params.generated_index}.",
                detail=SelfPlayTable(tuple(rows)),
            )
        searches = len(ref.moves)
        nodes: int | None = sum(answer.outcome.counts.values())
        if recorded is not None:
            nodes = None
            if winner == ref.winner and generated != ref.generated:
                again = recorded.ask(depth, {"depth_limit": depth})
                exploration = again.outcome.exploration
                nodes = exploration.nodes if again.ok and exploration is not None else None
        row = SelfPlayRow(
            depth=depth,
            reference_winner=ref.winner,
            reference_generated=ref.generated,
            call=answer.call_text,
            winner=winner,
            generated=generated,
            channel_generated=None if nodes is None else nodes - searches,
        )
        rows.append(row)
        if _cannot_pass(row):
            break
    return replace(_table_verdict(check, params, rows), detail=SelfPlayTable(tuple(rows)))


def _table_verdict(check: Check[SelfPlayParams], params: SelfPlayParams, rows: list[SelfPlayRow]) -> CheckResult:
    table = "; ".join(f"depth {r.depth}: {r.winner}, {_states(r.generated)}" for r in rows)
    changed = len({r.reference_winner for r in rows}) > 1
    note = " The shallower limits change the result, as they should." if changed else ""
    games_right = all(r.winner == r.reference_winner for r in rows)
    if games_right and all(r.generated == r.reference_generated for r in rows):
        return CheckResult.for_check(
            check, CheckStatus.PASSED, f"Self-play table matches the reference ({table}).{note}"
        )
    if games_right and all(r.reference_generated in (r.generated, r.channel_generated) for r in rows):
        r = next(r for r in rows if r.generated != r.reference_generated)
        counted = "; ".join(
            f"depth {r.depth}: {_states(r.channel_generated)}" for r in rows if r.channel_generated is not None
        )
        return CheckResult.for_check(
            check,
            CheckStatus.PARTIAL,
            f"The games and the search are right (the grader counted {counted}), "
            f"but the reported counts are not ({table}).",
            score=check.points * params.partial_credit,
            counterexample=Counterexample(
                None,
                r.call,
                f"{_states(r.reference_generated)} reported",
                f"{_states(r.generated)} reported",
            ),
            cause=Cause(
                "local",
                "The counter you report is off: is it incremented for every new state, "
                "and reset before each search only?",
            ),
        )
    r = next(r for r in rows if _search_differs(r))
    cause = (
        "A different game was played: check the depth limit (depth counts from the start of the game) and the "
        "tie-break (first best move in row-major order)."
        if r.winner != r.reference_winner
        else f"The search generates {_states(r.channel_generated)} (counted by the grader) "
        f"where the reference generates "
        f"{_states(r.reference_generated)}: check the depth limit (counted from the start of the game) and the "
        "terminal test, which decide where the search stops."
    )
    unplayed = params.depths[len(rows) :]
    rest = f" The games at depth {', '.join(map(str, unplayed))} were not played." if unplayed else ""
    return CheckResult.for_check(
        check,
        CheckStatus.FAILED,
        f"Self-play table differs from the reference ({table}).{rest}",
        counterexample=Counterexample(
            None,
            r.call,
            f"{r.reference_winner}, {_states(r.reference_generated)}",
            f"{r.winner}, {_states(r.generated)}",
        ),
        cause=Cause("local", cause),
    )


def _cannot_pass(row: SelfPlayRow) -> bool:
    """A row that neither the full score (winner and reported count right) nor the partial
    credit (winner and the grader's count right) allows, whatever the other depths show."""
    return _search_differs(row) and (row.winner != row.reference_winner or row.generated != row.reference_generated)


def _search_differs(row: SelfPlayRow) -> bool:
    """A different game, or a search that generates a different number of states (as the
    grader counts them, where it counted): the row a failure points at."""
    if row.winner != row.reference_winner:
        return True
    return row.generated != row.reference_generated and row.channel_generated != row.reference_generated


def _states(n: object) -> str:
    return f"{n:,} generated states" if isinstance(n, int) and not isinstance(n, bool) else f"{n!r} generated states"


SELFPLAY_TABLE = CheckKind("selfplay-table", SelfPlayParams, _selfplay_table)
