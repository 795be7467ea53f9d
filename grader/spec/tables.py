"""The tables of ``assignment.toml`` as types, read and written by one converter.

`read_tables` structures the parsed TOML into a `SpecFile`: the ``[assignment]`` table, each
``[[checks]]`` entry as a `Check` holding its kind's own parameter dataclass, the ``[board]``
and ``[aliases]`` tables. It gathers every problem with its place (``checks[2] (minimax).points:
must be a number, not 'ten'``) before it gives up. `check_table` and `assignment_table` go the
other way, leaving out what equals its default, for ``grader init``.

A kind's parameter typed `reference.position.Position` holds positions of the assignment's game,
written as that game writes them (`reference.game.LineGame.position`): the file's ``[game]``
table says which game, tic-tac-toe when there is none.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Mapping
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, TypeVar, get_origin

from cattrs.errors import AttributeValidationNote, ClassValidationError
from cattrs.gen import make_dict_structure_fn, make_dict_unstructure_fn, override

from grader.checks.params import PLACEHOLDERS
from grader.checks.registry import CHECK_KINDS
from grader.execution.isolation import SandboxChoice
from grader.serialization import converter, noted, problems, written
from grader.spec.call_template import CallTemplate, CallTemplateError, parse_call
from grader.spec.game import GameSetup, read_game
from grader.spec.model import Assignment, Check, Count, Maximizer, MoveFormat, Scoring, Seconds, Side
from reference import TIC_TAC_TOE, LineGame, MalformedBoard, Position, WrittenPosition

__all__ = ["AssignmentTable", "SpecFile", "SpecProblems", "assignment_table", "check_table", "read_tables"]

P = TypeVar("P", bound=Position)


@dataclass(frozen=True)
class AssignmentTable:
    """The ``[assignment]`` table. A field left out takes `Assignment`'s default (written there
    once), hence None here for "not given"."""

    id: str
    title: str
    encoding: str | None = None
    """A preset board encoding (`grader.spec.board`); or a ``[board]`` table."""
    description: str | None = None
    maximizer: Maximizer | None = None
    first_player: Side | None = None
    scoring: Scoring | None = None
    move: MoveFormat | None = None
    stdin: tuple[str, ...] | None = None
    """Scripted answers to the notebook's ``input()`` calls, one a line."""
    stdin_file: str | None = None
    """The same, from a file beside ``assignment.toml`` (it wins over ``stdin``)."""
    cell_timeout: Seconds | None = None
    notebook_timeout: Seconds | None = None
    call_timeout: Seconds | None = None
    slow_after: Seconds | None = None
    slow_cost: float | None = None
    check_budget_seconds: Seconds | None = None
    hypothesis_examples: Count | None = None
    reference_helpers: bool | None = None
    sandbox: SandboxChoice | None = None
    support: tuple[str, ...] | None = None
    """File names of the course's modules in the folder's ``support/`` (read by the loader)."""

    def settings(self) -> dict[str, Any]:
        """The given fields that `Assignment` holds as they are, by its names."""
        held = {f.name for f in dataclasses.fields(Assignment)} - {"encoding", "support"}  # names, here
        given = {"move_format" if k == "move" else k: v for k, v in vars(self).items() if v is not None}
        return {k: v for k, v in given.items() if k in held}


@dataclass(frozen=True, kw_only=True)
class SpecFile:
    """A whole ``assignment.toml``. Its fields are given by name only, so that a new table can never
    take another's place in a call that passes them by position."""

    assignment: AssignmentTable
    checks: tuple[Check[Any], ...]
    board: dict = field(default_factory=dict)
    """Read by `grader.spec.board.read_board`, which knows the preset it goes over."""
    game: dict = field(default_factory=dict)
    """Read by `grader.spec.game.read_game`: the game, when it is not tic-tac-toe."""
    aliases: dict[str, tuple[str, ...]] = field(default_factory=dict)


COMMON_FIELDS = tuple(f.name for f in dataclasses.fields(Check) if f.name != "params")
"""The fields every check has; the rest of a ``[[checks]]`` entry is its kind's."""

SpecProblems = list[tuple[str, str]]
"""(where, what is wrong) pairs, in the file's order."""


def read_tables(raw: Mapping[str, Any]) -> SpecFile | SpecProblems:
    """The file's tables, or every problem found in them."""
    reading = _SPEC_GAME.set(_spec_game(raw))
    try:
        spec: SpecFile = _converter.structure(raw, SpecFile)
    except (ClassValidationError, ValueError, TypeError) as error:
        return _with_ids(list(problems(error)), raw)
    finally:
        _SPEC_GAME.reset(reading)
    if not spec.checks:
        return [("checks", "at least one [[checks]] entry is required")]
    return spec


def _with_ids(found: SpecProblems, raw: Mapping[str, Any]) -> SpecProblems:
    """``checks[2].points`` as ``checks[2] (minimax).points``: the id says which one."""
    entries = raw.get("checks")
    entries = entries if isinstance(entries, list) else []

    def named(match: re.Match[str]) -> str:
        n = int(match.group(1))
        entry = entries[n] if n < len(entries) else None
        check_id = entry.get("id") if isinstance(entry, dict) else None
        return f"{match.group(0)} ({check_id})" if isinstance(check_id, str) else match.group(0)

    return [(re.sub(r"^checks\[(\d+)\]", named, where), what) for where, what in found]


# -- the spec's own values: call texts and boards ------------------------------------------------


def _call_template(value: Any, _: Any) -> CallTemplate:
    if not isinstance(value, str):
        raise TypeError(f'must be a call text such as "f(board)", not {written(value)}')
    try:
        return parse_call(value, allowed_placeholders=PLACEHOLDERS)
    except CallTemplateError as problem:
        raise ValueError(str(problem)) from None


