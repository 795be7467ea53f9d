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
from dataclasses import dataclass, replace
from typing import Any, Literal

from grader.check_notes import Cause, PositionsTried
from grader.checks.answers import Answer
from grader.checks.context import CheckContext
from grader.checks.game_cases import GameCase, GameView, case_counterexample, game_view
from grader.checks.kind import CheckKind
from grader.checks.kinds.game_heuristic import number
from grader.checks.positions import check_key, check_seed
from grader.checks.properties import Mismatch, collect_examples
from grader.results import CheckResult, CheckStatus
from grader.spec.call_template import CallTemplate
from grader.spec.model import Check, Count
from reference.connect4 import ConnectState
from reference.game_search import GameSearchResult, GameSearchSpec, alphabeta_search, minimax_search

SearchShape = Literal["move,value", "value", "move", "move,value,evaluations", "path,score,evaluations"]
CountSource = Literal["heuristic-calls", "returned", "none"]


@dataclass(frozen=True)
class GameSearchParams:
    """A depth-limited search on the assignment's game judged exactly under the student's own heuristic: its value, its
    move (the first best in the game's order, left to right) and its number of static evaluations equal the
    reference's, with the heuristic's values on the leaves asked of the student's own function. With ``prune`` the
    search is alpha-beta: its value must be minimax's and its count alpha-beta's (cut off when alpha >= beta)."""

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

    def __post_init__(self) -> None:
        if not self.depth_limits or any(depth < 0 for depth in self.depth_limits):
            raise ValueError(f"depth_limits must list depths of 0 or more, not {list(self.depth_limits)}")
        for moves in self.include:
            if not moves.isdigit():
                raise ValueError(f'include: {moves!r} is not a string of column digits such as "3344"')


def _leaves(view: GameView, state: ConnectState, depth: int) -> set[ConnectState]:
    """The unfinished positions ``depth`` plies below ``state``: the ones a search evaluates."""
    game = view.game
    if game.is_terminal(state):
        return set()
    if depth == 0:
        return {state}
    found: set[ConnectState] = set()
    for move in game.actions(state):
        found |= _leaves(view, game.result(state, move), depth - 1)
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
    minimax: GameSearchResult
    pruned: GameSearchResult | None

    @property
    def evaluations(self) -> int:
        return (self.pruned or self.minimax).evaluations


def _game_search(check: Check[GameSearchParams], ctx: CheckContext) -> CheckResult:
    params = check.params
    view = game_view(ctx)
    game = view.game
    heuristic_name = ctx.resolve(params.heuristic.function)
    counting = (heuristic_name,) if params.count == "heuristic-calls" else ()
    search = ctx.student(params.call, count=counting)
    heuristic = ctx.student(params.heuristic)
    named = [GameCase(game, tuple(int(c) for c in moves)) for moves in params.include]
    cases = [GameCase(game, ()), *named, *_sampled(check, ctx, view, params)]
    asked = [(case, depth) for case in cases for depth in params.depth_limits]
    # The leaves every search needs, asked of the student's heuristic in one batch.
    requests: dict[Any, dict[str, Any]] = {}
    for case, depth in asked:
        mover = view.mark(game.to_move(case.state))
        for leaf in _leaves(view, case.state, depth):
            requests.setdefault((leaf.cells, repr(mover)), view.placeholders(leaf, player=mover))
    leaf_answers = dict(zip(requests, heuristic.ask_many(requests.items())))
    broken = next(((key, a) for key, a in leaf_answers.items() if number(a.value) is None or not a.ok), None)
    if broken is not None:
        _, answer = broken
        return CheckResult.for_check(
            check,
            CheckStatus.FAILED,
            f"The heuristic gives no number on a position the search evaluates: {answer.given()}",
            cause=Cause("local", f"`{answer.call_text}` must answer a number for the search to be judged"),
        )
    values = {key: number(a.value) for key, a in leaf_answers.items()}
    answers = search.ask_many(
        ((case.moves, depth), view.placeholders(case.state, depth_limit=depth)) for case, depth in asked
    )
    failures: list[tuple[tuple[int, int], GameCase, Mismatch]] = []
    for (case, depth), answer in zip(asked, answers):
        mover = game.to_move(case.state)
        table = {cells: value for (cells, who), value in values.items() if who == repr(view.mark(mover))}
        spec = _spec(params, depth, table)  # type: ignore[arg-type]
        expected = _Expected(
            minimax_search(game, case.state, spec),
            alphabeta_search(game, case.state, spec) if params.prune else None,
        )
        mismatch = _judge(params, view, case, depth, heuristic_name, expected, answer, spec)
        if mismatch is not None:
            failures.append(((len(case.moves), depth), case, mismatch))
    tried = len(asked)
    if not failures:
        kind = "alpha-beta" if params.prune else "minimax"
        return CheckResult.for_check(
            check,
            CheckStatus.PASSED,
            f"Equals the reference {kind} under your heuristic on {len(cases)} positions at "
            f"{_depths(params.depth_limits)}: {_judged(params)}",
            figures={"examples": tried},
            notes=(PositionsTried(tried),),
        )
    (_, depth), case, mismatch = min(failures, key=lambda failure: (failure[0], failure[1].moves))
    return CheckResult.for_check(
        check,
        CheckStatus.FAILED,
        f"Wrong answer at depth {depth} on {case.described()}",
        counterexample=case_counterexample(case, mismatch),
        figures={"examples": tried, "failed": len(failures)},
        cause=Cause("local", mismatch.cause) if mismatch.cause else None,
    )


