"""A draft for a course written on its own state objects (MIT 6.034's games lab), for `grader init`:
the ``[game]`` table with the course's board object (`grader.authoring.state_board`), the checks
of the board functions, and the ``state-search`` and ``tree-search`` checks of every search the
handout asks for (`grader.authoring.state_searches`).

Each function's role is the one whose check the solution passes, tried cheapest first on a few
positions in the kernel the solution ran in: whether the game is over, the boards one move away,
a finished game's score (its win value read from a won game), the heuristic. A search's kind
(minimax, alpha-beta, the best leaf for one side choosing every move), its tie-break and whether a
finished game's score counts as an evaluation are read the same way, on random game trees through
the course's own tree class when it has one (equal moves and cut-offs are common there), then on
Connect-Four positions.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from typing import Any

from grader.authoring.api import Api
from grader.authoring.discovery import Discovered, Function
from grader.authoring.draft import Draft, DraftCheck, call, slug
from grader.authoring.own_solution import candidate_passes
from grader.authoring.state_board import BoardObject, course_definitions, read_board_object
from grader.authoring.state_searches import (
    CourseTree,
    SearchCall,
    StateObject,
    answers_by_depth,
    read_state,
    read_tree,
    search_calls,
)
from grader.checks.context import CallRunner
from grader.checks.kinds.game_board import GameExpect, GamePredicateParams
from grader.checks.kinds.game_heuristic import HeuristicParams
from grader.checks.kinds.state_search import StateSearchParams
from grader.checks.kinds.tree_search import TreeSearchParams
from grader.execution.channel.call_data import Call
from grader.execution.session import NotebookSession
from grader.spec.tables import AssignmentTable
from reference.connect4 import ConnectK
from reference.connect_endings import play

_KS = (4, 3, 5)
_TRIAL_EXAMPLES = 4
"""Positions a candidate check is tried on: enough to tell the readings apart, few enough to try several."""
_TRIAL_SECONDS = 10.0
_BOARD_EXPECTS: tuple[GameExpect, ...] = ("terminal", "winner", "legal-moves")
_ROLE_OF = {"terminal": "terminal-test", "winner": "win-test", "legal-moves": "moves", "next-boards": "successor"}
_SAYS = {
    "terminal": "over once won or full",
    "winner": "the winner",
    "legal-moves": "the columns with room",
    "next-boards": "the boards one move away, column by column",
}


class _Trials:
    """Grades candidate checks against the solution, in the kernel it ran in, on a few examples."""

    def __init__(self, session: NotebookSession, game: dict[str, Any]) -> None:
        self.session = session
        self.game = game

    def passes(self, check: DraftCheck) -> bool:
        table = AssignmentTable(
            id="trial", title="trial", call_timeout=_TRIAL_SECONDS, hypothesis_examples=_TRIAL_EXAMPLES
        )
        return candidate_passes(self.session, check, self.game, table)

    def first(self, candidates: Iterable[DraftCheck]) -> DraftCheck | None:
        return next((c for c in candidates if self.passes(c)), None)


def infer_state_course(
    session: NotebookSession, discovered: Discovered, api: Api, support: Sequence[str]
) -> Draft | str:
    """The draft, or why the solution is not a course written on its own state objects.
    ``support``: the sources of the course's modules."""
    runner = session.calls
    course = course_definitions(support, runner.defined_names())
    functions = [f for f in discovered.functions if f.owner is None and api.admits(f.name)]
    ones = [f for f in functions if len(f.required) == 1]
    board = read_board_object(runner, course, ones)
    if isinstance(board, str):
        return board
    draft = Draft()
    draft.api = api.comment(f.name for f in discovered.functions)
    draft.game_evidence = board.evidence
    game, checks = _board_checks(session, board, [f for f in functions if f is not board.next_boards])
    draft.game = board.game_table(game)
    roles = {c.params.expect: c.params.call.function for c in checks if c.kind == "game-predicate"}
    roles["next-boards"] = board.next_boards.name
    next_check = _predicate(board.next_boards.name, "next-boards", board.evidence)
    for check in [*[c for c in checks if c.kind == "game-predicate"], next_check, *checks]:
        draft.add_check(check)
    win = next((c.params.win for c in checks if getattr(c.params, "expect", None) == "endgame-score"), None)
    heuristic = next((c.params.call.function for c in checks if c.kind == "heuristic"), None)
    taken = {c.params.call.function for c in draft.checks}
    searches = search_calls([f for f in functions if f.name not in taken])
    if not {"terminal", "endgame-score"} <= set(roles) or win is None:
        draft.notes.append("no state-search checks: no function answers whether the game is over and its score")
        return draft
    state = read_state(runner, course, board, game, roles, searches)
    if isinstance(state, str):
        draft.notes.append(f"no state-search checks: {state}")
        return draft
    trials = _Trials(session, draft.game)
    tree = read_tree(runner, course)
    for search in state.searches:
        history = answers_by_depth(runner, board, game, roles, state, search)
        trees = tree if history is None else None  # deepening is judged on the board only
        for check in _search_checks(trials, search, state, roles, heuristic, win, trees, game, history):
            draft.add_check(check)
    return draft


