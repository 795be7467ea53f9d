"""The inputs of the state-objects lab's oracle (`state_oracle.py`): the course's own modules, imported from its
support folder, and the positions and trees the lab's functions are called on, all seeded: games played from
the empty board (`state_rules.playout`), positions near their end, quiet positions for a depth limit, random
abstract trees of the course's `toytree`."""

from __future__ import annotations

import importlib.util
import random
import sys
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

from tests.classes import state_rules as rules

SUPPORT = Path(__file__).parent.parent / "courses" / "support-state-objects" / "support"
SEED = 6034
GAMES = 4  # games played for the board functions' positions, besides four that fill the board
TREES = 16
FILLED_TAIL = 10  # of a game that fills the board, the positions kept: its last ten
DEPTH_POSITIONS = 2


def course_modules() -> tuple[ModuleType, ModuleType]:
    """The course's `game_api` and `toytree`, loaded from its support folder into ``sys.modules``
    under their names, so that a hand-in's ``import game_api`` finds them. ``sys.path`` is left as
    it is: a folder put there would make the course's modules look installed to every later test
    in the process (`grader.authoring.support_modules` tells a course's module from an installed
    one by it)."""
    loaded = []
    for name in ("game_api", "toytree"):
        path = SUPPORT / f"{name}.py"
        module = sys.modules.get(name)
        if module is None or Path(getattr(module, "__file__", "") or "").resolve() != path.resolve():
            spec = importlib.util.spec_from_file_location(name, path)
            assert spec is not None and spec.loader is not None, path
            module = importlib.util.module_from_spec(spec)
            sys.modules[name] = module
            spec.loader.exec_module(module)
        loaded.append(module)
    game_api, toytree = loaded
    return game_api, toytree


@cache
def played_positions() -> tuple[rules.Position, ...]:
    """Every position of GAMES seeded games, without repeats, in the order played; then the last FILLED_TAIL of
    the first two games after them that fill the board drawn and of the first two that fill it with a win on
    the last cell; then the first game won in each direction no game before has a four in."""
    rng = random.Random(SEED)
    games = [rules.playout(rng, win_chance=0.5 if game % 2 else 0.0) for game in range(GAMES)]
    filled = {True: 0, False: 0}  # won on the last cell -> games kept
    while min(filled.values()) < 2:
        game = rules.playout(rng, win_chance=0.0)
        last = game[-1][0]
        if rules.full(last) and filled[rules.won(last)] < 2:
            filled[rules.won(last)] += 1
            games.append(game[-FILLED_TAIL:])
    directions = set().union(*(rules.four_directions(game[-1][0]) for game in games))
    while len(directions) < len(rules.DIRECTIONS):  # then a game won in each direction not seen yet
        game = rules.playout(rng, win_chance=1.0)
        if rules.four_directions(game[-1][0]) - directions:
            directions |= rules.four_directions(game[-1][0])
            games.append(game)
    seen: dict[rules.Position, None] = {}
    for game in games:
        for position in game:
            seen.setdefault(position, None)
    return tuple(seen)


def empty_cells(position: rules.Position) -> int:
    return sum(row.count(0) for row in position[0])


@cache
def near_end_positions() -> tuple[rules.Position, ...]:
    """Unfinished positions with 3 to 5 empty cells: searched to the end of the game."""
    found = [p for p in played_positions() if not rules.over(p[0]) and 3 <= empty_cells(p) <= 5]
    return tuple(random.Random(SEED).sample(found, min(6, len(found))))


def quiet(position: rules.Position, plies: int = 2) -> bool:
    """No game ends within ``plies`` moves: a search to a small depth limit is decided by the heuristic."""
    if rules.over(position[0]):
        return False
    return plies == 0 or all(quiet(child, plies - 1) for child in rules.children(position))


@cache
def depth_positions() -> tuple[rules.Position, ...]:
    """Quiet unfinished positions with 12 to 28 empty cells: searched to a depth limit."""
    found = [p for p in played_positions() if 12 <= empty_cells(p) <= 28 and quiet(p)]
    return tuple(random.Random(SEED + 1).sample(found, min(DEPTH_POSITIONS, len(found))))


@cache
def trees() -> tuple[Any, ...]:
    _, toytree = course_modules()
    rng = random.Random(SEED)
    return tuple(rules.random_tree(rng, toytree.GameTree, depth=rng.choice((2, 3, 4))) for _ in range(TREES))


def board_of(position: rules.Position) -> Any:
    game_api, _ = course_modules()
    return game_api.ConnectFourBoard([list(row) for row in position[0]])


def position_of(board: Any) -> rules.Position:
    return board.board_array, 1 if board.whose_turn == board.players[0] else 2


def show(position: rules.Position) -> str:
    return "/".join("".join(str(cell) for cell in row) for row in position[0])


# -- the course's objects, for the cases written out by hand ---------------------------------------------------


def board(text: str) -> Any:
    """Six rows, the top first: ``.`` empty, ``1`` and ``2`` the players' pieces."""
    game_api, _ = course_modules()
    return game_api.ConnectFourBoard([[int(c) if c != "." else 0 for c in row] for row in text.split("/")])


def played(columns: str) -> Any:
    """The board after these moves from the empty one, a column each."""
    game_api, _ = course_modules()
    position = game_api.ConnectFourBoard()
    for column in columns:
        position = position.add_piece(int(column))
    return position


def tree_state(node: Any) -> Any:
    game_api, toytree = course_modules()
    return game_api.AbstractGameState(node, toytree.tree_is_over, toytree.tree_children, toytree.tree_endgame_value)


def board_state(module: ModuleType, position: Any) -> Any:
    """The state as the lab's own program makes it: from the hand-in's own board functions."""
    game_api, _ = course_modules()
    return game_api.AbstractGameState(
        position, module.is_game_over_connectfour, module.next_boards_connectfour, module.endgame_score_connectfour
    )


def labels(answer: Any) -> tuple[list[str], Any, Any]:
    """A search's answer on a tree: the labels of its path, its score, its evaluations."""
    path, score, evaluations = answer
    return [step.get_snapshot().label for step in path], score, evaluations
