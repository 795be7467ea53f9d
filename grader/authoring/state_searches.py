"""The course's state object and the searches that walk it, for `grader init`, read from what the
solution answers (MIT 6.034's games lab: ``AbstractGameState(board, is_game_over_fn,
generate_next_states_fn, endgame_score_fn)``, searches answering ``(path, score, evaluations)``).

The state class is a class of the course's support modules made from a position and the
solution's game functions: the order of its parameters is the one under which the solution's
simplest search, called on a position near the end of a game, answers a path, a score and a
count. Each search's other parameters are given what their names ask (a heuristic, a depth
limit, a maximizing flag, a window); the checks then decide the rest (`grader.authoring.state_inference`).
The course's game trees are read the same way: a class made from a label, a value and children,
and the course's functions that answer, of a node, whether it is a leaf, its children, a leaf's
value and an inner node's static value.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from grader.authoring.discovery import Discovered, Function
from grader.authoring.game_encoding import SCREEN_SECONDS
from grader.authoring.state_board import BoardObject
from grader.checks.context import CallRunner
from grader.execution.channel.call_data import Call, KernelMade, KernelName, RemoteObject
from reference.connect4 import ConnectK
from reference.connect_endings import play

_SLOT_HINTS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("-inf", ("alpha", "lower", "low")),
    ("inf", ("beta", "upper", "high")),
    ("heuristic", ("heuristic", "eval", "static")),
    ("depth_limit", ("depth", "limit", "ply", "plies", "horizon")),
    ("True", ("max", "is_max", "maximiz", "player")),
)
"""What a search's parameter is given, by what its name asks for."""
_GAME_HINTS = {
    "terminal": ("over", "terminal", "done", "finished", "is_end"),
    "next-boards": ("next", "children", "successor", "generate", "moves", "expand"),
    "endgame-score": ("score", "value", "utility", "payoff"),
}
_NODE_HINTS = {
    "label": ("label", "name", "id", "tag", "key"),
    "value": ("value", "score", "utility", "val", "static"),
    "children": ("children", "kids", "branches", "subtrees", "successors"),
}


@dataclass(frozen=True)
class SearchCall:
    """A search of the state: the call the checks make, and what its parameters are given."""

    function: str
    slots: tuple[str, ...]
    """After the state: what each parameter is given (``heuristic``, ``depth_limit``, ``True``...)."""

    @property
    def call_text(self) -> str:
        return f"{self.function}({', '.join(('state', *self.slots))})"

    @property
    def depth_limited(self) -> bool:
        return "depth_limit" in self.slots

    @property
    def windowed(self) -> bool:
        return "-inf" in self.slots


@dataclass(frozen=True)
class StateObject:
    """How the course's state is made from a position, and where its path's states hold the board."""

    text: str
    """``AbstractGameState(board, is_game_over_connectfour, next_boards_connectfour, endgame_score_connectfour)``."""
    factory: str
    order: tuple[str, ...]
    """The game roles its parameters after the position take, in order."""
    snapshot: str
    """The state's attribute that holds the position."""
    board_attribute: str
    """The board object's attribute that holds the board."""
    searches: tuple[SearchCall, ...]
    evidence: str

    def made_for(self, position: str, functions: dict[str, str]) -> str:
        """The state made from ``position`` and ``functions`` (role -> name), as Python."""
        return f"{self.factory}({', '.join([position, *(functions[role] for role in self.order)])})"


@dataclass(frozen=True)
class CourseTree:
    """The course's game tree: how a node is made and the course's functions of a node."""

    node: str
    """``GameTree(label, value, children)``."""
    label: str
    """The node's attribute that holds its label."""
    functions: dict[str, str]
    """Role (terminal, next-boards, endgame-score, heuristic) -> the course's function."""


def search_calls(functions: Sequence[Function]) -> list[SearchCall]:
    """Each function taking one required argument, the state, with its other parameters given
    what their names ask for; one whose parameter no name explains is left out."""
    found = []
    for function in functions:
        if len(function.required) != 1 or function.parameters[0].has_default:
            continue
        slots = []
        for parameter in function.parameters[1:]:
            name = parameter.name.lower()
            slot = next((s for s, hints in _SLOT_HINTS if any(h in name for h in hints)), None)
            if slot is None:
                break
            slots.append(slot)
        else:
            found.append(SearchCall(function.name, tuple(slots)))
    return found


