"""Challenge answers that play whole games through the student's functions: the recommended
move sequence (seed 003: 1, 2, 7, 6, 9 and a tie) and tallies of seeded games against a random
or an optimal opponent."""

from __future__ import annotations

import random
import re
import time
from dataclasses import dataclass, field
from typing import Any, Literal

from grader.checks.base import PLACEHOLDERS, guarded, make_result
from grader.checks.context import CheckContext, ShapeError, read_search_result
from grader.checks.kinds.search import reference_answer, shapes_field
from grader.results import CheckResult, CheckStatus, Counterexample
from grader.spec.call_template import CallTemplate, parse_call
from grader.spec.model import Check
from reference import Board, O, X, solve


def _parse_side_calls(raw: Any) -> dict[str, CallTemplate]:
    if not isinstance(raw, dict) or not raw or set(raw) - {X, O}:
        raise ValueError('must be a table such as { X = "min()", O = "max()" }')
    return {side: parse_call(text, allowed_placeholders=PLACEHOLDERS) for side, text in raw.items()}


def _outcome(board: Board) -> str:
    winners = board.winners()
    return next(iter(winners)) if winners else "tie"


def _describe_outcome(result: str | None) -> str:
    return {"tie": "a tie", None: "an unfinished game"}.get(result, f"a win for {result}")


@dataclass(frozen=True)
class SequenceParams:
    calls: dict = field(metadata={"parse": _parse_side_calls})
    """The function each side's move comes from, e.g. { X = "min()", O = "max()" }."""
    returns: tuple[str, ...] = shapes_field(("value,move",))
    move: Literal["index", "rowcol", "position"] | None = None
    globals: dict = field(default_factory=dict)
    player: Literal["X", "O"] = X
    """Whose moves make up the sequence that is checked."""
    expected_moves: tuple[int, ...] = ()
    """In the sequence's move format; default: the reference's first-best moves."""
    expected_result: Literal["X", "O", "tie"] | None = None
    sequence_format: Literal["index", "rowcol", "position"] = "position"
    moves: Literal["first-best", "optimal"] = "first-best"
    """first-best: the sequence must be exactly the expected one (a pinned tie-break);
    optimal: any optimal move is accepted at every turn and only the result is compared."""


def _reference_game(ctx: CheckContext) -> tuple[list[int], str]:
    """Both sides play the reference's first-best move (row-major, strict improvement)."""
    board = Board.empty()
    moves = []
    first = ctx.assignment.first_player
    while not board.is_terminal():
        side = board.to_move(first)
        result = reference_answer(board, ctx.spec(board, to_move=side), side)
        moves.append(result.best_move)
        board = board.play(result.best_move, side, first=first)
    return moves, _outcome(board)


class MoveSequence:
    Params = SequenceParams

    @staticmethod
    @guarded
    def run(check: Check, ctx: CheckContext) -> CheckResult:
        started = time.monotonic()
        params: SequenceParams = check.params
        students = {side: ctx.student(t, globals_from=params.globals) for side, t in params.calls.items()}
        first = ctx.assignment.first_player
        ref_moves, ref_result = _reference_game(ctx)
        ref_board = Board.empty()
        ref_sequence = []
        for cell in ref_moves:
            side = ref_board.to_move(first)
            if side == params.player:
                ref_sequence.append(cell)
            ref_board = ref_board.play(cell, side, first=first)
        fmt = params.sequence_format
        expected_cells = (
            [ctx.decode_move(m, fmt) for m in params.expected_moves] if params.expected_moves else ref_sequence
        )
        expected_result = params.expected_result or ref_result
        expected_text = (
            f"{', '.join(ctx.show_move(c, fmt) for c in expected_cells)} ending in {_describe_outcome(expected_result)}"
        )

        board = Board.empty()
        sequence: list[int] = []
        while not board.is_terminal():
            side = board.to_move(first)
            student = students.get(side)
            if student is None:
                return make_result(check, CheckStatus.ERROR, f"No call is given for {side}'s moves.", started=started)
            answer = student.ask(str(board), ctx.placeholders(board, to_move=side))
            failure = None
            if not answer.ok:
                failure = answer.failure_text()
            else:
                try:
                    _, cell = read_search_result(answer.value, params.returns, ctx, params.move)
                except ShapeError as exc:
                    failure, cell = str(exc), None
                if failure is None and (cell is None or cell not in board.empty_cells()):
                    failure = f"returned the move {ctx.show_move(cell, fmt)}, which is not a free cell"
            if failure:
                return make_result(
                    check,
                    CheckStatus.FAILED,
                    f"The game could not be played to the end: `{answer.call_text}` {failure}.",
                    counterexample=Counterexample(str(board), answer.call_text, "a legal move", failure),
                    figures={"moves": [ctx.show_move(c, fmt) for c in sequence]},
                    started=started,
                )
            if params.moves == "optimal":
                best = reference_answer(board, ctx.spec(board, to_move=side), side).best_moves
                if cell not in best:
                    return make_result(
                        check,
                        CheckStatus.FAILED,
                        f"`{answer.call_text}` played {ctx.show_move(cell, fmt)}, which is not an optimal move.",
                        counterexample=Counterexample(
                            str(board),
                            answer.call_text,
                            "a move in " + ", ".join(ctx.show_move(c, fmt) for c in best),
                            ctx.show_move(cell, fmt),
                        ),
                        figures={"moves": [ctx.show_move(c, fmt) for c in sequence]},
                        started=started,
                    )
            if side == params.player:
                sequence.append(cell)
            board = board.play(cell, side, first=first)
        result = _outcome(board)
        if params.moves == "optimal":
            expected_cells = sequence  # any optimal play is accepted; only the result is compared
            expected_text = f"optimal play ending in {_describe_outcome(expected_result)}"
        actual_text = f"{', '.join(ctx.show_move(c, fmt) for c in sequence)} ending in {_describe_outcome(result)}"
        figures = {"moves": [ctx.show_move(c, fmt) for c in sequence], "result": result}
        if sequence == expected_cells and result == expected_result:
            if params.moves == "optimal":
                return make_result(
                    check,
                    CheckStatus.PASSED,
                    f"Every move was optimal and the game ended in {_describe_outcome(result)}.",
                    figures=figures,
                    started=started,
                )
            return make_result(
                check,
                CheckStatus.PASSED,
                f"Recommended moves {actual_text}, as expected.",
                figures=figures,
                started=started,
            )
        cause = None
        for n, (got, want) in enumerate(zip(sequence, expected_cells), start=1):
            if got != want:
                cause = (
                    f"Move {n} differs: {ctx.show_move(got, fmt)} instead of {ctx.show_move(want, fmt)}. "
                    "The recommendation should be the first best move in reading order."
                )
                break
        return make_result(
            check,
            CheckStatus.FAILED,
            f"The game went differently: {actual_text}.",
            counterexample=Counterexample(
                None, " / ".join(s.describe({}) for s in students.values()), expected_text, actual_text, cause
            ),
            figures=figures,
            started=started,
        )


