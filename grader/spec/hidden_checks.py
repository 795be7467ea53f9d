"""The hidden checks an assignment names: those of its own spec, and, in a student's copy (a
released bundle's assignment package), those ``hidden_checks.toml`` lists beside it, since the
copy's spec leaves them out. A student is told each by its title and points, never more."""

from __future__ import annotations

import sys
from dataclasses import dataclass

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib  # type: ignore[import-not-found,unused-ignore]

from grader.release.public_copy import HIDDEN_CHECKS_FILE
from grader.spec.model import Assignment


@dataclass(frozen=True)
class NamedHiddenCheck:
    id: str
    title: str
    points: float


def hidden_checks(assignment: Assignment) -> tuple[NamedHiddenCheck, ...]:
    """The hidden checks of ``assignment``: from the spec, then from the student's copy's list.
    A list that cannot be read names nothing; the checks that run are unaffected."""
    named = [NamedHiddenCheck(c.id, c.title, c.points) for c in assignment.checks if c.hidden]
    listed = assignment.directory / HIDDEN_CHECKS_FILE
    if listed.is_file():
        try:
            entries = tomllib.loads(listed.read_text(encoding="utf-8")).get("checks", [])
            named += [NamedHiddenCheck(str(e["id"]), str(e["title"]), float(e["points"])) for e in entries]
        except (tomllib.TOMLDecodeError, KeyError, TypeError, ValueError):
            pass
    return tuple(named)
