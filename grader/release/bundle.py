"""The students' bundle: two wheels and a page that lists them, for a course to serve or hand out.

* ``gamesearch-grader``: the grader as installed here (``grader`` and ``reference``), without
  the built-in assignments (their solutions stay with whoever grades them);
* ``gamesearch-assignment-<id>``: the assignment's public side (`grader.release.public_copy`:
  no solution, no hidden check's test cases), its handout, scripted input, adapter and support
  modules (no other file of the folder), which names itself under `grader.spec.installed.ENTRY_POINT_GROUP`
  so that ``notebook.check("<id>")`` and ``grader check -a <id>`` find it once installed.

``index.html`` links both, which is what ``pip install --find-links`` reads, from a folder or a
web address.
"""

from __future__ import annotations

import fnmatch
import importlib
import sys
from dataclasses import dataclass
from importlib.metadata import distribution
from pathlib import Path

import jinja2

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib  # type: ignore[import-not-found,unused-ignore]

from grader.release.public_copy import HIDDEN_CHECKS_FILE, SPEC_FILE, public_spec
from grader.release.wheels import WheelSpec, write_wheel
from grader.spec.installed import ENTRY_POINT_GROUP
from grader.spec.support import SUPPORT_FOLDER

GRADER_PROJECT = "gamesearch-grader"
_PACKAGES = ("grader", "reference")
_LEFT_OUT = ("__pycache__", "*.pyc", ".ipynb_checkpoints")
HANDOUTS = ("template.ipynb", "template.py")
ADAPTER_FILE = "adapter.py"
BUILTIN_FOLDER = ("grader", "assignments")
"""Where a wheel of the grader keeps the built-in assignments: not in a course's bundle."""


@dataclass(frozen=True)
class Bundle:
    """What was written for students."""

    folder: Path
    grader_wheel: Path
    assignment_wheel: Path
    project: str
    """The assignment wheel's project name: what students ``pip install``."""
    index: Path


def assignment_project(assignment_id: str) -> str:
    return f"gamesearch-assignment-{assignment_id}"


def write_bundle(assignment_dir: Path, assignment_id: str, version: str, folder: Path) -> Bundle:
    """Write both wheels and ``index.html`` into ``folder`` (wheels already there are replaced)."""
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("*.whl"):
        old.unlink()
    grader_version = distribution(GRADER_PROJECT).version
    grader_wheel = write_wheel(_grader_wheel(grader_version), folder)
    project = assignment_project(assignment_id)
    assignment_wheel = write_wheel(
        _assignment_wheel(assignment_dir, assignment_id, project, version, grader_version), folder
    )
    index = folder / "index.html"
    index.write_text(_index_page(assignment_id, project, [grader_wheel.name, assignment_wheel.name]), encoding="utf-8")
    return Bundle(folder, grader_wheel, assignment_wheel, project, index)


def _grader_wheel(version: str) -> WheelSpec:
    """The grader's packages as this installation holds them, the built-in assignments left out."""
    files: dict[str, bytes] = {}
    for package in _PACKAGES:
        root = Path(importlib.import_module(package).__file__ or "").parent
        for path in sorted(root.rglob("*")):
            relative = path.relative_to(root.parent)
            if path.is_file() and not _left_out(relative):
                files[relative.as_posix()] = path.read_bytes()
    metadata = distribution(GRADER_PROJECT).metadata
    requires = [r for r in distribution(GRADER_PROJECT).requires or [] if "extra ==" not in r]
    return WheelSpec(
        GRADER_PROJECT,
        version,
        metadata["Summary"] or GRADER_PROJECT,
        files,
        requires=requires,
        entry_points={"console_scripts": {"grader": "grader.cli:main"}},
        requires_python=metadata["Requires-Python"],
    )


def _left_out(relative: Path) -> bool:
    if relative.parts[:2] == BUILTIN_FOLDER:
        return True
    return any(fnmatch.fnmatch(part, pattern) for part in relative.parts for pattern in _LEFT_OUT)


def _assignment_wheel(folder: Path, assignment_id: str, project: str, version: str, grader_version: str) -> WheelSpec:
    package = project.replace("-", "_")
    public = public_spec((folder / SPEC_FILE).read_text(encoding="utf-8"))
    files = {
        f"{package}/__init__.py": f'"""The public side of the assignment {assignment_id!r}."""\n'.encode(),
        f"{package}/{SPEC_FILE}": public.spec.encode(),
    }
    if public.hidden_checks is not None:
        files[f"{package}/{HIDDEN_CHECKS_FILE}"] = public.hidden_checks.encode()
    for name in _public_files(public.spec):
        if (folder / name).is_file():
            files[f"{package}/{name}"] = (folder / name).read_bytes()
    return WheelSpec(
        project,
        version,
        f"The public checks of the assignment {assignment_id}",
        files,
        requires=[f"{GRADER_PROJECT}=={grader_version}"],
        entry_points={ENTRY_POINT_GROUP: {assignment_id: package}},
    )


def _public_files(spec: str) -> list[str]:
    """The files of the folder the public checks need, and no other (an instructor's notes or
    marks beside the assignment stay there): the handout, the scripted input, the adapter, the
    support modules the handout imports."""
    table = tomllib.loads(spec).get("assignment", {})
    stdin = table.get("stdin_file")
    support = [f"{SUPPORT_FOLDER}/{name}" for name in table.get("support", ()) if isinstance(name, str)]
    return [*HANDOUTS, *([stdin] if isinstance(stdin, str) else []), ADAPTER_FILE, *support]


def _index_page(assignment_id: str, project: str, wheels: list[str]) -> str:
    environment = jinja2.Environment(
        loader=jinja2.PackageLoader("grader.release", "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
    )
    return environment.get_template("index.html.j2").render(assignment_id=assignment_id, project=project, wheels=wheels)
