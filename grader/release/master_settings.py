"""The settings a master writes for its assignment, beside its solutions, applied to what init
writes from the answer key.

Course staff who write one master (nbgrader's, otter's) write their tests in it too. Here the
checks come from `grader init`, and what init cannot choose (a check it does not write, the
points, a seed, a call the author words otherwise, a check to leave out) is written in the
master, in the format of ``assignment.toml``:

* in a notebook, a raw cell whose first line is ``# GRADER CONFIG``; several such cells are read
  in order, as one file (a cell of ``[[checks]]`` can sit beside the function it checks);
* in a script, the lines between ``# BEGIN GRADER CONFIG`` and ``# END GRADER CONFIG``, each
  with its leading ``#`` taken off.

Neither version of the master keeps them. They are applied to init's file:

* a table (``[assignment]``, ``[game]``, ``[board]``, ``[aliases]``, ...): each key set as given;
* ``[[checks]]``: an entry whose ``id`` init wrote sets the keys it gives on that check, and
  takes off those its ``unset`` list names, and gives it the id ``rename`` says; an entry with
  another ``id`` is a check of its own, written whole;
* ``[release]``: ``leave_out``, the ids of checks init writes that the assignment should not
  have; ``unset``, keys of init's tables to take off (``"board.location"``); and ``order``,
  every check's id in the order the assignment lists them.

A setting that names a check init did not write, or is not TOML, is an error naming it, and the
release writes nothing; the terminal lists each setting applied.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import tomlkit
from tomlkit.exceptions import ParseError
from tomlkit.items import AoT, Table

from grader.release.markers import MarkerError

CELL_MARKER = "# GRADER CONFIG"
_CELL = re.compile(r"^\s*#\s*GRADER CONFIG\s*$")
_SCRIPT_EDGE = re.compile(r"^\s*#\s*(?P<edge>BEGIN|END) GRADER CONFIG\s*$")
_RELEASE = "release"
_UNSET = "unset"
_RENAME = "rename"


@dataclass(frozen=True)
class SettingsPiece:
    """One cell's (or script block's) settings and where they were."""

    where: str
    text: str


def is_settings_cell(cell_type: str, source: str, where: str) -> bool:
    """A raw cell whose first line is ``# GRADER CONFIG``. A code or markdown cell that begins
    so is refused (`MarkerError`): it would reach students as it is, its settings unread."""
    if not _CELL.match(source.split("\n", 1)[0]):
        return False
    if cell_type != "raw":
        raise MarkerError(
            f"{where}: a {cell_type} cell begins with {CELL_MARKER}; make it a raw cell, or students get "
            "its settings as they are and the release does not read them"
        )
    return True


def cell_settings(source: str, where: str) -> SettingsPiece:
    """The TOML of a settings cell: its lines after the first."""
    return SettingsPiece(where, source.split("\n", 1)[1] if "\n" in source else "")


def script_settings(source: str, where: str) -> tuple[str, tuple[SettingsPiece, ...]]:
    """The script without its settings blocks, and each block's TOML (lines uncommented)."""
    kept: list[str] = []
    pieces: list[SettingsPiece] = []
    block: list[str] | None = None
    begun = 0
    for number, line in enumerate(source.splitlines(keepends=True), start=1):
        edge = _SCRIPT_EDGE.match(line)
        if edge is not None and edge["edge"] == "BEGIN":
            if block is not None:
                raise MarkerError(f"{where}, line {number}: BEGIN GRADER CONFIG inside the one begun on line {begun}")
            block, begun = [], number
        elif edge is not None:
            if block is None:
                raise MarkerError(f"{where}, line {number}: END GRADER CONFIG with no BEGIN GRADER CONFIG before it")
            pieces.append(SettingsPiece(f"{where}, lines {begun}-{number}", "".join(block)))
            block = None
        elif block is not None:
            if line.strip() and not line.lstrip().startswith("#"):
                raise MarkerError(
                    f"{where}, line {number}: code inside the GRADER CONFIG begun on line {begun}; "
                    "start each line of the settings with '# ', and close them with '# END GRADER CONFIG'"
                )
            block.append(re.sub(r"^\s*# ?", "", line, count=1))
        else:
            kept.append(line)
    if block is not None:
        raise MarkerError(f"{where}, line {begun}: BEGIN GRADER CONFIG is never closed by END GRADER CONFIG")
    return "".join(kept), tuple(pieces)


@dataclass(frozen=True)
class AppliedSettings:
    text: str
    """init's assignment.toml with the master's settings applied."""
    applied: tuple[str, ...]
    """Each setting, as one line for the terminal."""


class SettingsError(MarkerError):
    """The master's settings cannot be applied; the message names the setting and its cell."""


