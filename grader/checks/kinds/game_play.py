"""Games against a fixed-depth opponent on a game other than tic-tac-toe (`game-opponent`).

The student's move function plays whole games against the reference's alpha-beta at a fixed
depth with a heuristic of the course's choosing, from the empty board with the student first,
and after each first move of the opponent with the student second. The games are played in
step: each ply of every game still going is one batch of calls. The student's move must always
be a legal column, and (``must_not_lose``) no game may end in the opponent's win.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from grader.check_notes import Cause
from grader.checks.context import CheckContext
from grader.checks.game_cases import GameCase, case_counterexample, game_view
from grader.checks.kind import CheckKind
from grader.checks.properties import Mismatch
from grader.results import CheckResult, CheckStatus
from grader.spec.call_template import CallTemplate
from grader.spec.model import Check
from reference.connect4 import ConnectK, ConnectState
from reference.connect_heuristics import CentreColumn, CentrePreference, OpenWindows
from reference.game_search import GameSearchSpec, alphabeta_search
from reference.tictactoe import opponent

OpponentHeuristic = Literal["open-windows", "centre-preference", "centre-column"]
_HEURISTICS: dict[str, Callable[[ConnectK], Callable[[Any, str], float]]] = {
    "open-windows": OpenWindows,
    "centre-preference": CentrePreference,
    "centre-column": CentreColumn,
}


@dataclass(frozen=True)
class GameOpponentParams:
    """The student's move function plays games against the reference's alpha-beta at a fixed depth: from the empty
    board as the first player, and after each first move of the opponent as the second. Every move must be a legal
    column; with ``must_not_lose``, no game may be lost."""

    call: CallTemplate
    """The call, e.g. ``best_move(board, to_move)``: it answers a column for the side to move."""
    opponent_depth: int = 1
    """The plies the opponent's alpha-beta searches."""
    opponent_heuristic: OpponentHeuristic = "open-windows"
    """How the opponent scores the positions at its depth limit (`reference.connect_heuristics`)."""
    must_not_lose: bool = True
    """A game the opponent wins fails the check; False: only illegal moves do."""


def _opponent_move(game: ConnectK, state: ConnectState, params: GameOpponentParams) -> int:
    spec = GameSearchSpec(
        depth_limit=params.opponent_depth, evaluate=_HEURISTICS[params.opponent_heuristic](game), win_value=10**9
    )
    move = alphabeta_search(game, state, spec).best_move
    assert move is not None
    return move


def _game_opponent(check: Check[GameOpponentParams], ctx: CheckContext) -> CheckResult:
    params = check.params
    view = game_view(ctx)
    game = view.game
    student = ctx.student(params.call)
    first = game.first_player
    # (the student's side, the moves so far); the opponent opens each game the student answers.
    games: list[tuple[str, tuple[int, ...]]] = [(first, ())]
    games += [(opponent(first), (col,)) for col in game.actions(game.initial_state())]
    played: dict[int, tuple[int, ...]] = dict(enumerate(moves for _, moves in games))
    failure: tuple[GameCase, Mismatch, str] | None = None
    going = set(played)
    while going and failure is None:
        # The opponent's replies first, then one batch of the student's moves.
        for n in sorted(going):
            side, _ = games[n]
            state = GameCase(game, played[n]).state
            if not game.is_terminal(state) and game.to_move(state) != side:
                played[n] = (*played[n], _opponent_move(game, state, params))
        going = {n for n in going if not game.is_terminal(GameCase(game, played[n]).state)}
        asking = sorted(going)
        answers = student.ask_many((played[n], view.placeholders(GameCase(game, played[n]).state)) for n in asking)
        for n, answer in zip(asking, answers):
            case = GameCase(game, played[n])
            legal = game.actions(case.state)
            move = answer.value if answer.ok else None
            if not (isinstance(move, int) and not isinstance(move, bool) and move in legal):
                wanted = f"a column with room: one of {', '.join(map(str, legal))}"
                mismatch = Mismatch(answer.call_text, wanted, answer.given())
                failure = (case, mismatch, "an illegal move")
                break
            played[n] = (*played[n], move)
        going = {n for n in going if not game.is_terminal(GameCase(game, played[n]).state)}
    results = {"won": 0, "drawn": 0, "lost": 0}
    if failure is None:
        for n, (side, _) in enumerate(games):
            state = GameCase(game, played[n]).state
            outcome = game.utility(state, side)
            results["won" if outcome > 0 else "lost" if outcome < 0 else "drawn"] += 1
            if outcome < 0 and params.must_not_lose and failure is None:
                case = GameCase(game, played[n])
                mismatch = Mismatch(
                    student.describe(view.placeholders(case.state)),
                    f"no loss against a depth-{params.opponent_depth} opponent",
                    f"lost as {side}: columns {' '.join(map(str, played[n]))}",
                )
                failure = (case, mismatch, f"a lost game as {side}")
    figures = {"games": len(games), **results}
    if failure is None:
        return CheckResult.for_check(
            check,
            CheckStatus.PASSED,
            f"Played {len(games)} games against a depth-{params.opponent_depth} opponent: "
            f"{results['won']} won, {results['drawn']} drawn, none lost",
            figures=figures,
        )
    case, mismatch, what = failure
    return CheckResult.for_check(
        check,
        CheckStatus.FAILED,
        f"{what[0].upper()}{what[1:]} against a depth-{params.opponent_depth} opponent, in the game "
        f"{' '.join(map(str, case.moves)) or '(the first move)'}",
        counterexample=case_counterexample(case, mismatch),
        figures=figures,
        cause=Cause("local", "the drawing shows the game's end: the opponent's last move made its line")
        if what.startswith("a lost")
        else None,
    )


GAME_OPPONENT = CheckKind("game-opponent", GameOpponentParams, _game_opponent, any_game=True)
