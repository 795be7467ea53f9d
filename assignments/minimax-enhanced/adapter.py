"""Bonus checks for the practice tasks of the minimax-enhanced notebook.

Each function takes (check, context) and returns a CheckResult; the spec names it with
`kind = "adapter"`. They run in the grader, against the student's functions through the
call channel, and compare with the reference.
"""

from __future__ import annotations

import random
import re
from typing import Any

from hypothesis import strategies as st

from grader.checks.api import (
    Answer,
    Call,
    CallStatus,
    Check,
    CheckContext,
    CheckResult,
    CheckStatus,
    Counterexample,
    Mismatch,
    PropertyCheck,
    ShapeError,
    board_size,
    check_seed,
    format_value,
    parse_call,
    positions,
    read_search_result,
    result_from_property,
    run_property,
)
from reference import EMPTY, Board, ConnectK, ConnectState, X, game_minimax, minimax, move_values, solve_all


def _side(ctx: CheckContext, board: Board) -> str:
    return board.to_move(ctx.assignment.first_player)


def check_second_best(check: Check[Any], ctx: CheckContext) -> CheckResult:
    """second_best_move returns the best-valued move other than minimax's first best move."""
    student = ctx.student(parse_call("second_best_move(board, is_max)"))
    codec = ctx.moves()

    def expected(board: Board) -> tuple[float, tuple[int, ...]]:
        side = _side(ctx, board)
        values = move_values(board, ctx.spec(board, to_move=side), to_move=side)
        pick = max if side == ctx.assignment.maximizer else min
        best = next(m for m, v in values.items() if v == pick(values.values()))
        rest = {m: v for m, v in values.items() if m != best}
        second = pick(rest.values())
        return second, tuple(m for m, v in rest.items() if v == second)

    def judge(board: Board, _: None, answer: Answer) -> Mismatch | None:
        value, moves = expected(board)
        want = f"value {format_value(value)} with a move in {', '.join(codec.show(m) for m in moves)}"
        if not answer.ok:
            return Mismatch(answer.call_text, want, answer.given())
        try:
            got_value, got_move = read_search_result(answer.value, ("value,move",), codec)
        except ShapeError as exc:
            return Mismatch(answer.call_text, want, exc.given())
        if got_value == value and got_move in moves:
            return None
        return Mismatch(
            answer.call_text,
            want,
            f"value {format_value(got_value)}, move {codec.show(got_move)}",
            "The second-best move is the best of the moves left once minimax's own choice is set aside.",
        )

    def boards(spread: bool) -> st.SearchStrategy[Board]:
        return positions(ctx.assignment.first_player, min_empty=2, max_empty=6, include_terminal=False, spread=spread)

    prop = PropertyCheck(boards, st.none(), lambda board, _: ctx.placeholders(board), judge, examples=30)
    outcome = run_property(check, ctx, student, prop).board_alone()
    return result_from_property(check, outcome, "`second_best_move` finds the runner-up move")


def check_depth_limited_heuristic(check: Check[Any], ctx: CheckContext) -> CheckResult:
    """Any heuristic is accepted; the search must stop at the limit and be exact beyond the game's end."""
    template = parse_call("minimax_limited(board, is_max, depth_limit)")
    student = ctx.student(template, count=("minimax_limited",))
    codec = ctx.moves()
    rng = random.Random(check_seed(ctx, check))
    pool = sorted((b for b in solve_all() if not b.is_terminal() and 3 <= len(b.empty_cells()) <= 6), key=str)
    boards = rng.sample(pool, 12)
    cases = [(b, limit) for b in boards for limit in (1, 2, 9)]
    answers = student.ask_many(((str(b), limit), ctx.placeholders(b, depth_limit=limit)) for b, limit in cases)
    for (board, limit), answer in sorted(zip(cases, answers), key=lambda ca: board_size(ca[0][0])):
        side = _side(ctx, board)
        exact = minimax(board, ctx.spec(board, to_move=side), to_move=side)
        if not answer.ok:
            return _failed(check, board, answer.call_text, "a result", answer.given(), None)
        try:
            value, move = read_search_result(answer.value, ("value,move",), codec)
        except ShapeError as exc:
            return _failed(check, board, answer.call_text, "(score, move)", exc.given(), None)
        nodes = answer.outcome.counts.get("minimax_limited", 0)
        bound = _full_width_nodes(len(board.empty_cells()), limit)
        if nodes > bound:
            return _failed(
                check,
                board,
                answer.call_text,
                f"at most {bound:,} calls within depth {limit}",
                f"{nodes:,} calls",
                "The search goes deeper than the limit: stop when depth reaches max_depth.",
            )
        if move is None or move not in board.empty_cells():
            return _failed(check, board, answer.call_text, "a legal move", f"move {codec.show(move)}", None)
        if limit >= len(board.empty_cells()) and value != exact.value:
            return _failed(
                check,
                board,
                answer.call_text,
                f"value {format_value(exact.value)} (the limit is beyond the end of the game)",
                f"value {format_value(value)}",
                "With a limit past the end of the game the heuristic is never used: the value must be exact.",
            )
    return CheckResult.for_check(
        check,
        CheckStatus.PASSED,
        f"`minimax_limited` respects its depth limit and is exact beyond the end of the game ({len(cases)} searches).",
    )


