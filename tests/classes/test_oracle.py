"""The two classes of hand-ins against the oracle, and the oracle against hand-written cases.

`expected.toml` pins, per hand-in, whether it imports, which functions the oracle finds defective and the
first counterexample it names. The hand-written cases below are independent of the oracle: each is one
call on a board written out by hand, so a planted mistake that the oracle stopped seeing, or a correct
hand-in that a case contradicts, fails here.
"""

from __future__ import annotations

import importlib.util
import itertools
import sys
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tests.classes.oracle import (
    COURSES,
    DEFAULT_SCOPE,
    EMPTY_POSITION,
    Verdict,
    game_value,
    is_terminal,
    iter_handins,
    judge_handin,
    optimal_indices,
    reachable_positions,
)

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib  # type: ignore[import-not-found,unused-ignore]

HERE = Path(__file__).parent
COURSE_NAMES = ("cs50", "codecademy")
EXPECTED: dict[str, dict[str, dict[str, Any]]] = {
    course: tomllib.loads((HERE / course / "expected.toml").read_text())["handins"] for course in COURSE_NAMES
}
HANDINS = [(course, path) for course in COURSE_NAMES for path in iter_handins(HERE / course)]
HANDIN_IDS = [f"{course}-{path.stem}" for course, path in HANDINS]


@pytest.fixture(scope="session")
def verdicts() -> dict[tuple[str, str], Verdict]:
    """Every hand-in judged once per session, two subprocesses at a time (the machine has two cores)."""
    with ThreadPoolExecutor(max_workers=2) as pool:
        judged = pool.map(lambda job: judge_handin(job[0], job[1]), HANDINS)
        return {(course, path.stem): verdict for (course, path), verdict in zip(HANDINS, judged)}


def test_the_oracle_knows_the_game() -> None:
    """Known facts of tic-tac-toe: 5,478 legal positions, 958 of them finished; every opening draws."""
    positions = reachable_positions()
    assert len(positions) == len(set(positions)) == 5478
    assert sum(is_terminal(position) for position in positions) == 958
    assert game_value(EMPTY_POSITION) == 0
    assert optimal_indices(EMPTY_POSITION) == set(range(9))


def test_every_handin_has_an_expectation() -> None:
    for course in COURSE_NAMES:
        on_disk = {path.stem for path in iter_handins(HERE / course)}
        assert on_disk == set(EXPECTED[course]), course
        assert len(on_disk) >= 30, course


@pytest.mark.parametrize(("course", "path"), HANDINS, ids=HANDIN_IDS)
def test_oracle_matches_expected(course: str, path: Path, verdicts: dict[tuple[str, str], Verdict]) -> None:
    verdict = verdicts[(course, path.stem)]
    expected = EXPECTED[course][path.stem]
    assert verdict.imports == expected["imports"], verdict.import_error
    assert verdict.defects == expected.get("defective", {})
    assert verdict.through == expected.get("through", {})


# The search from the empty board is measured only where the oracle finds minimax correct.
MEASURED = [
    (course, path)
    for course, path in HANDINS
    if EXPECTED[course][path.stem]["imports"] and "minimax" not in EXPECTED[course][path.stem].get("defective", {})
]


@pytest.fixture(scope="session")
def measurements() -> dict[tuple[str, str], Verdict]:
    with ThreadPoolExecutor(max_workers=2) as pool:
        measured = pool.map(lambda job: judge_handin(job[0], job[1], measure_slow=True), MEASURED)
        return {(course, path.stem): verdict for (course, path), verdict in zip(MEASURED, measured)}


def test_slow_is_recorded_exactly_for_a_correct_minimax() -> None:
    for course, path in HANDINS:
        assert ("slow" in EXPECTED[course][path.stem]) == ((course, path) in MEASURED), (course, path.stem)


@pytest.mark.slow
@pytest.mark.parametrize(("course", "path"), MEASURED, ids=[f"{c}-{p.stem}" for c, p in MEASURED])
def test_slow_search_from_the_empty_board(
    course: str, path: Path, measurements: dict[tuple[str, str], Verdict]
) -> None:
    """A search without pruning or memo is "slow" (a count of positions, not a clock); slow is not a defect."""
    verdict = measurements[(course, path.stem)]
    assert verdict.slow == EXPECTED[course][path.stem]["slow"], verdict.empty_board_positions


# ---- hand-written cases -------------------------------------------------------------------------------

Board = list[list[Any]]


def rows(text: str, empty: Callable[[int], Any]) -> Board:
    """'X.O|...|..X' -> a board; `empty(index)` is what a free cell holds in the course's encoding."""
    cells = text.replace("|", "")
    return [[empty(3 * r + c) if cells[3 * r + c] == "." else cells[3 * r + c] for c in range(3)] for r in range(3)]


def cs50(text: str) -> Board:
    return rows(text, lambda index: None)


def cc(text: str) -> Board:
    return rows(text, lambda index: str(index + 1))


def raises(function: Callable[..., Any], *args: Any) -> bool:
    try:
        function(*args)
    except Exception:
        return True
    return False


