"""The self-play table without pinned functions: the grader counts the search wherever its
recursion lives, and only where the reported count is off."""

from __future__ import annotations

import dataclasses

from grader.check_details import SelfPlayRow, SelfPlayTable
from grader.checks.context import CheckContext
from grader.checks.registry import run_check
from grader.results import CheckResult, CheckStatus
from grader.spec.loader import load_assignment
from tests.checks.in_process import InProcessRunner

DEPTH_LIMITS = load_assignment("depth-limits")
PINNED = next(c for c in DEPTH_LIMITS.checks if c.id == "selfplay-table")
TABLE = dataclasses.replace(PINNED, params=dataclasses.replace(PINNED.params, count=(), depths=(2, 4)))

SOURCE = """
from reference import depth_limited_selfplay

REFERENCE = {d: depth_limited_selfplay(d) for d in (2, 4)}

def _grow(n):
    # n calls in all, this one included: a search written as a plain recursive helper
    n -= 1
    left = n // 2
    if left:
        _grow(left)
    if n - left:
        _grow(n - left)

def run_game(max_depth):
    ref = REFERENCE[max_depth]
    for _ in ref.moves:  # one search per move, as many nodes in all as the reference's
        _grow((ref.generated + len(ref.moves)) // len(ref.moves))
    _grow((ref.generated + len(ref.moves)) % len(ref.moves) or 1)
    return (ref.winner, 0.0, REPORTED(ref))
"""


def _run(reported: str) -> tuple[CheckResult, int]:
    runner = InProcessRunner(SOURCE.replace("REPORTED(ref)", reported))
    ctx = CheckContext.of(DEPTH_LIMITS, runner, frozenset(runner.defined_names()))
    return run_check(TABLE, ctx), runner.calls_made


def _rows(result: CheckResult) -> tuple[SelfPlayRow, ...]:
    table = result.detail_as(SelfPlayTable)
    assert table is not None, result.message
    return table.rows


def test_a_right_table_is_never_recorded() -> None:
    result, calls = _run("ref.generated")
    assert result.status == CheckStatus.PASSED, result.message
    assert calls == 2 and all(row.channel_generated is None for row in _rows(result))


def test_a_wrong_reported_count_is_recounted_by_the_recorder_for_partial_credit() -> None:
    result, calls = _run("0")
    assert calls == 4  # each game again, recorded
    counted = [row.channel_generated for row in _rows(result)]
    assert result.status == CheckStatus.PARTIAL, (result.message, counted)
    assert counted == [row.reference_generated for row in _rows(result)]
