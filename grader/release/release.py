"""`grader release MASTER --out DIR`: from one master, what each reader gets.

``DIR`` then holds:

* ``student/<id>.ipynb`` (or ``.py``): the student's version (`grader.release.master`), with
  the course's support modules found beside the master (`grader.authoring.support_modules`);
* ``<id>/``: the assignment folder, written by ``grader init`` from the answer key and that
  handout, with the master's own settings applied (`grader.release.master_settings`; an
  ``adapter.py`` beside the master goes with them), and graded with; on a later release,
  init's new file with the author's hand edits applied (`grader.release.hand_edits`). A folder
  whose assignment.toml the release did not write (one written by hand, or by init alone) is
  the author's: it is kept whole, and only its solution and handout are replaced;
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

from grader.authoring.api import given_whole
from grader.authoring.create import InitRequest, create_assignment
from grader.authoring.support_modules import HandedFile, choose_support
from grader.errors import GraderError
from grader.execution.isolation import SandboxChoice
from grader.grading import GradingOptions
from grader.release.bundle import Bundle, write_bundle
from grader.release.hand_edits import keep_hand_edits
from grader.release.markers import DEFAULT_STUB, MarkerError
from grader.release.master import Master, read_master, script_text
from grader.release.master_settings import apply_settings
from grader.release.public_copy import SPEC_FILE
from grader.spec.loader import load_assignment
from grader.spec.model import AssignmentError
from grader.spec.support import SUPPORT_FOLDER
from grader.validation import ValidationReport, validate_assignment

STATE = ".release"
BASE_FILE = "init.toml"
NUMBER_FILE = "number"
_HANDED = ("solution.ipynb", "solution.py", "template.ipynb", "template.py", "STDIN.txt")
_ADAPTER = "adapter.py"
"""The course's Python checks, beside the master, for the checks of kind ``adapter`` it sets."""


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
    settings: tuple[str, ...] = ()
    """The master's settings applied to what init wrote."""
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
        lines += [f"  set by the master: {setting}" for setting in self.settings]
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


@dataclass(frozen=True)
class _Folder:
    """One release's assignment folder and what init is given to write it."""

    request: ReleaseRequest
    master: Master
    assignment_id: str
    solution: Path
    """The answer key, written from the master into a scratch folder."""
    handout: Path

    @property
    def folder(self) -> Path:
        return self.request.out / self.assignment_id

    @property
    def state(self) -> Path:
        return self.request.out / STATE

    def write(self, scratch: Path) -> _Merge:
        """Write the folder: init's first, init's again with the hand edits, or the author's kept."""
        if not (self.folder / SPEC_FILE).is_file():
            settings = self._init(self.folder)
            self.state.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(self.folder / SPEC_FILE, self.state / BASE_FILE)
            _record_adapter(self.folder, self.state)
            return _Merge(settings=settings)
        if not (self.state / BASE_FILE).is_file():
            _replace_handed_files(self.folder, [self.solution, self.handout])
            kept_whole = f"{self.folder / SPEC_FILE} was not written by a release: kept whole, as its author's"
            return _Merge(notes=(kept_whole,))
        fresh = scratch / "fresh"
        settings = self._init(fresh)
        fresh_text = (fresh / SPEC_FILE).read_text(encoding="utf-8")
        base = (self.state / BASE_FILE).read_text(encoding="utf-8")
        merged = keep_hand_edits(base, (self.folder / SPEC_FILE).read_text(encoding="utf-8"), fresh_text)
        _replace_handed_files(self.folder, [p for p in fresh.iterdir() if p.name in _HANDED or p.name == _ADAPTER])
        dropped = None
        if (fresh / _ADAPTER).is_file():
            _record_adapter(self.folder, self.state)
        else:
            dropped = drop_released_adapter(self.folder, self.state)
        shutil.rmtree(self.folder / SUPPORT_FOLDER, ignore_errors=True)
        if (fresh / SUPPORT_FOLDER).is_dir():
            shutil.copytree(fresh / SUPPORT_FOLDER, self.folder / SUPPORT_FOLDER)
        (self.folder / SPEC_FILE).write_text(merged.text, encoding="utf-8")
        (self.state / BASE_FILE).write_text(fresh_text, encoding="utf-8")
        return _Merge(merged.kept, merged.lost, notes=(dropped,) if dropped else (), settings=settings)

    def _init(self, out: Path) -> tuple[str, ...]:
        """init on the answer key and the student's version, the functions the master gives
        whole not graded (`grader.authoring.api.given_whole`), then the master's settings
        applied; each setting applied, as a line."""
        request = self.request
        support = choose_support([], [HandedFile("master", request.master, self.master.solution)])
        if isinstance(support, str):  # the answer key is in a scratch folder: found beside the master
            raise ReleaseFailed(support)
        init = InitRequest(
            self.solution,
            out,
            template=self.handout,
            stdin=request.stdin,
            assignment_id=self.assignment_id,
            sandbox=request.sandbox,
            given=given_whole(self.master.student, self.master.solution),
            support=support.modules,
        )
        report = create_assignment(init)
        if report.failure is not None:
            raise ReleaseFailed(f"init could not make the assignment: {report.failure}")
        if not self.master.settings:
            return ()
        spec = out / SPEC_FILE
        applied = apply_settings(self.master.settings, spec.read_text(encoding="utf-8"))
        spec.write_text(applied.text, encoding="utf-8")
        adapter = request.master.parent / _ADAPTER
        if adapter.is_file():
            shutil.copyfile(adapter, out / _ADAPTER)
        try:
            load_assignment(out)
        except AssignmentError as exc:
            raise ReleaseFailed(
                f"with the master's GRADER CONFIG settings, the assignment does not load: {exc}"
            ) from None
        return applied.applied


