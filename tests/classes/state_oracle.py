"""A judge of the state-objects games lab (`state_lab/`), written for the tests and sharing no code with the
grader: each function of a hand-in is called on the course's own objects (`ConnectFourBoard`,
`AbstractGameState`, `toytree`'s trees, from the course's support modules) and its answer compared with the
lab's rules as `state_rules.py` writes them again.

- The board functions on every position of seeded games played from the empty board.
- The searches on seeded random abstract trees and on Connect-Four positions reached by play near the end,
  exactly: the path (its states' positions, or the trees' labels), the score and the evaluations, of equal
  moves the earliest. On Connect Four the state is made, as the lab's own program makes it, from the
  hand-in's own board functions; the heuristic handed to a search is the lab's (`state_rules`), so that a
  search is never judged through the hand-in's heuristic.
- A defective function that is right once the hand-in's other defective functions are replaced by correct
  ones (put in its globals) is wrong only through them (`through`).

One hand-in by hand: ``.venv/bin/python -m tests.classes.state_oracle tests/classes/state_lab/handins/ada.py``.
"""

from __future__ import annotations

import contextlib
import importlib.util
import io
import json
import math
import sys
from collections.abc import Callable, Iterator
from functools import cache, partial
from pathlib import Path
from types import ModuleType
from typing import Any

from tests.classes import state_rules as rules
from tests.classes.oracle import Defect, Verdict, guarded

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib  # type: ignore[import-not-found,unused-ignore]
from tests.classes.state_inputs import (
    board_of,
    board_state,
    course_modules,
    depth_positions,
    near_end_positions,
    played_positions,
    position_of,
    show,
    tree_state,
    trees,
)

HERE = Path(__file__).parent
CLASS_DIR = HERE / "state_lab"
FUNCTIONS = (
    "is_game_over_connectfour",
    "next_boards_connectfour",
    "endgame_score_connectfour",
    "heuristic_connectfour",
    "dfs_maximizing",
    "minimax_endgame_search",
    "minimax_search",
    "minimax_search_alphabeta",
    "progressive_deepening",
)
DEPTH_LIMITS = (1, 2, 3)


# -- the course's states, made as the lab makes them ---------------------------------------------------------


def connect_four_state(module: ModuleType, position: rules.Position) -> Any:
    return board_state(module, board_of(position))


def lab_heuristic(board: Any, is_max: bool) -> int:
    """The lab's heuristic on the course's board, handed to the searches on Connect Four."""
    return rules.heuristic_value(position_of(board), is_max)


def tree_heuristic(node: Any, is_max: bool) -> Any:
    return course_modules()[1].tree_heuristic(node, is_max)


def answer_keys(got: Any, key: Callable[[Any], Any], what: str) -> rules.Answer:
    """A search's (path, score, evaluations), its path as the keys of its states' snapshots."""
    try:
        path, score, evaluations = got
        keys = [key(step.get_snapshot()) for step in path]
    except Exception:
        raise Defect(f"{what}: answers {got!r:.200}, not (path of states, score, evaluations)") from None
    return keys, score, evaluations


def compare(got: rules.Answer, expected: rules.Answer, what: str) -> None:
    got_path, expected_path = got[0], expected[0]
    if got_path != expected_path:
        if len(got_path) != len(expected_path):
            raise Defect(f"{what}: a path of {len(got_path)} states, not {len(expected_path)}")
        step = next(i for i, (a, b) in enumerate(zip(got_path, expected_path)) if a != b)
        raise Defect(f"{what}: path step {step} {got_path[step]}, not {expected_path[step]}")
    for part, g, e in zip(("score", "evaluations"), got[1:], expected[1:]):
        if g != e:
            raise Defect(f"{what}: {part} {g!r:.100}, not {e}")


def cf_key(board: Any) -> Any:
    return show(position_of(board))


def tree_key(node: Any) -> Any:
    return node.label


# -- the checks, one a function ------------------------------------------------------------------------------


