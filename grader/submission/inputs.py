"""Find the submissions in what an instructor hands to `grader batch`, and who wrote each.

Four shapes are understood:

flat folder
    ``alice.ipynb``, ``bob.py``: the student id is the file name without its extension
    (a file inside a sub-folder belongs to the student named by that top-level folder).
nbgrader tree
    ``submitted/<student>/<assignment>/*.ipynb``.
Canvas export (zip or unpacked)
    ``lastfirst_12345_67890_original-name.ipynb``, late ones ``lastfirst_LATE_12345_...``:
    the student id is the Canvas user id (12345), the name part is kept for display.
Moodle export (zip or unpacked)
    ``Full Name_12345_assignsubmission_file_/file.ipynb`` (or the same prefix on the file
    name when the export was made without folders).

A zip is unpacked into a scratch folder first. An entry that could be written outside it
(an absolute path, ``..``), that is a link, that repeats a name, that is damaged or that
unpacks to more than the limit for one file is left out alone and listed with the skipped
files; only too many entries or more than a set total refuse the whole archive. A notebook or
script left out that way is still the student's hand-in (`RefusedMember`): a student with no
other file gets a submission that says why it was not unpacked (graded as nothing), one with
another file is graded on that file and the refused one is named in the notes.

A folder this grader wrote its outputs into (``grader batch --out``, recognised by the
marker ``grader.submission.own_outputs`` puts at its root) is never read as submissions:
one inside the input is left out whole and named in ``SubmissionSet.own_outputs``; an input
that is itself one is refused.
"""

from __future__ import annotations

import contextlib
import enum
import os
import re
import stat
import zipfile
import zlib
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path, PurePosixPath

from grader.errors import GraderError, UsageError
from grader.submission.own_outputs import OUTPUT_MARKER, OWN_OUTPUT_REASON, is_output_folder

SUBMISSION_SUFFIXES = (".ipynb", ".py")
IGNORED_PARTS = frozenset({"__MACOSX", ".ipynb_checkpoints", "__pycache__"})

_CANVAS = re.compile(r"^(?P<name>[^_]+)_(?:(?P<late>LATE)_)?(?P<user>\d+)_(?P<attachment>\d+)_(?P<original>.+)$")
_MOODLE = re.compile(r"^(?P<name>.+?)_(?P<user>\d+)_assignsubmission_file_(?P<original>.*)$")
_UNSAFE_NAME_CHARS = re.compile(r"[^\w.@+-]+", re.UNICODE)


class InputLayout(str, enum.Enum):
    FLAT = "folder"
    NBGRADER = "nbgrader"
    CANVAS = "canvas"
    MOODLE = "moodle"


class InputError(UsageError, ValueError):
    """The batch input cannot be used at all (missing, damaged or oversized zip, nothing to grade)."""


@dataclass(frozen=True)
class ZipLimits:
    """What an LMS export may unpack to; real exports of a class stay far below."""

    max_members: int = 20_000
    max_member_bytes: int = 50 * 1024**2
    max_total_bytes: int = 1024**3


@dataclass(frozen=True)
class RefusedMember:
    """A notebook or script in a zip that was left out alone (too large once unpacked,
    damaged, unreadable, unwritable), as the archive lists it."""

    name: str
    """Its name in the archive."""
    reason: str
    """Why it was not unpacked (``not unpacked: ...``)."""
    size: int
    """Its unpacked size, as the archive's header says (it may lie: only an identity)."""
    crc: int

    @property
    def identity(self) -> bytes:
        """What stands for its content in a fingerprint: its bytes were never all read, so its
        name, size and CRC as the archive lists them (a new hand-in changes at least one)."""
        return f"zip entry not unpacked\0{self.name}\0{self.size}\0{self.crc}".encode()


