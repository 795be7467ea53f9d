"""Board functions of a game other than tic-tac-toe, judged against the game itself: who has
won, whether the game is over, the legal moves (`game-predicate`), and dropping a piece
(`game-successor`). Positions are reached by play; the finished games of every outcome (a
win for each side in each direction, a full board) are always among the first cases."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Literal

from hypothesis import strategies as st

from grader.checks.answers import Answer
from grader.checks.context import CheckContext
from grader.checks.game_cases import GameCase, GameView, game_view, line_direction
from grader.checks.game_property import GameProperty, game_result, run_game_property
from grader.checks.kind import CheckKind
from grader.checks.kinds.game_heuristic import number
from grader.checks.properties import Mismatch
from grader.results import CheckResult
from grader.spec.call_template import CallTemplate
from grader.spec.model import Check, Count
from reference.errors import MalformedBoard
from reference.tictactoe import EMPTY

GameExpect = Literal["winner", "terminal", "legal-moves", "endgame-score", "next-boards"]


@dataclass(frozen=True)
class GamePredicateParams:
    """A board function of the assignment's game judged against the game on positions reached by play (random and
    heuristic playouts of every length), after a finished game of every outcome: a win for each side in each of the
    four directions, at both edges of the board, and a full board."""

    call: CallTemplate
    """The call, e.g. ``winner(board)``; ``board``, ``to_move`` and ``player`` are filled in."""
    expect: GameExpect = "winner"
    """What it answers: winner (the winner's mark, or None, False or the empty mark for nobody), terminal (True once
    the game is won or the board full), legal-moves (the columns with room, in any container), endgame-score (a
    finished game's value for the maximizer, ``win``, ``-win`` or 0: ``is_max`` says whether the side to move
    maximizes; asked on finished games only), next-boards (the boards one move away, column by column, none once
    the game is over)."""
    ordered: bool = False
    """legal-moves only: the columns must come left to right."""
    win: float = 1000
    """endgame-score only: what a won game is worth to the maximizer."""
    examples: Count | None = None
    """Positions drawn beyond the first cases; default: the assignment's ``hypothesis_examples``."""


def _predicate(check: Check[GamePredicateParams], ctx: CheckContext) -> CheckResult:
    params = check.params
    view = game_view(ctx)
    game = view.game
    student = ctx.student(params.call)
    finished = params.expect != "legal-moves"
    first: list[tuple[GameCase, None]] = [(case, None) for case in view.first_cases(finished=finished)]
    cases = st.tuples(view.strategy(finished=finished), st.none())
    if params.expect == "endgame-score":  # finished games alone: played until the game ends
        first = [(case, none) for case, none in first if game.is_terminal(case.state)]
        cases = st.tuples(view.strategy(min_plies=game.rows * game.cols), st.none())

    def judge(case: GameCase, _: None, answer: Answer) -> Mismatch | None:
        state = case.state
        if not answer.ok:
            return Mismatch(answer.call_text, _expected_text(view, case, params.expect), answer.given())
        if params.expect == "winner":
            winners = game.winners(state)
            expected = next(iter(winners)) if winners else None
            raw = answer.value
            got = view.player_of(raw)
            nobody = got is None and (raw is None or raw is False or raw == view.setup.encoding.empty)
            if (expected is None and nobody) or (expected is not None and got == expected):
                return None
            cause = _winner_cause(view, case, expected)
            return Mismatch(answer.call_text, _expected_text(view, case, "winner"), repr(raw), cause)
        if params.expect == "terminal":
            if isinstance(answer.value, bool) and answer.value == game.is_terminal(state):
                return None
            cause = _winner_cause(view, case, next(iter(game.winners(state)), None))
            if cause is None and not game.winners(state) and not game.actions(state):
                cause = "the board is full and nobody has a line: the game is over, a tie"
            return Mismatch(answer.call_text, repr(game.is_terminal(state)), repr(answer.value), cause)
        if params.expect == "endgame-score":
            return _judge_score(view, case, answer, params.win)
        if params.expect == "next-boards":
            return _judge_next(view, case, answer)
        return _judge_moves(view, case, answer, ordered=params.ordered)

    prop = GameProperty(
        cases=cases,
        values=lambda case, _: view.placeholders(case.state),
        judge=judge,
        first=first,
        examples=params.examples,
    )
    outcome = run_game_property(check, ctx, student, prop)
    seen = "finished games of every outcome and " if finished else ""
    return game_result(check, outcome, f"Agrees with the game on {seen}{outcome.tried} positions in all")


