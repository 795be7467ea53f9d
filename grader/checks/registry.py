"""Every check kind by name, and `run_check`: the boundary where whatever happens inside a
check becomes its result."""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from grader.checks.context import CallsStopped, CheckContext, NotDefined
from grader.checks.kind import CheckKind
from grader.checks.kinds import (
    adapter,
    answer,
    game_board,
    game_heuristic,
    game_play,
    game_search,
    games,
    hygiene,
    initial,
    node_counts,
    predicates,
    printed,
    pruning,
    search,
    selfplay,
    state,
    state_search,
    tree_search,
)
from grader.checks.reference_helpers import better_of, stand_ins_to_try, wrong_helper
from grader.checks.slow_verdict import with_speed
from grader.results import CheckResult, CheckStatus
from grader.spec.model import Check

CHECK_KINDS: Mapping[str, CheckKind[Any]] = {
    kind.name: kind
    for kind in (
        predicates.PREDICATE,
        search.SEARCH_VALUE,
        search.DEPTH_LIMITED,
        pruning.PRUNING_EQUIVALENCE,
        node_counts.NODE_COUNTS,
        games.MOVE_SEQUENCE,
        games.RANDOM_OPPONENT,
        printed.PRINTED_SEQUENCE,
        state.SUCCESSOR,
        initial.INITIAL_STATE,
        selfplay.SELFPLAY_TABLE,
        adapter.ADAPTER,
        hygiene.NO_MUTATION,
        hygiene.RUNS_CLEANLY,
        hygiene.MANUAL,
        game_board.GAME_PREDICATE,
        game_board.GAME_SUCCESSOR,
        game_heuristic.HEURISTIC,
        game_search.GAME_SEARCH,
        state_search.STATE_SEARCH,
        tree_search.TREE_SEARCH,
        game_play.GAME_OPPONENT,
        answer.ANSWER,
    )
}


def needed_functions(check: Check[Any]) -> tuple[str, ...]:
    """The student functions ``check`` calls, as its kind declares them."""
    return CHECK_KINDS[check.kind].needs(check.params)


def run_check(check: Check[Any], ctx: CheckContext) -> CheckResult:
    """Run one check and time it. A function the notebook does not define makes the check
    NOT RUN, whatever its kind, and so do calls the context would not make (its time was spent,
    or they reach a function that kept running out of time) when the kind did not judge
    without them; anything else that goes wrong inside becomes an ERROR result, never an
    exception.

    What the check learnt about its function is recorded for the checks after it. A check
    whose failures may come from a lower-level function an earlier check found wrong is run
    again with the reference's version of it in its place, and keeps the better result
    (`grader.checks.reference_helpers`); a check that finds its function wrong leaves the
    reference's version of it for the checks after it (and a check that ran before the one that
    found its function wrong is graded again once all have run: `with_later_stand_ins`).

    A passing check one of whose answers came after the soft limit is "correct, but slower
    than" it (`grader.checks.slow_verdict`)."""
    started = time.monotonic()
    log = ctx.submission.outcomes_log
    first_call = len(log)
    result = _run_kind(check, ctx)
    ctx.findings.learn(check.id, result.learnt)
    ctx.findings.helpers_known[check.id] = len(ctx.findings.wrong_helpers)
    result = _with_stand_ins(check, ctx, result)
    wrong = wrong_helper(check, ctx, result)
    if wrong is not None:
        ctx.findings.wrong_helpers.append((check.id, wrong))
    result = with_speed(result, check, ctx.assignment, log[first_call:])
    return replace(result, duration=round(time.monotonic() - started, 4))


def with_later_stand_ins(check: Check[Any], ctx: CheckContext, result: CheckResult) -> CheckResult:
    """``check``'s ``result``, or the check graded again with the reference's versions of the
    wrong functions it reaches when a check after it found one of them (a search it calls, whose
    check comes later in the assignment): kept when it scores more, as in `run_check`."""
    known = ctx.findings.helpers_known.get(check.id)
    if known is None or known == len(ctx.findings.wrong_helpers):
        return result
    later = {id(stand_in) for _, stand_in in ctx.findings.wrong_helpers[known:]}
    started = time.monotonic()
    log = ctx.submission.outcomes_log
    first_call = len(log)
    again = _with_stand_ins(check, ctx, result, among=later)
    if again is result:
        return result
    again = with_speed(again, check, ctx.assignment, log[first_call:])
    return replace(again, duration=round(result.duration + time.monotonic() - started, 4))


def _with_stand_ins(
    check: Check[Any], ctx: CheckContext, result: CheckResult, among: set[int] | None = None
) -> CheckResult:
    """``result``, or the better of it and the check graded again with the reference's versions of
    the wrong functions it reaches (`grader.checks.reference_helpers.stand_ins_to_try`); with
    ``among``, only when one of those is among them (their ``id``s)."""
    kind = CHECK_KINDS[check.kind]
    stand_ins, own = stand_ins_to_try(check, ctx, result, needed_functions(check), kind.hands(check.params))
    if not stand_ins or (among is not None and not any(id(stand_in) in among for stand_in in stand_ins)):
        return result
    return better_of(result, _run_kind(check, ctx.regrading(stand_ins)), stand_ins, own)


def _run_kind(check: Check[Any], ctx: CheckContext) -> CheckResult:
    try:
        result = CHECK_KINDS[check.kind].run(check, ctx)
    except NotDefined as exc:
        result = CheckResult.not_run(check, str(exc), missing_function=exc.name)
    except CallsStopped as stop:
        result = CheckResult.not_run(check, stop.reason)
    except Exception as exc:  # the boundary: a grader-side failure must not lose the submission
        result = CheckResult.for_check(
            check, CheckStatus.ERROR, f"The check could not be completed: {type(exc).__name__}: {exc}"
        )
    return result