@dataclass(frozen=True)
class StudentSubmission:
    student_id: str
    """The id used in grades.csv and (made safe) as the student's output folder."""
    path: Path
    """The file to grade."""
    original_name: str
    """The file name as the student uploaded it (what a student-facing report shows)."""
    display_name: str = ""
    """A human name when the export carries one (Canvas ``lastfirst``, Moodle full name)."""
    late: bool = False
    notes: tuple[str, ...] = ()
    """Things the instructor should know, e.g. other files the student handed in."""
    refused: RefusedMember | None = None
    """Set when the file handed in was left out of the zip: ``path`` (where it would have been
    unpacked) does not exist, and the submission is not graded but says why."""

    @property
    def folder_name(self) -> str:
        return safe_folder_name(self.student_id)


@dataclass(frozen=True)
class SkippedFile:
    path: str
    reason: str


@dataclass(frozen=True)
class SubmissionSet:
    layout: InputLayout
    submissions: tuple[StudentSubmission, ...]
    skipped: tuple[SkippedFile, ...] = ()
    own_outputs: tuple[str, ...] = ()
    """Output folders of this grader found inside the input and left out whole, by their path
    in the input with a trailing ``/`` (``graded/``)."""


def collect_submissions(
    source: Path, assignment_id: str, scratch: Path, limits: ZipLimits = ZipLimits()
) -> SubmissionSet:
    """The submissions in a folder or zip; a zip is unpacked under ``scratch``."""
    if not source.exists():
        raise InputError(f"{source}: no such file or folder")
    unsafe: list[SkippedFile] = []
    refused: tuple[RefusedMember, ...]
    if source.is_file():
        if not zipfile.is_zipfile(source):
            raise InputError(f"{source}: not a folder or a zip archive")
        root = scratch / "unpacked"
        unpacked = extract_zip(source, root, limits)
        unsafe = [SkippedFile(f"{source.name}/{s.path}", s.reason) for s in unpacked.skipped]
        refused = unpacked.refused
    else:
        root, refused = source, ()
    if is_output_folder(root):
        what = "holds" if source.is_file() else "is"
        raise InputError(
            f"{source}: {what} {OWN_OUTPUT_REASON}, not submissions; give the folder or zip the students' files are in"
        )
    found = _collect_from_folder(root, assignment_id, refused)
    # Skipped files are named as the instructor knows them, not by the scratch folder.
    shown = [SkippedFile(_shown_path(Path(s.path), root, source.name), s.reason) for s in found.skipped]
    found = replace(found, skipped=(*unsafe, *shown))
    if not found.submissions:
        details = [f"{len(found.skipped)} file(s) skipped"] if found.skipped else []
        details += [f"skipped {folder}: {OWN_OUTPUT_REASON}" for folder in found.own_outputs]
        detail = f" ({'; '.join(details)})" if details else ""
        raise InputError(f"{source}: no .ipynb or .py submissions found{detail}")
    return found


def _shown_path(path: Path, root: Path, label: str) -> str:
    try:
        return f"{label}/{path.relative_to(root).as_posix()}"
    except ValueError:
        return str(path)


@dataclass(frozen=True)
class UnpackedZip:
    written: tuple[Path, ...]
    """The files written, under the destination."""
    skipped: tuple[SkippedFile, ...]
    """Entries left out because they are unsafe, by their name in the archive."""
    refused: tuple[RefusedMember, ...] = ()
    """Of the skipped, the notebooks and scripts left out alone whose path can be trusted to
    name their student (not an unsafe path, not a link)."""


