"""Board functions of a game other than tic-tac-toe, judged against the game itself: who has
won, whether the game is over, the legal moves, whether a side has a line, a column's room and
open row, a finished game's endgame score, the boards one move away (`game-predicate`), and
dropping a piece (`game-successor`). Positions are reached by play; the finished games of every
outcome (a win for each side in each direction, a full board) are always among the first cases."""

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
from reference.tictactoe import EMPTY, O, X, opponent

GameExpect = Literal[
    "winner", "terminal", "legal-moves", "wins", "has-room", "open-row", "endgame-score", "next-boards", "full"
]
_BY_PLAYER: tuple[GameExpect, ...] = ("wins",)
"""Expectations asked of each side's mark, in ``player``."""
_BY_COLUMN: tuple[GameExpect, ...] = ("has-room", "open-row")
"""Expectations asked of columns, in ``move``: every column, or (open-row) those with room."""
_BY_MAXIMIZER: tuple[GameExpect, ...] = ("endgame-score",)
"""Expectations asked with ``is_max`` True and False: the side to move maximizes, or the other side."""


@dataclass(frozen=True)
class GamePredicateParams:
    """A board function of the assignment's game judged against the game on positions reached by play (random and
    heuristic playouts of every length), after a finished game of every outcome: a win for each side in each of the
    four directions, at both edges of the board, and a full board."""

    call: CallTemplate
    """The call, e.g. ``winner(board)``; ``board``, ``to_move``, ``player`` and ``is_max`` are filled in (``player``
    with each side's mark for wins; ``is_max`` True and False in turn for endgame-score, else whether ``player`` is
    the side to move), and ``move`` with each column for has-room and open-row."""
    expect: GameExpect = "winner"
    """What it answers: winner (the winner's mark, or None, False or the empty mark for nobody), terminal (True once
    the game is won or the board full), legal-moves (the columns with room, in any container), wins (True when
    ``player`` has a line, e.g. ``winning_move(board, player)``; None is read as False), has-room (True when column
    ``move`` has an empty cell, e.g. ``is_valid_location(board, move)``), open-row (the row, as the board's rows are
    indexed, a piece dropped into column ``move`` lands in, e.g. ``get_next_open_row(board, move)``; asked of the
    columns with room), endgame-score (a finished game's value for the maximizer, ``win``, ``-win`` or 0: ``is_max``
    says whether the side to move maximizes, else the other side does; asked on finished games only, with each),
    next-boards (the boards one move away, column by column, none once the game is over), full (True when no column
    has room, won or not, e.g. ``is_full(board)``)."""
    ordered: bool = False
    """legal-moves only: the columns must come left to right."""
    win: float = 1000
    """endgame-score only: what a won game is worth to the maximizer."""
    examples: Count | None = None
    """Positions drawn beyond the first cases; default: the assignment's ``hypothesis_examples``."""


def _asked(game: Any, expect: GameExpect, case: GameCase) -> tuple[Any, ...]:
    """What each position is asked with beside the board: each side, each column, or nothing."""
    if expect in _BY_PLAYER:
        return (X, O)
    if expect in _BY_MAXIMIZER:
        return (True, False)
    if expect == "has-room":
        return tuple(range(game.cols))
    if expect == "open-row":
        return tuple(col for col in range(game.cols) if case.state.height(col) < game.rows)
    return (None,)


