"""Loading assignment specs: `assignments/<id>/assignment.toml` (+ optional `adapter.py`).

Loading validates everything up front and names the file, the field and the problem, so a
course author learns about a typo when the assignment loads, not halfway through a batch.
Each check's own fields are validated against its kind's parameter dataclass, hence the
one import of the kind registry.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import sys
import types
import typing
from collections.abc import Mapping
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
from grader.spec.model import (
    MAXIMIZERS,
    MOVE_FORMATS,
    SCORINGS,
    SIDES,
    VISIBILITIES,
    Assignment,
    AssignmentError,
    Check,
)
from reference import CODECS, BoardEncoding, O, X

__all__ = ["BUILTIN_ASSIGNMENTS", "list_assignments", "load_assignment"]

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
    if path.is_dir():
        path = path / "assignment.toml"
    elif not path.suffix:
        path = root / str(id_or_path) / "assignment.toml"
    if not path.is_file():
        known = ", ".join(list_assignments(root)) or "none"
        raise AssignmentError(path, "", f"no such assignment (built-in ids: {known})")
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise AssignmentError(path, "", f"not valid TOML: {exc}") from None
    return _parse(raw, path)


_COMMON_FIELDS = frozenset({"id", "kind", "title", "points", "visibility", "bonus", "description"})


def _parse(raw: Mapping[str, Any], path: Path) -> Assignment:
    reader = _Reader(path)
    meta = reader.table(raw, "assignment")
    directory = path.parent
    stdin: tuple[str, ...] = tuple(reader.str_list(meta, "assignment.stdin", default=[]))
    stdin_file = reader.opt(meta, "assignment.stdin_file", str)
    if stdin_file:
        stdin_path = directory / stdin_file
        if not stdin_path.is_file():
            raise AssignmentError(path, "assignment.stdin_file", f"{stdin_path} does not exist")
        stdin = tuple(line for line in stdin_path.read_text(encoding="utf-8").splitlines())
    encoding, board = _board(reader, raw, meta)

    aliases_raw = raw.get("aliases", {})
    if not isinstance(aliases_raw, dict):
        raise AssignmentError(path, "aliases", "must be a table of name = [alias, ...]")
    aliases = {name: tuple(reader.str_list(aliases_raw, f"aliases.{name}")) for name in aliases_raw}

    checks_raw = raw.get("checks")
    if not isinstance(checks_raw, list) or not checks_raw:
        raise AssignmentError(path, "checks", "at least one [[checks]] entry is required")
    checks: list[Check[Any]] = []
    seen: set[str] = set()
    for n, entry in enumerate(checks_raw):
        if not isinstance(entry, dict):
            raise AssignmentError(path, f"checks[{n}]", "must be a table")
        check = _check(reader, entry, f"checks[{n}]")
        if check.id in seen:
            raise AssignmentError(path, f"checks[{n}] ({check.id}).id", "duplicate check id")
        seen.add(check.id)
        checks.append(check)
    _check_object_calls(path, checks, board)
    return Assignment(
        id=reader.req(meta, "assignment.id", str),
        title=reader.req(meta, "assignment.title", str),
        directory=directory,
        encoding=encoding,
        board=board,
        maximizer=reader.choice(meta, "assignment.maximizer", MAXIMIZERS, default=O),
        first_player=reader.choice(meta, "assignment.first_player", SIDES, default=X),
        scoring=reader.choice(meta, "assignment.scoring", SCORINGS, default="unit"),
        move_format=reader.choice(meta, "assignment.move", MOVE_FORMATS, default="index"),
        stdin=stdin,
        cell_timeout=float(reader.opt(meta, "assignment.cell_timeout", (int, float)) or 30),
        notebook_timeout=float(reader.opt(meta, "assignment.notebook_timeout", (int, float)) or 300),
        call_timeout=float(reader.opt(meta, "assignment.call_timeout", (int, float)) or 10),
        aliases=aliases,
        checks=tuple(checks),
        description=reader.opt(meta, "assignment.description", str) or "",
        adapter=_load_adapter(directory / "adapter.py"),
        hypothesis_examples=int(reader.opt(meta, "assignment.hypothesis_examples", int) or 60),
        check_budget_seconds=float(reader.opt(meta, "assignment.check_budget_seconds", (int, float)) or 20),
        reference_helpers=reader.opt(meta, "assignment.reference_helpers", bool) is not False,
    )


def _board(reader: _Reader, raw: Mapping[str, Any], meta: Mapping[str, Any]) -> tuple[BoardEncoding, BoardLocation]:
    """The board the assignment describes: ``assignment.encoding`` (a preset), a ``[board]``
    table (`grader.spec.board`), or a preset with the table's fields over it."""
    preset = reader.opt(meta, "assignment.encoding", str)
    table = raw.get("board", {})
    if not isinstance(table, dict):
        raise AssignmentError(reader.path, "board", "must be a table: [board]")
    if preset is None and not table:
        known = ", ".join(sorted(CODECS))
        raise AssignmentError(reader.path, "assignment.encoding", f"is required without a [board] table ({known})")
    try:
        return read_board(preset, table, placeholders=PLACEHOLDERS)
    except ValueError as problem:
        name, _, text = str(problem).partition(": ")
        where = {"encoding": "assignment.encoding", "board": "board"}.get(name, f"board.{name}")
        raise AssignmentError(reader.path, where, text) from None


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


