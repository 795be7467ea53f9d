"""Loading assignment specs: `assignments/<id>/assignment.toml` (+ optional `adapter.py`).

Loading validates everything up front and names the file, every field and its problem, so a
course author learns about a typo when the assignment loads, not halfway through a batch.
The tables are read by `grader.spec.tables`; what spans them (the board, check ids, the
calls on the object holding the board) is checked here.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import sys
import types
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib  # type: ignore[import-not-found,unused-ignore]

from grader.checks.params import PLACEHOLDERS
from grader.checks.registry import CHECK_KINDS
from grader.spec.board import OBJECT, BoardLocation, read_board
from grader.spec.call_template import CallTemplate, CallTemplateError
from grader.spec.game import GameSetup, read_game
from grader.spec.installed import installed_assignments
from grader.spec.model import Assignment, AssignmentError, Check
from grader.spec.support import read_support
from grader.spec.tables import SpecFile, read_tables
from reference import CODECS, BoardEncoding

__all__ = ["BUILTIN_ASSIGNMENTS", "differences_from_folder", "list_assignments", "load_assignment"]

_PACKAGE = Path(__file__).resolve().parents[1]


def _builtin_assignments() -> Path:
    """Where the built-in assignments are: inside the installed package (a wheel carries them
    as ``grader/assignments``), or the repository's top-level folder in a checkout."""
    installed = _PACKAGE / "assignments"
    checkout = _PACKAGE.parent / "assignments"
    if not installed.is_dir() and (_PACKAGE.parent / "pyproject.toml").is_file() and checkout.is_dir():
        return checkout
    return installed


BUILTIN_ASSIGNMENTS = _builtin_assignments()


def list_assignments(root: Path = BUILTIN_ASSIGNMENTS) -> list[str]:
    return sorted(p.parent.name for p in root.glob("*/assignment.toml"))


def load_assignment(id_or_path: str | Path, root: Path = BUILTIN_ASSIGNMENTS) -> Assignment:
    """Load by built-in id or by a path to a folder or to its assignment.toml."""
    path = Path(id_or_path)
    by_id = not path.is_dir() and not path.suffix
    if path.is_dir():
        path = path / "assignment.toml"
    elif by_id:
        path = root / str(id_or_path) / "assignment.toml"
        if not path.is_file():  # not built in: installed by a student bundle (`grader.spec.installed`)
            path = installed_assignments().get(str(id_or_path), path.parent) / "assignment.toml"
    if not path.is_file():
        raise AssignmentError(id_or_path if by_id else path, "", _not_found(root))
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise AssignmentError(path, "", f"not valid TOML: {exc}") from None
    return _parse(raw, path)


def _parse(raw: Mapping[str, Any], path: Path) -> Assignment:
    """The assignment the tables describe; AssignmentError listing every problem found."""
    spec = read_tables(raw)
    if not isinstance(spec, list):
        return assignment_from(spec, path)
    meta = raw.get("assignment")
    preset = meta.get("encoding") if isinstance(meta, dict) else None
    table = raw.get("board", {})
    game_table = raw.get("game", {})
    game = read_game(game_table) if isinstance(game_table, dict) else None
    if isinstance(game, GameSetup) and preset is None and not table:
        preset = _OTHER_GAME_ENCODING
    board = _board(preset, table) if isinstance(preset, (str, type(None))) and isinstance(table, dict) else None
    raise AssignmentError.of(path, spec + (board if isinstance(board, list) else []))


_OTHER_GAME_ENCODING = "flat-space"
"""``Assignment.encoding`` of an assignment on another game: its board is ``game.encoding``,
and no check of it reads a tic-tac-toe board (`_check_game_kinds`)."""


def assignment_from(spec: SpecFile, path: Path) -> Assignment:
    """The assignment ``spec`` describes, as if read from ``path`` (its stdin file, adapter
    and support modules are looked for beside it): what spans the tables is checked here."""
    game = read_game(spec.game)
    if isinstance(game, list):
        raise AssignmentError.of(path, game)
    preset = spec.assignment.encoding
    if game is not None and preset is None and not spec.board:
        preset = _OTHER_GAME_ENCODING
    board = _board(preset, spec.board)
    if isinstance(board, list):
        raise AssignmentError.of(path, board)
    _check_game_kinds(path, spec.checks, game)
    _check_ids(path, spec.checks)
    _check_slow_limits(path, spec)
    encoding, location = board
    _check_object_calls(path, list(spec.checks), location)
    table = spec.assignment
    directory = path.parent
    settings = table.settings()
    if table.stdin_file:
        stdin_path = directory / table.stdin_file
        if not stdin_path.is_file():
            raise AssignmentError(path, "assignment.stdin_file", f"{stdin_path} does not exist")
        settings["stdin"] = tuple(stdin_path.read_text(encoding="utf-8").splitlines())
    support = read_support(directory, table.support or ())
    if isinstance(support, str):
        raise AssignmentError(path, "assignment.support", support)
    return Assignment(
        **settings,
        directory=directory,
        encoding=encoding,
        board=location,
        aliases=spec.aliases,
        checks=spec.checks,
        adapter=_load_adapter(directory / "adapter.py"),
        game=game,
        support=support,
    )


