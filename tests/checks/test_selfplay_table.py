"""The self-play table: a row that cannot score ends the check before the deeper games."""

from __future__ import annotations

from grader.check_details import SelfPlayTable
from grader.checks.context import CheckContext
from grader.checks.registry import run_check
from grader.results import CheckStatus
from grader.spec.loader import load_assignment
from reference import depth_limited_selfplay
from tests.checks.in_process import InProcessRunner

DEPTH_LIMITS = load_assignment("depth-limits")
TABLE = next(c for c in DEPTH_LIMITS.checks if c.id == "selfplay-table")


def _run(body: str) -> tuple:
    source = f"""
class State:
    def minmax(self, mode):
        return 0, None

REFERENCE = {{d: depth_limited_selfplay(d) for d in (2, 4, 9)}}

def run_game(max_depth):
{body}
"""
    runner = InProcessRunner("from reference import depth_limited_selfplay\n" + source)
    ctx = CheckContext.of(DEPTH_LIMITS, runner, frozenset(runner.defined_names()))
    return run_check(TABLE, ctx), runner.calls_made


def test_a_wrong_game_at_the_shallowest_limit_skips_the_deeper_games() -> None:
    result, calls = _run("    return ('Player 2 Wins', 0.0, 7)")
    assert result.status == CheckStatus.FAILED
    assert calls == 1 and [r.depth for r in result.detail_as(SelfPlayTable).rows] == [2]
    assert "games at depth 4, 9 were not played" in result.message
    assert result.cause is not None and result.cause.source == "local" and "A different game" in result.cause.sentence
    assert result.counterexample.expected.startswith(depth_limited_selfplay(2).winner)


def test_right_reported_counts_still_pass_when_the_grader_counts_differently() -> None:
    # run_game reports the reference table but never calls State.minmax: the grader's own
    # count is off at every depth, which only matters for partial credit.
    result, calls = _run("    ref = REFERENCE[max_depth]\n    return (ref.winner, 0.0, ref.generated)")
    assert result.status == CheckStatus.PASSED, result.message
    assert calls == 3


def test_a_wrong_reported_count_with_a_right_search_plays_every_depth() -> None:
    body = """    ref = REFERENCE[max_depth]
    state = State()
    for _ in range(ref.generated + len(ref.moves)):
        state.minmax('max')
    return (ref.winner, 0.0, ref.generated + 1)"""
    result, calls = _run(body)
    assert result.status == CheckStatus.PARTIAL, result.message
    assert calls == 3 and len(result.detail_as(SelfPlayTable).rows) == 3
    assert result.cause is not None and result.cause.source == "local" and "counter you report" in result.cause.sentence
