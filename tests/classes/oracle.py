"""A brute-force judge of tic-tac-toe hand-ins, written for the tests and sharing no code with the grader.

It enumerates every position reachable from the empty board under its own rules, solves the game by its
own memoised search, and calls each function of a hand-in on those positions, each hand-in in a
subprocess of its own so that one that hangs or crashes the interpreter cannot take the judge down.

A function is *defective* when one call disagrees with the course's rules; the verdict names the first
counterexample. Rules the courses leave open (what `player` returns on a finished game, the order of a
list of moves) are not judged.

Run as a script it judges one hand-in and prints JSON: ``python oracle.py judge cs50 path/to/handin.py``.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import io
import json
import random
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

Cell = str | None
# Nine cells, row by row; the oracle's own representation, converted to each course's board on a call.
Position = tuple[Cell, ...]

LINES = (
    (0, 1, 2),
    (3, 4, 5),
    (6, 7, 8),
    (0, 3, 6),
    (1, 4, 7),
    (2, 5, 8),
    (0, 4, 8),
    (2, 4, 6),
)
EMPTY_POSITION: Position = (None,) * 9

# Coordinates a CS50 `result` must refuse although no cell holds them; (-1, 0) is the one Python's
# negative indexing lets through silently.
OFF_BOARD_CELLS = ((3, 3), (-1, 0), (0, 3), (3, 0), (0, -1), (-1, -1))
# Moves the Codecademy `select_space` must refuse although no cell is taken.
OFF_BOARD_MOVES = (0, 10, -1)

# "Slow" is a count of the positions one search from the empty board generates (calls of the course's
# successor function), not a clock, so that the verdict does not depend on the machine or its load. The whole
# game tree has 549,945 positions below the empty board; a search without pruning generates all of them
# (3 to 11 s of CPU here, 10 to 25 s of wall time on the loaded 2-core machine), while alpha-beta, a memo or
# stopping at a sure win generate at most 119,564 in the classes here. The limit sits between the two,
# low enough that a plain search is stopped early (its count costs about a quarter of the whole tree's).
SLOW_POSITION_LIMIT = 150_000
SUBPROCESS_TIMEOUT_S = 600.0


def winner_of(position: Position) -> Cell:
    for a, b, c in LINES:
        if position[a] is not None and position[a] == position[b] == position[c]:
            return position[a]
    return None


def is_terminal(position: Position) -> bool:
    return winner_of(position) is not None or None not in position


def side_to_move(position: Position) -> str:
    return "X" if position.count("X") == position.count("O") else "O"


def play(position: Position, index: int) -> Position:
    cells = list(position)
    cells[index] = side_to_move(position)
    return tuple(cells)


def empty_indices(position: Position) -> list[int]:
    return [index for index, cell in enumerate(position) if cell is None]


@cache
def reachable_positions() -> tuple[Position, ...]:
    """Every position of a legal game, in breadth-first order from the empty board (5,478 of them)."""
    seen = {EMPTY_POSITION}
    order = [EMPTY_POSITION]
    frontier = [EMPTY_POSITION]
    while frontier:
        following = []
        for position in frontier:
            if is_terminal(position):
                continue
            for index in empty_indices(position):
                child = play(position, index)
                if child not in seen:
                    seen.add(child)
                    order.append(child)
                    following.append(child)
        frontier = following
    return tuple(order)


@cache
def game_value(position: Position) -> int:
    """+1 if X wins under perfect play, -1 if O does, 0 for a draw."""
    won = winner_of(position)
    if won is not None:
        return 1 if won == "X" else -1
    if None not in position:
        return 0
    values = [game_value(play(position, index)) for index in empty_indices(position)]
    return max(values) if side_to_move(position) == "X" else min(values)


def optimal_indices(position: Position) -> set[int]:
    target = game_value(position)
    return {index for index in empty_indices(position) if game_value(play(position, index)) == target}


def minimax_positions(min_marks: int, sample_size: int, seed: int) -> list[Position]:
    """Every unfinished position with at least `min_marks` marks, and a seeded sample of the others.

    The empty board is never included: searching it is measured apart, with a call limit.
    """
    unfinished = [p for p in reachable_positions() if not is_terminal(p) and p != EMPTY_POSITION]
    full = [p for p in unfinished if 9 - p.count(None) >= min_marks]
    rest = [p for p in unfinished if 9 - p.count(None) < min_marks]
    sample = random.Random(seed).sample(rest, min(sample_size, len(rest)))
    return sample + full


def show(position: Position) -> str:
    return "|".join("".join(cell or "." for cell in position[row : row + 3]) for row in (0, 3, 6))


class Defect(Exception):
    """One call that breaks the course's rules; its message is the verdict's reason."""


@dataclass
class Scope:
    """Which unfinished positions `minimax` is judged on."""

    min_marks: int
    sample_size: int
    seed: int = 2024


DEFAULT_SCOPE = Scope(min_marks=6, sample_size=40)
THOROUGH_SCOPE = Scope(min_marks=3, sample_size=40)


def call(function: Callable[..., Any], *args: Any) -> Any:
    """Call a hand-in's function with its printing silenced; students print boards while they search."""
    with contextlib.redirect_stdout(io.StringIO()):
        try:
            return function(*args)
        except SystemExit as error:  # a student's exit() is an exception like any other here
            raise RuntimeError(f"exit({error.code!r})") from None