def extract_zip(archive: Path, destination: Path, limits: ZipLimits = ZipLimits()) -> UnpackedZip:
    """Unpack the notebooks and Python files of ``archive`` safely.

    An entry whose name could leave ``destination``, that is a link, that repeats a name
    already unpacked, that is damaged or that unpacks to more than the limit for one file is
    left out and listed: one student's odd entry must not cost the whole class its grading.
    Sizes are counted while decompressing (a zip header can lie about them). Only an archive
    with too many entries, or one that unpacks to more than the limit in total, is refused.
    """
    destination.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    unpacked: set[Path] = set()
    skipped: list[SkippedFile] = []
    refused: list[RefusedMember] = []
    total = 0
    try:
        with zipfile.ZipFile(archive) as zf:
            members = zf.infolist()
            if len(members) > limits.max_members:
                raise InputError(f"{archive}: {len(members)} entries, more than the limit of {limits.max_members}")
            for info in members:
                problem = unsafe = _unsafe_member_problem(info)
                relative = PurePosixPath(info.filename)
                if problem is None and (info.is_dir() or not (_is_candidate(relative) or _is_output_marker(relative))):
                    continue
                target = destination.joinpath(*relative.parts)
                if problem is None and target in unpacked:
                    problem = "not unpacked: the archive holds another entry of the same name, unpacked already"
                if problem is None:
                    size, problem = _unpack_member(zf, info, target, limits)
                    total += size
                    if total > limits.max_total_bytes:
                        raise InputError(f"{archive}: unpacks to more than {limits.max_total_bytes:,} bytes")
                if problem is None:
                    written.append(target)
                    unpacked.add(target)
                else:
                    skipped.append(SkippedFile(info.filename, problem))
                    # An entry with an absolute or ``..`` path, or a link, is only listed: its
                    # path is made to point elsewhere, so the student it names cannot be trusted.
                    if unsafe is None and _is_candidate(relative):
                        refused.append(RefusedMember(info.filename, problem, info.file_size, info.CRC))
    except zipfile.BadZipFile as exc:
        raise InputError(f"{archive}: damaged zip archive ({exc})") from None
    return UnpackedZip(tuple(written), tuple(skipped), tuple(refused))


def _unpack_member(
    zf: zipfile.ZipFile, info: zipfile.ZipInfo, target: Path, limits: ZipLimits
) -> tuple[int, str | None]:
    """Write one entry to ``target``: (bytes written, None), or (0, why it was left out) with
    nothing left behind."""
    size = 0
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        with zf.open(info) as src, open(target, "wb") as dst:
            while chunk := src.read(1 << 16):
                size += len(chunk)
                if size > limits.max_member_bytes:
                    raise _MemberTooLarge
                dst.write(chunk)
        return size, None
    except _MemberTooLarge:
        problem = f"not unpacked: it unpacks to more than {limits.max_member_bytes:,} bytes, the limit for one file"
    except (zipfile.BadZipFile, EOFError, zlib.error) as exc:  # a bad CRC, a truncated or corrupt stream
        problem = f"not unpacked: the entry is damaged ({exc or type(exc).__name__})"
    except (NotImplementedError, RuntimeError) as exc:  # an unknown compression method, an encrypted entry
        problem = f"not unpacked: the entry cannot be read ({exc})"
    except OSError as exc:  # e.g. a name that is a folder of another entry, or too long
        problem = f"not unpacked: it cannot be written ({exc.strerror or exc})"
    with contextlib.suppress(OSError):  # a name too long to stat has nothing to remove
        target.unlink(missing_ok=True)
    return 0, problem


class _MemberTooLarge(GraderError):
    """Raised inside `_unpack_member` to leave its copy loop."""


def _unsafe_member_problem(info: zipfile.ZipInfo) -> str | None:
    """Why an archive entry must not be unpacked, or None when it is safe."""
    name = info.filename
    path = PurePosixPath(name.replace("\\", "/"))
    if name.startswith(("/", "\\")) or (len(name) > 1 and name[1] == ":") or ".." in path.parts:
        return "not unpacked: its path would leave the folder it is unpacked into"
    if stat.S_ISLNK(info.external_attr >> 16):
        return "not unpacked: a symbolic link"
    return None


def _is_candidate(relative: PurePosixPath) -> bool:
    return not _is_ignored(relative.parts) and relative.suffix.lower() in SUBMISSION_SUFFIXES


