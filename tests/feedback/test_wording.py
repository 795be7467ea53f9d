"""The words written from a verdict's parts: a check's notes, in the order it made them."""

from __future__ import annotations

from grader.check_notes import CutsOff, KindsSeen, Note, PositionsTried
from grader.results import CheckResult, CheckStatus

AGREES = "`minimaxAB` agrees with minimax"
FIRST = CutsOff("X...O...X", "minimaxAB(board, -2, 0)", 40, 200)
SECOND = CutsOff("X.......O", "minimaxAB(board, -2, 0)", 90, 400)


def _passed(*notes: Note) -> CheckResult:
    return CheckResult("ab", "pruning-equivalence", "ab", CheckStatus.PASSED, 10.0, 10.0, AGREES, notes=notes)


def test_the_positions_a_search_cuts_off_from_are_one_sentence_after_what_it_saw() -> None:
    seen = KindsSeen("Among them, for O to move: 9 won.")
    assert _passed(PositionsTried(30), seen, FIRST, SECOND).message == (
        f"{AGREES} (30 positions tried). Among them, for O to move: 9 won. It cuts off: "
        "from X...O...X `minimaxAB(board, -2, 0)` entered 40 positions where minimax enters 200; "
        "from X.......O `minimaxAB(board, -2, 0)` entered 90 positions where minimax enters 400."
    )


def test_the_cut_offs_start_a_sentence_of_their_own_after_an_open_one() -> None:
    assert _passed(PositionsTried(30), FIRST).message == (
        f"{AGREES} (30 positions tried). It cuts off: "
        "from X...O...X `minimaxAB(board, -2, 0)` entered 40 positions where minimax enters 200."
    )


def test_a_headline_that_ends_its_own_sentence_gets_no_second_full_stop() -> None:
    judged = CheckResult(
        "ab",
        "pruning-equivalence",
        "ab",
        CheckStatus.PASSED,
        10.0,
        10.0,
        "No more were judged: time ran out.",
        notes=(FIRST,),
    )
    assert judged.message == (
        "No more were judged: time ran out. It cuts off: "
        "from X...O...X `minimaxAB(board, -2, 0)` entered 40 positions where minimax enters 200."
    )