def unchanged_after(function: Callable[..., Any], board: Board, *args: Any) -> bool:
    before = [list(row) for row in board]
    function(board, *args)
    return board == before


# Each case: (the function it is about, a check that is True for a correct hand-in).
Case = tuple[str, Callable[[ModuleType], bool]]

CS50_CASES: dict[str, Case] = {
    "player_empty": ("player", lambda m: m.player(cs50("...|...|...")) == "X"),
    "player_one_each": ("player", lambda m: m.player(cs50("XO.|...|...")) == "X"),
    "actions_skip_o": (
        "actions",
        lambda m: set(m.actions(cs50("XO.|...|...")) or ()) == {(0, 2), *itertools.product((1, 2), range(3))},
    ),
    "result_negative": ("result", lambda m: raises(m.result, cs50("...|...|..."), (-1, 0))),
    "result_3_3": ("result", lambda m: raises(m.result, cs50("...|...|..."), (3, 3))),
    "result_occupied": ("result", lambda m: raises(m.result, cs50("X..|...|..."), (0, 0))),
    "result_untouched": ("result", lambda m: unchanged_after(m.result, cs50("X..|...|..."), (1, 1))),
    "result_places": ("result", lambda m: m.result(cs50("X..|...|..."), (0, 1)) == cs50("XO.|...|...")),
    "winner_anti_diagonal": ("winner", lambda m: m.winner(cs50("OOX|.X.|X..")) == "X"),
    "winner_last_row": ("winner", lambda m: m.winner(cs50("...|OO.|XXX")) == "X"),
    "winner_column": ("winner", lambda m: m.winner(cs50("XOO|X..|X..")) == "X"),
    "winner_none_on_draw": ("winner", lambda m: m.winner(cs50("XOX|XOO|OXX")) is None),
    "terminal_full_draw": ("terminal", lambda m: m.terminal(cs50("XOX|XOO|OXX")) is True),
    "utility_o_wins": ("utility", lambda m: m.utility(cs50("OOO|XX.|X..")) == -1),
    "minimax_finished": (
        "minimax",
        lambda m: not raises(m.minimax, cs50("XOO|X..|X..")) and m.minimax(cs50("XOO|X..|X..")) is None,
    ),
    # O to move, X threatens (1, 0) and (0, 2): every move loses, but a move is still owed.
    "minimax_all_lose": ("minimax", lambda m: m.minimax(cs50("...|.XX|XOO")) in {(0, 0), (0, 1), (0, 2), (1, 0)}),
    # O to move wins at once in (1, 0); anything else lets X win.
    "minimax_win_now": ("minimax", lambda m: m.minimax(cs50("..X|.OO|.XX")) == (1, 0)),
    # X to move must block (1, 0).
    "minimax_block": ("minimax", lambda m: m.minimax(cs50("..X|.OO|.X.")) == (1, 0)),
}

CC_CASES: dict[str, Case] = {
    "select_space_zero": ("select_space", lambda m: m.select_space(cc("...|...|..."), 0, "X") is False),
    "select_space_zero_untouched": (
        "select_space",
        lambda m: unchanged_after(m.select_space, cc("...|...|..."), 0, "X"),
    ),
    "select_space_taken": ("select_space", lambda m: m.select_space(cc("X..|...|..."), 1, "O") is False),
    "has_won_anti_diagonal": ("has_won", lambda m: m.has_won(cc("OOX|.X.|X.."), "X") is True),
    "has_won_column": ("has_won", lambda m: m.has_won(cc("XOO|X..|X.."), "X") is True),
    "game_is_over_full_draw": ("game_is_over", lambda m: bool(m.game_is_over(cc("XOX|XOO|OXX")))),
    "evaluate_o_wins": ("evaluate_board", lambda m: m.evaluate_board(cc("OOO|XX.|X..")) == -1),
    "minimax_finished": ("minimax", lambda m: m.minimax(cc("XOO|X..|X.."), False)[0] == 1),
    "minimax_untouched": ("minimax", lambda m: unchanged_after(m.minimax, cc("..X|.OO|.XX"), False)),
    "minimax_win_now": ("minimax", lambda m: list(m.minimax(cc("..X|.OO|.XX"), False)) == [-1, 4]),
    "minimax_block": ("minimax", lambda m: list(m.minimax(cc("..X|.OO|.X."), True)) == [0, 4]),
    "minimax_all_lose": ("minimax", lambda m: m.minimax(cc("...|.XX|XOO"), False)[1] in {1, 2, 3, 4}),
    # O to move; X's two marks on the middle row's ends win whatever O does (found by hand: O must take 5,
    # then X forks with 1 or 9).
    "minimax_lost_early": ("minimax", lambda m: m.minimax(cc("..O|X.X|..."), False)[0] == -1),
}

CASES = {"cs50": CS50_CASES, "codecademy": CC_CASES}