def same(got: Any, expected: Any) -> bool:
    """`got == expected` for whatever a hand-in returns; a NumPy array, say, has no truth value."""
    try:
        return bool(got == expected)
    except Exception:
        return False


def guarded(function: Callable[..., Any], what: str, *args: Any) -> Any:
    try:
        return call(function, *args)
    except Defect:
        raise
    except Exception as error:  # a student's exception is a verdict, not the judge's crash
        raise Defect(f"{what} raises {type(error).__name__}: {error}") from None


class CourseJudge:
    """The rules of one course: its board, its functions, and what each must do."""

    module_name: str
    functions: tuple[str, ...]
    # The function that makes a move on a board: what a search calls once per position it generates.
    successor: str

    def checks(self, scope: Scope) -> dict[str, Callable[[ModuleType], None]]:
        raise NotImplementedError

    def search_empty_board(self, module: ModuleType) -> None:
        raise NotImplementedError

    def correct_versions(self) -> dict[str, Callable[..., Any]]:
        """The course's board functions written right, on the course's own boards: put in a hand-in's
        globals in place of its defective ones, they tell a function's own mistake from one it only
        inherits from a function it calls."""
        raise NotImplementedError


def position_of(cells: Any, empty: Callable[[Any], bool]) -> Position:
    """The oracle's position of a course board (three rows), whatever marks it holds."""
    flat = [cell for row in cells for cell in row]
    return tuple(None if empty(cell) else cell for cell in flat)


def cs50_board(position: Position) -> list[list[Cell]]:
    return [list(position[row : row + 3]) for row in (0, 3, 6)]


def as_cell_pair(action: Any) -> tuple[int, int] | None:
    try:
        i, j = action
    except (TypeError, ValueError):
        return None
    if isinstance(i, bool) or isinstance(j, bool) or not isinstance(i, int) or not isinstance(j, int):
        return None
    return (i, j)


