"""`grader release MASTER --out DIR`: from one master, what each reader gets.

``DIR`` then holds:

* ``student/<id>.ipynb`` (or ``.py``): the student's version (`grader.release.master`);
* ``<id>/``: the assignment folder, written by ``grader init`` from the answer key and that
  handout, and graded with; on a later release, init's new file with the author's hand edits
  applied (`grader.release.hand_edits`). A folder whose assignment.toml the release did not write
  (one written by hand, or by init alone) is the author's: it is kept whole, and only its
  solution and handout are replaced;
* ``bundle/``: the wheels students install (`grader.release.bundle`);
* ``.release/``: what init wrote last (the base hand edits are read against) and the release's
  number, the assignment wheel's version.

The folder is then validated: the solution scores full marks, the handout at most a fifth.
"""

from __future__ import annotations

import re
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import nbformat

from grader.authoring.create import InitRequest, create_assignment
from grader.errors import GraderError
from grader.execution.sandbox import SandboxChoice
from grader.grading import GradingOptions
from grader.release.bundle import Bundle, write_bundle
from grader.release.hand_edits import keep_hand_edits
from grader.release.markers import DEFAULT_STUB, MarkerError
from grader.release.master import Master, read_master, script_text
from grader.release.public_copy import SPEC_FILE
from grader.spec.loader import load_assignment
from grader.spec.model import AssignmentError
from grader.validation import ValidationReport, validate_assignment

STATE = ".release"
BASE_FILE = "init.toml"
NUMBER_FILE = "number"
_HANDED = ("solution.ipynb", "solution.py", "template.ipynb", "template.py", "STDIN.txt")


@dataclass(frozen=True)
class ReleaseRequest:
    master: Path
    out: Path
    assignment_id: str | None = None
    stub: str = DEFAULT_STUB
    """The line that stands for a solution in the student's version."""
    stdin: Path | None = None
    sandbox: SandboxChoice = "auto"


@dataclass(frozen=True)
class ReleaseReport:
    """What the release wrote, or the one message saying why it wrote nothing."""

    failure: str | None = None
    student: Path | None = None
    assignment: Path | None = None
    bundle: Bundle | None = None
    validation: ValidationReport | None = None
    notes: tuple[str, ...] = ()
    kept: tuple[str, ...] = ()
    """The hand edits of assignment.toml applied again."""
    lost: tuple[str, ...] = field(default=())
    """The hand edits that could not be."""

    @property
    def return_code(self) -> int:
        return 1 if self.failure is not None or (self.validation is not None and not self.validation.ok) else 0

    def __str__(self) -> str:
        if self.failure is not None:
            return f"grader release: {self.failure}"
        lines = [f"student's version: {self.student}", f"assignment: {self.assignment}"]
        if self.bundle is not None:
            where, project = self.bundle.folder, self.bundle.project
            lines.append(f"bundle: {where} (students: pip install --find-links {where} {project})")
        lines += [f"  note: {note}" for note in self.notes]
        lines += [f"  kept: {edit}" for edit in self.kept]
        lines += [f"  NOT KEPT: {edit}" for edit in self.lost]
        if self.validation is not None:
            lines.append(str(self.validation))
        return "\n".join(lines)


class ReleaseFailed(GraderError):
    """The release stopped after reading the master; the message says where and why."""


def release_assignment(request: ReleaseRequest) -> ReleaseReport:
    try:
        return _release(request)
    except (MarkerError, ReleaseFailed) as exc:
        return ReleaseReport(failure=str(exc))


def default_id(master: Path) -> str:
    """``week5-master.ipynb`` -> ``week5``."""
    stem = re.sub(r"[-_. ]*master$", "", master.stem, flags=re.IGNORECASE) or master.stem
    return re.sub(r"[^a-z0-9-]+", "-", stem.lower()).strip("-") or "assignment"


