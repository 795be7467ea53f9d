"""Searches on abstract game trees (`tree-search`): random trees with values at the leaves,
drawn by hypothesis, made in the kernel through the course's own tree class (MIT 6.034's
``toytree``) and wrapped in the course's state, so that the searches of a lab written on states
are walked on trees where equal moves and cut-offs are common, as no fixed board makes them.

Each tree is searched at each depth limit (or to its leaves); the reference engine
(`reference.game_search`) walks the same tree (`reference.game_tree.TreeGame`) with the
course's tie-break and count, a leaf worth its value to the maximizer, an inner node at the
depth limit worth what the heuristic the search is handed says of it (asked in the kernel, all
in one batch). The answer ``(path, score, evaluations)`` must be the reference's: the labels
along the path, the score, the count. A failure shows the smallest tree that shows it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any, Literal

from grader.check_notes import Cause, PositionsTried
from grader.checks.answers import Answer
from grader.checks.context import CheckContext
from grader.checks.kind import CheckKind
from grader.checks.path_answers import ExpectedSearch, PathReference, held_at, judge_path_answer
from grader.checks.positions import check_key, check_seed
from grader.checks.properties import Mismatch, collect_examples
from grader.checks.search_params import check_search_call, depths_text, gives_no_number, heuristic_values
from grader.execution.channel.call_data import KernelMade, KernelName
from grader.results import CheckResult, CheckStatus, Counterexample
from grader.spec.call_template import CallTemplate
from grader.spec.made_template import MadeTemplate, parse_made
from grader.spec.model import Check, Count
from reference.game_search import GameSearchSpec, alphabeta_search, best_leaf_search, minimax_search
from reference.game_strategies import game_trees
from reference.game_tree import TreeGame, TreeNode

TreePath = tuple[int, ...]


@dataclass(frozen=True)
class TreeSearchParams:
    """A search called on the course's state holding a random abstract game tree (values at the leaves, and at inner
    nodes for a heuristic), made in the kernel through the course's tree class, answering ``(path, score,
    evaluations)``; judged exactly against the reference engine walking the same tree with the course's tie-break
    and count, on trees drawn so that equal moves and cut-offs are common."""

    call: CallTemplate
    """The search, e.g. ``minimax_search(state, heuristic, depth_limit, True)``."""
    state: str
    """How the course's state holds a tree, as Python: ``AbstractGameState(tree, tree_is_over, tree_children,
    tree_endgame_value)``; ``tree`` is the tree made by ``node``, other bare names are names the notebook holds."""
    node: str
    """How one node of a tree is made, as Python: ``GameTree(label, value, children)`` (``children`` a list of
    nodes made the same way, ``value`` None where a node has none)."""
    heuristic: CallTemplate | None = None
    """The evaluation the search is handed, as called on an inner node at the depth limit:
    ``tree_heuristic(tree, is_max)``."""
    search: Literal["minimax", "alphabeta", "best-leaf"] = "minimax"
    """As ``state-search``'s: minimax, alpha-beta (cut off when alpha >= beta) or best-leaf (``dfs_maximizing``)."""
    depth_limits: tuple[int, ...] = (1, 2)
    """The depth limits each tree is searched at."""
    to_the_end: bool = False
    """Searched to the leaves, with no depth limit (``depth_limits`` is not read)."""
    tie: Literal["first", "last"] = "first"
    """Of equally good children, the first is kept, or the last: the course's solution's rule."""
    count_endgames: bool = True
    """A leaf's value counts as a static evaluation, as a heuristic's does."""
    path_label: str = "snapshot.label"
    """Where each state of the answer's path holds its node's label, as attributes."""
    trees: Count = 30
    """How many trees are drawn."""
    max_depth: int = 3
    """The deepest level of a tree below its root."""
    max_children: int = 3
    """The most children of a node."""
    values: tuple[int, int] = (-4, 4)
    """The least and greatest value a node is given: a narrow range makes equal values common."""
    inner_values: bool = True
    """Inner nodes have values too, for a heuristic to read at the depth limit."""

    def __post_init__(self) -> None:
        self.made_state  # noqa: B018 - parsed here, so that a mistake is reported when the assignment loads
        self.made_node  # noqa: B018
        check_search_call(
            self.call,
            self.heuristic,
            heuristic_example="h(tree, is_max)",
            to_the_end=self.to_the_end,
            depth_limits=self.depth_limits,
            path_field="path_label",
            path=self.path_label,
        )
        if not 1 <= self.max_depth <= 6 or not 1 <= self.max_children <= 5:
            raise ValueError("a tree has 1 to 6 levels below its root and 1 to 5 children a node")
        if self.values[0] > self.values[1]:
            raise ValueError(f"values must be (least, greatest), not {list(self.values)}")

    @cached_property
    def made_state(self) -> MadeTemplate:
        return parse_made(self.state, frozenset({"tree"}))

    @cached_property
    def made_node(self) -> MadeTemplate:
        return parse_made(self.node, frozenset({"label", "value", "children"}))

    @property
    def limits(self) -> tuple[int | None, ...]:
        return (None,) if self.to_the_end else self.depth_limits


