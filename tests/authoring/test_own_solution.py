"""init's draft judged by the solution itself: a check the solution fails only through a
property init read from a dozen probes is written again without it; any other failing check,
and every passing one, is left as it is (the caller leaves out what still fails)."""

from __future__ import annotations

from grader.authoring.draft import Draft, DraftCheck
from grader.authoring.own_solution import only, relax_failing
from grader.checks.kinds.game_heuristic import HeuristicParams
from grader.checks.kinds.predicates import Params as PredicateParams
from grader.results import CheckResult, CheckStatus
from grader.spec.call_template import parse_call

HEURISTIC = DraftCheck(
    "score-position",
    "evaluate",
    "score_position: a number for either side",
    "heuristic",
    HeuristicParams(parse_call("score_position(board, player)"), zero_without_lines=True, swap_symmetric=True),
    "answers a number on 6 games in progress, zero where no line holds one side's pieces",
)


def _failed(check: DraftCheck, message: str = "Wrong answer on the position after 36 moves") -> CheckResult:
    return CheckResult.for_check(check.check(), CheckStatus.FAILED, message)


def test_a_heuristic_the_solution_fails_is_written_without_what_the_probes_alone_suggested() -> None:
    draft = Draft(checks=[HEURISTIC])
    assert relax_failing(draft, [_failed(HEURISTIC)]) == {"score-position"}
    (check,) = draft.checks
    assert check.params.zero_without_lines is False
    assert check.params.swap_symmetric is True and check.params.call == HEURISTIC.params.call
    assert check.evidence.endswith(
        "but not 'zero where no line holds one side's pieces': the solution itself does not keep it"
    )
    assert draft.notes == [
        "check score-position is written without 'zero where no line holds one side's pieces', which the probes "
        "suggested and the solution itself does not keep: Wrong answer on the position after 36 moves"
    ]
    assert [c.id for c in only(draft, {"score-position"}).checks] == ["score-position"]


def test_a_passing_check_and_one_with_nothing_to_drop_stay_as_they_are() -> None:
    plain = HeuristicParams(parse_call("score_position(board, player)"), swap_symmetric=True)
    without = DraftCheck("evaluate", "evaluate", "evaluate", "heuristic", plain, "a number")
    won = DraftCheck(
        "winning-move",
        "win-test",
        "winning_move",
        "predicate",
        PredicateParams(parse_call("winning_move(board, piece)")),
        "x",
    )
    draft = Draft(checks=[HEURISTIC, without, won])
    passed = CheckResult.for_check(HEURISTIC.check(), CheckStatus.PASSED, "Answers as asked")
    assert relax_failing(draft, [passed, _failed(without), _failed(won)]) == set()
    assert draft.checks == [HEURISTIC, without, won] and draft.notes == []
    assert only(draft, set()).checks == []
