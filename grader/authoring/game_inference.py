"""A draft for a solution of Connect Four (any rows x cols, k in a line): the ``[game]`` table and
the game-* checks, each role found by what the function answers.

The board's encoding comes first (`grader.authoring.game_encoding`; for a board held by an
object, its class's methods read as functions of it, `grader.authoring.game_object`), then how many in a line
win: the k under which some function of the board answers every finished game's winner, or ends
it, four when none does. Then the roles (`grader.authoring.game_roles_connect`). A search's
shape is read from its answers; what its count is (the calls of the heuristic, or the number it
returns), whether it prunes and how progressive deepening adds up its evaluations are read by
running each check that could fit against the solution, cheapest reading first, and keeping the
first the solution passes. A move function's depth is the one at which a search of the solution
evaluates as many positions as it does.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from grader.authoring.api import Api
from grader.authoring.discovery import Discovered, Function
from grader.authoring.draft import Draft, DraftCheck, call, slug
from grader.authoring.game_encoding import BoardReading, read_board
from grader.authoring.game_object import HeldReading, read_held, undo_check
from grader.authoring.game_roles_connect import (
    Heuristic,
    MoveFunction,
    Predicate,
    Search,
    read_board_questions,
    read_predicates,
    read_searches,
    read_two_slot,
    win_scoring,
)
from grader.authoring.own_solution import candidate_passes
from grader.checks.context import CallRunner
from grader.checks.kinds.game_board import GamePredicateParams, GameSuccessorParams
from grader.checks.kinds.game_heuristic import HeuristicParams
from grader.checks.kinds.game_play import GameOpponentParams, OpponentHeuristic
from grader.checks.kinds.game_search import CountSource, GameSearchParams
from grader.execution.channel.call_data import Call
from grader.execution.session import NotebookSession
from grader.spec.call_template import Placeholder
from grader.spec.tables import AssignmentTable
from reference.connect4 import ConnectK
from reference.connect_endings import play

_KS = (4, 3, 5)
DEEPENING_COUNTS: tuple[Literal["running-total", "each-depth"], ...] = ("running-total", "each-depth")
_ROLE_OF_EXPECT = {
    "winner": "win-test",
    "terminal": "terminal-test",
    "legal-moves": "moves",
    "wins": "win-test",
    "has-room": "column-test",
    "open-row": "landing-row",
    "full": "full-test",
}
_PROBE_CALL_SECONDS = 10.0


@dataclass(frozen=True)
class GameDraft:
    draft: Draft
    reading: BoardReading
    game: ConnectK


def game_table(reading: BoardReading, game: ConnectK) -> dict[str, Any]:
    """The ``[game]`` table: the size, and the encoding as a preset or field by field."""
    table: dict[str, Any] = {"name": "connect-four", "rows": game.rows, "cols": game.cols, "k": game.k}
    encoding = reading.encoding
    if encoding.name:
        return {**table, "encoding": encoding.name}
    fields = {"layout": encoding.layout, "container": encoding.container, "empty": encoding.empty}
    fields |= {"x": encoding.x, "o": encoding.o, "top_row_first": encoding.top_row_first}
    return {**table, "encoding": "grid-space", **fields}


@dataclass(frozen=True)
class GameBoard:
    """A Connect-Four board read from the solution's answers: by its functions, or held by its
    object (``held``, whose methods are then among ``functions``)."""

    board: BoardReading
    held: HeldReading | None
    functions: tuple[Function, ...]
    """The solution's functions, the holding object's methods among them."""


def read_game_board(runner: CallRunner, discovered: Discovered, literals: Iterable[str]) -> GameBoard | str:
    """The Connect-Four board the solution plays on, or why none was read."""
    every = [f for f in discovered.functions if f.owner is None]
    reading = read_board(runner, every, literals)
    if not isinstance(reading, str):
        return GameBoard(reading, None, tuple(every))
    on_object = read_held(runner, discovered, literals)
    if isinstance(on_object, str):
        return f"{reading}; {on_object}" if on_object else reading
    return GameBoard(on_object.reading, on_object, (*every, *on_object.methods))


def infer_game(
    session: NotebookSession, discovered: Discovered, literals: Iterable[str], api: Api, read: GameBoard | None = None
) -> GameDraft | str:
    """The draft of a Connect-Four assignment, or why the solution is not one init can read.
    ``api``: the course's functions (`grader.authoring.api`). The board is read from any
    function of the solution (unless ``read`` already); the roles only from the API's, the
    only ones given checks."""
    runner = session.calls
    played = read_game_board(runner, discovered, literals) if read is None else read
    if isinstance(played, str):
        return played
    board, held = played.board, played.held
    functions = [f for f in played.functions if api.admits(f.name)]
    # the boards the functions are asked about: the course's object holding them, when it has one
    encoding = board.encoding if held is None else held.probing
    game, predicates = ConnectK(encoding.rows, encoding.cols, 4), []
    for k in _KS:
        if k > max(encoding.rows, encoding.cols):
            continue
        candidate = ConnectK(encoding.rows, encoding.cols, k)
        found = read_predicates(runner, functions, candidate, encoding)
        found += read_board_questions(runner, _without(functions, found), candidate, encoding)
        if any(p.expect in ("winner", "terminal", "wins") for p in found):
            game, predicates = candidate, found
            break
    else:
        predicates = read_predicates(runner, functions, game, encoding)
        predicates += read_board_questions(runner, _without(functions, predicates), game, encoding)
    functions = _without(functions, predicates)  # a board test is no heuristic, move function or search
    draft = Draft()
    draft.api = api.comment(f.name for f in discovered.functions)
    draft.game = game_table(board, game) | ({} if held is None else held.game_fields())
    draft.game_evidence = board.evidence
    # the functions the others are built on first: a mistake in one is then stood in for in their checks
    for predicate in sorted(predicates, key=lambda p: _BUILT_ON.index(p.expect)):
        draft.add_check(_predicate_check(predicate))
    successor = board.successor
    draft.add_check(
        DraftCheck(
            slug(successor.function),
            "successor",
            f"{successor.function} drops a piece"
            + (", the board given left alone" if successor.returns == "new-board" else " into the board given"),
            "game-successor",
            GameSuccessorParams(call(successor.call_text), successor.returns, answers=successor.answers),
            board.evidence,
        )
    )
    if held is not None and held.undo is not None:
        draft.add_check(undo_check(held.undo, board.evidence, held.undo_answers))
    reading = dataclasses.replace(board, encoding=encoding)  # the searches are asked on the object too
    heuristics, movers = read_two_slot(runner, functions, game, encoding)
    heuristic = min(heuristics, key=lambda h: h.constant, default=None)  # one always 0 judges no search
    if heuristic is not None:
        params = HeuristicParams(
            call(heuristic.call_text), heuristic.zero_without_lines, heuristic.antisymmetric, heuristic.swap_symmetric
        )
        said = [f"answers a number for either side on {heuristic.asked // 2} games in progress"]
        said += ["zero where no line holds one side's pieces"] if heuristic.zero_without_lines else []
        said += ["minus for the other side"] if heuristic.antisymmetric else []
        said += ["the same for the other side with the pieces swapped"] if heuristic.swap_symmetric else []
        draft.add_check(
            DraftCheck(
                slug(heuristic.function),
                "evaluate",
                f"{heuristic.function}: a number for either side",
                "heuristic",
                params,
                f"{heuristic.function}: {', '.join(said)}",
            )
        )
    searches = read_searches(runner, functions, game, encoding) if heuristic is not None else []
    spec_of = _Validator(session, draft)
    for search in searches:
        assert heuristic is not None  # searches are read only under a heuristic
        # one that always plays one side (told by a flag) is read as playing each side in turn
        sides: tuple[Literal["either", "X", "O"], ...] = ("X", "O") if search.flagged else ("either",)
        check = next(
            (c for side in sides if (c := _search_check(runner, spec_of, search, heuristic, game, reading, side))),
            None,
        )
        if check is not None:
            draft.add_check(check)
        else:
            draft.notes.append(f"`{search.call_text}` answers as a search, but no reading of it passes its own check")
    judged = [c for c in draft.checks if c.kind == "game-search" and not c.params.deepening]
    for mover in movers:
        for check in _move_checks(runner, spec_of, mover, heuristic, judged, game, reading):
            draft.add_check(check)
    draft.checks = [c for c in draft.checks if all(api.admits(t) for t in _called(c))]
    return GameDraft(draft, board, game)


_BUILT_ON: tuple[str, ...] = ("wins", "winner", "has-room", "open-row", "full", "legal-moves", "terminal")
"""The order of the board tests' checks: a win test and a column's room before the legal moves
and the game's end, which courses build on them."""