@dataclass(frozen=True)
class RandomOpponentParams:
    call: CallTemplate = field(metadata={"parse": lambda t: parse_call(t, allowed_placeholders=PLACEHOLDERS)})
    returns: tuple[str, ...] = shapes_field(("move",))
    move: Literal["index", "rowcol", "position"] | None = None
    globals: dict = field(default_factory=dict)
    ai: Literal["X", "O"] = O
    games: int = 10
    seed: int = 0
    opponent: Literal["random", "optimal"] = "random"
    """``random``: any free cell. ``optimal``: any move that keeps the game's value for the
    opponent (win, draw or loss), so every mistake that throws away a draw is punished; the
    opponent's choice among those moves is still seeded and random, so games differ."""


_OPPONENT_NAMES = {"random": "the random player", "optimal": "an optimal opponent"}


def _opponent_choices(board: Board, side: str, opponent: str, ctx: CheckContext) -> tuple[int, ...]:
    """The moves the opponent picks from at random: any free cell, or the optimal ones."""
    if opponent == "random":
        return tuple(board.empty_cells())
    return solve(board, ctx.spec(board, to_move=side, scoring="unit")).optimal_moves


class RandomOpponent:
    """A full-depth AI never loses seeded games against a random or an optimal opponent."""

    Params = RandomOpponentParams

    @staticmethod
    @guarded
    def run(check: Check, ctx: CheckContext) -> CheckResult:
        started = time.monotonic()
        params: RandomOpponentParams = check.params
        student = ctx.student(params.call, globals_from=params.globals)
        rng = random.Random(params.seed)
        first = ctx.assignment.first_player
        opponent = _OPPONENT_NAMES[params.opponent]
        tally = {"AI": 0, "Opponent": 0, "Draw": 0}
        first_loss: tuple[int, Board] | None = None
        # Game after game from one seeded stream: the opponent's moves depend on how the
        # earlier games went, so the games cannot be asked for side by side.
        for game in range(params.games):
            board = Board.empty()
            while not board.is_terminal():
                side = board.to_move(first)
                if side != params.ai:
                    board = board.play(
                        rng.choice(_opponent_choices(board, side, params.opponent, ctx)), side, first=first
                    )
                    continue
                answer = student.ask(str(board), ctx.placeholders(board, to_move=side))
                try:
                    if not answer.ok:
                        raise ShapeError(answer.failure_text())
                    _, cell = read_search_result(answer.value, params.returns, ctx, params.move)
                    if cell not in board.empty_cells():
                        raise ShapeError(f"returned {ctx.show_move(cell, params.move)}, which is not a free cell")
                except ShapeError as exc:
                    return make_result(
                        check,
                        CheckStatus.FAILED,
                        f"Game {game + 1} against {opponent} stopped: `{answer.call_text}` {exc}.",
                        counterexample=Counterexample(str(board), answer.call_text, "a legal move", str(exc)),
                        figures={"tally": tally},
                        started=started,
                    )
                board = board.play(cell, side, first=first)
            winners = board.winners()
            tally["AI" if params.ai in winners else "Opponent" if winners else "Draw"] += 1
            if winners and params.ai not in winners:
                # One loss decides the check; the games after it would only cost the
                # student's searches from new openings.
                first_loss = (game, board)
                break
        played = sum(tally.values())
        figures = {
            "tally": tally,
            "games": params.games,
            "played": played,
            "seed": params.seed,
            "opponent": params.opponent,
        }
        summary = (
            f"AI {tally['AI']}, {params.opponent} opponent {tally['Opponent']}, draws {tally['Draw']} "
            f"over {played} seeded game{'s' if played != 1 else ''}"
        )
        if first_loss is not None:
            game, board = first_loss
            rest = f"; the other {params.games - played} were not played" if played < params.games else ""
            return make_result(
                check,
                CheckStatus.FAILED,
                f"The AI lost game {game + 1} of {params.games} to {opponent} ({summary}{rest}): "
                "a full-depth search never loses.",
                counterexample=Counterexample(
                    str(board),
                    student.describe({}),
                    "a win or a draw for the AI",
                    f"game {game + 1} ended in a win for {opponent}",
                ),
                figures=figures,
                started=started,
            )
        return make_result(
            check, CheckStatus.PASSED, f"The AI never lost ({summary}).", figures=figures, started=started
        )