def _predicate(check: Check[GamePredicateParams], ctx: CheckContext) -> CheckResult:
    params = check.params
    view = game_view(ctx)
    game = view.game
    student = ctx.student(params.call)
    expect = params.expect
    finished = expect != "legal-moves"
    first = [(case, extra) for case in view.first_cases(finished=finished) for extra in _asked(game, expect, case)]
    cases: st.SearchStrategy[tuple[GameCase, Any]] = st.tuples(view.strategy(finished=finished), st.none())
    if expect in _BY_PLAYER or expect in _BY_COLUMN:
        cases = (
            view.strategy(finished=finished)
            .filter(lambda case: bool(_asked(game, expect, case)))
            .flatmap(lambda case: st.tuples(st.just(case), st.sampled_from(_asked(game, expect, case))))
        )
    if expect == "endgame-score":  # finished games alone: played until the game ends
        first = [(case, extra) for case, extra in first if game.is_terminal(case.state)]
        cases = st.tuples(view.strategy(min_plies=game.rows * game.cols), st.sampled_from((True, False)))

    def values(case: GameCase, extra: Any) -> dict[str, Any]:
        if expect in _BY_PLAYER:
            return view.placeholders(case.state, player=view.mark(extra))
        if expect in _BY_MAXIMIZER:
            return view.placeholders(case.state, is_max=extra)
        return view.placeholders(case.state, move=extra) if expect in _BY_COLUMN else view.placeholders(case.state)

    def judge(case: GameCase, extra: Any, answer: Answer) -> Mismatch | None:
        state = case.state
        if not answer.ok:
            return Mismatch(answer.call_text, _expected_text(view, case, expect, extra), answer.given())
        if expect == "winner":
            winners = game.winners(state)
            expected = next(iter(winners)) if winners else None
            raw = answer.value
            got = view.player_of(raw)
            nobody = got is None and (raw is None or raw is False or raw == view.setup.encoding.empty)
            if (expected is None and nobody) or (expected is not None and got == expected):
                return None
            cause = _winner_cause(view, case, expected)
            return Mismatch(answer.call_text, _expected_text(view, case, "winner"), repr(raw), cause)
        if expect in ("terminal", "wins", "has-room", "full"):
            truth = _truth(view, case, expect, extra)
            said = False if expect == "wins" and answer.value is None else _boolean(answer.value)
            if said is truth:
                return None
            cause = (
                _winner_cause(view, case, next(iter(game.winners(state)), None))
                if expect in ("terminal", "wins")
                else None
            )
            if expect == "full" and game.winners(state) and not truth:
                cause = "a side has won, but columns still have room: the board is not full"
            if cause is None and expect == "terminal" and not game.winners(state) and not game.actions(state):
                cause = "the board is full and nobody has a line: the game is over, a tie"
            return Mismatch(answer.call_text, repr(truth), repr(answer.value), cause)
        if expect == "endgame-score":
            return _judge_score(view, case, answer, params.win, is_max=extra)
        if expect == "next-boards":
            return _judge_next(view, case, answer)
        if expect == "open-row":
            return _judge_row(view, case, extra, answer)
        return _judge_moves(view, case, answer, ordered=params.ordered)

    prop = GameProperty(cases=cases, values=values, judge=judge, first=first, examples=params.examples)
    outcome = run_game_property(check, ctx, student, prop)
    seen = "finished games of every outcome and " if finished else ""
    return game_result(check, outcome, f"Agrees with the game on {seen}{outcome.tried} positions in all")


def _boolean(value: Any) -> bool | None:
    """True or False as the student's code answered it (numpy's bools included), else None."""
    if isinstance(value, bool) or type(value).__name__ == "bool_":
        return bool(value)
    return None


def _truth(view: GameView, case: GameCase, expect: GameExpect, extra: Any) -> bool:
    game, state = view.game, case.state
    if expect == "terminal":
        return game.is_terminal(state)
    if expect == "full":
        return all(state.height(col) >= game.rows for col in range(game.cols))
    if expect == "wins":
        return extra in game.winners(state)
    return bool(state.height(extra) < game.rows)


def _judge_row(view: GameView, case: GameCase, col: int, answer: Answer) -> Mismatch | None:
    wanted = view.landing_row(case.state, col)
    raw = answer.value
    if isinstance(raw, int) and not isinstance(raw, bool) and raw == wanted:
        return None
    cause = None
    if isinstance(raw, int) and not isinstance(raw, bool) and raw == view.game.rows - 1 - wanted:
        cause = "that row counts from the other end of the board: a piece falls to the lowest empty cell"
    return Mismatch(answer.call_text, repr(wanted), repr(raw), cause)


def _expected_text(view: GameView, case: GameCase, expect: str, extra: Any = None) -> str:
    game, state = view.game, case.state
    if expect in ("wins", "has-room", "full"):
        return repr(_truth(view, case, expect, extra))  # type: ignore[arg-type]
    if expect == "open-row":
        return repr(view.landing_row(state, extra))
    if expect == "winner":
        winners = game.winners(state)
        return repr(view.mark(next(iter(winners)))) if winners else "no winner (None)"
    if expect == "terminal":
        return repr(game.is_terminal(state))
    return repr(list(game.actions(state)))


