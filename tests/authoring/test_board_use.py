"""Board tests judged where the solution's own searches use them: traced in this process on a
class's hand-ins, the domain written to the draft, and the predicate kind judging only it."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from grader.authoring.board_use import BoardUse, narrow_domains, trace_board_use
from grader.authoring.create import _judge_where_used
from grader.authoring.discovery import Discovered
from grader.authoring.draft import Draft
from grader.authoring.probes import Conventions, Prober
from grader.checks.context import CheckContext
from grader.checks.kinds.predicates import Params as PredicateParams
from grader.checks.registry import run_check
from grader.results import CheckStatus
from grader.spec.loader import assignment_from
from reference import Board
from tests.authoring.test_inference import in_process_inference
from tests.checks.in_process import InProcessRunner

HANDINS = Path(__file__).resolve().parents[1] / "classes" / "cs50" / "handins"


def _inferred(source: str) -> tuple[Draft, Prober, Conventions, Discovered]:
    draft, choice, prober, discovered = in_process_inference(source)
    assert choice is not None
    return draft, prober, choice.conventions, discovered


def _draft(source: str) -> Draft:
    draft, prober, conventions, discovered = _inferred(source)
    _judge_where_used(draft, prober, conventions, discovered)
    return draft


@pytest.fixture(scope="module")
def bruno() -> Draft:
    """A correct hand-in whose `minimax` tests `terminal` before it asks `actions` or `utility`."""
    return _draft((HANDINS / "bruno.py").read_text())


def _check(draft: Draft, function: str):
    return next(c for c in draft.checks if c.call is not None and c.call.function == function)


def test_actions_is_judged_on_games_in_progress_with_the_evidence(bruno: Draft) -> None:
    actions = _check(bruno, "actions")
    assert actions.params.boards == "unfinished"
    assert "judged on games in progress only" in actions.evidence and "none finished" in actions.evidence


def test_utility_is_judged_on_finished_games_and_winner_everywhere(bruno: Draft) -> None:
    assert _check(bruno, "utility").params.boards == "finished"
    assert _check(bruno, "winner").params.boards == "reachable"  # `terminal` asks it about both


def test_the_side_to_move_is_judged_on_games_in_progress(bruno: Draft) -> None:
    player = _check(bruno, "player")
    assert player.params.boards == "unfinished"
    assert "only games in progress are asked" in player.evidence


def test_too_few_calls_decide_nothing() -> None:
    assert BoardUse("actions", 5, 5, 0, ("minimax",)).domain() is None
    assert BoardUse("actions", 50, 20, 0, ("minimax",)).domain() == "unfinished"
    assert BoardUse("utility", 50, 20, 50, ("minimax",)).domain() == "finished"
    assert BoardUse("winner", 50, 20, 10, ("minimax",)).domain() is None


def test_a_function_the_searches_never_call_keeps_its_domain(bruno: Draft) -> None:
    draft = Draft(checks=list(bruno.checks))
    widened = [
        dataclasses.replace(c, params=dataclasses.replace(c.params, boards="reachable"))
        if isinstance(c.params, PredicateParams) and c.params.boards != "arbitrary"
        else c
        for c in draft.checks
    ]
    draft.checks = widened
    narrow_domains(draft, {})
    assert {c.params.boards for c in draft.checks if isinstance(c.params, PredicateParams)} == {
        "reachable",
        "arbitrary",
    }


def _actions_result(source: str, draft: Draft, boards: str, tmp_path: Path):
    check = _check(draft, "actions")
    draft = Draft(
        fields=draft.fields,
        checks=[dataclasses.replace(check, params=dataclasses.replace(check.params, boards=boards))],
        board=draft.board,
    )
    assignment = assignment_from(draft.spec("t", "t"), tmp_path / "assignment.toml")
    runner = InProcessRunner(source)
    ctx = CheckContext.of(assignment, runner, frozenset(runner.defined_names()))
    return run_check(assignment.checks[0], ctx)


def test_actions_returning_none_on_a_finished_game_passes_only_where_the_program_asks_it(
    bruno: Draft, tmp_path: Path
) -> None:
    """`dara` returns None from `actions` on a finished game, which the course allows."""
    dara = (HANDINS / "dara.py").read_text()
    assert _actions_result(dara, bruno, "unfinished", tmp_path).status == CheckStatus.PASSED
    wide = _actions_result(dara, bruno, "reachable", tmp_path)
    assert wide.status == CheckStatus.FAILED
    assert wide.counterexample is not None and "NoneType None" in wide.counterexample.actual
    assert wide.counterexample.board is not None and Board.from_string(wide.counterexample.board).is_terminal()


def test_a_wrong_actions_still_fails_on_games_in_progress(bruno: Draft, tmp_path: Path) -> None:
    """`esra` offers O's cells as moves: wrong on a game in progress, so still caught."""
    esra = (HANDINS / "esra.py").read_text()
    assert _actions_result(esra, bruno, "unfinished", tmp_path).status == CheckStatus.FAILED


def test_the_trace_reads_the_boards_each_function_was_given() -> None:
    draft, prober, found, _ = _inferred((HANDINS / "bruno.py").read_text())
    conventions = dataclasses.replace(found, maximizer="X", move_format="rowcol")
    searches = [
        c for c in draft.checks if c.kind == "search-value" and c.call is not None and c.call.function == "minimax"
    ]
    uses = trace_board_use(prober, conventions, searches, ["actions", "utility", "terminal"])
    assert uses["actions"].finished == 0 and uses["actions"].calls >= 20
    assert uses["utility"].unfinished == 0
    assert uses["terminal"].finished > 0 and uses["terminal"].unfinished > 0
    assert uses["actions"].searches == ("minimax",)


@pytest.mark.parametrize(("handin", "how"), [("dara", "returns None"), ("otto", "raises")])
def test_a_solution_that_answers_nothing_on_a_finished_game_is_read_on_games_in_progress(handin: str, how: str) -> None:
    """A solution whose `actions` returns None (or raises) on a finished game, as the course
    allows, still gets its `actions` check, judged where it answers."""
    draft = _draft((HANDINS / f"{handin}.py").read_text())
    actions = _check(draft, "actions")
    assert actions.params.expect == "legal-moves" and actions.params.boards == "unfinished"
    assert f"it {how} on the" in actions.evidence and "none finished" in actions.evidence
