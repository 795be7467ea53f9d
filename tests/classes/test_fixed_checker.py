"""The fixed-assert yardstick runs the checks it claims: all 33 pass on a correct hand-in, and a
planted mistake fails the check aimed at it."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.classes.fixed_checker import CHECKS, check_handin_with_pytest, run_checks

HANDINS = Path(__file__).parent / "cs50" / "handins"


def test_a_correct_handin_passes_all_33() -> None:
    outcomes = run_checks(HANDINS / "bruno.py")["outcomes"]
    assert len(outcomes) == len(CHECKS) + 2 == 33
    assert [o for o in outcomes if not o[2]] == []


def test_negative_indexing_fails_the_off_board_check_and_nothing_else() -> None:
    outcomes = run_checks(HANDINS / "victor.py")["outcomes"]
    assert [(function, what) for function, what, passed in outcomes if not passed] == [("result", "raises on (-1, 2)")]


@pytest.mark.parametrize("handin", ["bruno", "victor", "dmitri", "tariq"])
def test_the_pytest_file_fails_what_the_plain_checker_fails(handin: str) -> None:
    """The same checks as a plain pytest file, run as a course runs it (a fresh ``pytest`` per
    hand-in), give the same outcomes: a correct hand-in, one planted mistake, several, and a
    hand-in that does not import."""
    assert check_handin_with_pytest(HANDINS / f"{handin}.py") == [
        tuple(o) for o in run_checks(HANDINS / f"{handin}.py")["outcomes"]
    ]