def _check(reader: _Reader, entry: Mapping[str, Any], where: str) -> Check[Any]:
    check_id = reader.req(entry, f"{where}.id", str)
    where = f"{where} ({check_id})"
    kind = reader.req(entry, f"{where}.kind", str)
    if kind not in CHECK_KINDS:
        raise AssignmentError(
            reader.path, f"{where}.kind", f"unknown kind {kind!r}; known: {', '.join(sorted(CHECK_KINDS))}"
        )
    params_raw = {k: v for k, v in entry.items() if k not in _COMMON_FIELDS}
    return Check(
        id=check_id,
        kind=kind,
        title=reader.opt(entry, f"{where}.title", str) or check_id,
        points=float(reader.req(entry, f"{where}.points", (int, float))),
        params=build_params(CHECK_KINDS[kind].params, params_raw, reader.path, where),
        visibility=reader.choice(entry, f"{where}.visibility", VISIBILITIES, default="public"),
        bonus=bool(reader.opt(entry, f"{where}.bonus", bool) or False),
        description=reader.opt(entry, f"{where}.description", str) or "",
    )


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


class _Reader:
    """Typed field access that raises AssignmentError with the field's path."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def table(self, raw: Mapping[str, Any], key: str) -> Mapping[str, Any]:
        value = raw.get(key)
        if not isinstance(value, dict):
            raise AssignmentError(self.path, key, "missing [" + key + "] table")
        return value

    def req(self, raw: Mapping[str, Any], dotted: str, kind: type | tuple[type, ...]) -> Any:
        key = dotted.rsplit(".", 1)[-1]
        if key not in raw:
            raise AssignmentError(self.path, dotted, "is required")
        return self._typed(raw[key], dotted, kind)

    def opt(self, raw: Mapping[str, Any], dotted: str, kind: type | tuple[type, ...]) -> Any:
        key = dotted.rsplit(".", 1)[-1]
        return self._typed(raw[key], dotted, kind) if key in raw else None

    def choice(self, raw: Mapping[str, Any], dotted: str, choices: tuple[str, ...], default: str) -> Any:
        """One of ``choices`` (typed by the caller's Literal), or ``default``."""
        value = self.opt(raw, dotted, str)
        if value is None:
            return default
        if value not in choices:
            raise AssignmentError(self.path, dotted, f"{value!r} is not one of {', '.join(choices)}")
        return value

    def str_list(self, raw: Mapping[str, Any], dotted: str, default: list[str] | None = None) -> list[str]:
        key = dotted.rsplit(".", 1)[-1]
        if key not in raw:
            if default is None:
                raise AssignmentError(self.path, dotted, "is required")
            return default
        value = raw[key]
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise AssignmentError(self.path, dotted, "must be a list of strings")
        return value

    def _typed(self, value: Any, dotted: str, kind: type | tuple[type, ...]) -> Any:
        if isinstance(value, bool) and kind in (int, float, (int, float)):
            raise AssignmentError(self.path, dotted, f"must be a number, not {value!r}")
        if not isinstance(value, kind):
            names = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
            raise AssignmentError(self.path, dotted, f"must be {names}, not {type(value).__name__} {value!r}")
        return value


def build_params(cls: type, raw: Mapping[str, Any], path: Path, where: str) -> Any:
    """Build a kind's frozen params dataclass from TOML values, checking names and types.

    A field may define ``metadata={"parse": fn}`` to turn the raw value into its final form
    (for instance a call text into a parsed `CallTemplate`); fn raises ValueError on bad input.
    """
    fields = {f.name: f for f in dataclasses.fields(cls)}
    unknown = sorted(set(raw) - set(fields))
    if unknown:
        raise AssignmentError(
            path, f"{where}.{unknown[0]}", f"unknown field; this kind accepts: {', '.join(sorted(fields))}"
        )
    hints = typing.get_type_hints(cls)
    values: dict[str, Any] = {}
    for name, f in fields.items():
        dotted = f"{where}.{name}"
        if name not in raw:
            if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                raise AssignmentError(path, dotted, "is required for this kind")
            continue
        value = raw[name]
        parse = f.metadata.get("parse")
        if parse is not None:
            try:
                value = parse(value)
            except (ValueError, TypeError) as exc:
                raise AssignmentError(path, dotted, str(exc)) from None
        elif not _matches(value, hints[name]):
            raise AssignmentError(path, dotted, f"must be {_describe(hints[name])}, not {value!r}")
        else:
            value = _freeze(value)
        values[name] = value
    try:
        return cls(**values)
    except (ValueError, TypeError) as exc:  # cross-field validation in __post_init__
        raise AssignmentError(path, where, str(exc)) from None


def _freeze(value: Any) -> Any:
    """TOML arrays become tuples, so params stay immutable and hashable."""
    if isinstance(value, list):
        return tuple(_freeze(v) for v in value)
    return value


def _matches(value: Any, hint: Any) -> bool:
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if hint is Any:
        return True
    if origin in (typing.Union, types.UnionType):
        return any(_matches(value, a) for a in args)
    if origin is typing.Literal:
        return value in args
    if origin in (tuple, list):
        if not isinstance(value, (list, tuple)):
            return False
        if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
            return all(_matches(v, args[0]) for v in value)
        if origin is tuple:
            return len(value) == len(args) and all(_matches(v, a) for v, a in zip(value, args))
        return all(_matches(v, args[0]) for v in value) if args else True
    if hint is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if hint is type(None):
        return value is None
    if isinstance(hint, type):
        return isinstance(value, hint)
    return True


def _describe(hint: Any) -> str:
    origin = typing.get_origin(hint)
    if origin is typing.Literal:
        return "one of " + ", ".join(repr(a) for a in typing.get_args(hint))
    return str(hint).replace("typing.", "")