def _made(params: TreeSearchParams, node: TreeNode) -> KernelMade:
    """``node`` and everything below it, as the kernel makes it through the course's class."""
    children = [_made(params, child) for child in node.children]
    return params.made_node.fill({"label": node.label, "value": node.value, "children": children})


def _limited(game: TreeGame, limit: int | None) -> list[TreePath]:
    """The inner nodes at ``limit``: where the heuristic is asked."""
    if limit is None:
        return []
    frontier: list[TreePath] = [()]
    for _ in range(limit):
        frontier = [(*state, move) for state in frontier for move in game.actions(state)]
    return [state for state in frontier if not game.is_terminal(state)]


def _expected(params: TreeSearchParams, game: TreeGame, limit: int | None, values: dict[Any, float]) -> ExpectedSearch:
    def evaluate(state: TreePath, player: str) -> float:
        if game.is_terminal(state):
            return game.node(state).value or 0
        return values[(state, params.search == "best-leaf" or game.to_move(state) == player)]

    spec = GameSearchSpec(
        depth_limit=limit, evaluate=evaluate, evaluate_terminals=params.count_endgames, tie=params.tie
    )
    if params.search == "best-leaf":
        best = best_leaf_search(game, (), spec)
        return ExpectedSearch(spec, best, best.evaluations, best.evaluations)
    best = minimax_search(game, (), spec)
    pruned = alphabeta_search(game, (), spec).evaluations if params.search == "alphabeta" else best.evaluations
    return ExpectedSearch(spec, best, pruned, best.evaluations)


def _tree_search(check: Check[TreeSearchParams], ctx: CheckContext) -> CheckResult:
    params = check.params
    low, high = params.values
    strategy = game_trees(
        max_depth=params.max_depth,
        max_children=params.max_children,
        low=low,
        high=high,
        inner_values=params.inner_values,
    )
    drawn = collect_examples(
        strategy, examples=params.trees, run_seed=check_seed(ctx, check), cache_key=check_key(ctx, check)
    )
    trees = sorted(set(drawn), key=lambda tree: (tree.size(), str(tree)))
    asked = [(tree, limit) for tree in trees for limit in params.limits]
    values: dict[Any, dict[Any, float]] = {}
    if params.heuristic is not None:
        broken = _ask_heuristic(params, ctx, asked, values)
        if broken is not None:
            return gives_no_number(check, broken, "a node")
    heuristic = KernelName(ctx.resolve(params.heuristic.function)) if params.heuristic is not None else None
    search = ctx.student(params.call, answer_levels=params.path_label.count(".") + 1)
    answers = search.ask_many(
        ((str(tree), limit), _call_values(params, tree, limit, heuristic)) for tree, limit in asked
    )
    failures = []
    for (tree, limit), answer in zip(asked, answers):
        game = TreeGame(tree)
        expected = _expected(params, game, limit, values.get(tree, {}))
        mismatch = _judge(params, game, expected, answer)
        if mismatch is not None:
            failures.append((tree, limit, mismatch))
    if not failures:
        depths = "to the leaves" if params.to_the_end else depths_text(params.depth_limits)
        return CheckResult.for_check(
            check,
            CheckStatus.PASSED,
            f"Equals the reference on {len(trees)} random game trees {depths}: paths, scores and static evaluations",
            figures={"examples": len(asked)},
            notes=(PositionsTried(len(asked)),),
        )
    tree, limit, mismatch = min(failures, key=lambda f: (f[0].size(), f[1] or 0, str(f[0])))
    at = "searched to the leaves" if limit is None else f"at depth {limit}"
    return CheckResult.for_check(
        check,
        CheckStatus.FAILED,
        f"Wrong answer {at} on the tree {tree} ({tree.size()} nodes)",
        counterexample=Counterexample(None, f"{mismatch.call} on the tree {tree}", mismatch.expected, mismatch.actual),
        figures={"examples": len(asked), "failed": len(failures)},
        cause=Cause("local", mismatch.cause) if mismatch.cause else None,
    )


