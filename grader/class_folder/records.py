"""What a batch stores per student, and the fingerprint that says when it is still valid.

``OUT/<student>/submission_result.json`` holds the result with the student's identity and a
fingerprint of what was graded: the submission's bytes, the assignment spec, the grader's
own code and the isolation asked for. A rerun reuses a record only while all four match.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import json
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from cattrs.errors import ClassValidationError

from grader.execution.isolation import SandboxChoice
from grader.results import SubmissionResult
from grader.serialization import converter
from grader.spec.model import Assignment
from grader.submission.inputs import StudentSubmission

_PACKAGE_ROOT = Path(__file__).resolve().parents[2]
_GRADER_PACKAGES = ("grader", "reference")
_GRADER_SOURCE_SUFFIXES = (".py", ".j2")
_SPEC_FILES = ("assignment.toml", "adapter.py")


@dataclass(frozen=True)
class BatchFields:
    """The record's ``batch`` table: who was graded, against what, and how it went."""

    fingerprint: str = ""
    student_id: str = ""
    display_name: str = ""
    original_name: str = ""
    late: bool = False
    notes: tuple[str, ...] = ()
    failure: str | None = None
    grader_fault: bool = False
    seconds: float = 0.0


@dataclass(frozen=True)
class GradingRecord:
    """One student's outcome, as stored in ``OUT/<student>/submission_result.json``."""

    submission: StudentSubmission
    result: SubmissionResult
    fingerprint: str
    failure: str | None = None
    """Why the submission could not be graded (unreadable, did not run, grader failure)."""
    grader_fault: bool = False
    """The grader (not the submission) failed: withheld from grades.csv, retried on resume."""
    seconds: float = 0.0
    reused: bool = False
    """Taken from an earlier run rather than graded now."""

    def to_json(self) -> str:
        s = self.submission
        batch = BatchFields(
            self.fingerprint,
            s.student_id,
            s.display_name,
            s.original_name,
            s.late,
            s.notes,
            self.failure,
            self.grader_fault,
            round(self.seconds, 3),
        )
        data = {"batch": converter.unstructure(batch), **self.result.to_dict()}
        return json.dumps(data, indent=2, ensure_ascii=False) + "\n"

    @classmethod
    def load(cls, path: Path, submission: StudentSubmission) -> GradingRecord | None:
        """The stored record, or None when there is none or it cannot be read."""
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            batch = converter.structure(data["batch"], BatchFields)
            result = SubmissionResult.from_dict(data)
        except (OSError, ValueError, KeyError, TypeError, ClassValidationError):
            return None
        return cls(submission, result, batch.fingerprint, batch.failure, batch.grader_fault, batch.seconds, reused=True)


# -- fingerprints -----------------------------------------------------------------------------


def fingerprint(submission: StudentSubmission, assignment_digest: str, sandbox: SandboxChoice = "auto") -> str:
    """What a stored result is valid for: this file, this spec, this grader, this isolation
    (a notebook that ran without bubblewrap may have read files that bubblewrap hides, so
    asking for a stronger sandbox regrades it)."""
    parts = (submission_sha256(submission), assignment_digest, grader_version(), isolation_asked(sandbox))
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()


def submission_sha256(submission: StudentSubmission) -> str:
    """The digest of what was handed in: the file's bytes, or for a file left out of the zip
    (never written anywhere) the archive's own identity of it. Nothing on disk stands in for
    it, so no file a student hands in can take over its stored verdict."""
    if submission.refused is not None:
        return hashlib.sha256(submission.refused.identity).hexdigest()
    return file_sha256(submission.path)


def isolation_asked(sandbox: SandboxChoice) -> str:
    """The sandbox mode a choice stands for: ``auto`` is bubblewrap (nothing weaker runs
    unless chosen by name); a named mode stands for itself."""
    return "bwrap" if sandbox == "auto" else sandbox


def file_sha256(path: Path) -> str:
    """One file's digest, read in chunks (a submission may be large)."""
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        while chunk := f.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


def assignment_sha256(assignment: Assignment) -> str:
    """The spec as graded: its TOML, its adapter, its scripted input and its support modules (a
    fixed module regrades the class)."""
    folder = assignment.directory
    files = [(name, (folder / name).read_bytes() if (folder / name).is_file() else b"") for name in _SPEC_FILES]
    support = [(f"support/{module.file_name}", module.digest.encode()) for module in assignment.support]
    return contents_sha256([*files, ("stdin", "\n".join(assignment.stdin).encode()), *support])


@lru_cache(maxsize=1)
def grader_version() -> str:
    """The package version plus a hash of the grading code, so that an edited grader (a
    development install keeps its version number) regrades instead of reusing results."""
    try:
        version = importlib.metadata.version("gamesearch-grader")
    except importlib.metadata.PackageNotFoundError:
        version = "unknown"
    sources = [
        path
        for package in _GRADER_PACKAGES
        for path in files_under(_PACKAGE_ROOT / package)
        if path.suffix in _GRADER_SOURCE_SUFFIXES
    ]
    digest = contents_sha256((p.relative_to(_PACKAGE_ROOT).as_posix(), p.read_bytes()) for p in sources)
    return f"{version}+{digest[:12]}"


def files_under(folder: Path) -> list[Path]:
    """The regular files below ``folder`` in a stable order, leaving out hidden files and
    folders and ``__pycache__`` (editor and interpreter litter, not content)."""
    return [
        path
        for path in sorted(folder.rglob("*"))
        if path.is_file()
        and not any(part.startswith(".") or part == "__pycache__" for part in path.relative_to(folder).parts)
    ]


def contents_sha256(entries: Iterable[tuple[str, bytes]]) -> str:
    """One digest for named contents (files of a folder, parts of a spec): each name with its
    content's own digest, so that moving bytes from one file to the next changes it."""
    digest = hashlib.sha256()
    for name, content in entries:
        digest.update(name.encode() + b"\0" + hashlib.sha256(content).digest())
    return digest.hexdigest()