class Cs50Judge(CourseJudge):
    """CS50 AI's tic-tac-toe: board = three lists of "X", "O" or None; actions are (row, column) pairs."""

    module_name = "tictactoe"
    successor = "result"
    functions = ("initial_state", "player", "actions", "result", "winner", "terminal", "utility", "minimax")

    def checks(self, scope: Scope) -> dict[str, Callable[[ModuleType], None]]:
        return {
            "initial_state": self.check_initial_state,
            "player": self.check_player,
            "actions": self.check_actions,
            "result": self.check_result,
            "winner": self.check_winner,
            "terminal": self.check_terminal,
            "utility": self.check_utility,
            "minimax": lambda module: self.check_minimax(module, scope),
        }

    def check_initial_state(self, module: ModuleType) -> None:
        board = guarded(module.initial_state, "initial_state()")
        if not same(board, cs50_board(EMPTY_POSITION)):
            raise Defect(f"initial_state() returns {board!r}, not three rows of three None")

    def check_player(self, module: ModuleType) -> None:
        # Any answer is acceptable on a finished game, so only unfinished ones are asked.
        for position in reachable_positions():
            if is_terminal(position):
                continue
            got = guarded(module.player, f"player({show(position)})", cs50_board(position))
            if not same(got, side_to_move(position)):
                raise Defect(f"player({show(position)}) returns {got!r}, expected {side_to_move(position)!r}")

    def check_actions(self, module: ModuleType) -> None:
        for position in reachable_positions():
            if is_terminal(position):
                continue
            got = guarded(module.actions, f"actions({show(position)})", cs50_board(position))
            expected = {(index // 3, index % 3) for index in empty_indices(position)}
            try:
                pairs = [as_cell_pair(action) for action in got]
            except TypeError:
                raise Defect(f"actions({show(position)}) returns {got!r}, not a collection") from None
            if None in pairs or set(pairs) != expected or len(pairs) != len(expected):
                raise Defect(f"actions({show(position)}) returns {sorted(got)!r}, expected {sorted(expected)}")

    def check_result(self, module: ModuleType) -> None:
        for position in reachable_positions():
            if is_terminal(position):
                continue
            for index in range(9):
                cell = (index // 3, index % 3)
                if position[index] is None:
                    self.check_one_move(module, position, cell, play(position, index))
                else:
                    self.check_refused(module, position, cell, "an occupied cell")
            for cell in OFF_BOARD_CELLS:
                self.check_refused(module, position, cell, "a cell off the board")

    def check_one_move(self, module: ModuleType, position: Position, cell: tuple[int, int], after: Position) -> None:
        board = cs50_board(position)
        what = f"result({show(position)}, {cell})"
        got = guarded(module.result, what, board, cell)
        if board != cs50_board(position):
            raise Defect(f"{what} changes the board it was given")
        if got is board:
            raise Defect(f"{what} returns the board it was given, not a new one")
        if not same(got, cs50_board(after)):
            raise Defect(f"{what} returns {got!r}, expected {show(after)}")

    def check_refused(self, module: ModuleType, position: Position, cell: tuple[int, int], kind: str) -> None:
        board = cs50_board(position)
        try:
            got = call(module.result, board, cell)
        except Exception:
            return
        raise Defect(f"result({show(position)}, {cell}) accepts {kind} and returns {got!r} instead of raising")

    def check_winner(self, module: ModuleType) -> None:
        for position in reachable_positions():
            got = guarded(module.winner, f"winner({show(position)})", cs50_board(position))
            if not same(got, winner_of(position)):
                raise Defect(f"winner({show(position)}) returns {got!r}, expected {winner_of(position)!r}")

    def check_terminal(self, module: ModuleType) -> None:
        for position in reachable_positions():
            got = guarded(module.terminal, f"terminal({show(position)})", cs50_board(position))
            if not same(got, is_terminal(position)):
                raise Defect(f"terminal({show(position)}) returns {got!r}, expected {is_terminal(position)}")

    def check_utility(self, module: ModuleType) -> None:
        for position in reachable_positions():
            if not is_terminal(position):
                continue  # the course promises utility a finished game only
            expected = {"X": 1, "O": -1, None: 0}[winner_of(position)]
            got = guarded(module.utility, f"utility({show(position)})", cs50_board(position))
            if not same(got, expected):
                raise Defect(f"utility({show(position)}) returns {got!r}, expected {expected}")

    def check_minimax(self, module: ModuleType, scope: Scope) -> None:
        for position in reachable_positions():
            if is_terminal(position):
                got = guarded(module.minimax, f"minimax({show(position)})", cs50_board(position))
                if got is not None:
                    raise Defect(f"minimax({show(position)}) returns {got!r} on a finished game, expected None")
        for position in minimax_positions(scope.min_marks, scope.sample_size, scope.seed):
            board = cs50_board(position)
            what = f"minimax({show(position)})"
            got = guarded(module.minimax, what, board)
            if board != cs50_board(position):
                raise Defect(f"{what} changes the board it was given")
            cell = as_cell_pair(got)
            if cell is None or not (0 <= cell[0] < 3 and 0 <= cell[1] < 3) or position[3 * cell[0] + cell[1]]:
                raise Defect(f"{what} returns {got!r}, not a free cell")
            if 3 * cell[0] + cell[1] not in optimal_indices(position):
                raise Defect(f"{what} plays {cell}, which gives away the game's value {game_value(position)}")

    def correct_versions(self) -> dict[str, Callable[..., Any]]:
        def position(board: Any) -> Position:
            return position_of(board, lambda cell: cell is None)

        def result(board: Any, action: Any) -> list[list[Cell]]:
            i, j = action
            if not (0 <= i < 3 and 0 <= j < 3) or board[i][j] is not None:
                raise ValueError(f"invalid action {action!r}")
            return cs50_board(play(position(board), 3 * i + j))

        def utility(board: Any) -> int:
            return {"X": 1, "O": -1, None: 0}[winner_of(position(board))]

        return {
            "initial_state": lambda: cs50_board(EMPTY_POSITION),
            "player": lambda board: side_to_move(position(board)),
            "actions": lambda board: {(index // 3, index % 3) for index in empty_indices(position(board))},
            "result": result,
            "winner": lambda board: winner_of(position(board)),
            "terminal": lambda board: is_terminal(position(board)),
            "utility": utility,
        }

    def search_empty_board(self, module: ModuleType) -> None:
        call(module.minimax, cs50_board(EMPTY_POSITION))


def codecademy_board(position: Position) -> list[list[str]]:
    return [[position[index] or str(index + 1) for index in range(row, row + 3)] for row in (0, 3, 6)]


class CodecademyJudge(CourseJudge):
    """Codecademy's minimax lesson: board = three lists of "1".."9", "X" or "O"; moves are the numbers 1..9.

    The lesson hands out the board functions and asks for `minimax(input_board, is_maximizing)`, which
    returns [value, move] for X (maximizing) or O; the base case returns the board's evaluation and "".
    """

    module_name = "script"
    successor = "select_space"
    functions = ("select_space", "available_moves", "has_won", "game_is_over", "evaluate_board", "minimax")

    def checks(self, scope: Scope) -> dict[str, Callable[[ModuleType], None]]:
        return {
            "select_space": self.check_select_space,
            "available_moves": self.check_available_moves,
            "has_won": self.check_has_won,
            "game_is_over": self.check_game_is_over,
            "evaluate_board": self.check_evaluate_board,
            "minimax": lambda module: self.check_minimax(module, scope),
        }

    def check_select_space(self, module: ModuleType) -> None:
        for position in reachable_positions():
            if is_terminal(position):
                continue
            turn = side_to_move(position)
            for move in (*range(1, 10), *OFF_BOARD_MOVES):
                board = codecademy_board(position)
                what = f"select_space({show(position)}, {move}, {turn!r})"
                got = guarded(module.select_space, what, board, move, turn)
                if 1 <= move <= 9 and position[move - 1] is None:
                    expected_board, expected = codecademy_board(play(position, move - 1)), True
                else:
                    expected_board, expected = codecademy_board(position), False
                if not same(got, expected) or board != expected_board:
                    raise Defect(f"{what} returns {got!r} and leaves {board!r}; expected {expected}")

    def check_available_moves(self, module: ModuleType) -> None:
        # The lesson's game_is_over asks it about won boards too, so every position is asked.
        for position in reachable_positions():
            got = guarded(module.available_moves, f"available_moves({show(position)})", codecademy_board(position))
            expected = [index + 1 for index in empty_indices(position)]
            if not isinstance(got, list | tuple | set) or sorted(got, key=repr) != sorted(expected, key=repr):
                raise Defect(f"available_moves({show(position)}) returns {got!r}, expected {expected}")

    def check_has_won(self, module: ModuleType) -> None:
        for position in reachable_positions():
            for mark in ("X", "O"):
                what = f"has_won({show(position)}, {mark!r})"
                got = guarded(module.has_won, what, codecademy_board(position), mark)
                if bool(got) != (winner_of(position) == mark):
                    raise Defect(f"{what} returns {got!r}, expected {winner_of(position) == mark}")

    def check_game_is_over(self, module: ModuleType) -> None:
        for position in reachable_positions():
            got = guarded(module.game_is_over, f"game_is_over({show(position)})", codecademy_board(position))
            if bool(got) != is_terminal(position):
                raise Defect(f"game_is_over({show(position)}) returns {got!r}, expected {is_terminal(position)}")

    def check_evaluate_board(self, module: ModuleType) -> None:
        for position in reachable_positions():
            expected = {"X": 1, "O": -1, None: 0}[winner_of(position)]
            got = guarded(module.evaluate_board, f"evaluate_board({show(position)})", codecademy_board(position))
            if not same(got, expected):
                raise Defect(f"evaluate_board({show(position)}) returns {got!r}, expected {expected}")

    def answer(self, module: ModuleType, position: Position) -> tuple[Any, Any]:
        board = codecademy_board(position)
        maximizing = side_to_move(position) == "X"
        what = f"minimax({show(position)}, {maximizing})"
        got = guarded(module.minimax, what, board, maximizing)
        if board != codecademy_board(position):
            raise Defect(f"{what} changes the board it was given")
        if not isinstance(got, list | tuple) or len(got) != 2:
            raise Defect(f"{what} returns {got!r}, not [value, move]")
        return got[0], got[1]

    def check_minimax(self, module: ModuleType, scope: Scope) -> None:
        for position in reachable_positions():
            if is_terminal(position):
                value, _ = self.answer(module, position)
                if not same(value, game_value(position)):
                    raise Defect(f"minimax({show(position)}) on a finished game gives value {value!r}")
        for position in minimax_positions(scope.min_marks, scope.sample_size, scope.seed):
            value, move = self.answer(module, position)
            what = f"minimax({show(position)}, {side_to_move(position) == 'X'})"
            if not same(value, game_value(position)):
                raise Defect(f"{what} gives value {value!r}, expected {game_value(position)}")
            if isinstance(move, bool) or not isinstance(move, int) or not 1 <= move <= 9 or position[move - 1]:
                raise Defect(f"{what} returns move {move!r}, not a free cell")
            if move - 1 not in optimal_indices(position):
                raise Defect(f"{what} plays {move}, which gives away the game's value {game_value(position)}")

    def correct_versions(self) -> dict[str, Callable[..., Any]]:
        def position(board: Any) -> Position:
            return position_of(board, lambda cell: cell not in ("X", "O"))

        def select_space(board: Any, move: Any, turn: str) -> bool:
            if not isinstance(move, int) or not 1 <= move <= 9:
                return False
            row, column = divmod(move - 1, 3)
            if board[row][column] in ("X", "O"):
                return False
            board[row][column] = turn
            return True

        def evaluate_board(board: Any) -> int:
            return {"X": 1, "O": -1, None: 0}[winner_of(position(board))]

        return {
            "select_space": select_space,
            "available_moves": lambda board: [index + 1 for index in empty_indices(position(board))],
            "has_won": lambda board, mark: winner_of(position(board)) == mark,
            "game_is_over": lambda board: is_terminal(position(board)),
            "evaluate_board": evaluate_board,
        }

    def search_empty_board(self, module: ModuleType) -> None:
        call(module.minimax, codecademy_board(EMPTY_POSITION), True)


COURSES: dict[str, CourseJudge] = {"cs50": Cs50Judge(), "codecademy": CodecademyJudge()}


@dataclass
class Verdict:
    """What the oracle found in one hand-in."""

    imports: bool
    import_error: str = ""
    # Function name -> why it is defective (the first counterexample).
    defects: dict[str, str] = field(default_factory=dict)
    # A defective function that is right once the hand-in's other defective functions are replaced by
    # correct ones -> those functions: its mistake is theirs, and a grader that charges a mistake once
    # charges it there.
    through: dict[str, list[str]] = field(default_factory=dict)
    # None when not measured; True when the search from the empty board exceeds SLOW_POSITION_LIMIT positions.
    slow: bool | None = None
    empty_board_positions: int | None = None


def load(course: CourseJudge, path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(course.module_name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[course.module_name] = module
    with contextlib.redirect_stdout(io.StringIO()):
        spec.loader.exec_module(module)
    return module


class CallLimitReached(BaseException):
    """Raised by the counting successor when a search generates more than SLOW_POSITION_LIMIT positions."""


def count_positions(course: CourseJudge, module: ModuleType, run: Callable[[], None]) -> int:
    """Positions that `run` generates through the module's successor function, stopping past the limit.

    The module's global is replaced, so a search that calls the successor by name is counted; one that
    copies and writes boards itself is not (none of the classes here does).
    """
    successor = getattr(module, course.successor)
    generated = 0

    def counting(*args: Any) -> Any:
        nonlocal generated
        generated += 1
        if generated > SLOW_POSITION_LIMIT:
            raise CallLimitReached
        return successor(*args)

    setattr(module, course.successor, counting)
    try:
        run()
    except CallLimitReached:
        pass
    finally:
        setattr(module, course.successor, successor)
    return generated


def judge_in_process(course_name: str, path: Path, scope: Scope) -> Verdict:
    course = COURSES[course_name]
    try:
        module = load(course, path)
    except (Exception, SystemExit) as error:
        return Verdict(imports=False, import_error=f"{type(error).__name__}: {error}")
    verdict = Verdict(imports=True)
    for name, check in course.checks(scope).items():
        if not callable(getattr(module, name, None)):
            verdict.defects[name] = f"{name} is not defined"
            continue
        try:
            check(module)
        except Defect as defect:
            verdict.defects[name] = str(defect)
    verdict.through = inherited_defects(course, module, scope, verdict.defects)
    return verdict


def inherited_defects(
    course: CourseJudge, module: ModuleType, scope: Scope, defects: dict[str, str]
) -> dict[str, list[str]]:
    """Each defective function that passes its check once every other defective function the course
    writes right is replaced by the correct version in the hand-in's globals -> those functions."""
    correct = course.correct_versions()
    through: dict[str, list[str]] = {}
    for name in defects:
        others = sorted(other for other in defects if other != name and other in correct)
        if not others:
            continue
        saved = {other: getattr(module, other) for other in others}
        for other in others:
            setattr(module, other, correct[other])
        try:
            course.checks(scope)[name](module)
        except Defect:
            pass
        else:
            through[name] = others
        finally:
            for other, function in saved.items():
                setattr(module, other, function)
    return through


def measure_in_process(course_name: str, path: Path) -> Verdict:
    """Count the positions of one search from the empty board, on a fresh import (no memo filled yet)."""
    course = COURSES[course_name]
    try:
        module = load(course, path)
    except (Exception, SystemExit) as error:
        return Verdict(imports=False, import_error=f"{type(error).__name__}: {error}")
    generated = count_positions(course, module, lambda: course.search_empty_board(module))
    return Verdict(imports=True, slow=generated > SLOW_POSITION_LIMIT, empty_board_positions=generated)


def judge_handin(course_name: str, path: Path, *, thorough: bool = False, measure_slow: bool = False) -> Verdict:
    """Judge one hand-in in a subprocess of its own; with `measure_slow`, only count its search from empty."""
    command = [sys.executable, str(Path(__file__).resolve()), "judge", course_name, str(path.resolve())]
    if thorough:
        command.append("--thorough")
    if measure_slow:
        command.append("--measure-slow")
    completed = subprocess.run(command, capture_output=True, text=True, timeout=SUBPROCESS_TIMEOUT_S, check=False)
    if completed.returncode != 0:
        raise RuntimeError(f"the oracle's worker failed on {path}: {completed.stderr[-2000:]}")
    return Verdict(**json.loads(completed.stdout))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    sub = parser.add_subparsers(dest="command", required=True)
    judge = sub.add_parser("judge", help="judge one hand-in and print the verdict as JSON")
    judge.add_argument("course", choices=sorted(COURSES))
    judge.add_argument("handin", type=Path)
    judge.add_argument("--thorough", action="store_true", help="judge minimax on more positions")
    judge.add_argument(
        "--measure-slow", action="store_true", help="only count the positions of a search from the empty board"
    )
    args = parser.parse_args(argv)
    out = sys.stdout
    scope = THOROUGH_SCOPE if args.thorough else DEFAULT_SCOPE
    if args.measure_slow:
        verdict = measure_in_process(args.course, args.handin.resolve())
    else:
        verdict = judge_in_process(args.course, args.handin.resolve(), scope)
    out.write(json.dumps(verdict.__dict__))
    return 0


def iter_handins(course_dir: Path) -> Iterator[Path]:
    yield from sorted((course_dir / "handins").glob("*.py"))


if __name__ == "__main__":
    sys.exit(main())


__all__ = ["COURSES", "Verdict", "judge_handin", "iter_handins", "reachable_positions", "game_value"]
