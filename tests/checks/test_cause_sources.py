"""Where each kind's cause comes from, as data: the source and the defect a kind returns,
for the sources the other test files do not already pin (the words are pinned there)."""

from __future__ import annotations

from grader.checks.context import CheckContext
from grader.checks.kinds.games import SequenceParams
from grader.checks.registry import run_check
from grader.results import CheckResult, CheckStatus
from grader.spec.call_template import parse_call
from grader.spec.loader import load_assignment
from grader.spec.model import Assignment, Check
from tests.checks.in_process import InProcessRunner
from tests.seed_sources import variant

LAB05 = load_assignment("lab05")
DEPTH_LIMITS = load_assignment("depth-limits")
EXPAND = next(c for c in DEPTH_LIMITS.checks if c.id == "expand")
NO_ANTI_DIAGONAL = variant("[0, 4, 8], [2, 4, 6]]", "[0, 4, 8]]")


def _context(assignment: Assignment, source: str) -> CheckContext:
    runner = InProcessRunner(source)
    return CheckContext.of(assignment, runner, frozenset(runner.defined_names()))


def _check(assignment: Assignment, check_id: str) -> Check:
    return next(c for c in assignment.checks if c.id == check_id)


STATE = """
class State:
    def __init__(self, gameplan, player, max_depth=9):
        self.gameplan = [list(row) for row in gameplan]
        self.player = player

    def expand(self, move):
{body}
"""
PLACES_THE_OTHER_MARK = """        row, col = move
        if not (0 <= row < 3 and 0 <= col < 3) or self.gameplan[row][col] != 0:
            return None
        child = State(self.gameplan, self.player)
        placed = sum(cell != 0 for r in self.gameplan for cell in r)
        child.gameplan[row][col] = 2 if placed % 2 == 0 else 1  # 1 (X) moves first: the other mark
        return child"""


def _expand(body: str) -> CheckResult:
    return run_check(EXPAND, _context(DEPTH_LIMITS, STATE.format(body=body)))


def test_a_successor_stub_is_a_cause_of_shape() -> None:
    result = _expand("        raise NotImplementedError")
    assert result.status == CheckStatus.FAILED
    assert result.cause is not None and result.cause.source == "shape"


def test_a_wrong_successor_s_cause_is_local_and_carries_its_defect() -> None:
    result = _expand(PLACES_THE_OTHER_MARK)
    assert result.status == CheckStatus.FAILED, result.message
    assert result.cause is not None and result.cause.source == "local"
    assert result.cause.defect is not None and result.cause.defect == result.learnt.defect
    assert result.cause.defect.function == "State.expand"


def test_a_move_sequence_that_differs_names_the_move_locally() -> None:
    first_cell = "def best(board):\n    return board.index(' ')\n"
    best = parse_call("best(board)")
    params = SequenceParams(calls={"X": best, "O": best}, returns=("move",), expected_moves=(5,))
    check = Check("sequence", "move-sequence", "the recommended moves", 10, params)
    result = run_check(check, _context(LAB05, first_cell))
    assert result.status == CheckStatus.FAILED
    assert result.cause is not None and result.cause.source == "local" and result.cause.defect is None
    assert result.cause.sentence.startswith("Move 1 differs: 1 instead of 5.")


def test_a_lost_game_follows_from_the_win_test_another_check_found_wrong() -> None:
    win = run_check(_check(LAB05, "check-win"), _context(LAB05, NO_ANTI_DIAGONAL))
    assert win.learnt.defect is not None
    ctx = _context(LAB05, NO_ANTI_DIAGONAL)
    ctx.findings.record("check-win", win.learnt.defect)  # as the registry records it, without the regrade
    result = run_check(_check(LAB05, "random-opponent"), ctx)
    assert result.status == CheckStatus.FAILED
    assert result.cause is not None and result.cause.source == "root-cause"
    assert result.cause.defect == win.learnt.defect