@dataclass(frozen=True)
class PrintedParams:
    pattern: str
    """A regular expression with one group, e.g. 'Recommended move: (\\d+)'."""
    expected: tuple[str, ...]
    cell_contains: str = ""
    """Only read the output of cells whose source contains this text (e.g. "play()")."""
    final_pattern: str | None = None
    """A regular expression the same output must also contain, e.g. "It's a tie"."""

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


class PrintedSequence:
    """What the notebook itself printed while it ran (seed 003's recommended moves)."""

    Params = PrintedParams

    @staticmethod
    def run(check: Check, ctx: CheckContext) -> CheckResult:
        params: PrintedParams = check.params
        cells = [c for c in (ctx.execution or {}).get("cells", []) if params.cell_contains in c.get("source", "")]
        where = f"the cell that runs `{params.cell_contains}`" if params.cell_contains else "the notebook"
        if not cells:
            return make_result(check, CheckStatus.NOT_RUN, f"Not run: no cell contains `{params.cell_contains}`.")
        text = "\n".join(c.get("output", "") for c in cells)
        found = tuple(re.findall(params.pattern, text))
        shown = ", ".join(found[: len(params.expected) + 2]) or "nothing"
        expected = ", ".join(params.expected)
        figures = {"printed": list(found)}
        problems = []
        if found[: len(params.expected)] != params.expected:
            problems.append(f"{where} printed {shown}")
        if params.final_pattern and not re.search(params.final_pattern, text):
            problems.append(f"its output never matches {params.final_pattern!r}")
        if not problems:
            return make_result(
                check, CheckStatus.PASSED, f"{where.capitalize()} printed {expected}, as expected.", figures=figures
            )
        cause = None
        for n, (got, want) in enumerate(zip(found, params.expected), start=1):
            if got != want:
                cause = f"The {_ordinal(n)} printed value is {got} instead of {want}."
                break
        if not found:
            failed = [c for c in cells if c.get("status") != "ok"]
            cause = f"The cell stopped with {failed[0].get('error_name') or failed[0]['status']}." if failed else None
        return make_result(
            check,
            CheckStatus.FAILED,
            "; ".join(problems).capitalize() + ".",
            counterexample=Counterexample(None, params.cell_contains or "the notebook", expected, shown, cause),
            figures=figures,
        )


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


@dataclass(frozen=True)
class AdapterParams:
    function: str
    """The name of a function in the assignment's adapter.py: (check, context) -> CheckResult."""
    needs: tuple[str, ...] = ()
    """Student functions the check calls (a bonus check only runs when they are all defined)."""
    options: dict = field(default_factory=dict)
    """Passed to the adapter function as keyword arguments."""


class AdapterCheck:
    """A check written in Python by the course author, in the assignment's adapter.py."""

    Params = AdapterParams

    @staticmethod
    @guarded
    def run(check: Check, ctx: CheckContext) -> CheckResult:
        params: AdapterParams = check.params
        adapter = ctx.assignment.adapter
        function = getattr(adapter, params.function, None) if adapter else None
        if function is None:
            return make_result(
                check, CheckStatus.ERROR, f"The assignment's adapter.py has no function `{params.function}`."
            )
        for name in params.needs:
            ctx.resolve(name)  # NotDefined -> not run, with look-alikes
        return function(check, ctx, **params.options)