_SAYS = {
    "winner": "the winner, in all four directions",
    "wins": "whether a side has won, in all four directions",
    "has-room": "whether a column has room",
    "open-row": "the row a piece lands in",
    "terminal": "over once won or full",
    "legal-moves": "the columns with room",
    "full": "whether every column is full",
}


def _without(functions: Sequence[Function], predicates: Iterable[Predicate]) -> list[Function]:
    """The functions that have no board test's role among ``predicates``."""
    taken = {p.function for p in predicates}
    return [f for f in functions if f.name not in taken]


def _predicate_check(predicate: Predicate) -> DraftCheck:
    name = predicate.function
    params = GamePredicateParams(call(predicate.call_text), predicate.expect, ordered=predicate.ordered)
    why = (
        f"{name}: answers {predicate.expect} on all {predicate.asked} positions "
        "(finished games of every outcome and games in progress)"
    )
    title = f"{name}: {_SAYS[predicate.expect]}" + (", left to right" if predicate.ordered else "")
    return DraftCheck(slug(name), _ROLE_OF_EXPECT[predicate.expect], title, "game-predicate", params, why)


def _called(check: DraftCheck) -> list[str]:
    params = check.params
    names = [params.call.function]
    heuristic = getattr(params, "heuristic", None)
    if heuristic is not None:
        names.append(heuristic.function)
    return names