def _release(request: ReleaseRequest) -> ReleaseReport:
    master = read_master(request.master, request.stub)
    assignment_id = request.assignment_id or default_id(request.master)
    suffix = ".py" if master.script else ".ipynb"
    student = request.out / "student" / f"{assignment_id}{suffix}"
    state = request.out / STATE
    folder = request.out / assignment_id
    with tempfile.TemporaryDirectory(prefix="grader-release-") as scratch:
        work = Path(scratch)
        solution = _write(master, True, work / f"solution{suffix}")
        handout = _write(master, False, work / f"template{suffix}")
        if not (folder / SPEC_FILE).is_file():
            kept, lost, notes = _first_release(request, solution, handout, folder, state, assignment_id)
        elif (state / BASE_FILE).is_file():
            kept, lost, notes = _release_again(request, solution, handout, folder, state, work, assignment_id)
        else:
            _replace_handed_files(folder, [solution, handout])
            kept, lost = (), ()
            notes = (f"{folder / SPEC_FILE} was not written by a release: kept whole, as its author's",)
        _write(master, False, student)
    try:
        assignment = load_assignment(folder)
    except AssignmentError as exc:
        raise ReleaseFailed(f"the assignment does not load: {exc}") from None
    validation = validate_assignment(assignment, GradingOptions(sandbox=request.sandbox))
    number = _next_number(state)
    bundle = write_bundle(folder, assignment.id, str(number), request.out / "bundle")
    return ReleaseReport(None, student, folder, bundle, validation, (*master.notes, *notes), kept, lost)


def _write(master: Master, solution: bool, path: Path) -> Path:
    notebook = master.solution if solution else master.student
    path.parent.mkdir(parents=True, exist_ok=True)
    if master.script:
        path.write_text(script_text(notebook), encoding="utf-8")
    else:
        nbformat.write(notebook, path)
    return path


def _init(request: ReleaseRequest, solution: Path, handout: Path, out: Path, assignment_id: str) -> tuple[str, ...]:
    report = create_assignment(
        InitRequest(
            solution, out, template=handout, stdin=request.stdin, assignment_id=assignment_id, sandbox=request.sandbox
        )
    )
    if report.failure is not None:
        raise ReleaseFailed(f"init could not make the assignment: {report.failure}")
    return report.summary


def _first_release(
    request: ReleaseRequest, solution: Path, handout: Path, folder: Path, state: Path, assignment_id: str
) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    _init(request, solution, handout, folder, assignment_id)
    state.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(folder / SPEC_FILE, state / BASE_FILE)
    return (), (), ()


def _release_again(
    request: ReleaseRequest, solution: Path, handout: Path, folder: Path, state: Path, work: Path, assignment_id: str
) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    fresh = work / "fresh"
    _init(request, solution, handout, fresh, assignment_id)
    fresh_text = (fresh / SPEC_FILE).read_text(encoding="utf-8")
    merged = keep_hand_edits(
        (state / BASE_FILE).read_text(encoding="utf-8"), (folder / SPEC_FILE).read_text(encoding="utf-8"), fresh_text
    )
    _replace_handed_files(folder, [p for p in fresh.iterdir() if p.name in _HANDED])
    (folder / SPEC_FILE).write_text(merged.text, encoding="utf-8")
    (state / BASE_FILE).write_text(fresh_text, encoding="utf-8")
    return merged.kept, merged.lost, ()


def _replace_handed_files(folder: Path, files: list[Path]) -> None:
    """The answer key, handout and scripted input from this release, in place of the last ones
    (a notebook made a script, or the other way, leaves no stale copy beside it)."""
    for name in _HANDED:
        if name != "STDIN.txt" or any(f.name == "STDIN.txt" for f in files):
            (folder / name).unlink(missing_ok=True)
    for path in files:
        shutil.copyfile(path, folder / path.name)


def _next_number(state: Path) -> int:
    """This release's number: the assignment wheel's version, so that pip upgrades to it."""
    path = state / NUMBER_FILE
    number = int(path.read_text(encoding="utf-8")) + 1 if path.is_file() else 1
    state.mkdir(parents=True, exist_ok=True)
    path.write_text(f"{number}\n", encoding="utf-8")
    return number