def near_the_end(game: ConnectK, left: int = 6, seed: int = 0) -> tuple[int, ...]:
    """The columns of a game played (seeded) to ``left`` empty cells, nobody having won."""
    chance = random.Random(seed)
    while True:
        moves: list[int] = []
        state = game.initial_state()
        while len(moves) < game.rows * game.cols - left and not game.is_terminal(state):
            col = chance.choice(list(game.actions(state)))
            moves.append(col)
            state = game.result(state, col)
        if not game.is_terminal(state):
            return tuple(moves)


def read_state(
    runner: CallRunner,
    course: Discovered,
    board: BoardObject,
    game: ConnectK,
    roles: dict[str, str],
    searches: Sequence[SearchCall],
) -> StateObject | str:
    """The state class and the order of its parameters, or why none was found. ``roles``: the
    solution's function of each game role (terminal, next-boards, endgame-score)."""
    if not searches:
        return "no function of the solution takes one state and gives its other parameters what their names ask"
    simplest = min(searches, key=lambda s: len(s.slots))
    grid = board.encoding.encode(play(game, near_the_end(game)))
    wanted = [r for r in _GAME_HINTS if r in roles]
    for factory, parameters in course.classes.items():
        required = [p for p in parameters if not p.has_default]
        if len(required) != 1 + len(wanted):
            continue
        for order in _orders(wanted, [p.name.lower() for p in required[1:]]):
            made = KernelMade(factory, (board.make(grid), *(KernelName(roles[r]) for r in order)))
            args = tuple(_literal(slot) for slot in simplest.slots)
            (outcome,) = runner.call_many(
                [Call(simplest.function, (made, *args), timeout=SCREEN_SECONDS, check_mutation=False)]
            )
            if not (outcome.ok and _answers_a_path(outcome.value)):
                continue
            (state,) = runner.call_many([Call(factory, made.args, timeout=SCREEN_SECONDS, check_mutation=False)])
            snapshot = _attribute_holding(state.value, board.factory) if state.ok else None
            if snapshot is None:
                continue
            text = f"{factory}({', '.join(['board', *(roles[r] for r in order)])})"
            evidence = (
                f"`{simplest.call_text}` answers (path, score, evaluations) on a state made as `{text}`, "
                f"the position in `.{snapshot}`"
            )
            return StateObject(text, factory, tuple(order), snapshot, board.attribute, tuple(searches), evidence)
    given = ", ".join(roles[r] for r in wanted)
    return f"no class of the course's modules, made from a board and {given}, is walked by `{simplest.function}`"


def answers_by_depth(
    runner: CallRunner,
    board: BoardObject,
    game: ConnectK,
    roles: dict[str, str],
    state: StateObject,
    search: SearchCall,
) -> str | None:
    """Where a progressive deepening keeps its answers, one per depth from 1: ``""`` when the
    call answers the list itself, else the attribute of the object it answers that holds it
    (MIT 6.034's ``AnytimeValue.history``); None for a search that answers once."""
    if not search.depth_limited:
        return None
    grid = board.encoding.encode(play(game, near_the_end(game)))
    made = KernelMade(state.factory, (board.make(grid), *(KernelName(roles[r]) for r in state.order)))
    args = tuple(_literal(slot) for slot in search.slots)
    (outcome,) = runner.call_many([Call(search.function, (made, *args), timeout=SCREEN_SECONDS, check_mutation=False)])
    if not outcome.ok:
        return None
    if _each_depth(outcome.value):
        return ""
    held = outcome.value.attributes if isinstance(outcome.value, RemoteObject) else None
    return next((name for name, value in (held or {}).items() if _each_depth(value)), None)


def _each_depth(value: Any) -> bool:
    """One (path, score, evaluations) answer for each depth from 1 to the limit (2) asked."""
    return isinstance(value, (list, tuple)) and len(value) == 2 and all(_answers_a_path(v) for v in value)


def _orders(roles: list[str], names: list[str]) -> list[tuple[str, ...]]:
    """Every order of ``roles`` over the parameters ``names``, those the names suggest first."""

    def fit(order: tuple[str, ...]) -> int:
        return -sum(any(h in name for h in _GAME_HINTS[role]) for name, role in zip(names, order))

    return sorted(itertools.permutations(roles), key=fit)