# The mistakes planted on purpose: hand-in -> the cases it must fail, the planted one and those it drags along
# (a minimax built on a wrong winner or result fails too). A case left out here must pass.
PLANTED: dict[tuple[str, str], set[str]] = {
    ("cs50", "uma"): {"result_negative"},
    ("cs50", "victor"): {"result_negative"},
    ("cs50", "wen"): {"result_negative", "minimax_finished"},
    ("cs50", "xavier"): {"result_negative", "minimax_all_lose"},
    ("cs50", "yara"): {"result_negative", "result_occupied"},
    ("cs50", "zeynep"): {"result_3_3", "result_negative"},
    ("cs50", "adele"): {"result_untouched", "minimax_all_lose", "minimax_block", "minimax_win_now"},
    ("cs50", "bilal"): {"player_one_each", "minimax_block", "minimax_win_now"},
    ("cs50", "carmen"): {"result_negative", "winner_anti_diagonal"},
    ("cs50", "dmitri"): {"winner_last_row", "terminal_full_draw", "minimax_finished"},
    ("cs50", "esra"): {
        "actions_skip_o",
        "result_negative",
        "result_occupied",
        "utility_o_wins",
        "minimax_all_lose",
        "minimax_block",
        "minimax_win_now",
    },
    ("cs50", "felix"): {
        "player_empty",
        "player_one_each",
        "result_places",
        "winner_column",
        "winner_none_on_draw",
        "minimax_finished",
        "minimax_all_lose",
        "minimax_block",
        "minimax_win_now",
    },
    ("cs50", "greta"): {"minimax_win_now"},
    ("cs50", "hugo"): {"result_negative", "minimax_block"},
    ("codecademy", "tomas"): {"minimax_block"},
    ("codecademy", "ursula"): {"minimax_block"},
    ("codecademy", "vikram"): {"minimax_untouched", "minimax_block", "minimax_lost_early", "minimax_win_now"},
    ("codecademy", "wanda"): {"minimax_win_now", "minimax_block"},
    ("codecademy", "ximena"): {"minimax_win_now", "minimax_all_lose", "minimax_block", "minimax_lost_early"},
    ("codecademy", "yusuf"): {"minimax_all_lose"},
    ("codecademy", "zoe"): {"minimax_lost_early"},
    ("codecademy", "anton"): {"has_won_anti_diagonal", "minimax_lost_early"},
    ("codecademy", "beatriz"): {"select_space_zero", "select_space_zero_untouched"},
    ("codecademy", "cyrus"): {"game_is_over_full_draw", "minimax_all_lose", "minimax_block"},
    ("codecademy", "dalia"): {"minimax_win_now", "minimax_block", "minimax_lost_early"},
    ("codecademy", "emil"): {
        "has_won_column",
        "evaluate_o_wins",
        "minimax_finished",
        "minimax_block",
        "minimax_win_now",
    },
    ("codecademy", "freya"): {
        "minimax_win_now",
        "minimax_all_lose",
        "minimax_block",
        "minimax_lost_early",
        "minimax_untouched",
    },
}


def load_handin(course: str, path: Path) -> ModuleType:
    name = f"{COURSES[course].module_name}_{path.stem}"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def passes(module: ModuleType, case: Case) -> bool:
    try:
        return bool(case[1](module))
    except Exception:  # a crash on a hand-written board is a failed case
        return False


IMPORTING = [(course, path) for course, path in HANDINS if EXPECTED[course][path.stem]["imports"]]


@pytest.mark.parametrize(("course", "path"), IMPORTING, ids=[f"{c}-{p.stem}" for c, p in IMPORTING])
def test_hand_written_cases(course: str, path: Path, verdicts: dict[tuple[str, str], Verdict]) -> None:
    """The planted mistakes fail their cases and the oracle flags their functions; the rest pass."""
    module = load_handin(course, path)
    failed = {name for name, case in CASES[course].items() if not passes(module, case)}
    assert failed == PLANTED.get((course, path.stem), set())
    flagged = set(verdicts[(course, path.stem)].defects)
    assert {CASES[course][name][0] for name in failed} <= flagged


def test_every_planted_handin_is_defective_and_every_other_one_correct(
    verdicts: dict[tuple[str, str], Verdict],
) -> None:
    for (course, stem), verdict in verdicts.items():
        if verdict.imports:
            assert bool(verdict.defects) == ((course, stem) in PLANTED), (course, stem)


def test_the_handouts_stubs_are_defective_and_their_given_functions_correct() -> None:
    cs50_handout = judge_handin("cs50", HERE / "cs50" / "handout.py")
    assert set(cs50_handout.defects) == set(COURSES["cs50"].functions) - {"initial_state"}
    cc_handout = judge_handin("codecademy", HERE / "codecademy" / "handout.py")
    assert set(cc_handout.defects) == {"minimax"}


@pytest.mark.parametrize("course", COURSE_NAMES)
def test_the_oracles_correct_versions_pass_its_own_checks(course: str) -> None:
    """The stand-ins that tell a function's own mistake from an inherited one are themselves right."""
    judge = COURSES[course]
    module = ModuleType(f"correct_{course}")
    for name, function in judge.correct_versions().items():
        setattr(module, name, function)
    checks = judge.checks(DEFAULT_SCOPE)
    assert set(judge.correct_versions()) == set(judge.functions) - {"minimax"}
    for name in judge.correct_versions():
        checks[name](module)  # raises Defect on the first wrong answer