def _expected_text(view: GameView, case: GameCase, expect: str) -> str:
    game, state = view.game, case.state
    if expect == "winner":
        winners = game.winners(state)
        return repr(view.mark(next(iter(winners)))) if winners else "no winner (None)"
    if expect == "terminal":
        return repr(game.is_terminal(state))
    return repr(list(game.actions(state)))


def _judge_score(view: GameView, case: GameCase, answer: Answer, win: float) -> Mismatch | None:
    """A finished game's endgame score for the maximizer: the side to move when ``is_max``."""
    game, state = view.game, case.state
    maximizer = game.to_move(state)
    wanted = win * game.utility(state, maximizer)
    value = number(answer.value)
    if value is not None and math.isclose(value, wanted, abs_tol=1e-9):
        return None
    winners = game.winners(state)
    if winners and wanted != 0 and value == 0 and EMPTY not in state.cells:
        cause = "the last free cell completed a line: a full board with a line is a win, not a tie"
    elif winners:
        cause = f"{next(iter(winners))} has {game.k} in a line: the side that just moved won"
    else:
        cause = "the board is full and nobody has a line: a tie"
    return Mismatch(answer.call_text, f"{wanted:g}", repr(answer.value), cause)


def _judge_next(view: GameView, case: GameCase, answer: Answer) -> Mismatch | None:
    """The boards one move away, column by column (none once the game is over)."""
    game, state = view.game, case.state
    wanted = [game.result(state, col) for col in game.actions(state)]
    shown = f"the boards after columns {' '.join(map(str, game.actions(state)))}" if wanted else "no boards: []"
    raw = answer.value
    if not isinstance(raw, (list, tuple)):
        return Mismatch(answer.call_text, shown, repr(raw)[:200], "a list of boards")
    try:
        got = [view.setup.encoding.decode(view.held_board(item)) for item in raw]
    except (MalformedBoard, ValueError, TypeError, IndexError) as problem:
        return Mismatch(answer.call_text, shown, f"not a list of boards: {problem}")
    if got == wanted:
        return None
    if not wanted:
        cause = "the game is over: no move follows"
    elif sorted(map(str, got)) == sorted(map(str, wanted)):
        cause = "the boards must come column by column, from column 0"
    else:
        cause = f"{len(got)} boards for {len(wanted)} columns with room"
    return Mismatch(answer.call_text, shown, f"{len(got)} boards", cause)


def _winner_cause(view: GameView, case: GameCase, expected: str | None) -> str | None:
    if expected is None:
        return None
    found = line_direction(view.game, case.state)
    if found is None:
        return None
    direction, at_edge = found
    edge = " and touches the edge of the board" if at_edge else ""
    return (
        f"{expected} has {view.game.k} in a line here: the line runs {direction}{edge}. "
        f"Check that every direction is tested, and that the loops reach the last row and column."
    )