def _is_output_marker(relative: PurePosixPath) -> bool:
    """An archived output folder's marker: unpacked too, so that the folder is left out."""
    return relative.name == OUTPUT_MARKER and not _is_ignored(relative.parent.parts)


def _is_ignored(parts: tuple[str, ...]) -> bool:
    return any(part in IGNORED_PARTS or part.startswith(".") for part in parts)


def _files_outside_own_outputs(root: Path) -> tuple[list[Path], list[Path]]:
    """The submission candidates under ``root``, sorted, and the output folders of this
    grader found under it (left out whole: their contents are never looked at)."""
    files: list[Path] = []
    own_outputs: list[Path] = []
    for folder, subfolders, names in os.walk(root):
        here = Path(folder)
        for name in sorted(subfolders):
            if is_output_folder(here / name):
                own_outputs.append(here / name)
                subfolders.remove(name)
        files += (
            path
            for name in names
            if (path := here / name).is_file() and _is_candidate(PurePosixPath(path.relative_to(root).as_posix()))
        )
    return sorted(files), sorted(own_outputs)


def _own_output_names(root: Path, folders: Iterable[Path]) -> tuple[str, ...]:
    return tuple(f"{folder.relative_to(root).as_posix()}/" for folder in folders)


# -- identifying students ------------------------------------------------------------------


def _collect_from_folder(root: Path, assignment_id: str, refused: Iterable[RefusedMember] = ()) -> SubmissionSet:
    """The submissions under ``root``; ``refused``: entries of the zip unpacked there that were
    left out, each a hand-in of the student its path names."""
    submitted = root if root.name == "submitted" else root / "submitted"
    if submitted.is_dir():
        # An nbgrader tree picks each student's assignment folder among the folders unpacked,
        # so a refused entry has no folder to be weighed in; it stays listed with the skipped.
        return _nbgrader(root, submitted, assignment_id)
    files, own_outputs = _files_outside_own_outputs(root)
    candidates = [_identify(root, path) for path in files]
    for member in refused:
        would_be = root.joinpath(*PurePosixPath(member.name).parts)
        if not any(would_be.is_relative_to(folder) for folder in own_outputs):
            layout, submission = _identify(root, would_be)
            candidates.append((layout, replace(submission, refused=member)))
    layouts = {layout for layout, _ in candidates}
    layout = next((lay for lay in (InputLayout.MOODLE, InputLayout.CANVAS) if lay in layouts), InputLayout.FLAT)
    submissions, skipped = _one_per_student((c for _, c in candidates), assignment_id)
    return SubmissionSet(layout, submissions, skipped, _own_output_names(root, own_outputs))


def _identify(root: Path, path: Path) -> tuple[InputLayout, StudentSubmission]:
    relative = path.relative_to(root)
    for part in relative.parts:
        moodle = _MOODLE.match(part)
        if moodle:
            original = moodle["original"] or path.name
            return InputLayout.MOODLE, StudentSubmission(moodle["user"], path, original, moodle["name"].strip())
    canvas = _CANVAS.match(path.name)
    if canvas:
        return InputLayout.CANVAS, StudentSubmission(
            canvas["user"], path, canvas["original"], canvas["name"], bool(canvas["late"])
        )
    student = relative.parts[0] if len(relative.parts) > 1 else path.stem
    return InputLayout.FLAT, StudentSubmission(student, path, path.name)


