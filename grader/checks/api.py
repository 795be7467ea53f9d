"""Everything an assignment's adapter.py needs to write its own checks.

An adapter function takes ``(check, ctx)`` and returns a `CheckResult`::

    from grader.checks.api import CheckContext, CheckResult, CheckStatus, parse_call

    def check_second_best(check, ctx: CheckContext) -> CheckResult:
        student = ctx.student(parse_call("second_best_move(board, is_max)"))
        ...
        return CheckResult.for_check(check, CheckStatus.PASSED, "...")

and the spec names it with ``kind = "adapter"`` and ``function = "check_second_best"``. Moves
are read and shown through one codec, ``moves = ctx.moves()`` (a `MoveCodec` in the
assignment's move format): ``read_search_result(answer.value, ("value,move",), moves)``,
``moves.show(cell)``. A
function the notebook does not define (`CheckContext.resolve`, `CheckContext.student`) makes
the check NOT RUN; the grader times every check itself.
"""

from grader.checks.answers import Answer, MoveCodec, ShapeError, format_value, read_search_result
from grader.checks.context import CheckContext, NotDefined, StudentFunction
from grader.checks.positions import board_size, check_seed, positions
from grader.checks.properties import Mismatch, PropertyOutcome
from grader.checks.recipe import PropertyCheck, run_property
from grader.checks.verdicts import counterexample_for, result_from_property
from grader.execution.channel.calls import Call, CallOutcome, CallStatus
from grader.results import CheckResult, CheckStatus, Counterexample
from grader.spec.call_template import parse_call
from grader.spec.model import Check

__all__ = [
    "Answer",
    "Call",
    "CallOutcome",
    "CallStatus",
    "Check",
    "CheckContext",
    "CheckResult",
    "CheckStatus",
    "Counterexample",
    "Mismatch",
    "MoveCodec",
    "NotDefined",
    "PropertyCheck",
    "PropertyOutcome",
    "ShapeError",
    "StudentFunction",
    "board_size",
    "check_seed",
    "counterexample_for",
    "format_value",
    "parse_call",
    "positions",
    "read_search_result",
    "result_from_property",
    "run_property",
]
