"""Depth-limited minimax and alpha-beta on a game other than tic-tac-toe, judged exactly under
the student's own heuristic and the game's move order (`game-search`).

For each position and depth limit the leaves the reference search needs (the unfinished
positions at the limit) are put to the student's heuristic in the student's kernel, all in one
batch; the reference search (`reference.game_search`) then runs on those values and gives the
expected value, best move and number of static evaluations. The student's count is the calls
of the heuristic counted in the kernel, or the one its answer returns. Alpha-beta is judged
against alpha-beta's own count, and its value against minimax's (pruning equivalence).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from grader.check_details import SearchDivergence
from grader.check_notes import Cause, PositionsTried
from grader.checks.answers import Answer
from grader.checks.context import CheckContext
from grader.checks.game_answers import SearchShape, ShapedAnswer, check_deepening, per_depth, read_answer, shown
from grader.checks.game_cases import GameCase, GameView, case_counterexample, game_view
from grader.checks.game_divergence import search_divergence
from grader.checks.game_search_causes import count_cause, deepening_count_cause, root_values
from grader.checks.kind import CheckKind
from grader.checks.positions import check_key, check_seed
from grader.checks.properties import Mismatch, collect_examples
from grader.checks.search_params import depths_text, gives_no_number, heuristic_values
from grader.checks.shared_answers import SharedStudentFunction
from grader.execution.channel.kernel.names import LOG_CAP
from grader.results import CheckResult, CheckStatus
from grader.spec.call_template import CallTemplate
from grader.spec.model import Check, Count
from reference.connect4 import ConnectK, ConnectState
from reference.game_search import GameSearchResult, GameSearchSpec, alphabeta_search, minimax_search

CountSource = Literal["heuristic-calls", "returned", "none"]


@dataclass(frozen=True)
class GameSearchParams:
    """A depth-limited search on the assignment's game judged exactly under the student's own heuristic: its value, its
    move (the first best in the game's order, left to right) and its number of static evaluations equal the
    reference's, with the heuristic's values on the leaves asked of the student's own function. With ``prune`` the
    search is alpha-beta: its value must be minimax's and its count alpha-beta's (cut off when alpha >= beta). With
    ``deepening`` it is progressive deepening, judged after each depth. Where the evaluations are judged, the positions
    the heuristic is given are logged in order, and a failing search shows the node where it first parts from the
    reference's: drawn, its path from the root, the reference's window there and what each search did."""

    call: CallTemplate
    """The search, e.g. ``minimax(board, depth_limit, to_move)``; ``depth_limit`` is each of ``depth_limits``."""
    heuristic: CallTemplate
    """The student's evaluation, e.g. ``evaluate(board, player)``: called on the leaves with ``player`` the side to
    move at the root (the maximizer)."""
    returns: SearchShape = "move,value"
    """The shape of the answer: move,value (a column and the value), value, move, move,value,evaluations, or
    path,score,evaluations (the principal variation, the value and the count)."""
    depth_limits: tuple[int, ...] = (1, 2, 3)
    """The depth limits each position is searched at."""
    prune: bool = False
    """The search is alpha-beta: its count is judged against alpha-beta's."""
    count: CountSource = "heuristic-calls"
    """Static evaluations: the calls of the heuristic counted in the kernel, the count the answer returns, or none (not
    judged)."""
    judge_move: Literal["first-best", "any-optimal", "none"] = "first-best"
    """first-best: the first best column left to right (a later move replaces the best only when strictly better);
    any-optimal: any best column; none."""
    win: float = 1000
    """What a won game is worth to the winner (a lost one, its negative; a full board 0)."""
    win_bonus: Literal["none", "plies-left"] = "none"
    """plies-left: a win is worth ``win`` plus the plies the search had left, so a sooner win is worth more."""
    include: tuple[str, ...] = ()
    """Positions always searched, each the columns played from the empty board (``"3344"``)."""
    min_plies: int = 2
    """The fewest moves played to reach a sampled position."""
    max_plies: int = 14
    """The most moves played to reach a sampled position."""
    examples: Count = 8
    """Positions searched beyond the empty board, each at every depth limit."""
    deepening: bool = False
    """Progressive deepening: one call at depth limit d answers for every depth 1..d in turn, a list (or tuple) of d
    answers each in the shape of ``returns``, the first for depth 1; each is judged against the reference's search at
    its depth. The heuristic's calls counted in the kernel are judged against the sum over the depths."""
    history: str = ""
    """With ``deepening``: the attribute of the object the call returns that holds the list of answers (MIT 6.034's
    ``AnytimeValue``: ``history``); empty: the call returns the list itself."""
    to_move: Literal["either", "X", "O"] = "either"
    """The side the search plays: either (positions with either side to move), or X or O alone, for a search that
    always plays one side and is told by a flag whether that side is to move (``minimax(board, depth_limit, -inf, inf,
    True)``, a course's computer player): the positions searched are those where that side is to move."""
    deepening_counts: Literal["each-depth", "running-total"] = "each-depth"
    """With ``deepening`` and a returned count: each depth's answer counts the evaluations of that depth's search
    alone (each-depth), or all those made since depth 1 (running-total)."""

    def __post_init__(self) -> None:
        if not self.depth_limits or any(depth < 0 for depth in self.depth_limits):
            raise ValueError(f"depth_limits must list depths of 0 or more, not {list(self.depth_limits)}")
        check_deepening(self.deepening, self.history, self.depth_limits)
        for moves in self.include:
            if not moves.isdigit():
                raise ValueError(f'include: {moves!r} is not a string of column digits such as "3344"')


def search_leaves(view: GameView, state: ConnectState, depth: int) -> set[ConnectState]:
    """The unfinished positions ``depth`` plies below ``state``: the ones a search evaluates."""
    game = view.game
    if game.is_terminal(state):
        return set()
    if depth == 0:
        return {state}
    found: set[ConnectState] = set()
    for move in game.actions(state):
        found |= search_leaves(view, game.result(state, move), depth - 1)
    return found


def _spec(params: GameSearchParams, depth: int, values: dict[Any, float]) -> GameSearchSpec:
    bonus = params.win_bonus == "plies-left"
    return GameSearchSpec(
        depth_limit=depth,
        evaluate=lambda state, player: values[state.cells],
        win_value=params.win + depth if bonus else params.win,
        scoring="depth-adjusted" if bonus else "unit",
    )


@dataclass(frozen=True)
class _Expected:
    """The reference's answer at one depth: minimax's value and move, alpha-beta's count."""

    depth: int
    spec: GameSearchSpec
    minimax: GameSearchResult
    pruned: GameSearchResult | None

    @property
    def evaluations(self) -> int:
        return (self.pruned or self.minimax).evaluations


@dataclass(frozen=True)
class _Failure:
    case: GameCase
    limit: int
    """The depth limit of the call."""
    depth: int | None
    """The depth whose answer is wrong (the limit itself, but for progressive deepening);
    None: progressive deepening's answer as a whole (not one per depth)."""
    mismatch: Mismatch
    answer: Answer
    expected: list[_Expected]


def _game_search(check: Check[GameSearchParams], ctx: CheckContext) -> CheckResult:
    params = check.params
    view = game_view(ctx)
    game = view.game
    heuristic_name = ctx.resolve(params.heuristic.function)
    counting = (heuristic_name,) if params.count == "heuristic-calls" else ()
    # The position each call of the heuristic is given is logged whenever the evaluations are
    # judged: the log shows where a wrong search parts from the reference's.
    logged = (heuristic_name,) if params.count != "none" else ()
    search = ctx.student(params.call, count=counting, log=logged)
    heuristic = SharedStudentFunction(ctx, params.heuristic)  # its leaves, asked once per submission
    named = [GameCase(game, tuple(int(c) for c in moves)) for moves in params.include]
    drawn = sampled_positions(
        check, ctx, view, params.min_plies, params.max_plies, params.examples, keep=lambda c: _plays(params, c)
    )
    cases = [c for c in (GameCase(game, ()), *named) if _plays(params, c)] + drawn
    asked = [(case, limit) for case in cases for limit in params.depth_limits]
    # The leaves every search needs, each once, for the student's heuristic (`heuristic_values`).
    requests: dict[Any, tuple[Any, Any]] = {}
    for case, limit in asked:
        mover = view.mark(game.to_move(case.state))
        for depth in _searched(params, limit):
            for leaf in search_leaves(view, case.state, depth):
                requests.setdefault((leaf.cells, repr(mover)), (leaf, mover))
    # each leaf encoded once, and only when asked: a heuristic that gives no number is asked few
    leaf_values, broken = heuristic_values(
        heuristic, requests, lambda leaf_mover: view.placeholders(leaf_mover[0], player=leaf_mover[1])
    )
    if broken is not None:
        return gives_no_number(check, broken)
    # The heuristic's values by the side it was asked for, sorted once rather than for each case.
    values: dict[str, dict[Any, float | None]] = {}
    for (cells, who), value in leaf_values.items():
        values.setdefault(who, {})[cells] = value
    answers = search.ask_many(
        ((case.moves, limit), view.placeholders(case.state, depth_limit=limit)) for case, limit in asked
    )
    failures: list[_Failure] = []
    for (case, limit), answer in zip(asked, answers):
        table = values.get(repr(view.mark(game.to_move(case.state))), {})
        searched = _searched(params, limit)
        expected = [_expected(params, game, case, depth, table) for depth in searched]  # type: ignore[arg-type]
        changed = view.left_changed(answer)  # a move made on the course's object and not undone
        judged = (
            (limit, changed) if changed is not None else _judge(params, view, case, heuristic_name, expected, answer)
        )
        if judged is not None:
            failures.append(_Failure(case, limit, *judged, answer, expected))
    tried = len(asked)
    if not failures:
        kind = "alpha-beta" if params.prune else "minimax"
        return CheckResult.for_check(
            check,
            CheckStatus.PASSED,
            f"Equals the reference {kind} under your heuristic on {len(cases)} positions "
            f"{_depths(params)}: {_judged(params)}",
            figures={"examples": tried},
            notes=(PositionsTried(tried),),
        )
    failure = min(failures, key=lambda f: ((len(f.case.moves), f.limit), f.case.moves))
    deepened = params.deepening and failure.depth is not None
    at = f"after depth {failure.depth} of {failure.limit}" if deepened else f"at depth {failure.limit}"
    mismatch = failure.mismatch
    return CheckResult.for_check(
        check,
        CheckStatus.FAILED,
        f"Wrong answer {at} on {failure.case.described()}",
        counterexample=case_counterexample(failure.case, mismatch),
        figures={"examples": tried, "failed": len(failures)},
        detail=_parted(view, params, heuristic_name, failure),
        cause=Cause("local", mismatch.cause) if mismatch.cause else None,
    )


def _parted(view: GameView, params: GameSearchParams, heuristic: str, failure: _Failure) -> SearchDivergence | None:
    """Where the failing search first parts from the reference's, from the positions its
    heuristic was given in order; None when they are the reference's, or cannot be read, or
    the search did not return (its log stops where it raised or was stopped)."""
    boards = failure.answer.outcome.logged.get(heuristic)
    if not failure.answer.ok or not boards or len(boards) >= LOG_CAP:
        return None
    try:
        positions = [view.setup.encoding.decode(view.held_board(board)) for board in boards]
    except (ValueError, TypeError, IndexError):  # a board of the wrong shape: no evidence
        return None
    specs = [at.spec for at in failure.expected]
    return search_divergence(view.game, failure.case.state, specs, params.prune, positions)


def _searched(params: GameSearchParams, limit: int) -> range | tuple[int]:
    """The depths one call at ``limit`` answers for: each of 1..limit when deepening."""
    return range(1, limit + 1) if params.deepening else (limit,)


def _expected(
    params: GameSearchParams, game: ConnectK, case: GameCase, depth: int, table: dict[Any, float]
) -> _Expected:
    spec = _spec(params, depth, table)
    pruned = alphabeta_search(game, case.state, spec) if params.prune else None
    return _Expected(depth, spec, minimax_search(game, case.state, spec), pruned)


def _depths(params: GameSearchParams) -> str:
    limits = params.depth_limits
    if params.deepening:
        return "after each depth " + " and ".join(f"1 to {limit}" if limit > 1 else "1" for limit in limits)
    return depths_text(limits)


def _judged(params: GameSearchParams) -> str:
    parts = ["values" if "value" in params.returns or "score" in params.returns else ""]
    parts.append(
        "moves" if params.judge_move != "none" and ("move" in params.returns or "path" in params.returns) else ""
    )
    parts.append("evaluations" if params.count != "none" else "")
    kept = [part for part in parts if part]
    return ", ".join(kept[:-1]) + " and " + kept[-1] if len(kept) > 1 else "".join(kept)


def sampled_positions(
    check: Check[Any],
    ctx: CheckContext,
    view: GameView,
    min_plies: int,
    max_plies: int,
    examples: int,
    keep: Callable[[GameCase], bool] | None = None,
) -> list[GameCase]:
    """Seeded positions reached by play, still unfinished, distinct and shortest first (those
    ``keep`` accepts, when given)."""
    strategy = view.strategy(min_plies=min_plies, max_plies=max_plies, finished=False)
    drawn = collect_examples(
        strategy, examples=examples * 3, run_seed=check_seed(ctx, check), cache_key=check_key(ctx, check)
    )
    unique = {
        case.moves: case
        for case in drawn
        if not view.game.is_terminal(case.state) and case.moves and (keep is None or keep(case))
    }
    return sorted(unique.values(), key=GameCase.size)[:examples]


def _plays(params: GameSearchParams, case: GameCase) -> bool:
    """Whether the search is asked about ``case``: the side it plays is to move there."""
    return params.to_move in ("either", case.game.to_move(case.state))


def _judge(
    params: GameSearchParams,
    view: GameView,
    case: GameCase,
    heuristic: str,
    expected: list[_Expected],
    answer: Answer,
) -> tuple[int | None, Mismatch] | None:
    """The depth whose answer is wrong (None: the answer as a whole) and how, or None: the call's
    answer (for progressive deepening each depth's in turn, then the heuristic's calls over them
    all)."""
    call, deepest = answer.call_text, expected[-1]
    wanted = shown(params.returns, deepest.minimax, deepest.evaluations)
    counted = params.count == "heuristic-calls"
    if counted and not params.deepening:
        wanted = f"{wanted} after {deepest.evaluations} evaluations"
    if not answer.ok:
        return deepest.depth, Mismatch(call, wanted, answer.given())
    raw = [answer.value]
    if params.deepening:
        read = per_depth(params.returns, answer.value, len(expected), params.history)
        if isinstance(read, str):
            running = params.deepening_counts == "running-total"
            each = [shown(params.returns, at.minimax, _count_at(expected, at, running)) for at in expected]
            return None, Mismatch(call, f"[{', '.join(each)}]", repr(answer.value), f"it must return {read}")
        raw = read
    made = answer.outcome.counts.get(heuristic, 0)
    total = 0
    for at, item in zip(expected, raw):
        total += at.evaluations
        mismatch = _judge_depth(params, view, case, call, at, item, total)
        if mismatch is not None:
            return at.depth, mismatch
    if not counted or made == total:
        return None
    if params.deepening:
        summed = " + ".join(str(at.evaluations) for at in expected)
        sentence = f"over depths 1 to {deepest.depth} the reference makes {total} static evaluations ({summed}), "
        return deepest.depth, Mismatch(
            call, f"{total} evaluations", f"{made} evaluations", f"{sentence}your search {made}"
        )
    shown_made = f"{answer.value!r} after {made} evaluations"
    return deepest.depth, Mismatch(
        call, wanted, shown_made, count_cause(params.prune, made, deepest.evaluations, deepest.minimax.evaluations)
    )


def _judge_depth(
    params: GameSearchParams, view: GameView, case: GameCase, call: str, at: _Expected, raw: Any, total: int
) -> Mismatch | None:
    """One answer against the reference's at its depth; ``total``: the evaluations of the
    depths up to this one (a running count's expected value)."""
    best = at.minimax
    deepening = params.deepening
    running = deepening and params.deepening_counts == "running-total"
    evaluations = total if running else at.evaluations
    wanted = shown(params.returns, best, evaluations)
    if params.count == "heuristic-calls" and not deepening:
        wanted = f"{wanted} after {at.evaluations} evaluations"
    if deepening:
        wanted, actual = f"after depth {at.depth}: {wanted}", f"after depth {at.depth}: {raw!r}"
    else:
        actual = repr(raw)
    read = read_answer(params.returns, raw)
    if isinstance(read, str):
        return Mismatch(call, wanted, actual, f"the search must return {read}")
    if read.value is not None and not math.isclose(read.value, best.value, abs_tol=1e-9):
        why = root_values(view.game, case.state, at.spec, best)
        if deepening:
            return Mismatch(
                call,
                wanted,
                actual,
                f"after depth {at.depth} the value is {read.value:g}, the reference's is {best.value:g}: {why}",
            )
        kind = "alpha-beta must give the minimax value" if params.prune else "the value differs"
        return Mismatch(call, wanted, actual, f"{kind}: {why}")
    wrong_move = _move_mismatch(params, read, best)
    if wrong_move is not None:
        return Mismatch(call, wanted, actual, f"after depth {at.depth}: {wrong_move}" if deepening else wrong_move)
    if params.count != "returned" or read.evaluations == evaluations:
        return None
    if not deepening:
        return Mismatch(
            call, wanted, actual, count_cause(params.prune, read.evaluations, at.evaluations, at.minimax.evaluations)
        )
    cause = deepening_count_cause(running, read.evaluations, at.depth, at.evaluations, total)
    return Mismatch(call, wanted, actual, f"after depth {at.depth} {cause}")


def _count_at(expected: list[_Expected], at: _Expected, running: bool) -> int:
    """The count the answer at ``at``'s depth carries: its own search's, or the running total."""
    return sum(e.evaluations for e in expected if e.depth <= at.depth) if running else at.evaluations


def _move_mismatch(params: GameSearchParams, read: ShapedAnswer, best: GameSearchResult) -> str | None:
    """Why the move (or the principal variation) is wrong; None when it is right or not judged."""
    if params.judge_move == "none" or ("move" not in params.returns and read.path is None):
        return None
    if read.path is not None and params.judge_move == "first-best" and read.path != best.path:
        return "the principal variation differs"
    right = best.best_moves[:1] if params.judge_move == "first-best" else best.best_moves
    if read.move in right:
        return None
    if read.move not in best.best_moves:
        return f"column {read.move} is not a best move"
    return (
        f"columns {', '.join(map(str, best.best_moves))} are equally good: keep the first "
        "(replace the best only by a strictly better move)"
    )


GAME_SEARCH = CheckKind("game-search", GameSearchParams, _game_search, any_game=True)