def apply_settings(pieces: tuple[SettingsPiece, ...], written: str) -> AppliedSettings:
    """``written`` (init's assignment.toml) with ``pieces`` applied, in order."""
    document = tomlkit.parse(written)
    applied: list[str] = []
    for piece in pieces:
        try:
            settings = tomlkit.parse(piece.text)
        except ParseError as exc:
            raise SettingsError(f"{piece.where}: the GRADER CONFIG settings are not TOML: {exc}") from None
        phase = {"checks": 1, _RELEASE: 2}  # the tables, then the checks, then leave_out and order
        for key, value in sorted(settings.items(), key=lambda item: phase.get(item[0], 0)):
            if key == "checks":
                _apply_checks(value, document, piece.where, applied)
            elif key == _RELEASE:
                _apply_release(value, document, piece.where, applied)
            elif isinstance(value, Table):
                table = document.setdefault(key, tomlkit.table())
                for name, setting in value.items():
                    table[name] = setting
                    applied.append(f"{key}.{name} = {_show(setting)}")
            else:
                raise SettingsError(
                    f"{piece.where}: {key} = {_show(value)} is outside any table; "
                    "write it under [assignment], [game] or the table it belongs to"
                )
    return AppliedSettings(tomlkit.dumps(document), tuple(applied))


def _checks(document: tomlkit.TOMLDocument) -> AoT:
    checks = document.get("checks")
    if not isinstance(checks, AoT):
        checks = tomlkit.aot()
        document["checks"] = checks
    return checks


def _apply_checks(entries: Any, document: tomlkit.TOMLDocument, where: str, applied: list[str]) -> None:
    checks = _checks(document)
    written = {str(table["id"]): table for table in checks}
    for entry in entries:
        check_id = entry.get("id")
        if not isinstance(check_id, str):
            raise SettingsError(f"{where}: a [[checks]] entry without an id; give the id of the check it sets")
        unset = [str(name) for name in entry.get(_UNSET, [])]
        if check_id not in written:
            if unset or _RENAME in entry:
                raise SettingsError(
                    f"{where}: check {check_id}: unset and rename are for a check init wrote ({_ids(checks)})"
                )
            checks.append(entry)
            written[check_id] = entry
            applied.append(f"check {check_id}: written whole")
            continue
        table = written[check_id]
        for name, setting in entry.items():
            if name not in ("id", _UNSET, _RENAME):
                table[name] = setting
                applied.append(f"check {check_id}: {name} = {_show(setting)}")
        for name in unset:
            if name not in table:
                raise SettingsError(f"{where}: check {check_id}: unset {name!r}, which init did not write")
            del table[name]
            applied.append(f"check {check_id}: {name} unset")
        if _RENAME in entry:
            new_id = str(entry[_RENAME])
            if new_id in written:
                raise SettingsError(f"{where}: check {check_id}: rename to {new_id!r}, the id of another check")
            table["id"] = new_id
            written[new_id] = written.pop(check_id)
            applied.append(f"check {check_id}: renamed {new_id}")


def _apply_release(table: Any, document: tomlkit.TOMLDocument, where: str, applied: list[str]) -> None:
    unknown = set(table) - {"leave_out", "unset", "order"}
    if unknown:
        raise SettingsError(
            f"{where}: [release] has no setting {sorted(unknown)[0]!r}; it has leave_out, unset and order"
        )
    for dotted in table.get("unset", []):
        name, _, key = str(dotted).partition(".")
        written = document.get(name)
        if name == "checks" or not isinstance(written, Table) or key not in written:
            raise SettingsError(f"{where}: unset {dotted!r}, which init did not write (write it as table.key)")
        del written[key]
        applied.append(f"{dotted} unset")
    checks = _checks(document)
    for check_id in table.get("leave_out", []):
        found = [c for c in checks if c["id"] == check_id]
        if not found:
            raise SettingsError(f"{where}: leave_out names {check_id!r}, a check init did not write ({_ids(checks)})")
        checks.remove(found[0])
        applied.append(f"check {check_id}: left out")
    order = [str(check_id) for check_id in table.get("order", [])]
    if order:
        ids = [str(c["id"]) for c in checks]
        if sorted(order) != sorted(ids):
            missing, extra = sorted(set(ids) - set(order)), sorted(set(order) - set(ids))
            raise SettingsError(
                f"{where}: order must name every check once: missing {missing or 'none'}, not checks {extra or 'none'}"
            )
        by_id = {str(c["id"]): c for c in checks}
        ordered = tomlkit.aot()
        for check_id in order:
            ordered.append(by_id[check_id])
        document["checks"] = ordered
        applied.append(f"checks ordered: {', '.join(order)}")


def _ids(checks: AoT) -> str:
    return "init wrote " + ", ".join(str(c["id"]) for c in checks)


def _show(value: Any) -> str:
    plain = value.unwrap() if hasattr(value, "unwrap") else value
    return str(plain) if isinstance(plain, dict) else tomlkit.item(plain).as_string()