def _depths(limits: tuple[int, ...]) -> str:
    return f"depth {limits[0]}" if len(limits) == 1 else f"depths {', '.join(map(str, limits))}"


def _judged(params: GameSearchParams) -> str:
    parts = ["values" if "value" in params.returns or "score" in params.returns else ""]
    parts.append(
        "moves" if params.judge_move != "none" and ("move" in params.returns or "path" in params.returns) else ""
    )
    parts.append("evaluations" if params.count != "none" else "")
    kept = [part for part in parts if part]
    return ", ".join(kept[:-1]) + " and " + kept[-1] if len(kept) > 1 else "".join(kept)


def _sampled(check: Check[Any], ctx: CheckContext, view: GameView, params: GameSearchParams) -> list[GameCase]:
    """Seeded positions reached by play, still unfinished, distinct and shortest first."""
    strategy = view.strategy(min_plies=params.min_plies, max_plies=params.max_plies, finished=False)
    drawn = collect_examples(
        strategy, examples=params.examples * 3, run_seed=check_seed(ctx, check), cache_key=check_key(ctx, check)
    )
    unique = {case.moves: case for case in drawn if not view.game.is_terminal(case.state) and case.moves}
    return sorted(unique.values(), key=GameCase.size)[: params.examples]


def _read(params: GameSearchParams, raw: Any) -> tuple[Any, float | None, int | None, tuple[int, ...] | None] | str:
    """(move, value, evaluations, path) from an answer, or what is wrong with its shape."""
    parts = params.returns.split(",")
    if len(parts) == 1:
        items = [raw]
    elif isinstance(raw, (list, tuple)) and len(raw) == len(parts):
        items = list(raw)
    else:
        return f"an answer of {len(parts)} parts ({params.returns})"
    read = dict(zip(parts, items))
    value = read.get("value", read.get("score"))
    move = read.get("move")
    path = read.get("path")
    count = read.get("evaluations")
    if "value" in read or "score" in read:
        if number(value) is None:
            return "a number for the value"
        value = number(value)
    if count is not None and (isinstance(count, bool) or not isinstance(count, int)):
        return "a whole number of evaluations"
    if path is not None:
        if not isinstance(path, (list, tuple)) or not all(isinstance(m, int) for m in path):
            return "a list of columns for the path"
        path = tuple(path)
        move = path[0] if path else None
    return move, value, count, path


