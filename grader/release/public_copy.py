"""What of an assignment a student may hold: its public checks, never its solution or a hidden
check's test cases.

A hidden check is left out of the students' ``assignment.toml`` (with the comments, which may
quote its positions: the students' copy has none) and named only by its id, title and points in
``hidden_checks.toml`` beside it, which is what a report shows of it anyway. A check that
depends on a hidden one no longer names it. An ``answer`` check goes the same way whatever its
visibility: its ``expected`` is the course's answer itself.

setup.py loads this file by its path, before the package is installed: it imports nothing but
the standard library and tomlkit.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import tomlkit

HIDDEN_CHECKS_FILE = "hidden_checks.toml"
SPEC_FILE = "assignment.toml"
NAMED_ONLY_KINDS = ("answer",)
"""Kinds whose parameters are the answer a student is asked for: never shipped, only named."""
NOT_SHIPPED = ("__pycache__", "*.pyc", ".ipynb_checkpoints", "solution.*")
"""Patterns (`shutil.ignore_patterns`) of an assignment folder's files students never get."""


@dataclass(frozen=True)
class PublicSpec:
    """An assignment.toml as students get it."""

    spec: str
    """The TOML without hidden checks or comments."""
    hidden_checks: str | None
    """``hidden_checks.toml``'s text, or None when there is no hidden check."""


def public_spec(text: str) -> PublicSpec:
    """``text`` (an assignment.toml) without its hidden checks or any comment."""
    document: dict[str, Any] = tomlkit.parse(text).unwrap()
    checks = document.get("checks", [])
    hidden = [c for c in checks if c.get("visibility") == "hidden" or c.get("kind") in NAMED_ONLY_KINDS]
    hidden_ids = {check["id"] for check in hidden}
    kept = [check for check in checks if check["id"] not in hidden_ids]
    for check in kept:
        if "depends_on" in check:
            check["depends_on"] = [name for name in check["depends_on"] if name not in hidden_ids]
    if "checks" in document:
        document["checks"] = kept
    if not hidden:
        return PublicSpec(tomlkit.dumps(document), None)
    named = tomlkit.document()
    named.add(tomlkit.comment("Hidden checks: they run only when the assignment is graded."))
    table = tomlkit.aot()
    for check in hidden:
        entry = tomlkit.table()
        entry.update({"id": check["id"], "title": check.get("title", check["id"]), "points": check.get("points", 0)})
        table.append(entry)
    named.add("checks", table)
    return PublicSpec(tomlkit.dumps(document), tomlkit.dumps(named))


def make_public(folder: Path) -> None:
    """Rewrite ``folder``'s assignment.toml (a copy's) as students get it, in place."""
    spec = public_spec((folder / SPEC_FILE).read_text(encoding="utf-8"))
    (folder / SPEC_FILE).write_text(spec.spec, encoding="utf-8")
    if spec.hidden_checks is not None:
        (folder / HIDDEN_CHECKS_FILE).write_text(spec.hidden_checks, encoding="utf-8")
