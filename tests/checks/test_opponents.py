"""Games against a seeded opponent: the random player, and the optimal one that punishes every
move that throws a draw away."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path

import nbformat

from grader.check_details import PlayedGame
from grader.checks.context import CheckContext
from grader.checks.kinds.games import play_game
from grader.checks.registry import run_check
from grader.results import CheckResult, CheckStatus
from grader.spec.loader import load_assignment
from grader.spec.model import Assignment
from reference import Board
from tests.checks.in_process import InProcessRunner
from tests.seed_sources import LAB05_SOLUTION

SUBMISSIONS = Path(__file__).resolve().parent.parent / "submissions"


def _games(assignment: Assignment, source: str, check_id: str, **params: object) -> CheckResult:
    check = next(c for c in assignment.checks if c.id == check_id)
    check = dataclasses.replace(check, params=dataclasses.replace(check.params, **params))
    runner = InProcessRunner(source)
    ctx = CheckContext.of(assignment, runner, frozenset(runner.defined_names()))
    return run_check(check, ctx)


def _code_without_input(notebook: Path) -> str:
    cells = nbformat.read(notebook, as_version=4).cells
    return "\n".join(c.source for c in cells if c.cell_type == "code" and "input(" not in c.source)


def test_an_optimal_opponent_punishes_what_a_random_one_lets_pass() -> None:
    experiment04 = load_assignment("experiment04")
    wrong_turn = _code_without_input(SUBMISSIONS / "experiment04" / "best-move-wrong-turn.ipynb")
    lenient = _games(experiment04, wrong_turn, "never-loses", opponent="random", games=10, seed=2)
    strict = _games(experiment04, wrong_turn, "never-loses", opponent="optimal", games=3, seed=2)
    assert lenient.status == CheckStatus.PASSED and lenient.figures["tally"]["Opponent"] == 0
    assert strict.status == CheckStatus.FAILED
    # The first loss decides: the games after it are not played.
    assert strict.figures["tally"] == {"AI": 0, "Opponent": 1, "Draw": 0} and strict.figures["played"] == 1
    assert "lost game 1 of 3" in strict.message and "the other 2 games were not played" in strict.message
    counterexample = strict.counterexample
    assert counterexample is not None and counterexample.board is not None
    board = Board.from_string(counterexample.board)
    assert board.winners() == {"O"}
    assert "an optimal opponent" in counterexample.actual
    # the game as the report draws it: one board after each move, ending on the lost position
    game = strict.detail
    assert isinstance(game, PlayedGame)
    boards, moves = game.boards, game.moves
    assert len(boards) == len(moves) == 9 - board.cells.count(".")
    assert boards[-1] == counterexample.board
    assert all(sum(c != "." for c in b) == n for n, b in enumerate(boards, start=1))


def test_a_correct_ai_draws_every_game_against_an_optimal_opponent() -> None:
    lab05 = load_assignment("lab05")
    result = _games(lab05, LAB05_SOLUTION, "random-opponent", opponent="optimal", games=4, seed=7)
    assert result.status == CheckStatus.PASSED, result.message
    assert result.figures["tally"] == {"AI": 0, "Opponent": 0, "Draw": 4}
    assert result.figures["opponent"] == "optimal"


def test_the_optimal_opponent_still_varies_its_games() -> None:
    """Seeded choices among the optimal moves: not one game played over and over, and every
    game a draw (a correct AI against an optimal opponent)."""
    experiment04 = load_assignment("experiment04")
    runner = InProcessRunner(_code_without_input(experiment04.solution_path))
    ctx = CheckContext.of(experiment04, runner, frozenset(runner.defined_names()))
    check = next(c for c in experiment04.checks if c.id == "never-loses")
    params = dataclasses.replace(check.params, opponent="optimal")
    rng = random.Random(params.seed)
    games = [play_game(ctx, params, ctx.student_for(params), rng) for _ in range(4)]
    assert [g.tally_key(params.ai) for g in games if g.finished] == ["Draw"] * 4
    assert len({g.moves for g in games}) == 4
    assert all(len(g.boards) == len(g.moves) and g.boards[-1] == str(g.final) for g in games)


def test_one_game_left_unplayed_is_named_in_the_singular() -> None:
    experiment04 = load_assignment("experiment04")
    wrong_turn = _code_without_input(SUBMISSIONS / "experiment04" / "best-move-wrong-turn.ipynb")
    result = _games(experiment04, wrong_turn, "never-loses", opponent="optimal", games=2, seed=2)
    assert result.status == CheckStatus.FAILED and result.figures["played"] == 1
    assert "the other game was not played" in result.message
    assert "lost game 1 of 2" in result.message