def _full_width_nodes(empty: int, limit: int) -> int:
    """Nodes of a search that expands every move down to ``limit`` plies, whatever the win test
    says: any search that respects the limit visits at most this many."""
    total, level = 1, 1
    for depth in range(min(limit, empty)):
        level *= empty - depth
        total += level
    return total


def _failed(
    check: Check[Any], board: Board | None, call: str, expected: str, actual: str, cause: str | None
) -> CheckResult:
    return CheckResult.for_check(
        check,
        CheckStatus.FAILED,
        f"Wrong answer for `{call}`",
        counterexample=Counterexample(str(board) if board else None, call, expected, actual, cause),
    )


def _connect_positions(rng: random.Random, game: ConnectK, count: int, max_empty: int) -> list[ConnectState]:
    positions: set[ConnectState] = set()
    while len(positions) < count:
        state = game.initial_state()
        while state.cells.count(EMPTY) > max_empty and not game.is_terminal(state):
            state = game.result(state, rng.choice(game.actions(state)))
        if not game.is_terminal(state):
            positions.add(state)
    return sorted(positions, key=lambda s: (-s.cells.count(EMPTY), str(s)))


def check_connect4(check: Check[Any], ctx: CheckContext, rows: int = 4, cols: int = 4, k: int = 3) -> CheckResult:
    """c4_minimax agrees with the reference Connect-K on small positions (value and column)."""
    game = ConnectK(rows=rows, cols=cols, k=k)
    student = ctx.student(parse_call(f"c4_minimax(board, is_max, {k})"))
    positions = _connect_positions(random.Random(check_seed(ctx, check)), game, 10, max_empty=7)
    requests = []
    for state in positions:
        grid = [[" " if c == EMPTY else c for c in state.cells[r * cols : (r + 1) * cols]] for r in range(rows)]
        requests.append((str(state), {"board": grid, "is_max": game.to_move(state) == X}))
    answers = student.ask_many(requests)
    for state, answer in sorted(zip(positions, answers), key=lambda sa: sa[0].cells.count(EMPTY)):
        ref = game_minimax(game, state, player=X)
        call = answer.call_text.replace("board", f"<{str(state)}>")
        want = f"score {format_value(ref.value)}, a column in {', '.join(map(str, ref.best_moves))}"
        if not answer.ok:
            return _failed(check, None, call, want, answer.given(), None)
        value = answer.value
        if not (isinstance(value, (list, tuple)) and len(value) == 2):
            return _failed(check, None, call, want, f"{value!r}", None)
        if value[0] != ref.value or value[1] not in ref.best_moves:
            return _failed(
                check,
                None,
                call,
                want,
                f"score {format_value(value[0])}, column {value[1]}",
                "Rows are listed top first and pieces fall to the lowest empty cell of a column.",
            )
    return CheckResult.for_check(
        check,
        CheckStatus.PASSED,
        f"`c4_minimax` agrees with the reference on {len(positions)} positions ({rows}x{cols}, {k} in a row).",
    )