@cache
def board_answers() -> dict[rules.Position, tuple[bool, list[str], dict[bool, int]]]:
    """For each played position: over or not, its children as shown, and its value for each flag (the
    endgame score on a finished game, the heuristic's on an unfinished one)."""
    answers = {}
    for position in played_positions():
        finished = rules.over(position[0])
        value = (
            rules.endgame_value if finished else (lambda array, is_max, p=position: rules.heuristic_value(p, is_max))
        )
        answers[position] = (
            finished,
            [show(child) for child in rules.children(position)],
            {is_max: value(position[0], is_max) for is_max in (True, False)},
        )
    return answers


def check_is_game_over(module: ModuleType) -> None:
    for position, (finished, _, _) in board_answers().items():
        got = guarded(
            module.is_game_over_connectfour, f"is_game_over_connectfour on {show(position)}", board_of(position)
        )
        if bool(got) != finished:
            raise Defect(f"is_game_over_connectfour on {show(position)}: {got!r}, not {finished}")


def check_next_boards(module: ModuleType) -> None:
    for position, (_, expected, _) in board_answers().items():
        what = f"next_boards_connectfour on {show(position)}"
        got = guarded(module.next_boards_connectfour, what, board_of(position))
        try:
            got_keys = [show(position_of(board)) for board in got]
        except Exception:
            raise Defect(f"{what}: answers {got!r:.200}, not a list of boards") from None
        if got_keys != expected:
            raise Defect(f"{what}: {len(got_keys)} boards {got_keys[:2]}..., not {len(expected)} {expected[:2]}...")


def _check_values(module: ModuleType, name: str, on_finished: bool) -> None:
    for position, (finished, _, values) in board_answers().items():
        if finished != on_finished:
            continue
        for is_max in (True, False):
            what = f"{name} on {show(position)}, {is_max}"
            got = guarded(getattr(module, name), what, board_of(position), is_max)
            if got != values[is_max]:
                raise Defect(f"{what}: {got!r}, not {values[is_max]}")


def check_endgame_score(module: ModuleType) -> None:
    _check_values(module, "endgame_score_connectfour", on_finished=True)


def check_heuristic(module: ModuleType) -> None:
    _check_values(module, "heuristic_connectfour", on_finished=False)


@cache
def _cf_expected(position: rules.Position, **search: Any) -> rules.Answer:
    heuristic = rules.heuristic_value
    path, score, evaluations = rules.search(rules.CONNECT_FOUR, position, heuristic, **search)
    return [show(p) for p in path], score, evaluations


@cache
def _best_leaf(node: Any) -> rules.Answer:
    if isinstance(node, tuple):
        path, score, evaluations = rules.best_leaf(rules.CONNECT_FOUR, node)
        return [show(p) for p in path], score, evaluations
    return rules.best_leaf(rules.TREES, node)


def check_dfs(module: ModuleType) -> None:
    for node in trees():
        what = f"dfs_maximizing on {node}"
        got = answer_keys(guarded(module.dfs_maximizing, what, tree_state(node)), tree_key, what)
        compare(got, _best_leaf(node), what)
    for position in near_end_positions():
        what = f"dfs_maximizing on {show(position)}"
        got = answer_keys(guarded(module.dfs_maximizing, what, connect_four_state(module, position)), cf_key, what)
        compare(got, _best_leaf(position), what)


def check_endgame_search(module: ModuleType) -> None:
    for i, node in enumerate(trees()):
        maximize = i % 2 == 0
        what = f"minimax_endgame_search on {node}, {maximize}"
        got = guarded(module.minimax_endgame_search, what, tree_state(node), maximize)
        compare(answer_keys(got, tree_key, what), _expected(node, math.inf, maximize, prune=False), what)
    for i, position in enumerate(near_end_positions()):
        maximize = i % 2 == 0
        what = f"minimax_endgame_search on {show(position)}, {maximize}"
        got = guarded(module.minimax_endgame_search, what, connect_four_state(module, position), maximize)
        compare(answer_keys(got, cf_key, what), _cf_expected(position, maximize=maximize), what)


