"""Searches that take the course's own state object (`state-search`), in MIT 6.034's style:
``minimax_search(state, heuristic_fn, depth_limit, maximize)`` walks an ``AbstractGameState``
(a snapshot bundled with the game's functions) and answers ``(path, score, evaluations)``: the
states from the one searched to the end of the line of play it chose, its value, and the static
evaluations it made.

For each position (the ``include``d ones, then positions reached by play) the kernel makes the
course's state through the course's own classes (the check's ``state``, whose ``board`` is the
``[game] board_object``), and the search is called on it. The reference engine
(`reference.game_search`) walks the same position in the assignment's game under the heuristic
the search is handed (its values on the leaves asked of the student's function, all in one
batch), with the course's tie-break and count. A failure names the smallest position and the
first thing that differs; where the heuristic's calls are logged, the node where the search
first parts from the reference's. Progressive deepening (``deepening``) answers once for each
depth 1..d, each depth judged as a search of that depth, as `game-search` reads such answers
(`grader.checks.game_answers`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any, Literal

from grader.check_details import SearchDivergence
from grader.check_notes import Cause, PositionsTried
from grader.checks.answers import Answer
from grader.checks.context import CheckContext
from grader.checks.game_answers import check_deepening, per_depth
from grader.checks.game_cases import GameCase, GameView, case_counterexample, game_view
from grader.checks.game_divergence import search_divergence
from grader.checks.game_search_causes import root_values
from grader.checks.kind import CheckKind
from grader.checks.kinds.game_search import sampled_positions, search_leaves
from grader.checks.path_answers import ExpectedSearch, PathReference, held_at, judge_path_answer
from grader.checks.properties import Mismatch
from grader.checks.search_params import check_search_call, depths_text, gives_no_number, heuristic_values
from grader.checks.shared_answers import SharedStudentFunction
from grader.execution.channel.call_data import KernelName
from grader.execution.channel.kernel.names import LOG_CAP
from grader.results import CheckResult, CheckStatus
from grader.spec.call_template import CallTemplate
from grader.spec.made_template import MadeTemplate, parse_made
from grader.spec.model import Check, Count
from reference.connect4 import ConnectK, ConnectState
from reference.game_search import (
    GameSearchSpec,
    alphabeta_search,
    best_leaf_search,
    minimax_search,
)
from reference.tictactoe import opponent

SearchName = Literal["minimax", "alphabeta", "best-leaf"]

_STATE_PLACEHOLDERS = frozenset({"board", "to_move", "opponent"})
"""What a ``state`` expression may be given: the board (the course's board object), the sides."""


@dataclass(frozen=True)
class StateSearchParams:
    """A search called on the course's own state object, made in the kernel from each position through the course's
    classes, answering ``(path, score, evaluations)``; judged exactly against the reference engine walking the same
    position under the heuristic the search is handed: the path (the states from the one searched to the end of the
    line of play chosen, the course's tie-break deciding between equal moves), the score and the static evaluations
    (a finished game's endgame score counts as one, as a heuristic's value does)."""

    call: CallTemplate
    """The search, e.g. ``minimax_search(state, heuristic, depth_limit, True)``: ``state`` is the course's state
    made from the position, ``heuristic`` the student's function of ``heuristic``."""
    state: str
    """How the course's state is made, as Python: ``AbstractGameState(board, is_game_over_connectfour,
    next_boards_connectfour, endgame_score_connectfour)``; ``board`` is the board (the ``[game] board_object``),
    other bare names are names the notebook holds (its functions, the course's classes)."""
    heuristic: CallTemplate | None = None
    """The evaluation the search is handed, as it is called on a position at the depth limit:
    ``heuristic_connectfour(board, is_max)``, ``is_max`` whether the side to move there is the maximizer."""
    search: SearchName = "minimax"
    """minimax (its value and path, its count); alphabeta (minimax's value and path, alpha-beta's count, cut off
    when alpha >= beta); best-leaf (the best leaf when the side to move chooses every move: ``dfs_maximizing``,
    each leaf valued for the side to move there, every leaf counted)."""
    depth_limits: tuple[int, ...] = (1, 2, 3)
    """The depth limits each position is searched at."""
    to_the_end: bool = False
    """Searched to the end of the game, with no depth limit (``depth_limits`` is not read)."""
    maximize: bool = True
    """The side to move at the position searched maximizes (the call says so: ``maximize=True``)."""
    tie: Literal["first", "last"] = "first"
    """Of equally good moves, the first in the game's order is kept (a later one replaces the best only when
    strictly better), or the last: the course's solution's rule."""
    win: float = 1000
    """A finished game's endgame score for the maximizer: ``win`` when it won, ``-win`` when it lost, 0 a tie."""
    count_endgames: bool = True
    """A finished game's endgame score counts as a static evaluation (6.034's count); false: only the heuristic's."""
    path_board: str = "snapshot.board_array"
    """Where each state of the answer's path holds its board in the assignment's encoding, as attributes."""
    include: tuple[str, ...] = ()
    """Positions always searched, each the columns played from the empty board (``"3344"``)."""
    min_plies: int = 2
    """The fewest moves played to reach a sampled position."""
    max_plies: int = 14
    """The most moves played to reach a sampled position."""
    examples: Count = 6
    """Positions searched beyond the ``include``d ones, each at every depth limit."""
    deepening: bool = False
    """Progressive deepening: one call at depth limit d answers for every depth 1..d in turn (each depth's search
    as ``search`` says), a list of d answers, the first for depth 1, or an object holding it at ``history``."""
    history: str = ""
    """With ``deepening``: the attribute of the object the call returns that holds the list of answers (MIT 6.034's
    ``AnytimeValue``: ``history``); empty: the call returns the list itself."""
    deepening_counts: Literal["each-depth", "running-total"] = "each-depth"
    """With ``deepening``: each depth's answer counts the evaluations of that depth's search alone (each-depth), or
    all those made since depth 1 (running-total)."""

    def __post_init__(self) -> None:
        self.made_state  # noqa: B018 - parsed here, so that a mistake is reported when the assignment loads
        if self.to_the_end and "depth_limit" in self.call.placeholders:
            raise ValueError("a search to the end of the game has no depth_limit to be given")
        check_search_call(
            self.call,
            self.heuristic,
            heuristic_example="h(board, is_max)",
            to_the_end=self.to_the_end,
            depth_limits=self.depth_limits,
            path_field="path_board",
            path=self.path_board,
        )
        check_deepening(self.deepening, self.history, () if self.to_the_end else self.depth_limits)
        if self.deepening and self.to_the_end:
            raise ValueError("progressive deepening deepens to a depth limit: it cannot search to the end of the game")
        if not 0 <= self.min_plies <= self.max_plies:
            raise ValueError(f"need 0 <= min_plies <= max_plies, not {self.min_plies} and {self.max_plies}")
        for moves in self.include:
            if not moves.isdigit():
                raise ValueError(f'include: {moves!r} is not a string of column digits such as "3344"')

    @cached_property
    def made_state(self) -> MadeTemplate:
        """The ``state`` expression, parsed (a ValueError naming the mistake)."""
        return parse_made(self.state, _STATE_PLACEHOLDERS)

    @property
    def limits(self) -> tuple[int | None, ...]:
        return (None,) if self.to_the_end else self.depth_limits

    def depths(self, limit: int | None) -> tuple[int | None, ...]:
        """The depths one call at ``limit`` answers for: each of 1..limit when deepening."""
        return tuple(range(1, limit + 1)) if self.deepening and limit is not None else (limit,)


def _maximizer(params: StateSearchParams, game: ConnectK, state: ConnectState) -> str:
    mover = game.to_move(state)
    return mover if params.maximize else opponent(mover)


def _expected(
    params: StateSearchParams, game: ConnectK, state: ConnectState, limit: int | None, values: dict[Any, float]
) -> ExpectedSearch:
    def evaluate(node: ConnectState, player: str) -> float:
        if game.is_terminal(node):
            return params.win * game.utility(node, player)
        return values[(node.cells, game.to_move(node) == player)]

    spec = GameSearchSpec(
        depth_limit=limit,
        evaluate=evaluate,
        evaluate_terminals=params.count_endgames,
        win_value=params.win,
        tie=params.tie,
    )
    maximizer = _maximizer(params, game, state)
    if params.search == "best-leaf":
        best = best_leaf_search(game, state, spec)
        return ExpectedSearch(spec, best, best.evaluations, best.evaluations, maximizer)
    best = minimax_search(game, state, spec, player=maximizer)
    if params.search == "minimax":
        return ExpectedSearch(spec, best, best.evaluations, best.evaluations, maximizer)
    pruned = alphabeta_search(game, state, spec, player=maximizer)
    return ExpectedSearch(spec, best, pruned.evaluations, best.evaluations, maximizer)


def _leaf_requests(
    params: StateSearchParams, view: GameView, asked: list[tuple[GameCase, int | None]]
) -> dict[Any, tuple[Any, bool, Any]]:
    """The positions at the depth limits the heuristic is asked about, keyed by (cells, is_max),
    each with what its placeholders are made from once it is asked: the leaf, is_max and the
    maximizer."""
    requests: dict[Any, tuple[Any, bool, Any]] = {}
    if params.heuristic is None:
        return requests
    game = view.game
    for case, depth in ((case, depth) for case, limit in asked for depth in params.depths(limit)):
        if depth is None:
            continue
        maximizer = _maximizer(params, game, case.state)
        for leaf in search_leaves(view, case.state, depth):
            is_max = params.search == "best-leaf" or game.to_move(leaf) == maximizer
            key = (leaf.cells, is_max)
            requests.setdefault(key, (leaf, is_max, maximizer))
    return requests


def _state_search(check: Check[StateSearchParams], ctx: CheckContext) -> CheckResult:
    params = check.params
    view = game_view(ctx)
    game = view.game
    heuristic_name = ctx.resolve(params.heuristic.function) if params.heuristic is not None else None
    logged = (heuristic_name,) if heuristic_name is not None and params.search != "best-leaf" else ()
    levels = params.path_board.count(".") + 1 + bool(params.history)
    search = ctx.student(params.call, log=logged, answer_levels=levels)
    named = [GameCase(game, tuple(int(c) for c in moves)) for moves in params.include]
    drawn = sampled_positions(check, ctx, view, params.min_plies, params.max_plies, params.examples)
    cases = list({case.moves: case for case in [*named, *drawn]}.values())
    asked = [(case, limit) for case in cases for limit in params.limits]
    requests = _leaf_requests(params, view, asked)
    values: dict[Any, float] = {}
    if requests:
        assert params.heuristic is not None
        values, broken = heuristic_values(
            SharedStudentFunction(ctx, params.heuristic),
            requests,
            lambda made: view.placeholders(made[0], is_max=made[1], player=view.mark(made[2])),
        )
        if broken is not None:
            return gives_no_number(check, broken)
    answers = search.ask_many(
        ((case.moves, limit), _call_values(params, view, heuristic_name, case, limit)) for case, limit in asked
    )
    failures = []
    for (case, limit), answer in zip(asked, answers):
        each = [_expected(params, game, case.state, depth, values) for depth in params.depths(limit)]
        mismatch = _judge(params, view, case, each, answer)
        if mismatch is not None:
            failures.append((case, limit, mismatch, answer, each[-1]))
    depths = "to the end of the game" if params.to_the_end else depths_text(params.depth_limits)
    if params.deepening:
        depths = "after each depth " + " and ".join(f"1 to {d}" if d > 1 else "1" for d in params.depth_limits)
    if not failures:
        return CheckResult.for_check(
            check,
            CheckStatus.PASSED,
            f"Equals the reference {_kind(params)} on {len(cases)} positions {depths}: "
            "paths, scores and static evaluations",
            figures={"examples": len(asked)},
            notes=(PositionsTried(len(asked)),),
        )
    case, limit, mismatch, answer, expected = min(failures, key=lambda f: (f[0].size(), f[1] or 0))
    at = "searched to the end" if limit is None else f"at depth {limit}"
    if params.deepening:
        at = f"deepening to depth {limit}"
    return CheckResult.for_check(
        check,
        CheckStatus.FAILED,
        f"Wrong answer {at} on {case.described()}",
        counterexample=case_counterexample(case, mismatch),
        figures={"examples": len(asked), "failed": len(failures)},
        detail=_parted(params, view, logged, case, expected, answer),
        cause=Cause("local", mismatch.cause) if mismatch.cause else None,
    )


def _call_values(
    params: StateSearchParams, view: GameView, heuristic: str | None, case: GameCase, limit: int | None
) -> dict[str, Any]:
    values = view.placeholders(case.state)
    values["state"] = params.made_state.fill(values)
    if heuristic is not None:
        values["heuristic"] = KernelName(heuristic)
    if limit is not None:
        values["depth_limit"] = limit
    return values


def _kind(params: StateSearchParams) -> str:
    return {"minimax": "minimax", "alphabeta": "alpha-beta", "best-leaf": "best-leaf search"}[params.search]


def _reference_states(game: ConnectK, state: ConnectState, path: tuple[int, ...]) -> list[ConnectState]:
    states = [state]
    for move in path:
        states.append(game.result(states[-1], move))
    return states


def _columns(game: ConnectK, states: list[ConnectState]) -> str:
    """The columns that lead along ``states``, ``?`` where no move leads to the next."""
    shown = []
    for before, after in zip(states, states[1:]):
        move = next((m for m in game.actions(before) if game.result(before, m) == after), None)
        shown.append("?" if move is None else str(move))
    return "columns " + " ".join(shown) if shown else "no move"


def _read_path(params: StateSearchParams, view: GameView, raw: Any) -> list[ConnectState] | str:
    """The positions of the states of a returned path, or what it must be instead."""
    wanted = f"a list of states, each holding its board at `{params.path_board}`"
    if not isinstance(raw, (list, tuple)) or not raw:
        return wanted
    states = []
    for item in raw:
        held = held_at(item, params.path_board)
        if held is None:
            return wanted
        try:
            states.append(view.setup.encoding.decode(held))
        except (ValueError, TypeError, IndexError):
            return wanted
    return states


def _judge(
    params: StateSearchParams, view: GameView, case: GameCase, each: list[ExpectedSearch], answer: Answer
) -> Mismatch | None:
    """The call's answer against the reference's (``each``: one per depth it answers for)."""
    if not params.deepening:
        return _judge_one(params, view, case, each[0], answer, answer.value)
    wanted = f"{len(each)} answers, one for each depth 1 to {len(each)}"
    if not answer.ok:
        return Mismatch(answer.call_text, wanted, answer.given())
    read = per_depth("path,score,evaluations", answer.value, len(each), params.history)
    if isinstance(read, str):
        return Mismatch(answer.call_text, wanted, repr(answer.value)[:200], f"it must return {read}")
    total = 0
    for depth, (expected, raw) in enumerate(zip(each, read), start=1):
        total += expected.evaluations
        if params.deepening_counts == "running-total":
            expected = replace(expected, evaluations=total)
        mismatch = _judge_one(params, view, case, expected, answer, raw)
        if mismatch is not None:
            return replace(
                mismatch,
                expected=f"after depth {depth}: {mismatch.expected}",
                actual=f"after depth {depth}: {mismatch.actual}",
                cause=f"after depth {depth}: {mismatch.cause}" if mismatch.cause else None,
            )
    return None


def _judge_one(
    params: StateSearchParams, view: GameView, case: GameCase, expected: ExpectedSearch, answer: Answer, raw: Any
) -> Mismatch | None:
    game, best = view.game, expected.best
    reference = PathReference(
        params.search,
        best.value,
        _reference_states(game, case.state, best.path),
        expected.evaluations,
        expected.unpruned,
        read=lambda raw: _read_path(params, view, raw),
        show=lambda states: f"the path along {_columns(game, list(states))}",
        counted=" (a finished game's endgame score is one static evaluation)" if params.count_endgames else "",
    )
    if not answer.ok:
        return Mismatch(answer.call_text, reference.wanted, answer.given())

    def score_why() -> str:
        if params.search == "best-leaf":
            return "the score differs"
        kind = "alpha-beta must give the minimax score" if params.search == "alphabeta" else "the score differs"
        return f"{kind}: {root_values(game, case.state, expected.spec, best, expected.maximizer)}"

    return judge_path_answer(
        answer.call_text,
        raw,
        reference,
        score_why,
        lambda states: _path_cause(params, game, list(states), expected, list(reference.path)),
    )


def _path_cause(
    params: StateSearchParams,
    game: ConnectK,
    states: list[ConnectState],
    expected: ExpectedSearch,
    reference: list[ConnectState],
) -> str:
    if states[0] != reference[0]:
        return "the path must start with the state searched"
    step = next((i for i, (a, b) in enumerate(zip(states, reference)) if a != b), min(len(states), len(reference)))
    if step >= min(len(states), len(reference)):
        longer = "goes on past" if len(states) > len(reference) else "stops before"
        return f"the path {longer} the end of the reference's line of play ({len(reference) - 1} moves)"
    node = reference[step - 1]
    theirs = next((m for m in game.actions(node) if game.result(node, m) == states[step]), None)
    equal = _equal_moves(params, game, expected, node, step - 1)
    if theirs is not None and theirs in equal:
        keep = params.tie
        rule = "replace the best only by a strictly better move" if keep == "first" else "an equal move replaces it"
        played = _columns(game, reference[:step]).removeprefix("columns ")
        where = "at the position searched" if step == 1 else f"after column{'s' if step > 2 else ''} {played}"
        return (
            f"{where}, columns {' and '.join(map(str, equal))} are equally good: keep the {keep} ({rule}); "
            f"your path takes column {theirs}"
        )
    return f"the path parts from the reference's after {step} move{'s' if step != 1 else ''}"


def _equal_moves(
    params: StateSearchParams, game: ConnectK, expected: ExpectedSearch, node: ConnectState, depth: int
) -> tuple[int, ...]:
    """The moves at ``node`` (``depth`` plies below the root) that are as good as the best,
    for the side choosing there; empty for the best-leaf search, whose side chooses alone."""
    if params.search == "best-leaf" or game.is_terminal(node):
        return ()
    spec = expected.spec
    limit = None if spec.depth_limit is None else spec.depth_limit - depth
    return minimax_search(game, node, replace(spec, depth_limit=limit), player=expected.maximizer).best_moves


def _parted(
    params: StateSearchParams,
    view: GameView,
    logged: tuple[str, ...],
    case: GameCase,
    expected: ExpectedSearch,
    answer: Answer,
) -> SearchDivergence | None:
    """Where the search first parts from the reference's, from the positions its heuristic was
    given in order (the reference's finished games set aside: the heuristic never sees them)."""
    if not logged or not params.maximize or params.deepening or not answer.ok:
        return None
    boards = answer.outcome.logged.get(logged[0])
    if not boards or len(boards) >= LOG_CAP:
        return None
    try:
        positions = [view.setup.encoding.decode(view.held_board(board)) for board in boards]
    except (ValueError, TypeError, IndexError):
        return None
    spec = replace(expected.spec, evaluate_terminals=False)
    return search_divergence(view.game, case.state, [spec], params.search == "alphabeta", positions)


def _hands(params: StateSearchParams) -> tuple[str, ...]:
    """The lab's functions the course's state carries (its board functions)."""
    return params.made_state.names


STATE_SEARCH = CheckKind("state-search", StateSearchParams, _state_search, hands=_hands, any_game=True)
