"""Packaging hook: the built-in assignments ship inside the package, as ``grader/assignments``,
in the copy a student may hold.

In the repository they stay at the top level (``assignments/``), where course authors look
for them; a wheel carries a copy next to the code, where `grader.spec.loader` finds it. The
wheel is what students install to check their work in their notebook, so its copy holds no
solution and no hidden check: those are left out, and each hidden check is named only by its
id, title and points in ``hidden_checks.toml`` beside its assignment (what the report shows
of it anyway). Grading with hidden checks reads the assignment's folder in the repository.
Everything else is declared in pyproject.toml.
"""

import shutil
from pathlib import Path

import tomlkit
from setuptools import setup
from setuptools.command.build_py import build_py

ASSIGNMENTS = Path(__file__).resolve().parent / "assignments"
HIDDEN_CHECKS_FILE = "hidden_checks.toml"
NOT_SHIPPED = ("__pycache__", "*.pyc", ".ipynb_checkpoints", "solution.*")


def without_hidden_checks(spec: Path) -> None:
    """Rewrite ``spec`` (an assignment.toml) without its hidden checks, comments kept, and
    name them in ``hidden_checks.toml`` beside it."""
    document = tomlkit.parse(spec.read_text(encoding="utf-8"))
    checks = document.get("checks", [])
    hidden = [check for check in checks if check.get("visibility") == "hidden"]
    if not hidden:
        return
    hidden_ids = {check["id"] for check in hidden}
    for index in reversed(range(len(checks))):
        if checks[index]["id"] in hidden_ids:
            del checks[index]
    for check in checks:
        if "depends_on" in check:
            check["depends_on"] = [name for name in check["depends_on"] if name not in hidden_ids]
    spec.write_text(tomlkit.dumps(document), encoding="utf-8")
    named = tomlkit.document()
    named.add(tomlkit.comment("Hidden checks: they run only when the assignment is graded."))
    table = tomlkit.aot()
    for check in hidden:
        entry = tomlkit.table()
        entry.update({"id": check["id"], "title": check.get("title", check["id"]), "points": check.get("points", 0)})
        table.append(entry)
    named.add("checks", table)
    (spec.parent / HIDDEN_CHECKS_FILE).write_text(tomlkit.dumps(named), encoding="utf-8")


class BuildWithAssignments(build_py):
    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return  # an editable install reads the repository's folder itself
        shipped = Path(self.build_lib) / "grader" / "assignments"
        shutil.copytree(ASSIGNMENTS, shipped, dirs_exist_ok=True, ignore=shutil.ignore_patterns(*NOT_SHIPPED))
        for spec in shipped.glob("*/assignment.toml"):
            without_hidden_checks(spec)


setup(cmdclass={"build_py": BuildWithAssignments})