def depth_limits(node: Any) -> tuple[float, ...]:
    """The depth limits a tree or a position is searched at; progressive deepening is asked for the deepest
    finite one. Depth 3 only near the end of a game, where few columns are open: in the middle it costs 343
    leaves a search."""
    if not isinstance(node, tuple):
        return (*DEPTH_LIMITS, math.inf)
    return DEPTH_LIMITS if node in near_end_positions() else DEPTH_LIMITS[:2]


def _depth_cases(
    module: ModuleType,
) -> Iterator[tuple[Any, str, Callable[[], Any], Callable[[Any], Any], Any, float, bool]]:
    """(the node or position, as shown, the state maker, its key, the heuristic handed to the search, the depth
    limit, maximize) for each tree and each position at each of its depth limits."""
    for i, node in enumerate(trees()):
        for depth in depth_limits(node):
            maximize = (i + depth) % 2 == 0 if depth != math.inf else i % 2 == 0
            yield node, str(node), partial(tree_state, node), tree_key, tree_heuristic, depth, maximize
    for i, position in enumerate(depth_positions() + near_end_positions()):
        for depth in depth_limits(position):
            maximize = (i + depth) % 2 == 0
            state = partial(connect_four_state, module, position)
            yield position, show(position), state, cf_key, lab_heuristic, depth, maximize


@cache
def _expected(node: Any, depth: float, maximize: bool, prune: bool) -> rules.Answer:
    if isinstance(node, tuple):
        return _cf_expected(node, depth_limit=depth, maximize=maximize, prune=prune)
    return rules.search(rules.TREES, node, tree_heuristic, depth, maximize, prune)


def check_minimax(module: ModuleType) -> None:
    for node, shown, make, key, heuristic, depth, maximize in _depth_cases(module):
        what = f"minimax_search on {shown}, depth {depth}, {maximize}"
        got = guarded(module.minimax_search, what, make(), heuristic, depth, maximize)
        compare(answer_keys(got, key, what), _expected(node, depth, maximize, prune=False), what)


def check_alphabeta(module: ModuleType) -> None:
    for node, shown, make, key, heuristic, depth, maximize in _depth_cases(module):
        what = f"minimax_search_alphabeta on {shown}, depth {depth}, {maximize}"
        got = guarded(module.minimax_search_alphabeta, what, make(), -math.inf, math.inf, heuristic, depth, maximize)
        compare(answer_keys(got, key, what), _expected(node, depth, maximize, prune=True), what)


def check_deepening(module: ModuleType) -> None:
    cases = [c for c in _depth_cases(module) if c[5] == max(d for d in depth_limits(c[0]) if d != math.inf)]
    for node, shown, make, key, heuristic, depth, maximize in cases:
        what = f"progressive_deepening on {shown}, depth {depth}, {maximize}"
        got = guarded(module.progressive_deepening, what, make(), heuristic, depth, maximize)
        history = getattr(got, "history", None)
        if not isinstance(history, list):
            raise Defect(f"{what}: answers {got!r:.200}, not an AnytimeValue")
        expected = [_expected(node, d, maximize, prune=True) for d in range(1, int(depth) + 1)]
        if len(history) != len(expected):
            raise Defect(f"{what}: {len(history)} answers, not one a depth ({len(expected)})")
        for d, (answer, wanted) in enumerate(zip(history, expected), start=1):
            compare(answer_keys(answer, key, f"{what}, at depth {d}"), wanted, f"{what}, at depth {d}")


CHECKS: dict[str, Callable[[ModuleType], None]] = dict(
    zip(
        FUNCTIONS,
        (
            check_is_game_over,
            check_next_boards,
            check_endgame_score,
            check_heuristic,
            check_dfs,
            check_endgame_search,
            check_minimax,
            check_alphabeta,
            check_deepening,
        ),
    )
)


# -- judging a hand-in ---------------------------------------------------------------------------------------


