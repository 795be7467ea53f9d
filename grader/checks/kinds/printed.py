"""Checks on what the notebook itself printed while it ran: a pattern's matches in the output
of the cells that run a given call, against the expected values; and, for a game cell, the
game it played (`grader.checks.kinds.printed_game`): its moves and its end, not only the
sentence it printed."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from grader.checks.context import CheckContext
from grader.checks.kind import CheckKind
from grader.checks.kinds.printed_game import OUTCOMES, GameRules, describe_outcome, ordinal, replay_game
from grader.checks.kinds.search import Shapes
from grader.execution.result import CellStatus
from grader.results import CheckResult, CheckStatus, Counterexample
from grader.spec.call_template import CallTemplate
from grader.spec.model import Check, MoveFormat, Side


@dataclass(frozen=True)
class PrintedParams:
    """What the notebook printed while it ran: the matches of ``pattern``'s group in the output of the cells whose
    source contains ``cell_contains`` begin with ``expected``."""

    pattern: str
    """A regular expression with one group, e.g. 'Recommended move: (\\d+)'."""
    expected: tuple[str, ...]
    """The values the group must match first, in order, as printed."""
    cell_contains: str = ""
    """Only read the output of cells whose source contains this text (e.g. "play()")."""
    final_pattern: str | None = None
    """A regular expression the same output must also contain, e.g. "It's a tie"."""
    game_call: CallTemplate | None = None
    """The AI's move function the game cell calls, e.g. "find_best_move(board)". Given, the
    check judges the game itself: it is replayed with the scripted answers as the human's
    moves and this function's as the AI's; every AI move must be optimal, the game must end
    as ``results`` says the expected message means, and the output must print that message
    once. Without it only the printed values are compared."""
    ai: Side = "X"
    """The side ``game_call`` plays in the game cell."""
    returns: Shapes = ("move",)
    """What ``game_call`` returns (see the search kinds)."""
    move: MoveFormat | None = None
    """How ``game_call`` names a move (default: the assignment's)."""
    globals: dict = field(default_factory=dict)
    """Student globals set from placeholders before each ``game_call``, e.g. { current_state = "board" }."""
    stdin_moves: MoveFormat = "position"
    """How the scripted answers name the human's cells."""
    results: dict = field(default_factory=dict)
    """What each printed result means, e.g. { "It's a tie!" = "tie", "X wins!" = "X" }."""

    def __post_init__(self) -> None:
        for name in ("pattern", "final_pattern"):
            text = getattr(self, name)
            if text is None:
                continue
            try:
                compiled = re.compile(text)
            except re.error as exc:
                raise ValueError(f"{name} is not a valid regular expression: {exc}") from None
            if name == "pattern" and compiled.groups != 1:
                raise ValueError("pattern must have exactly one group: the part that is compared")
        if self.game_call is not None:
            if not self.results or any(outcome not in OUTCOMES for outcome in self.results.values()):
                raise ValueError('results must map each printed result to X, O or tie, e.g. { "X wins!" = "X" }')
            if len(self.expected) != 1 or self.expected[0] not in self.results:
                raise ValueError("a judged game expects one printed result, one of those in results")

    def game_rules(self) -> GameRules | None:
        if self.game_call is None:
            return None
        return GameRules(self.game_call, self.ai, self.returns, self.move, self.globals, self.stdin_moves)


def _printed_sequence(check: Check[PrintedParams], ctx: CheckContext) -> CheckResult:
    """What the notebook itself printed while it ran (a game's recommended moves, say)."""
    params = check.params
    cells = [c for c in (ctx.execution.cells if ctx.execution else ()) if params.cell_contains in c.source]
    where = f"the cell that runs `{params.cell_contains}`" if params.cell_contains else "the notebook"
    if not cells:
        return CheckResult.not_run(check, f"no cell contains `{params.cell_contains}`.")
    text = "\n".join(c.output for c in cells)
    found = tuple(re.findall(params.pattern, text))
    rules = params.game_rules()
    if rules is not None:
        return _judged_game(check, ctx, rules, found, where)
    shown = ", ".join(_quoted(f) for f in found[: len(params.expected) + 2]) or "nothing"
    expected = ", ".join(_quoted(e) for e in params.expected)
    figures = {"printed": list(found)}
    problems = []
    if found[: len(params.expected)] != params.expected:
        problems.append(f"{where} printed {shown}")
    if params.final_pattern and not re.search(params.final_pattern, text):
        problems.append(f"its output never matches {params.final_pattern!r}")
    if not problems:
        return CheckResult.for_check(
            check, CheckStatus.PASSED, f"{_upper_first(where)} printed {expected}, as expected.", figures=figures
        )
    cause = None
    for n, (got, want) in enumerate(zip(found, params.expected), start=1):
        if got != want:
            cause = f"The {ordinal(n)} printed value is {_quoted(got)} instead of {_quoted(want)}."
            break
    if not found:
        failed = [c for c in cells if c.status != CellStatus.OK]
        cause = f"The cell stopped with {failed[0].error_name or failed[0].status.value}." if failed else None
    return CheckResult.for_check(
        check,
        CheckStatus.FAILED,
        _upper_first("; ".join(problems)) + ".",
        counterexample=Counterexample(None, params.cell_contains or "the notebook", expected, shown, cause),
        figures=figures,
    )


def _quoted(text: str) -> str:
    """A printed value exactly as printed: a number as it is, anything else in quotes."""
    return text if text.isdigit() else f'"{text}"'


def _upper_first(text: str) -> str:
    """The first letter upper-cased, the rest as it was printed (``str.capitalize`` would
    lower-case "X wins!")."""
    return text[:1].upper() + text[1:]


def _judged_game(
    check: Check[PrintedParams], ctx: CheckContext, rules: GameRules, found: tuple[str, ...], where: str
) -> CheckResult:
    """The game replayed and judged: its moves, its end, and the one result the cell printed."""
    params = check.params
    game = replay_game(rules, ctx)
    if game.calls_stopped:
        return CheckResult.not_run(check, f"the game could not be replayed: {game.stopped}")
    expected_message = params.expected[0]
    expected_outcome = params.results[expected_message]
    announced = [message for message in found if message in params.results]
    figures: dict[str, Any] = {"printed": list(found), "moves": list(game.moves), "outcome": game.outcome}
    problems = []
    if game.stopped is not None:
        problems.append(f"the scripted game could not be replayed to its end: {game.stopped}")
    elif game.outcome != expected_outcome:
        outcome, wanted = describe_outcome(game.outcome), describe_outcome(expected_outcome)
        problems.append(f"replayed through `{rules.call.text}`, the scripted game ends in {outcome}, not {wanted}")
    if game.not_optimal_sentence:
        problems.append(game.not_optimal_sentence)
    printed = ", ".join(_quoted(message) for message in announced) or "no result"
    if not announced:
        problems.append(f"{where} printed no result")
    elif len(announced) > 1:
        problems.append(f"{where} printed {len(announced)} results ({printed}) for one game")
    elif game.outcome is not None and params.results[announced[0]] != game.outcome:
        problems.append(f"{where} printed {printed}, but the replayed game ends in {describe_outcome(game.outcome)}")
    elif announced[0] != expected_message:
        problems.append(f"{where} printed {printed}")
    played = ", ".join(game.moves)
    if not problems:
        message = (
            f"{_upper_first(where)} printed {_quoted(expected_message)}, and the scripted game, replayed through "
            f"`{rules.call.text}` ({played}), ends in {describe_outcome(game.outcome)} with every move of "
            f"{rules.ai} optimal, as expected."
        )
        return CheckResult.for_check(check, CheckStatus.PASSED, message, figures=figures, detail=game.detail)
    counterexample = game.not_optimal or Counterexample(
        game.boards[-1] if game.boards else None,
        params.cell_contains or "the notebook",
        f"{_quoted(expected_message)} once, after a game that ends in {describe_outcome(expected_outcome)}",
        f"{printed}, after the game {played or '(no move)'}",
    )
    return CheckResult.for_check(
        check,
        CheckStatus.FAILED,
        _upper_first("; ".join(problems)) + ".",
        counterexample=counterexample,
        figures=figures,
        detail=game.detail,
    )


PRINTED_SEQUENCE = CheckKind("printed-sequence", PrintedParams, _printed_sequence)