@dataclass(frozen=True)
class _Merge:
    kept: tuple[str, ...] = ()
    lost: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    settings: tuple[str, ...] = ()


def _release(request: ReleaseRequest) -> ReleaseReport:
    master = read_master(request.master, request.stub)
    assignment_id = request.assignment_id or default_id(request.master)
    suffix = ".py" if master.script else ".ipynb"
    student = request.out / "student" / f"{assignment_id}{suffix}"
    with tempfile.TemporaryDirectory(prefix="grader-release-") as scratch:
        work = Path(scratch)
        solution = _write(master, True, work / f"solution{suffix}")
        handout = _write(master, False, work / f"template{suffix}")
        folder = _Folder(request, master, assignment_id, solution, handout)
        merge = folder.write(work)
        _write(master, False, student)
    try:
        assignment = load_assignment(folder.folder)
    except AssignmentError as exc:
        raise ReleaseFailed(f"the assignment does not load: {exc}") from None
    for module in assignment.support:  # the student's version imports them from beside it
        shutil.copyfile(module.path, student.parent / module.file_name)
    validation = validate_assignment(assignment, GradingOptions(sandbox=request.sandbox))
    number = _next_number(folder.state)
    bundle = write_bundle(folder.folder, assignment.id, str(number), request.out / "bundle")
    notes = (*master.notes, *merge.notes)
    return ReleaseReport(
        None, student, folder.folder, bundle, validation, notes, merge.settings, merge.kept, merge.lost
    )


def _write(master: Master, solution: bool, path: Path) -> Path:
    notebook = master.solution if solution else master.student
    path.parent.mkdir(parents=True, exist_ok=True)
    if master.script:
        path.write_text(script_text(notebook), encoding="utf-8")
    else:
        nbformat.write(notebook, path)
    return path


def _replace_handed_files(folder: Path, files: list[Path]) -> None:
    """The answer key, handout and scripted input from this release, in place of the last ones
    (a notebook made a script, or the other way, leaves no stale copy beside it)."""
    for name in _HANDED:
        if name != "STDIN.txt" or any(f.name == "STDIN.txt" for f in files):
            (folder / name).unlink(missing_ok=True)
    for path in files:
        shutil.copyfile(path, folder / path.name)


def drop_released_adapter(folder: Path, state: Path) -> str | None:
    """The master gives no adapter.py any more (none beside it, or no settings it goes with):
    the one the last release wrote leaves the folder, so that neither the grader nor the
    students' bundle carries checks the course dropped. One the release did not write as it is
    (edited, or put there, by hand) is kept. What was done, as a note; None: nothing to do."""
    adapter, released = folder / _ADAPTER, state / _ADAPTER
    written = released.read_bytes() if released.is_file() else None
    released.unlink(missing_ok=True)
    if not adapter.is_file():
        return None
    if written == adapter.read_bytes():
        adapter.unlink()
        return f"{adapter} removed: the master gives none now"
    return (
        f"{adapter} kept, though the master gives none now: no release wrote it as it is "
        "(delete it if its checks are gone)"
    )


def _record_adapter(folder: Path, state: Path) -> None:
    """Keep a copy of the adapter.py this release wrote, to know it from a hand-written one later."""
    if (folder / _ADAPTER).is_file():
        shutil.copyfile(folder / _ADAPTER, state / _ADAPTER)


def _next_number(state: Path) -> int:
    """This release's number: the assignment wheel's version, so that pip upgrades to it."""
    path = state / NUMBER_FILE
    number = int(path.read_text(encoding="utf-8")) + 1 if path.is_file() else 1
    state.mkdir(parents=True, exist_ok=True)
    path.write_text(f"{number}\n", encoding="utf-8")
    return number
