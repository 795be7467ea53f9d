"""The state-objects lab's fixed-assert yardstick runs the checks it claims: all of them pass on every hand-in
the oracle finds correct, and a planted mistake fails the check aimed at it and nothing else."""

from __future__ import annotations

import pytest

from tests.classes.state_fixed_checker import CHECKS, check_handin, run_checks
from tests.classes.state_oracle import CLASS_DIR, correct_handins

HANDINS = CLASS_DIR / "handins"


def test_every_correct_handin_passes_every_check() -> None:
    assert len(CHECKS) >= 30
    failing = {
        stem: [o for o in run_checks(HANDINS / f"{stem}.py")["outcomes"] if not o[2]] for stem in correct_handins()
    }
    assert {stem: outcomes for stem, outcomes in failing.items() if outcomes} == {}


@pytest.mark.parametrize(
    ("stem", "failed"),
    [
        ("quinn", ("minimax_search_alphabeta", "a cut-off where alpha equals beta")),
        ("yara", ("is_game_over_connectfour", "four diagonally")),
        ("hiro", ("next_boards_connectfour", "column 0 first")),
    ],
)
def test_a_planted_mistake_fails_the_check_aimed_at_it_and_nothing_else(stem: str, failed: tuple[str, str]) -> None:
    outcomes = run_checks(HANDINS / f"{stem}.py")["outcomes"]
    assert [(function, what) for function, what, passed in outcomes if not passed] == [failed]


def test_a_handin_that_does_not_import_fails_everything_in_a_fresh_interpreter() -> None:
    outcomes = check_handin(HANDINS / "gil.py")
    assert outcomes[:2] == [("file", "exists", True), ("file", "imports", False)]
    assert len(outcomes) == len(CHECKS) + 2
    assert not any(passed for _function, _what, passed in outcomes[2:])