def _judge(
    params: GameSearchParams,
    view: GameView,
    case: GameCase,
    depth: int,
    heuristic: str,
    expected: _Expected,
    answer: Answer,
    spec: GameSearchSpec,
) -> Mismatch | None:
    best = expected.minimax
    wanted = _wanted(params, best, expected.evaluations)
    if not answer.ok:
        return Mismatch(answer.call_text, wanted, answer.given())
    read = _read(params, answer.value)
    if isinstance(read, str):
        return Mismatch(answer.call_text, wanted, repr(answer.value), f"the search must return {read}")
    move, value, count, path = read
    if value is not None and not math.isclose(value, best.value, abs_tol=1e-9):
        kind = "alpha-beta must give the minimax value" if params.prune else "the value differs"
        return Mismatch(answer.call_text, wanted, repr(answer.value), f"{kind}: {_divergence(view, case, spec, best)}")
    if params.judge_move != "none" and ("move" in params.returns or path is not None):
        if path is not None and params.judge_move == "first-best" and path != best.path:
            return Mismatch(answer.call_text, wanted, repr(answer.value), "the principal variation differs")
        right = best.best_moves[:1] if params.judge_move == "first-best" else best.best_moves
        if move not in right:
            why = (
                f"column {move} is not a best move"
                if move not in best.best_moves
                else f"columns {', '.join(map(str, best.best_moves))} are equally good: keep the first "
                "(replace the best only by a strictly better move)"
            )
            return Mismatch(answer.call_text, wanted, repr(answer.value), why)
    if params.count == "none":
        return None
    made = count if params.count == "returned" else answer.outcome.counts.get(heuristic, 0)
    if made != expected.evaluations:
        shown = (
            f"{answer.value!r} after {made} evaluations" if params.count == "heuristic-calls" else repr(answer.value)
        )
        return Mismatch(answer.call_text, wanted, shown, _count_cause(params, made, expected))
    return None


def _wanted(params: GameSearchParams, best: GameSearchResult, evaluations: int) -> str:
    value = f"{best.value:g}"
    move = best.best_moves[0] if best.best_moves else None
    shown = {
        "move,value": f"({move}, {value})",
        "value": value,
        "move": f"{move}",
        "move,value,evaluations": f"({move}, {value}, {evaluations})",
        "path,score,evaluations": f"({list(best.path)}, {value}, {evaluations})",
    }[params.returns]
    return f"{shown} after {evaluations} evaluations" if params.count == "heuristic-calls" else shown


def _divergence(view: GameView, case: GameCase, spec: GameSearchSpec, best: GameSearchResult) -> str:
    """The reference's value of each move at the root, under the student's heuristic."""
    game, state = view.game, case.state
    if game.is_terminal(state) or spec.depth_limit == 0:
        return "the position itself is scored"
    maximizer = game.to_move(state)
    limit = (spec.depth_limit or 1) - 1
    child_spec = replace(spec, depth_limit=limit, win_value=spec.win_value - (spec.scoring == "depth-adjusted"))
    shown = []
    for move in game.actions(state):
        child = game.result(state, move)
        value = minimax_search(game, child, child_spec, player=maximizer).value
        shown.append(f"column {move}: {value:g}")
    return f"under your heuristic the reference values the moves {'; '.join(shown)} (best {best.value:g})"


def _count_cause(params: GameSearchParams, made: int | None, expected: _Expected) -> str:
    wanted = expected.evaluations
    search = "alpha-beta (left to right, cut off when alpha >= beta)" if params.prune else "minimax"
    sentence = f"the reference {search} makes {wanted} static evaluations here, your search {made}"
    if made is None:
        return sentence
    if wanted and made == 2 * wanted:
        return f"{sentence}: twice as many, is each evaluation counted twice?"
    if params.prune and made > wanted and made <= expected.minimax.evaluations:
        return f"{sentence}: it prunes less; does it cut off only when alpha > beta instead of alpha >= beta?"
    if made > wanted:
        return f"{sentence}: more than the reference"
    return f"{sentence}: fewer, does it stop before the depth limit or skip the evaluation there?"


GAME_SEARCH = CheckKind("game-search", GameSearchParams, _game_search, any_game=True)
