"""``OUT/overrides.toml``: read it, and write one decision into it.

The file is the source of truth and people edit it by hand, so it is never regenerated from
the typed decisions: a change is made in the document as read (tomlkit keeps its comments,
order and layout), under a lock, and written atomically. Each student's entries have a
version (a digest of them as they stand); a change made against an older version is refused,
so that two editors (two browser tabs, a tab and a hand edit) never lose an edit silently.
"""

from __future__ import annotations

import contextlib
import datetime
import fcntl
import getpass
import hashlib
import json
import sys
from collections.abc import Iterator, Mapping, MutableMapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import tomlkit
import tomlkit.exceptions

from grader.atomic_write import write_atomic
from grader.class_folder.layout import ClassFolder
from grader.errors import GraderError
from grader.overrides.model import Decisions, MalformedOverrides, decisions_from_document

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib  # type: ignore[import-not-found,unused-ignore]

_LOCK_FILE = ".overrides.lock"
HEADER = """\
The instructor's decisions for this class, applied to every output on each `grader batch`,
`grader merge` and `grader override`. Edit by hand or with `grader review`. Per student:
  [students.<id>.checks.<check id>]  points = 8   comment = "..."   (points: 0..the check's points)
  [students.<id>.adjustment]         points = -10 reason = "late"   (added to the total)
`by` and `at` say who decided and when."""


class VersionConflict(GraderError, RuntimeError):
    """The student's entries changed since the editor read them."""


def overrides_path(out_dir: Path) -> Path:
    return ClassFolder(out_dir).overrides


def read_decisions(path: Path) -> Decisions:
    """The decisions in the file (none when there is no file); `MalformedOverrides` when it
    is not TOML or not shaped as an overrides file."""
    return decisions_from_document(_parsed(path))


def student_version(path: Path, student_id: str) -> str:
    """A digest of one student's entries as they stand in the file (the same for none)."""
    entries = _parsed(path).get("students", {})
    raw = entries.get(student_id, {}) if isinstance(entries, Mapping) else {}
    return hashlib.sha256(json.dumps(raw, sort_keys=True, default=str).encode()).hexdigest()[:16]


@dataclass(frozen=True)
class Author:
    """Who decides, and when (stored with each decision)."""

    by: str
    at: datetime.datetime

    @classmethod
    def now(cls, by: str | None = None) -> Author:
        return cls(by or _user(), datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0))


def record_check(
    path: Path,
    student_id: str,
    check_id: str,
    points: float | None,
    comment: str,
    author: Author,
    expected_version: str | None = None,
) -> None:
    """Set (or, with neither points nor comment, remove) the decision on one check."""
    entry = None if points is None and not comment else _entry(points=points, comment=comment, author=author)
    with _editing(path, student_id, expected_version) as student:
        checks = student.setdefault("checks", tomlkit.table())
        if entry is None:
            checks.pop(check_id, None)
        else:
            checks[check_id] = entry


def record_adjustment(
    path: Path,
    student_id: str,
    points: float | None,
    reason: str,
    author: Author,
    expected_version: str | None = None,
) -> None:
    """Set (or, with points None, remove) the student's adjustment."""
    with _editing(path, student_id, expected_version) as student:
        if points is None:
            student.pop("adjustment", None)
        else:
            student["adjustment"] = _entry(points=points, reason=reason, author=author)


@contextlib.contextmanager
def _editing(path: Path, student_id: str, expected_version: str | None) -> Iterator[Any]:
    """The student's table in the document, written back (atomically, tidied of empty
    tables) when the block ends without an error."""
    with _locked(path):
        document = _document(path)
        if expected_version is not None and student_version(path, student_id) != expected_version:
            raise VersionConflict(
                f"the entries of {student_id!r} changed since they were read (another tab or a hand edit)"
            )
        students = document.setdefault("students", tomlkit.table(is_super_table=True))
        if not isinstance(students, MutableMapping) or not isinstance(students.get(student_id, {}), MutableMapping):
            raise MalformedOverrides(f"{path}: students.{student_id} is not a table")
        student = students.setdefault(student_id, tomlkit.table(is_super_table=True))
        yield student
        checks = student.get("checks")
        if isinstance(checks, Mapping) and not checks:
            student.pop("checks")
        if not student:
            students.pop(student_id)
        text = tomlkit.dumps(document)
        decisions_from_document(tomllib.loads(text))  # what is written must read back
        write_atomic(path, text)


def _entry(**values: Any) -> Any:
    author: Author = values.pop("author")
    table = tomlkit.table()
    for name, value in values.items():
        if value is None or value == "":
            continue
        table[name] = int(value) if isinstance(value, float) and value.is_integer() else value
    table["by"] = author.by
    table["at"] = author.at
    table.add(tomlkit.nl())  # a blank line before whatever table follows
    return table


def _document(path: Path) -> tomlkit.TOMLDocument:
    if not path.is_file():
        document = tomlkit.document()
        for line in HEADER.splitlines():
            document.add(tomlkit.comment(line))
        return document
    try:
        return tomlkit.parse(path.read_text(encoding="utf-8"))
    except tomlkit.exceptions.ParseError as exc:
        raise MalformedOverrides(f"{path}: not valid TOML: {exc}") from None


def _parsed(path: Path) -> dict[str, Any]:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError) as exc:
        raise MalformedOverrides(f"{path}: cannot be read: {exc}") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise MalformedOverrides(f"{path}: not valid TOML: {exc}") from None


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    """One writer at a time (a review page and `grader override` at once)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path.parent / _LOCK_FILE, "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _user() -> str:
    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return "instructor"