class _Validator:
    """Runs one candidate check against the solution, in the kernel it was probed in."""

    def __init__(self, session: NotebookSession, draft: Draft) -> None:
        self.session = session
        self.draft = draft

    def passes(self, check: DraftCheck) -> bool:
        table = AssignmentTable(id="draft", title="draft", call_timeout=_PROBE_CALL_SECONDS)
        return candidate_passes(self.session, check, self.draft.game, table)


def _search_check(
    runner: CallRunner,
    validator: _Validator,
    search: Search,
    heuristic: Heuristic,
    game: ConnectK,
    reading: BoardReading,
    side: Literal["either", "X", "O"],
) -> DraftCheck | None:
    """The first reading of ``search`` as playing ``side`` that its own check passes."""
    scoring = win_scoring(runner, search, game, reading.encoding, "O" if side == "O" else "X")
    if scoring is None:
        return None
    win, bonus = scoring
    counts: CountSource = "returned" if search.returns.endswith("evaluations") else "heuristic-calls"
    base = GameSearchParams(
        call(search.call_text),
        call(heuristic.call_text),
        search.returns,
        depth_limits=(3,) if search.deepening else (1, 2, 3),
        count=counts,
        win=win,
        win_bonus=bonus,
        deepening=search.deepening,
        include=_includes(game, side),
        to_move=side,
    )
    if search.deepening:
        variants = [
            dataclasses.replace(base, prune=p, deepening_counts=d) for p in (True, False) for d in DEEPENING_COUNTS
        ]
    else:
        variants = [dataclasses.replace(base, prune=p) for p in (False, True)]
    name = search.function
    for params in variants:
        what = "progressive deepening" if params.deepening else ("alpha-beta" if params.prune else "minimax")
        role = (
            "alpha-beta"
            if params.prune and not params.deepening
            else ("minimax" if not params.deepening else "deepening")
        )
        counted = {"returned": "the evaluations it returns", "heuristic-calls": f"the calls of {heuristic.function}"}[
            counts
        ]
        title = f"{name}: {what}'s values, moves and evaluations under your heuristic"
        why = (
            f"{name}: answers ({search.returns}) at depths 1 and 2; a win one move away is worth {win:g}"
            + (" plus the plies left" if bonus == "plies-left" else "")
            + f"; passes as {what}, {counted} counted"
            + (f", playing {side} alone (the flag True: {side} to move)" if side != "either" else "")
            + (f", {params.deepening_counts}" if params.deepening else "")
        )
        check = DraftCheck(slug(name), role, title, "game-search", params, why)
        if validator.passes(check):
            return check
    return None