def _literal(slot: str) -> Any:
    return {"-inf": float("-inf"), "inf": float("inf"), "True": True, "depth_limit": 2}.get(
        slot, KernelName("always_zero") if slot == "heuristic" else slot
    )


def _answers_a_path(value: Any) -> bool:
    if not isinstance(value, (list, tuple)) or len(value) != 3:
        return False
    path, score, count = value
    return (
        isinstance(path, (list, tuple))
        and bool(path)
        and all(isinstance(step, RemoteObject) for step in path)
        and isinstance(score, (int, float))
        and isinstance(count, int)
    )


def _attribute_holding(value: Any, type_name: str) -> str | None:
    if not isinstance(value, RemoteObject):
        return None
    short = type_name.rsplit(".", 1)[-1]
    return next(
        (
            name
            for name, held in (value.attributes or {}).items()
            if isinstance(held, RemoteObject) and held.type_name == short
        ),
        None,
    )


def read_tree(runner: CallRunner, course: Discovered) -> CourseTree | None:
    """The course's game tree, when its modules have one: a class made from a label, a value and
    children, and the functions of a node that answer as a leaf test, its children, a leaf's
    value and an inner node's static value do."""
    for factory, parameters in course.classes.items():
        names = [p.name.lower() for p in parameters]
        mapping = {}
        for role, hints in _NODE_HINTS.items():
            match = next((p.name for p, n in zip(parameters, names) if any(h in n for h in hints)), None)
            if match is not None:
                mapping[role] = match
        if len(mapping) != 3 or any(not p.has_default and p.name not in mapping.values() for p in parameters):
            continue

        leaf = _node(factory, mapping, "L", 3, [])
        inner = _node(factory, mapping, "A", 2, [leaf])
        bare = _node(factory, mapping, "B", None, [leaf])
        (made,) = runner.call_many([Call(factory, kwargs=dict(inner.kwargs), timeout=SCREEN_SECONDS)])
        held = made.value.attributes if made.ok and isinstance(made.value, RemoteObject) else None
        label = next((a for a, v in (held or {}).items() if v == "A"), None)
        if label is None:
            continue
        functions = _tree_functions(runner, course, factory, leaf, inner, bare)
        if set(functions) == {"terminal", "next-boards", "endgame-score", "heuristic"}:
            order = sorted(mapping, key=lambda r: names.index(mapping[r].lower()))
            return CourseTree(f"{factory}({', '.join(order)})", label, functions)
    return None


def _node(factory: str, mapping: dict[str, str], label: str, value: int | None, children: list[Any]) -> KernelMade:
    given = {"label": label, "value": value, "children": children}
    return KernelMade(factory, (), tuple((mapping[role], given[role]) for role in ("label", "value", "children")))


def _tree_functions(
    runner: CallRunner, course: Discovered, factory: str, leaf: KernelMade, inner: KernelMade, bare: KernelMade
) -> dict[str, str]:
    """Role -> the course's function of a node that answers it."""
    found: dict[str, str] = {}
    short = factory.rsplit(".", 1)[-1]
    for function in course.functions:
        if function.owner is not None:
            continue
        arity = len(function.required)
        asked: list[tuple[Any, ...]]
        if arity == 1:
            asked = [(leaf,), (inner,)]
        elif arity == 2:
            asked = [(leaf, True), (leaf, False), (inner, True), (bare, True)]
        else:
            continue
        calls = [Call(function.name, args, timeout=SCREEN_SECONDS, check_mutation=False) for args in asked]
        outcomes = runner.call_many(calls)
        if not all(o.ok for o in outcomes):
            continue
        values = [o.value for o in outcomes]
        if arity == 1 and values == [True, False]:
            found.setdefault("terminal", function.name)
        elif arity == 1 and values[0] == [] and _nodes(values[1], short) == 1:
            found.setdefault("next-boards", function.name)
        elif arity == 2 and values[:2] == [3, 3] and values[2] == 2 and values[3] is None:
            found.setdefault("endgame-score", function.name)
        elif arity == 2 and values[:3] == [3, 3, 2] and isinstance(values[3], (int, float)):
            found.setdefault("heuristic", function.name)
    return found


def _nodes(value: Any, type_name: str) -> int:
    if not isinstance(value, (list, tuple)) or not all(
        isinstance(v, RemoteObject) and v.type_name == type_name for v in value
    ):
        return -1
    return len(value)