def _predicate(function: str, expect: GameExpect, evidence: str, win: float = 1000) -> DraftCheck:
    scored = expect == "endgame-score"
    params = GamePredicateParams(call(f"{function}(board{', is_max' if scored else ''})"), expect, win=win)
    role = _ROLE_OF.get(expect, "endgame-score")
    title = f"{function}: " + (f"a finished game is worth {win:g} to its winner" if scored else _SAYS[expect])
    return DraftCheck(slug(function), role, title, "game-predicate", params, evidence)


def _board_checks(
    session: NotebookSession, board: BoardObject, functions: Sequence[Function]
) -> tuple[ConnectK, list[DraftCheck]]:
    """The game (how many in a line win) and the checks of the solution's board functions."""
    rows, cols = board.encoding.rows, board.encoding.cols
    game, found = ConnectK(rows, cols, 4), []
    for k in _KS:
        candidate = ConnectK(rows, cols, k)
        trials = _Trials(session, board.game_table(candidate))
        found = [c for f in functions if len(f.required) == 1 if (c := _one_board(trials, f))]
        if found:
            game = candidate
            break
    trials = _Trials(session, board.game_table(game))
    for function in functions:
        if len(function.required) == 2:
            check = _scored(session.calls, trials, board, game, function)
            if check is not None:
                found.append(check)
    return game, found


def _one_board(trials: _Trials, function: Function) -> DraftCheck | None:
    evidence = f"{function.name}: passes as {{}} on finished games of every outcome and games in progress"
    return trials.first(_predicate(function.name, e, evidence.format(e)) for e in _BOARD_EXPECTS)


def _scored(
    runner: CallRunner, trials: _Trials, board: BoardObject, game: ConnectK, function: Function
) -> DraftCheck | None:
    """A function of a board and a maximizing flag: a finished game's score (worth ``win`` to its
    winner, read from a game won by a vertical line), else the heuristic."""
    name = function.name
    won = play(game, (0, 1, 0, 1, 0, 1, 0)[: 2 * game.k - 1])
    going = [play(game, moves) for moves in ((3,), (3, 3, 2), (3, 4, 4, 2, 1))]
    asked = [(won, True), (won, False)] + [(s, flag) for s in going for flag in (True, False)]
    calls = [Call(name, (board.make(board.encoding.encode(s)), flag), timeout=_TRIAL_SECONDS) for s, flag in asked]
    answers = [o.value if o.ok else None for o in runner.call_many(calls)]
    if not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in answers):
        return None
    values: list[float] = [float(v) for v in answers]  # type: ignore[arg-type]
    win = abs(values[0])
    if win and values[1] == -values[0]:
        why = f"{name}: a game won by the player who just moved is worth {win:g} to it, asked both ways"
        check = _predicate(name, "endgame-score", why, win=win)
        if trials.passes(check):
            return check
    rest = values[2:]
    antisymmetric = all(rest[i] == -rest[i + 1] for i in range(0, len(rest), 2))
    base = HeuristicParams(call(f"{name}(board, is_max)"), antisymmetric=antisymmetric)
    # the same number for the other side with every piece swapped, where the solution's answers show it
    for params in (dataclasses.replace(base, swap_symmetric=True), base):
        said = [f"answers a number on {len(going)} games in progress"]
        said += ["minus itself for the other side"] if antisymmetric else []
        said += ["the same for the other side with the pieces swapped"] if params.swap_symmetric else []
        check = DraftCheck(
            slug(name),
            "evaluate",
            f"{name}: a number for either side" + (", minus itself for the other" if antisymmetric else ""),
            "heuristic",
            params,
            f"{name}: {', '.join(said)}",
        )
        if trials.passes(check):
            return check
    return None


def _variants(search: SearchCall, history: str | None = None) -> list[dict[str, Any]]:
    """The readings of a search, the likeliest first: its kind, its tie-break, its count; for a
    progressive deepening (``history``: where its answers are kept), each of those deepened,
    with each depth's count its own or a running total."""
    if search.depth_limited:
        kinds = ["alphabeta", "minimax"] if search.windowed or history is not None else ["minimax", "alphabeta"]
    else:
        kinds = ["minimax", "best-leaf"] if "True" in search.slots else ["best-leaf", "minimax"]
    plain = [
        {"search": kind, "tie": tie, "count_endgames": count}
        for kind in kinds
        for tie in ("first", "last")
        for count in (True, False)
    ]
    if history is None:
        return plain
    return [
        {**variant, "deepening": True, "history": history, "deepening_counts": counts}
        for variant in plain
        for counts in ("each-depth", "running-total")
    ]