def _includes(game: ConnectK, side: str = "either") -> tuple[str, ...]:
    """Openings always searched: a threat in the bottom row, its answer, a centre column; for a
    search that plays one side, those where it is to move, and the answer to a centre opening."""
    mid = game.cols // 2
    wanted = [
        (mid, mid, mid + 1, mid + 1, mid + 2, mid + 2),
        (mid, mid, mid + 1, mid + 1),
        (mid, mid, mid + 1, mid + 1, mid - 1),
        (mid, mid, mid + 1),
    ]
    if side == "either":
        wanted = wanted[:3]
    else:
        wanted = [moves for moves in wanted if len(moves) % 2 == (side == "O")]
    return tuple("".join(map(str, moves)) for moves in wanted if max(moves) < min(game.cols, 10) and min(moves) >= 0)


def _move_checks(
    runner: CallRunner,
    validator: _Validator,
    mover: MoveFunction,
    heuristic: Heuristic | None,
    searches: Sequence[DraftCheck],
    game: ConnectK,
    reading: BoardReading,
) -> list[DraftCheck]:
    """The games against a depth-1 opponent, and the search at the depth the move function's
    evaluations match, when a search of the solution shows it."""
    name = mover.function
    text = mover.call_text.replace("player", "to_move")
    checks = []
    opponents: tuple[OpponentHeuristic, ...] = ("centre-preference", "open-windows")
    for opponent in opponents:
        played = GameOpponentParams(call(text), 1, opponent)
        why = f"{name}: answers a column with room for either side; never loses to a depth-1 alpha-beta ({opponent})"
        check = DraftCheck(
            f"{slug(name)}-versus-depth-1",
            "never-loses",
            f"{name} never loses to a depth-1 opponent",
            "game-opponent",
            played,
            why,
        )
        if validator.passes(check):
            checks.append(check)
            break
    depth = _depth_of(runner, mover, heuristic, searches, game, reading) if heuristic is not None else None
    if depth is not None and heuristic is not None:
        depth_value, like = depth
        params = dataclasses.replace(
            like, call=call(text), returns="move", depth_limits=(depth_value,), count="none", examples=4, include=()
        )
        why = (
            f"{name}: evaluates as many positions as {like.call.function} at depth {depth_value}, "
            f"judged as it is ({'alpha-beta' if like.prune else 'minimax'}, a win worth {like.win:g}"
            + (" plus the plies left)" if like.win_bonus == "plies-left" else ")")
        )
        check = DraftCheck(
            slug(name), "best-move", f"{name}: the first best column at depth {depth_value}", "game-search", params, why
        )
        if validator.passes(check):
            checks.append(check)
    return checks


def _depth_of(
    runner: CallRunner,
    mover: MoveFunction,
    heuristic: Heuristic,
    searches: Sequence[DraftCheck],
    game: ConnectK,
    reading: BoardReading,
) -> tuple[int, GameSearchParams] | None:
    """The depth at which a search of the solution makes as many calls of the heuristic as the
    move function does from the same position, and that search's check's parameters."""
    encoding = reading.encoding
    state = play(game, (game.cols // 2,))
    board, mark = encoding.encode(state), encoding.symbol(game.to_move(state))
    values = {"board": board, "player": mark, "to_move": mark}
    count = (heuristic.function,)
    (moved,) = runner.call_many(
        [Call(mover.function, tuple(values[s] for s in mover.slots), count=count, timeout=_PROBE_CALL_SECONDS)]
    )
    made = moved.counts.get(heuristic.function) if moved.ok else None
    if not made:
        return None
    for search in searches:
        template = search.params.call
        for depth in range(1, 7):
            values["depth_limit"] = depth
            args = tuple(values[a.name] if isinstance(a, Placeholder) else a for a in template.target.args)
            (outcome,) = runner.call_many([Call(template.function, args, count=count, timeout=_PROBE_CALL_SECONDS)])
            evaluated = outcome.counts.get(heuristic.function) if outcome.ok else None
            if evaluated == made:
                return depth, search.params
            if evaluated is not None and evaluated > made and not search.params.prune:
                break  # a full search evaluates more positions a ply deeper: it cannot come back to `made`
    return None