def _judge_moves(view: GameView, case: GameCase, answer: Answer, *, ordered: bool) -> Mismatch | None:
    expected = list(view.game.actions(case.state))
    raw = answer.value
    if hasattr(raw, "tolist"):
        raw = raw.tolist()
    if not isinstance(raw, (list, tuple, set, frozenset)) or not all(
        isinstance(c, int) and not isinstance(c, bool) for c in raw
    ):
        return Mismatch(answer.call_text, repr(expected), repr(answer.value), "the columns, as whole numbers")
    got = list(raw) if isinstance(raw, (list, tuple)) else sorted(raw)
    if (got if ordered else sorted(got)) == expected and len(got) == len(set(got)):
        return None
    missing = sorted(set(expected) - set(got))
    extra = sorted(set(got) - set(expected))
    edge = [c for c in missing if c in (0, view.game.cols - 1)]
    cause = None
    if edge:
        cause = f"column {edge[0]}, at the edge of the board, has room but is not listed: a range that stops one short?"
    elif extra:
        cause = f"column {extra[0]} is listed but is full (or the game is over)"
    return Mismatch(answer.call_text, repr(expected), repr(answer.value), cause)


GAME_PREDICATE = CheckKind("game-predicate", GamePredicateParams, _predicate, any_game=True)


# -- dropping a piece -----------------------------------------------------------------------------


@dataclass(frozen=True)
class GameSuccessorParams:
    """Dropping a piece: the board a move leads to equals the game's, on positions reached by play and every legal
    column, and the board given is left or changed as the handout says."""

    call: CallTemplate
    """The call, e.g. ``drop_piece(board, move, to_move)``; ``move`` is the column."""
    returns: Literal["new-board", "in-place"] = "new-board"
    """new-board: it returns the board after the move and leaves the one given unchanged; in-place: it drops the piece
    into the board given (what it returns is not read)."""
    examples: Count | None = None
    """Positions drawn beyond the first cases; default: the assignment's ``hypothesis_examples``."""


def _successor(check: Check[GameSuccessorParams], ctx: CheckContext) -> CheckResult:
    params = check.params
    view = game_view(ctx)
    game = view.game
    student = ctx.student(params.call, read_board=True)
    encoding = view.setup.encoding
    openings = [GameCase(game, ()), *[GameCase(game, (c,) * (game.rows - 1)) for c in (0, game.cols - 1)]]
    first = [(case, col) for case in openings for col in game.actions(case.state)]
    cases = view.strategy(finished=False).filter(lambda case: not game.is_terminal(case.state))
    items = cases.flatmap(lambda case: st.tuples(st.just(case), st.sampled_from(game.actions(case.state))))

    def judge(case: GameCase, col: int, answer: Answer) -> Mismatch | None:
        after = game.result(case.state, col)
        wanted = f"the board after dropping {game.to_move(case.state)} into column {col}"
        if not answer.ok:
            return Mismatch(answer.call_text, wanted, answer.given())
        given_after = student.board_after(answer.outcome)
        if params.returns == "in-place":
            return _same_board(encoding, given_after, after, answer, wanted + ", in the board given")
        wrong = _same_board(encoding, answer.value, after, answer, wanted + ", returned")
        if wrong is not None:
            return wrong
        return _same_board(
            encoding,
            given_after,
            case.state,
            answer,
            "the board given left unchanged (a new board returned)",
            cause="the function changed the board it was given: copy it first",
        )

    prop = GameProperty(
        cases=items,
        values=lambda case, col: view.placeholders(case.state, move=col),
        judge=judge,
        first=first,
        examples=params.examples,
    )
    outcome = run_game_property(check, ctx, student, prop)
    return game_result(check, outcome, f"Drops the piece where the game does, on {outcome.tried} moves")


def _same_board(
    encoding: Any, raw: Any, wanted: Any, answer: Answer, expected: str, cause: str | None = None
) -> Mismatch | None:
    try:
        got = encoding.decode(raw)
    except MalformedBoard as problem:
        return Mismatch(answer.call_text, expected, f"not a board: {problem}")
    if got == wanted:
        return None
    return Mismatch(answer.call_text, f"{expected}: {wanted}", str(got), cause)


GAME_SUCCESSOR = CheckKind("game-successor", GameSuccessorParams, _successor, any_game=True)