def check_random_tie_break(check: Check[Any], ctx: CheckContext, calls_per_board: int = 12) -> CheckResult:
    """Every returned move is optimal, and more than one optimal move shows up over seeded runs."""
    name = ctx.resolve("minimax_random")
    codec = ctx.moves()
    table = solve_all()
    boards = [
        b
        for b in sorted(table, key=board_size)
        if not b.is_terminal() and 4 <= len(b.empty_cells()) <= 5 and len(table[b].optimal_moves) >= 2
    ][:3]
    seen_variety = False
    for n, board in enumerate(boards):
        side = _side(ctx, board)
        values = ctx.placeholders(board)
        calls = [Call(target="random.seed", args=(check_seed(ctx, check) + n,), check_mutation=False)]
        calls += [
            Call(target=name, args=(values["board"], values["is_max"]), timeout=ctx.assignment.call_timeout)
        ] * calls_per_board
        outcomes = ctx.runner.call_many(calls)
        optimal = set(move_values_optimal(ctx, board, side))
        moves = set()
        for outcome in outcomes[1:]:
            call_text = f"{name}(board, {values['is_max']})"
            if outcome.status != CallStatus.OK:
                return _failed(check, board, call_text, "an optimal move", outcome.error or outcome.status.value, None)
            try:
                _, move = read_search_result(outcome.value, ("value,move",), codec)
            except ShapeError as exc:
                return _failed(check, board, call_text, "(score, move)", exc.given(), None)
            if move not in optimal:
                return _failed(
                    check,
                    board,
                    call_text,
                    "a move in " + ", ".join(codec.show(m) for m in sorted(optimal)),
                    f"move {codec.show(move)}",
                    "Only moves with the best value may be drawn.",
                )
            moves.add(move)
        seen_variety |= len(moves) > 1
    if not seen_variety:
        return CheckResult.for_check(
            check,
            CheckStatus.FAILED,
            f"Every call returned the same move on each board ({calls_per_board} calls per board): "
            "equally good moves should be chosen at random.",
        )
    return CheckResult.for_check(
        check,
        CheckStatus.PASSED,
        "Every move returned is optimal, and different optimal moves are chosen.",
    )


def move_values_optimal(ctx: CheckContext, board: Board, side: str) -> tuple[int, ...]:
    values = move_values(board, ctx.spec(board, to_move=side), to_move=side)
    pick = max if side == ctx.assignment.maximizer else min
    best = pick(values.values())
    return tuple(m for m, v in values.items() if v == best)


TREE_LINE = re.compile(r"^(?P<indent>\s*)(?P<label>.*?):\s*(?P<score>-?\d+(?:\.\d+)?)\s*$")
MOVE = re.compile(r"\(\s*(\d)\s*,\s*(\d)\s*\)")


def check_game_tree(check: Check[Any], ctx: CheckContext, board: str = "XOXOOX...") -> CheckResult:
    """The printed tree has one line per node, and each printed score is that node's minimax value."""
    name = ctx.resolve("print_game_tree")
    root = Board.from_string(board)
    values = ctx.placeholders(root)
    call_text = f"{name}(board, {values['is_max']})"
    (outcome,) = ctx.runner.call_many([Call(target=name, args=(values["board"], values["is_max"]))])
    if outcome.status != CallStatus.OK:
        return _failed(check, root, call_text, "a printed tree", outcome.error or outcome.status.value, None)
    matches = [m for m in map(TREE_LINE.match, outcome.stdout.splitlines()) if m]
    lines = [m.string for m in matches]
    if not lines:
        return _failed(check, root, call_text, "lines such as '  (2, 0): 1'", repr(outcome.stdout[:200]), None)
    indents = sorted({len(m["indent"]) for m in matches})
    unit = min((b - a for a, b in zip(indents, indents[1:])), default=2) or 2
    base = indents[0]
    path: list[int] = []
    spec = ctx.spec(root)
    for match in matches:
        line = match.string
        level = (len(match["indent"]) - base) // unit
        move = MOVE.search(match["label"])
        del path[max(level - 1, 0) :]
        if level > 0:
            if move is None:
                return _failed(
                    check,
                    root,
                    call_text,
                    "a move (row, col) on every line below the root",
                    line.strip(),
                    None,
                )
            path.append(int(move[1]) * 3 + int(move[2]))
        node = root
        try:
            for cell in path:
                node = node.play(cell, node.to_move(ctx.assignment.first_player))
        except ValueError as exc:
            return _failed(check, root, call_text, "moves that can be played", f"{line.strip()} ({exc})", None)
        expected = minimax(
            node, spec, to_move=node.to_move(ctx.assignment.first_player) if not node.is_terminal() else None
        ).value
        if float(match["score"]) != expected:
            return _failed(
                check,
                node,
                call_text,
                f"{match['label'].strip()}: {format_value(expected)}",
                line.strip(),
                "Each printed score must be the minimax value of that node (X maximizes).",
            )
    expected_lines = minimax(root, spec).nodes
    if len(lines) != expected_lines:
        return _failed(
            check,
            root,
            call_text,
            f"{expected_lines} lines, one per node",
            f"{len(lines)} lines",
            "Every node of the tree is printed once, the root included.",
        )
    return CheckResult.for_check(
        check,
        CheckStatus.PASSED,
        f"The printed tree has all {len(lines)} nodes with their minimax values.",
    )
