"""Assignments installed as packages: a student bundle's assignment wheel (`grader release`)
names its package under the entry-point group `ENTRY_POINT_GROUP`, with the assignment's id,
so that ``notebook.check("week5")`` and ``grader check -a week5`` find it as they find a
built-in one, without knowing the package's name."""

from __future__ import annotations

import importlib.util
from importlib.metadata import entry_points
from pathlib import Path

ENTRY_POINT_GROUP = "gamesearch_grader.assignments"
SPEC_FILE = "assignment.toml"


def installed_assignments() -> dict[str, Path]:
    """Each installed assignment's id and folder (one holding its assignment.toml)."""
    found: dict[str, Path] = {}
    for entry in entry_points(group=ENTRY_POINT_GROUP):
        try:
            spec = importlib.util.find_spec(entry.value)
        except (ImportError, ValueError):
            continue
        for location in (spec.submodule_search_locations or []) if spec else []:
            if (Path(location) / SPEC_FILE).is_file():
                found.setdefault(entry.name, Path(location))
                break
    return found
