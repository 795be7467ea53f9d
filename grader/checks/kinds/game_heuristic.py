"""The student's own heuristic, judged only on what the assignment asks of it (`heuristic`):
that it answers a number for either side, zero on a position where neither side has started a
line (if asked), and the opposite number for the other side (if asked). What it values is the
student's choice: the searches are judged under it (`grader.checks.kinds.game_search`)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from numbers import Real
from typing import Any

from hypothesis import strategies as st

from grader.checks.answers import Answer
from grader.checks.context import CheckContext
from grader.checks.game_cases import GameCase, game_view
from grader.checks.game_property import GameProperty, game_result, run_game_property
from grader.checks.kind import CheckKind
from grader.checks.properties import Mismatch
from grader.results import CheckResult
from grader.spec.call_template import CallTemplate
from grader.spec.model import Check, Count
from reference.connect4 import ConnectK, ConnectState
from reference.tictactoe import EMPTY, O, X


@dataclass(frozen=True)
class HeuristicParams:
    """The student's evaluation function answers a finite number for either side on positions reached by play; with
    ``zero_without_lines``, zero where no line of the board holds pieces of one side only (the empty board among
    them); with ``antisymmetric``, the opposite number for the other side; with ``swap_symmetric``, the same number for
    the other side once every piece is swapped."""

    call: CallTemplate
    """The call, e.g. ``evaluate(board, player)``; ``player`` is filled in with each side's mark."""
    zero_without_lines: bool = False
    """Zero on a position where neither side has a piece in a line the other has not blocked."""
    antisymmetric: bool = False
    """The value for one side is minus the value for the other."""
    swap_symmetric: bool = False
    """The value for one side equals the value for the other on the board with every piece swapped: the heuristic
    scores a side by its mark, not by which mark it is (an opponent's mark written as a constant breaks it)."""
    examples: Count | None = None
    """Positions drawn beyond the first cases; default: the assignment's ``hypothesis_examples``."""


def has_lines(game: ConnectK, state: ConnectState) -> bool:
    """Whether a line of the board holds pieces of one side only."""
    for line in game.lines:
        marks = {state.cells[i] for i in line} - {EMPTY}
        if len(marks) == 1:
            return True
    return False


def swapped(game: ConnectK, state: ConnectState) -> ConnectState:
    """The board with every X an O and every O an X (a board no game need reach)."""
    return game.with_cells([{X: O, O: X}.get(cell, cell) for cell in state.cells])


def number(value: Any) -> float | None:
    """A finite real number the student returned (numpy's included), else None."""
    if isinstance(value, bool) or not isinstance(value, Real) or not math.isfinite(float(value)):
        return None
    return float(value)


def _heuristic(check: Check[HeuristicParams], ctx: CheckContext) -> CheckResult:
    params = check.params
    view = game_view(ctx)
    game = view.game
    student = ctx.student(params.call)
    unfinished = [case for case in view.first_cases(finished=False)]
    first = [(case, player) for case in unfinished for player in (X, O)]
    cases = view.strategy(finished=False).filter(lambda case: not game.is_terminal(case.state))

    def values(case: GameCase, player: str) -> dict[str, Any]:
        return view.placeholders(case.state, player=view.mark(player))

    def other(case: GameCase, player: str) -> Answer:
        rival = O if player == X else X
        return student.answer_for((case.moves, repr(rival)), lambda: values(case, rival))

    def mirrored(case: GameCase, player: str) -> Answer:
        rival = O if player == X else X
        board = view.encode(swapped(game, case.state))  # made into the course's board object, if it has one
        return student.answer_for(
            (case.moves, "swapped", repr(rival)),
            lambda: view.placeholders(case.state, player=view.mark(rival), board=board),
        )

    def judge(case: GameCase, player: str, answer: Answer) -> Mismatch | None:
        wanted = "a number"
        if not answer.ok:
            return Mismatch(answer.call_text, wanted, answer.given())
        value = number(answer.value)
        if value is None:
            return Mismatch(answer.call_text, "a finite number", repr(answer.value), "a heuristic answers a number")
        if params.zero_without_lines and not has_lines(game, case.state) and value != 0:
            return Mismatch(
                answer.call_text,
                "0: no line holds pieces of one side only",
                repr(answer.value),
                "the handout asks for zero where neither side has started a line",
            )
        if params.antisymmetric:
            rival = other(case, player)
            rival_value = number(rival.value) if rival.ok else None
            if rival_value is not None and not math.isclose(value, -rival_value, abs_tol=1e-9):
                return Mismatch(
                    answer.call_text,
                    f"{-rival_value:g}, minus what `{rival.call_text}` gives ({rival_value:g})",
                    repr(answer.value),
                    "the value for one side must be minus the value for the other: "
                    "the sign for the minimizing side is wrong",
                )
        if params.swap_symmetric:
            mirror = mirrored(case, player)
            if not mirror.ok:
                return Mismatch(mirror.call_text, "a number, on the board with every piece swapped", mirror.given())
            mirror_value = number(mirror.value)
            if mirror_value is None:
                return Mismatch(
                    mirror.call_text,
                    "a finite number, on the board with every piece swapped",
                    repr(mirror.value),
                    "a heuristic answers a number on any board, one no game reaches among them",
                )
            if not math.isclose(value, mirror_value, abs_tol=1e-9):
                return Mismatch(
                    answer.call_text,
                    f"{mirror_value:g}, what `{mirror.call_text}` gives with every piece swapped",
                    repr(answer.value),
                    "a side's value must not depend on which mark it plays: "
                    "is the other side's mark written as a constant where it should follow the player's?",
                )
        return None

    items = cases.flatmap(lambda case: st.tuples(st.just(case), st.sampled_from((X, O))))
    prop = GameProperty(
        cases=items,
        values=values,
        judge=judge,
        first=first,
        examples=params.examples,
        partners=(lambda case, player: (O if player == X else X,)) if params.antisymmetric else None,
    )
    outcome = run_game_property(check, ctx, student, prop)
    asked = ["a number"]
    if params.zero_without_lines:
        asked.append("zero without lines")
    if params.antisymmetric:
        asked.append("minus for the other side")
    if params.swap_symmetric:
        asked.append("the same for the other side with the pieces swapped")
    return game_result(check, outcome, f"Answers as asked ({', '.join(asked)}) on {outcome.tried} positions")


HEURISTIC = CheckKind("heuristic", HeuristicParams, _heuristic, any_game=True)
