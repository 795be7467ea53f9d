"""Releasing again keeps what the author changed in assignment.toml by hand.

Three versions meet: what init wrote at the last release (the base, kept by the release), the
folder's file as the author left it, and what init writes now. Every value the author changed,
added or removed since the base (a check's points, a field of ``[assignment]`` or ``[board]``
decided otherwise, an ``[aliases]`` entry, a check added or deleted) is applied to init's new
file, which keeps its own comments. What cannot be applied is said: an edit of a check init no
longer writes, and comments the author wrote (the values are kept, the words are not).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import tomlkit
from tomlkit.items import AoT, Table

_TABLES = ("assignment", "board", "aliases")
_MISSING = object()


@dataclass(frozen=True)
class MergedSpec:
    text: str
    """The new assignment.toml: init's, with the author's edits applied."""
    kept: tuple[str, ...]
    """Each edit applied, as one line."""
    lost: tuple[str, ...]
    """Each edit that could not be applied, and why."""


def keep_hand_edits(base: str, edited: str, fresh: str) -> MergedSpec:
    """``fresh`` with the changes from ``base`` to ``edited`` applied."""
    old, mine, new = tomlkit.parse(base), tomlkit.parse(edited), tomlkit.parse(fresh)
    kept: list[str] = []
    lost: list[str] = []
    for name in _TABLES:
        _merge_table(name, old.get(name, {}), mine.get(name, {}), new, kept)
    _merge_checks(_checks(old), _checks(mine), new, kept, lost)
    written = _comment_lines(edited) - _comment_lines(base)
    if written:
        lost.append(
            f"{len(written)} comment line(s) written by hand are not kept (the values are): {sorted(written)[0]!r}"
        )
    return MergedSpec(tomlkit.dumps(new), tuple(kept), tuple(lost))


def _merge_table(name: str, old: Any, mine: Any, new: tomlkit.TOMLDocument, kept: list[str]) -> None:
    for key, value, gone in _changes(old, mine):
        if name not in new:
            new[name] = tomlkit.table()
        target = new[name]
        now = target.get(key, _MISSING)
        if gone:
            if now is not _MISSING:
                del target[key]
            kept.append(f"{name}.{key}: removed, as you removed it")
            continue
        target[key] = value
        told = (
            ""
            if now is _MISSING or _plain(now) == _plain(old.get(key, _MISSING))
            else f" (init now writes {_show(now)})"
        )
        kept.append(f"{name}.{key} = {_show(value)}: yours{told}")


def _merge_checks(
    old: dict[str, Table], mine: dict[str, Table], new: tomlkit.TOMLDocument, kept: list[str], lost: list[str]
) -> None:
    checks = new.get("checks")
    if not isinstance(checks, AoT):
        checks = tomlkit.aot()
        new["checks"] = checks
    fresh = {table["id"]: table for table in checks}
    for check_id in old.keys() - mine.keys():
        if check_id in fresh:
            checks.remove(fresh.pop(check_id))
        kept.append(f"check {check_id}: left out, as you deleted it")
    for check_id in [c for c in mine if c not in old]:
        if check_id in fresh:
            checks.remove(fresh.pop(check_id))
        checks.append(mine[check_id])
        kept.append(f"check {check_id}: yours, as you added it")
    for check_id in [c for c in mine if c in old]:
        changes = _changes(old[check_id], mine[check_id])
        if not changes:
            continue
        if check_id not in fresh:
            edits = ", ".join(f"{key}" for key, _, _ in changes)
            lost.append(f"check {check_id}: your edits ({edits}) cannot be kept: init no longer writes this check")
            continue
        for key, value, gone in changes:
            if gone:
                fresh[check_id].pop(key, None)
                kept.append(f"check {check_id}: {key} removed, as you removed it")
            else:
                fresh[check_id][key] = value
                kept.append(f"check {check_id}: {key} = {_show(value)}: yours")


def _changes(old: Any, mine: Any) -> list[tuple[str, Any, bool]]:
    """(key, the author's value, whether the author removed it) for each key that differs."""
    changes = []
    for key in list(mine.keys()) + [k for k in old.keys() if k not in mine]:
        before, after = old.get(key, _MISSING), mine.get(key, _MISSING)
        if after is _MISSING:
            changes.append((key, None, True))
        elif before is _MISSING or _plain(before) != _plain(after):
            changes.append((key, after, False))
    return changes


def _checks(document: tomlkit.TOMLDocument) -> dict[str, Table]:
    return {table["id"]: table for table in document.get("checks", [])}


def _plain(value: Any) -> Any:
    return value.unwrap() if hasattr(value, "unwrap") else value


def _show(value: Any) -> str:
    plain = _plain(value)
    return tomlkit.item(plain).as_string() if not isinstance(plain, dict) else str(plain)


def _comment_lines(text: str) -> set[str]:
    return {line.strip() for line in text.splitlines() if line.strip().startswith("#")}