def load(path: Path) -> ModuleType:
    """The hand-in as a fresh module, its printing silenced, the course's support modules importable."""
    course_modules()
    spec = importlib.util.spec_from_file_location(f"lab_{path.stem}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    with contextlib.redirect_stdout(io.StringIO()):
        spec.loader.exec_module(module)
    return module


def run_check(name: str, module: ModuleType) -> str | None:
    """Why the function is defective (the first counterexample), or None."""
    if not callable(getattr(module, name, None)):
        return f"{name} is not defined"
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            CHECKS[name](module)
    except Defect as defect:
        return str(defect)
    return None


def judge_handin(path: Path) -> Verdict:
    try:
        module = load(path)
    except (Exception, SystemExit) as error:
        return Verdict(imports=False, import_error=f"{type(error).__name__}: {error}")
    verdict = Verdict(imports=True)
    for name in FUNCTIONS:
        reason = run_check(name, module)
        if reason is not None:
            verdict.defects[name] = reason
    verdict.through = inherited_defects(module, verdict.defects)
    return verdict


def inherited_defects(module: ModuleType, defects: dict[str, str]) -> dict[str, list[str]]:
    """Each defective function that is right once other defective functions are replaced by correct versions
    in the hand-in's globals -> those functions: each one alone that is enough, or else all of them together."""
    from tests.classes.state_correct import correct_versions

    correct = correct_versions()

    def right_without(name: str, others: list[str]) -> bool:
        saved = {other: getattr(module, other, None) for other in others}
        module.__dict__.update({other: correct[other] for other in others})
        try:
            return run_check(name, module) is None
        finally:
            module.__dict__.update(saved)

    through: dict[str, list[str]] = {}
    for name in defects:
        others = sorted(other for other in defects if other != name)
        alone = [other for other in others if right_without(name, [other])]
        if alone:
            through[name] = alone
        elif len(others) > 1 and right_without(name, others):
            through[name] = others
    return through


def expected_verdicts() -> dict[str, dict[str, Any]]:
    """`expected.toml`: per hand-in, ``imports``, ``defective`` and ``through``."""
    return tomllib.loads((CLASS_DIR / "expected.toml").read_text(encoding="utf-8"))["handins"]


def correct_handins() -> list[str]:
    return sorted(stem for stem, v in expected_verdicts().items() if v["imports"] and "defective" not in v)


def iter_handins() -> Iterator[Path]:
    yield from sorted((CLASS_DIR / "handins").glob("*.py"))


EXPECTED_HEADER = """\
# Verdicts of tests/classes/state_oracle.py on each hand-in (see ../README.md for the lab's rules).
# imports: whether the file imports; defective: function -> the first counterexample the oracle names;
# through: a defective function that is right once other defective functions of the hand-in are
# replaced by correct ones -> those functions (its mistake is theirs). Without `defective`: correct.
# Written by `python -m tests.classes.state_oracle --write` and reviewed against the planted mistakes.
"""


def expected_toml(verdicts: dict[str, Verdict]) -> str:
    lines = [EXPECTED_HEADER]
    for stem, verdict in verdicts.items():
        lines += ["", f"[handins.{stem}]", f"imports = {json.dumps(verdict.imports)}"]
        if not verdict.imports:
            lines.append(f"import_error = {json.dumps(verdict.import_error)}")
        if verdict.defects:
            lines.append(f"[handins.{stem}.defective]")
            lines += [f"{name} = {json.dumps(reason)}" for name, reason in verdict.defects.items()]
        if verdict.through:
            lines.append(f"[handins.{stem}.through]")
            lines += [f"{name} = {json.dumps(others)}" for name, others in verdict.through.items()]
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    if argv == ["--write"]:
        verdicts = {path.stem: judge_handin(path) for path in iter_handins()}
        (CLASS_DIR / "expected.toml").write_text(expected_toml(verdicts), encoding="utf-8")
        return 0
    for arg in argv or [str(p) for p in iter_handins()]:
        verdict = judge_handin(Path(arg))
        print(json.dumps({Path(arg).stem: {k: v for k, v in vars(verdict).items() if v not in (None, {}, "")}}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
