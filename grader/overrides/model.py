"""The instructor's decisions for a class, as typed values.

A decision that cannot be read (points that are not a number, a table where a value should
be) is not dropped: it becomes an `EntryProblem` naming it, and the rest still applies.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from grader.errors import UsageError
from grader.results import ScoreAdjustment

_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")
"""What TOML accepts as a key without quotes."""


@dataclass(frozen=True)
class EntryProblem:
    """An entry of the file that is not applied, and why; it stays in the file."""

    where: str
    """The entry's name, e.g. ``students.alice.checks.observation``."""
    problem: str

    def __str__(self) -> str:
        return f"{self.where}: {self.problem} (kept in the file, not applied)"


@dataclass(frozen=True)
class CheckDecision:
    """The instructor's points and/or comment on one check of one student, as the file says
    (keyed by the check's id in `StudentDecisions.checks`). Applied to a result it becomes a
    `grader.results.InstructorMark`, which also keeps the automatic score it replaced."""

    points: float | None
    """None: a comment only, the automatic points stand."""
    comment: str = ""
    by: str = ""
    at: str = ""


@dataclass(frozen=True)
class StudentDecisions:
    student_id: str
    checks: Mapping[str, CheckDecision] = field(default_factory=dict)
    adjustment: ScoreAdjustment | None = None


@dataclass(frozen=True)
class Decisions:
    """Every readable decision in the file, by student id, and the entries that are not."""

    students: Mapping[str, StudentDecisions] = field(default_factory=dict)
    unreadable: tuple[EntryProblem, ...] = ()

    def of(self, student_id: str) -> StudentDecisions:
        return self.students.get(student_id) or StudentDecisions(student_id)


class MalformedOverrides(UsageError, ValueError):
    """The file as a whole cannot be read: not TOML, or not shaped as an overrides file."""


def decisions_from_document(document: Mapping[str, Any]) -> Decisions:
    """The decisions in a parsed file; raises `MalformedOverrides` when its shape is wrong as a
    whole (``students`` not a table)."""
    unknown = sorted(set(document) - {"students"})
    if unknown:
        raise MalformedOverrides(f"unknown top-level entry {unknown[0]!r}; the file holds only [students.<id>] tables")
    raw_students = document.get("students", {})
    if not isinstance(raw_students, Mapping):
        raise MalformedOverrides("'students' must be a table of [students.<id>] tables")
    students: dict[str, StudentDecisions] = {}
    problems: list[EntryProblem] = []
    for student_id, raw in raw_students.items():
        where = entry_name("students", student_id)
        if not isinstance(raw, Mapping):
            problems.append(EntryProblem(where, "must be a table"))
            continue
        students[student_id] = _student(student_id, raw, where, problems)
    return Decisions(students, tuple(problems))


def _student(student_id: str, raw: Mapping[str, Any], where: str, problems: list[EntryProblem]) -> StudentDecisions:
    for name in sorted(set(raw) - {"checks", "adjustment"}):
        problems.append(EntryProblem(f"{where}.{_key(name)}", "unknown entry; a student has 'checks' and 'adjustment'"))
    checks: dict[str, CheckDecision] = {}
    raw_checks = raw.get("checks", {})
    if not isinstance(raw_checks, Mapping):
        problems.append(EntryProblem(f"{where}.checks", "must be a table of [.checks.<check id>] tables"))
        raw_checks = {}
    for check_id, entry in raw_checks.items():
        entry_where = f"{where}.checks.{_key(check_id)}"
        try:
            checks[check_id] = _check_decision(entry)
        except ValueError as exc:
            problems.append(EntryProblem(entry_where, str(exc)))
    adjustment = None
    if "adjustment" in raw:
        try:
            adjustment = _adjustment(raw["adjustment"])
        except ValueError as exc:
            problems.append(EntryProblem(f"{where}.adjustment", str(exc)))
    return StudentDecisions(student_id, checks, adjustment)


def _check_decision(entry: Any) -> CheckDecision:
    fields = _table(entry, {"points", "comment", "by", "at"})
    points = _number(fields["points"]) if "points" in fields else None
    comment = _string(fields, "comment")
    if points is None and not comment:
        raise ValueError("has neither points nor a comment")
    return CheckDecision(points, comment, _string(fields, "by"), _moment(fields.get("at")))


def _adjustment(entry: Any) -> ScoreAdjustment:
    fields = _table(entry, {"points", "reason", "by", "at"})
    if "points" not in fields:
        raise ValueError("needs points (negative for a penalty)")
    reason = _string(fields, "reason")
    if not reason:
        raise ValueError("needs a reason (a late penalty, a bonus)")
    return ScoreAdjustment(
        _number(fields["points"], signed=True), reason, _string(fields, "by"), _moment(fields.get("at"))
    )


def _table(entry: Any, allowed: set[str]) -> Mapping[str, Any]:
    if not isinstance(entry, Mapping):
        raise ValueError("must be a table")
    unknown = sorted(set(entry) - allowed)
    if unknown:
        raise ValueError(f"unknown field {unknown[0]!r}; allowed: {', '.join(sorted(allowed))}")
    return entry


def _number(value: Any, *, signed: bool = False) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value:
        raise ValueError(f"points must be a number, not {value!r}")
    if not signed and value < 0:
        raise ValueError(f"points must be 0 or more, not {value!r}")
    return float(value)


def _string(fields: Mapping[str, Any], name: str) -> str:
    value = fields.get(name, "")
    if not isinstance(value, str):
        raise ValueError(f"{name} must be a text, not {value!r}")
    return value


def _moment(value: Any) -> str:
    """When it was decided, as text: a TOML date-time or a string."""
    if value is None:
        return ""
    if isinstance(value, (datetime.datetime, datetime.date)):
        return value.isoformat()
    if isinstance(value, str):
        return value
    raise ValueError(f"at must be a date-time, not {value!r}")


def entry_name(*keys: str) -> str:
    """An entry's name as the file would spell it, e.g. ``students."ana lee".checks.expand``:
    each key bare when it can be, quoted otherwise."""
    return ".".join(_key(k) for k in keys)


def _key(name: str) -> str:
    return name if _BARE_KEY.fullmatch(name) else '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'