def _ask_heuristic(
    params: TreeSearchParams, ctx: CheckContext, asked: list[tuple[TreeNode, int | None]], values: dict[Any, Any]
) -> Answer | None:
    """The heuristic's value of every inner node at a depth limit, for each side, in one batch;
    or the first answer that is not a number."""
    assert params.heuristic is not None
    requests: dict[Any, dict[str, Any]] = {}
    for tree, limit in asked:
        game = TreeGame(tree)
        for state in _limited(game, limit):
            is_max = params.search == "best-leaf" or game.to_move(state) == game.to_move(())
            requests[(tree, state, is_max)] = {"tree": _made(params, game.node(state)), "is_max": is_max}
    asked_values, broken = heuristic_values(ctx.student(params.heuristic), requests)
    for (tree, state, is_max), value in asked_values.items():
        values.setdefault(tree, {})[(state, is_max)] = value
    return broken


def _call_values(
    params: TreeSearchParams, tree: TreeNode, limit: int | None, heuristic: KernelName | None
) -> dict[str, Any]:
    values: dict[str, Any] = {"state": params.made_state.fill({"tree": _made(params, tree)})}
    if heuristic is not None:
        values["heuristic"] = heuristic
    if limit is not None:
        values["depth_limit"] = limit
    return values


def _labels(params: TreeSearchParams, raw: Any) -> list[Any] | str:
    """The labels of the nodes of a returned path, or what it must be instead."""
    held = [held_at(item, params.path_label) for item in raw] if isinstance(raw, (list, tuple)) else []
    if not held or any(label is None for label in held):
        return f"a list of states, each with `{params.path_label}`"
    return held


def _judge(params: TreeSearchParams, game: TreeGame, expected: ExpectedSearch, answer: Answer) -> Mismatch | None:
    best = expected.best
    reference = PathReference(
        params.search,
        best.value,
        game.labels((), best.path),
        expected.evaluations,
        expected.unpruned,
        read=lambda raw: _labels(params, raw),
        show=lambda labels: "the path " + " ".join(map(str, labels)),
        counted=" (a leaf's value is one static evaluation)" if params.count_endgames else "",
    )
    if not answer.ok:
        return Mismatch(answer.call_text, reference.wanted, answer.given())
    return judge_path_answer(
        answer.call_text,
        answer.value,
        reference,
        lambda: f"the score differs: the reference's is {best.value:g}",
        lambda labels: _path_cause(params, game, expected, list(labels), list(reference.path)),
    )


def _path_cause(
    params: TreeSearchParams, game: TreeGame, expected: ExpectedSearch, labels: list[Any], reference: list[str]
) -> str:
    step = next((i for i, (a, b) in enumerate(zip(labels, reference)) if a != b), min(len(labels), len(reference)))
    if step == 0:
        return "the path must start with the state searched"
    if params.search == "best-leaf" and len(labels) == 1 < len(reference):
        return (
            "no leaf replaced the best the search started with: does the best score start above every leaf's "
            "(at 0) instead of below (at -inf, or the first leaf's)?"
        )
    if step >= min(len(labels), len(reference)):
        longer = "goes on past" if len(labels) > len(reference) else "stops before"
        return f"the path {longer} the end of the reference's ({' '.join(reference)})"
    state: TreePath = expected.best.path[: step - 1]
    node = game.node(state)
    taken = next((i for i, child in enumerate(node.children) if child.label == labels[step]), None)
    if params.search != "best-leaf" and taken is not None:
        spec = expected.spec
        limit = None if spec.depth_limit is None else spec.depth_limit - len(state)
        equal = minimax_search(game, state, replace(spec, depth_limit=limit), player=game.to_move(())).best_moves
        if taken in equal:
            names = " and ".join(node.children[i].label for i in equal)
            rule = "replace the best only by a strictly better one" if params.tie == "first" else "take the last"
            return (
                f"at {node.label}, {names} are equally good: keep the {params.tie} ({rule}); "
                f"your path goes to {labels[step]}"
            )
    return f"the path parts from the reference's after {node.label}"


TREE_SEARCH = CheckKind("tree-search", TreeSearchParams, _tree_search, any_game=True)