def _judge_score(view: GameView, case: GameCase, answer: Answer, win: float, *, is_max: bool) -> Mismatch | None:
    """A finished game's endgame score for the maximizer: the side to move when ``is_max``, else the other side."""
    game, state = view.game, case.state
    to_move = game.to_move(state)
    maximizer = to_move if is_max else opponent(to_move)
    wanted = win * game.utility(state, maximizer)
    value = number(answer.value)
    if value is not None and math.isclose(value, wanted, abs_tol=1e-9):
        return None
    winners = game.winners(state)
    if winners and wanted != 0 and value == 0 and EMPTY not in state.cells:
        cause = "the last free cell completed a line: a full board with a line is a win, not a tie"
    elif winners:
        cause = f"{next(iter(winners))} has {game.k} in a line: the side that just moved won"
        if not is_max:
            cause += ", and with is_max False the side that just moved is the maximizer"
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


MoveAnswer = Literal["row", "none", "true", "column", "object"]
"""What a course's function or method that makes or takes back a move in place returns."""


@dataclass(frozen=True)
class GameSuccessorParams:
    """Dropping a piece: the board a move leads to equals the game's, on positions reached by play and every legal
    column, and the board given is left or changed as the handout says."""

    call: CallTemplate
    """The call, e.g. ``drop_piece(board, move, to_move)``; ``move`` is the column, and ``row`` the row (as the
    board's rows are indexed) the piece lands in, for a function that is told it: ``drop_piece(board, row, move,
    to_move)``."""
    returns: Literal["new-board", "in-place", "undone"] = "new-board"
    """new-board: it returns the board after the move and leaves the one given unchanged; in-place: it drops the piece
    into the board given (what it returns is not read); undone: it takes back the piece last dropped into column
    ``move`` of the board given, which is the position after that move (``undo_move(board, move)``). With a ``[game]
    board_object``, the board is read from the object's ``board_attribute`` (the returned object's, or the given
    one's), and with a ``turn_attribute`` the side to move is read there too: the other side after a move, the same
    side again once it is taken back."""
    examples: Count | None = None
    """Positions drawn beyond the first cases; default: the assignment's ``hypothesis_examples``."""
    answers: MoveAnswer | None = None
    """For ``in-place`` and ``undone``: what the course's function or method returns (init reads it from the
    solution). Not judged: the reference's move that stands in for a wrong one returns the same, so that a search
    reading it works as with the course's: row: the row the piece landed in (or was taken from); none: None;
    true: True, and False for a full column (or an empty one) without touching the board; column: the column; object:
    the board object. Default: a move returns its row, a take-back None."""

    def __post_init__(self) -> None:
        if self.answers is not None and self.returns == "new-board":
            raise ValueError('answers: give it only with returns = "in-place" or "undone": a new board is the answer')


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

    undone = params.returns == "undone"

    def judge(case: GameCase, col: int, answer: Answer) -> Mismatch | None:
        after = game.result(case.state, col)
        wanted = f"the board after dropping {game.to_move(case.state)} into column {col}"
        if undone:
            wanted = f"the board before {game.to_move(case.state)}'s piece in column {col}, taken back"
        if not answer.ok:
            return Mismatch(answer.call_text, wanted, answer.given())
        held = student.board_after(answer.outcome)
        given_after = view.held_board(held)  # a board object: its board's attribute
        if params.returns != "new-board":
            now = case.state if undone else after
            wrong = _same_board(encoding, given_after, now, answer, wanted + ", in the board given")
            return wrong or _same_turn(view, held, now, answer)
        wrong = _same_board(encoding, view.held_board(answer.value), after, answer, wanted + ", returned")
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

    def values(case: GameCase, col: int) -> dict[str, Any]:
        if undone:  # asked on the position after the move, to take it back
            return view.placeholders(game.result(case.state, col), move=col)
        return view.placeholders(case.state, move=col, row=view.landing_row(case.state, col))

    prop = GameProperty(
        cases=items, values=values, judge=judge, first=first, examples=params.examples, changes_board=True
    )
    outcome = run_game_property(check, ctx, student, prop)
    done = "Takes the piece back as the game was before" if undone else "Drops the piece where the game does"
    return game_result(check, outcome, f"{done}, on {outcome.tried} moves")


def _same_turn(view: GameView, held: Any, state: Any, answer: Answer) -> Mismatch | None:
    """With a ``[game] turn_attribute``: the side to move the board object says, against the game's."""
    if not view.setup.turn_attribute:
        return None
    wanted = view.game.to_move(state)
    if view.held_turn(held) == wanted:
        return None
    shown = repr(getattr(held, view.setup.turn_attribute, None))
    return Mismatch(
        answer.call_text,
        f"{view.mark(wanted)!r} to move ({view.setup.turn_attribute})",
        shown,
        f"the board is right, but the side to move is not: {view.setup.turn_attribute} must say {wanted} moves next",
    )


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
