"""The fixed-assert yardstick runs the checks it claims: all 33 pass on a correct hand-in, and a
planted mistake fails the check aimed at it."""

from __future__ import annotations

from pathlib import Path

from tests.classes.fixed_checker import CHECKS, run_checks

HANDINS = Path(__file__).parent / "cs50" / "handins"


def test_a_correct_handin_passes_all_33() -> None:
    outcomes = run_checks(HANDINS / "bruno.py")["outcomes"]
    assert len(outcomes) == len(CHECKS) + 2 == 33
    assert [o for o in outcomes if not o[2]] == []


def test_negative_indexing_fails_the_off_board_check_and_nothing_else() -> None:
    outcomes = run_checks(HANDINS / "victor.py")["outcomes"]
    assert [(function, what) for function, what, passed in outcomes if not passed] == [("result", "raises on (-1, 2)")]