def _is_written_position(cl: Any) -> bool:
    """A position type a spec writes as text (`reference.position.WrittenPosition`): whatever
    game a kind's parameters hold positions of, the spec reads them by that type's own rules."""
    return isinstance(cl, type) and issubclass(cl, WrittenPosition)


def _position(value: Any, kind: type[WrittenPosition]) -> WrittenPosition:
    return _read_position(value, kind.spec_words()[1], kind.from_string)


def _read_position(value: Any, example: str, read: Callable[[str], P]) -> P:
    """``value`` read by ``read``; a problem naming ``example`` when it is no text."""
    if not isinstance(value, str):
        raise TypeError(f"must be a {example}, not {written(value)}")
    try:
        return read(value)
    except MalformedBoard as problem:
        raise ValueError(f"bad board: {problem}") from None


_SPEC_GAME: ContextVar[LineGame[Position]] = ContextVar("spec_game", default=TIC_TAC_TOE)
"""The game of the file being read: its positions are read by its own rules."""


def _spec_game(raw: Mapping[str, Any]) -> LineGame[Position]:
    """The file's game (its ``[game]`` table's, which `read_game` checks once the tables are
    read), tic-tac-toe when there is none or it is not one."""
    table = raw.get("game")
    setup = read_game(table) if isinstance(table, Mapping) else None
    return setup.game if isinstance(setup, GameSetup) else TIC_TAC_TOE


def _is_game_position(cl: Any) -> bool:
    return cl is Position


def _game_position(value: Any, _: Any) -> Position:
    game = _SPEC_GAME.get()
    return _read_position(value, game.spec_words()[1], game.position)


# -- a [[checks]] entry: the common fields, and the kind's own -----------------------------------


def _at(error: Exception, name: str) -> Exception:
    return noted(error, AttributeValidationNote(f"Structuring a check @ attribute {name}", name, str))


def _structure_check(entry: Any, _: Any) -> Check[Any]:
    if not isinstance(entry, Mapping):
        raise TypeError(f"must be a table, not {entry!r}")
    common = {k: v for k, v in entry.items() if k in COMMON_FIELDS}
    given = {k: v for k, v in entry.items() if k not in COMMON_FIELDS}
    errors: list[Exception] = []
    params: Any = None
    kind = entry.get("kind")
    if isinstance(kind, str) and kind not in CHECK_KINDS:
        known = ", ".join(sorted(CHECK_KINDS))
        errors.append(_at(ValueError(f"unknown kind {kind!r}; known: {known}"), "kind"))
    elif isinstance(kind, str):
        try:
            params = _converter.structure(given, CHECK_KINDS[kind].params)
        except ClassValidationError as group:
            errors += group.exceptions  # the kind's fields sit beside the common ones
        except (ValueError, TypeError) as problem:  # a rule across the kind's fields
            errors.append(problem)
    if "title" not in common:  # the id, or nothing when the id is missing (said once, there)
        common["title"] = common["id"] if isinstance(common.get("id"), str) else ""
    try:
        check: Check[Any] = _check_fields({**common, "params": params}, Check)
    except ClassValidationError as group:
        errors = list(group.exceptions) + errors
    if errors:
        raise ClassValidationError("While structuring a check", errors, Check)
    return check


def _is_check(cl: Any) -> bool:
    return cl is Check or get_origin(cl) is Check


def check_table(check: Check[Any]) -> dict[str, Any]:
    """A ``[[checks]]`` entry: the common fields, then the kind's, defaults left out."""
    common = _unstructure_common(check)
    common.pop("params")
    if common.get("title") == check.id:
        del common["title"]
    return {**common, **_converter.unstructure(check.params)}


def _number(value: float) -> float | int:
    """A whole number is written as one: ``points = 10``, not ``10.0`` (an int in a float field,
    ``(-1, 0)`` for a window, is already one)."""
    return int(value) if isinstance(value, float) and value.is_integer() else value


def _scalar(value: Any, _: Any) -> str | int | float | bool:
    """A string, a number or a boolean, kept as written (an `answer` check's ``expected``)."""
    if isinstance(value, (str, int, float, bool)):
        return value
    raise TypeError(f"must be a string, a number or true or false, not {value!r}")


_converter = converter.copy(omit_if_default=True)
_converter.register_structure_hook_func(lambda cl: cl == (str | int | float | bool), _scalar)
_converter.register_structure_hook(CallTemplate, _call_template)
_converter.register_structure_hook_func(_is_written_position, _position)
_converter.register_structure_hook_func(_is_game_position, _game_position)
_converter.register_unstructure_hook(CallTemplate, lambda template: template.text)
_converter.register_unstructure_hook_func(_is_written_position, str)
_converter.register_unstructure_hook_func(_is_game_position, str)
_converter.register_unstructure_hook(float, _number)
_check_fields = make_dict_structure_fn(Check[Any], _converter, params=override(struct_hook=lambda value, _: value))
_unstructure_common = make_dict_unstructure_fn(
    Check[Any], _converter, _cattrs_omit_if_default=True, params=override(unstruct_hook=lambda value: value)
)
_converter.register_structure_hook_func(_is_check, _structure_check)
_converter.register_unstructure_hook_func(_is_check, check_table)


def assignment_table(table: AssignmentTable) -> dict[str, Any]:
    """The ``[assignment]`` table, the fields not given left out."""
    unstructured: dict[str, Any] = _converter.unstructure(table)
    return {k: v for k, v in unstructured.items() if v is not None}