def _check_game_kinds(path: Path, checks: Sequence[Check[Any]], game: GameSetup | None) -> None:
    """An assignment on another game uses only the kinds that ask the game."""
    if game is None:
        return
    for n, check in enumerate(checks):
        if not CHECK_KINDS[check.kind].any_game:
            usable = ", ".join(name for name, kind in CHECK_KINDS.items() if kind.any_game)
            raise AssignmentError(
                path,
                f"checks[{n}] ({check.id}).kind",
                f"{check.kind!r} knows tic-tac-toe alone; on {game.name}: {usable}",
            )


def _check_ids(path: Path, checks: Sequence[Check[Any]]) -> None:
    seen: set[str] = set()
    for n, check in enumerate(checks):
        if check.id in seen:
            raise AssignmentError(path, f"checks[{n}] ({check.id}).id", "duplicate check id")
        seen.add(check.id)


def _check_slow_limits(path: Path, spec: SpecFile) -> None:
    """A cost is a share of the points, and the soft limit comes before the hard one."""
    table = spec.assignment
    costs = [("assignment.slow_cost", table.slow_cost)]
    costs += [(f"checks[{n}] ({c.id}).slow_cost", c.slow_cost) for n, c in enumerate(spec.checks)]
    for where, cost in costs:
        if cost is not None and not 0 <= cost <= 1:
            raise AssignmentError(path, where, f"must be a share of the points from 0 to 1, not {cost:g}")
    hard = table.call_timeout if table.call_timeout is not None else Assignment.call_timeout
    if table.slow_after is not None and table.slow_after >= hard:
        raise AssignmentError(
            path, "assignment.slow_after", f"must be below call_timeout ({hard:g} s), not {table.slow_after:g}"
        )


def _board(preset: str | None, table: Mapping[str, Any]) -> tuple[BoardEncoding, BoardLocation] | list[tuple[str, str]]:
    """The board the assignment describes: ``assignment.encoding`` (a preset), a ``[board]``
    table (`grader.spec.board`), or a preset with the table's fields over it; or its problem."""
    if preset is None and not table:
        known = ", ".join(sorted(CODECS))
        return [("assignment.encoding", f"is required without a [board] table ({known})")]
    try:
        return read_board(preset, table, placeholders=PLACEHOLDERS)
    except ValueError as problem:
        name, _, text = str(problem).partition(": ")
        return [({"encoding": "assignment.encoding", "board": "board"}.get(name, f"board.{name}"), text)]


def _check_object_calls(path: Path, checks: list[Check[Any]], board: BoardLocation) -> None:
    """Calls that use ``game`` need a board that lives in an object, and one method of it:
    say so at load time."""
    for n, check in enumerate(checks):
        for name, value in vars(check.params).items():
            templates = value.values() if isinstance(value, Mapping) else (value,)
            for template in templates:
                if not isinstance(template, CallTemplate):
                    continue
                uses_object = template.function.split(".")[0] == OBJECT or OBJECT in template.placeholders
                problem = None
                if uses_object and board.where != "attribute":
                    problem = (
                        f"{template.text!r} uses {OBJECT!r}: it needs [board] location = "
                        '"attribute" with a factory and an attribute'
                    )
                elif uses_object:
                    try:
                        board.on_object(template)
                    except CallTemplateError as error:
                        problem = str(error)
                if problem is not None:
                    raise AssignmentError(path, f"checks[{n}] ({check.id}).{name}", problem)


def _load_adapter(path: Path) -> types.ModuleType | None:
    """Import the assignment's adapter (trusted course-author code, run in the grader)."""
    if not path.is_file():
        return None
    name = f"_assignment_adapter_{path.parent.name.replace('-', '_')}"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except Exception as exc:  # the author's adapter is broken: say where
        raise AssignmentError(path, "", f"adapter failed to import: {type(exc).__name__}: {exc}") from None
    return module


def _not_found(root: Path) -> str:
    """The ids one could have meant: built in, and installed by a student bundle."""
    builtin, installed = list_assignments(root), sorted(installed_assignments())
    known = [f"built-in ids: {', '.join(builtin)}"] if builtin else []
    known += [f"installed: {', '.join(installed)}"] if installed else []
    return f"no such assignment ({'; '.join(known) or 'none is built in or installed'})"


def differences_from_folder(assignment: Assignment) -> list[str]:
    """The fields in which ``assignment`` differs from what its folder holds now (an adapter
    compared by the file it was loaded from): a caller who changed the object in memory, or a
    folder edited since it was loaded. Grading that reads the assignment again from its folder (a
    batch's worker processes) would otherwise grade under the file, not under the object."""
    on_disk = load_assignment(assignment.directory)

    def same(name: str) -> bool:
        mine, theirs = getattr(assignment, name), getattr(on_disk, name)
        if isinstance(mine, types.ModuleType) or isinstance(theirs, types.ModuleType):
            return getattr(mine, "__file__", None) == getattr(theirs, "__file__", None)
        return bool(mine == theirs)

    return [field.name for field in dataclasses.fields(Assignment) if not same(field.name)]