def _search_checks(
    trials: _Trials,
    search: SearchCall,
    state: StateObject,
    roles: dict[str, str],
    heuristic: str | None,
    win: float,
    tree: CourseTree | None,
    game: ConnectK,
    history: str | None = None,
) -> list[DraftCheck]:
    """The search's check on Connect Four and, with the course's tree, on random game trees."""
    if search.depth_limited and heuristic is None:
        return []
    checks: list[DraftCheck] = []
    variants = _variants(search, history)
    if tree is not None:
        tree_check = trials.first(_tree_check(search, state, tree, v) for v in variants)
        if tree_check is not None:
            checks.append(tree_check)
            chosen = tree_check.params
            variants = [{"search": chosen.search, "tie": chosen.tie, "count_endgames": chosen.count_endgames}]
    board_check = trials.first(_state_check(search, state, roles, heuristic, win, game, v) for v in variants)
    return [board_check, *checks] if board_check is not None else checks


def _what(search: SearchCall, variant: dict[str, Any]) -> str:
    kind = {"minimax": "minimax", "alphabeta": "alpha-beta", "best-leaf": "the best leaf for one side"}[
        variant["search"]
    ]
    reach = "under the heuristic at each depth limit" if search.depth_limited else "to the end of the game"
    count = (
        "a finished game counted as one evaluation"
        if variant["count_endgames"]
        else "only the heuristic's values counted"
    )
    said = f"{kind} {reach}, the {variant['tie']} of equal moves kept, {count}"
    if variant.get("deepening"):
        kept = f"in `.{variant['history']}`" if variant["history"] else "in a list"
        counts = "each its own" if variant["deepening_counts"] == "each-depth" else "a running total"
        said += f", deepened from depth 1 with each depth's answer kept {kept} (evaluations {counts})"
    return said


def _role(variant: dict[str, Any]) -> str:
    if variant.get("deepening"):
        return "deepening"
    return {"alphabeta": "alpha-beta", "minimax": "minimax", "best-leaf": "best-leaf"}[variant["search"]]


def _state_check(
    search: SearchCall,
    state: StateObject,
    roles: dict[str, str],
    heuristic: str | None,
    win: float,
    game: ConnectK,
    variant: dict[str, Any],
) -> DraftCheck:
    cells = game.rows * game.cols
    shape: dict[str, Any] = (
        {"depth_limits": (1, 2, 3), "include": _openings(game), "heuristic": call(f"{heuristic}(board, is_max)")}
        if search.depth_limited
        else {"to_the_end": True, "min_plies": cells - 6, "max_plies": cells - 4, "examples": 4}
    )
    # a deepening asked with the side to move minimizing: one that drops the flag is seen
    flipped = bool(variant.get("deepening")) and "True" in search.slots
    text = search.call_text
    if flipped:
        text = f"{search.function}({', '.join(('state', *('False' if s == 'True' else s for s in search.slots)))})"
    params = StateSearchParams(
        call(text),
        state.text,
        win=win,
        path_board=f"{state.snapshot}.{state.board_attribute}",
        maximize=not flipped,
        **shape,
        **variant,
    )
    why = f"{search.function}: on a state made as `{state.text}`, passes as {_what(search, variant)}"
    why += ", asked with the side to move minimizing" if flipped else ""
    title = f"{search.function}: paths, scores and evaluations, " + (
        "under your heuristic" if search.depth_limited else "to the end of the game"
    )
    return DraftCheck(slug(search.function), _role(variant), title, "state-search", params, why)


def _tree_check(search: SearchCall, state: StateObject, tree: CourseTree, variant: dict[str, Any]) -> DraftCheck:
    heuristic = tree.functions["heuristic"]
    shape: dict[str, Any] = (
        {"depth_limits": (1, 2, 3), "heuristic": call(f"{heuristic}(tree, is_max)")}
        if search.depth_limited
        else {"to_the_end": True}
    )
    params = TreeSearchParams(
        call(search.call_text),
        state.made_for("tree", tree.functions),
        tree.node,
        path_label=f"{state.snapshot}.{tree.label}",
        **shape,
        **variant,
    )
    why = f"{search.function}: on the course's trees (`{tree.node}`) passes as {_what(search, variant)}"
    return DraftCheck(
        f"{slug(search.function)}-trees",
        "tree-search",
        f"{search.function} on random game trees",
        "tree-search",
        params,
        why,
    )


def _openings(game: ConnectK) -> tuple[str, ...]:
    """A threat in the bottom row, its answer, a centre column: openings always searched."""
    mid = game.cols // 2
    wanted = [
        (mid, mid, mid + 1, mid + 1, mid + 2, mid + 2),
        (mid, mid, mid + 1, mid + 1),
        (mid, mid, mid + 1, mid + 1, mid - 1),
    ]
    return tuple("".join(map(str, m)) for m in wanted if max(m) < min(game.cols, 10))