def _nbgrader(root: Path, submitted: Path, assignment_id: str) -> SubmissionSet:
    candidates: list[StudentSubmission] = []
    skipped: list[SkippedFile] = []
    folders = sorted(p for p in submitted.iterdir() if p.is_dir() and not p.name.startswith("."))
    own_outputs = [folder for folder in folders if is_output_folder(folder)]
    for student_dir in (folder for folder in folders if folder not in own_outputs):
        folders = sorted(p for p in student_dir.iterdir() if p.is_dir() and not p.name.startswith("."))
        chosen = next((f for f in folders if f.name == assignment_id), folders[0] if len(folders) == 1 else None)
        if chosen is None:
            names = ", ".join(f.name for f in folders) or "none"
            skipped.append(
                SkippedFile(str(student_dir), f"no assignment folder named {assignment_id!r} (found: {names})")
            )
            continue
        for path in sorted(chosen.rglob("*")):
            if path.is_file() and _is_candidate(PurePosixPath(path.relative_to(chosen).as_posix())):
                candidates.append(StudentSubmission(student_dir.name, path, path.name))
    submissions, more_skipped = _one_per_student(candidates, assignment_id)
    return SubmissionSet(
        InputLayout.NBGRADER, submissions, tuple(skipped) + more_skipped, _own_output_names(root, own_outputs)
    )


def _one_per_student(
    candidates: Iterable[StudentSubmission], assignment_id: str
) -> tuple[tuple[StudentSubmission, ...], tuple[SkippedFile, ...]]:
    by_student: dict[str, list[StudentSubmission]] = defaultdict(list)
    for candidate in candidates:
        by_student[candidate.student_id].append(candidate)
    submissions: list[StudentSubmission] = []
    skipped: list[SkippedFile] = []
    used_folders: set[str] = set()
    for student_id in sorted(by_student):
        files = by_student[student_id]
        # A file left out of the zip is the student's row only when nothing of theirs was
        # unpacked; then the one chosen is the one the archive says is the largest (its path was
        # never written: it may not even be a valid name here).
        unpacked = [c for c in files if c.refused is None]
        if unpacked:
            chosen = choose_submission_file([c.path for c in unpacked], assignment_id)
            winner = next(c for c in unpacked if c.path == chosen)
        else:
            winner = min(
                files, key=lambda c: _preference(c.path.name, c.refused.size if c.refused else 0, assignment_id)
            )
        others = [c for c in files if c is not winner]
        notes = tuple(_also_handed_in(c, winner) for c in others)
        skipped.extend(  # a refused file is listed already, with why it was left out
            SkippedFile(str(c.path), f"{student_id} handed in several files; graded {winner.original_name}")
            for c in others
            if c.refused is None
        )
        if winner.folder_name.lower() in used_folders:  # ids differing only in unsafe characters or case
            skipped.append(
                SkippedFile(
                    str(winner.path), f"student id {student_id!r} clashes with another once made a safe folder name"
                )
            )
            continue
        used_folders.add(winner.folder_name.lower())
        submissions.append(replace(winner, notes=notes))
    return tuple(submissions), tuple(skipped)


def _also_handed_in(other: StudentSubmission, chosen: StudentSubmission) -> str:
    """The note on a student's file that is not the one graded (``chosen``)."""
    also = f"Also handed in {other.original_name}"
    if other.refused is not None:
        also += f", which was {other.refused.reason}"
    # a refused file is chosen only when all of them were refused: then none is graded
    return f"{also}; graded {chosen.original_name}." if chosen.refused is None else f"{also}."


def choose_submission_file(paths: list[Path], assignment_id: str) -> Path:
    """Which of several handed-in files to grade: a notebook before a script, then one whose
    name mentions the assignment, then the largest (least likely to be a stub), then by name."""
    if not paths:
        raise ValueError("no files to choose from")
    return min(paths, key=lambda p: _preference(p.name, p.stat().st_size if p.exists() else 0, assignment_id))


def _preference(name: str, size: int, assignment_id: str) -> tuple[bool, bool, int, str]:
    """`choose_submission_file`'s order: the smallest is chosen."""
    key = assignment_id.lower().replace("-", "").replace("_", "")
    squashed = name.lower().replace("-", "").replace("_", "")
    return (PurePosixPath(name).suffix.lower() != ".ipynb", key not in squashed, -size, name)


def safe_folder_name(student_id: str) -> str:
    """A folder name for a student id: no separators, no leading dot, never empty."""
    name = _UNSAFE_NAME_CHARS.sub("_", student_id).strip("._") or "student"
    return name[:100]
