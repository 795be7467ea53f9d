"""Where everything sits in a graded class's output folder, and how to read it back.

``OUT/<student>/``: ``submitted.ipynb`` or ``submitted.py`` (a copy of the file graded),
``report.html``, ``results.json`` (Gradescope format) and, written last,
``submission_result.json`` (the stored record). ``OUT/``: ``index.html``, ``grades.csv``,
``similarity.csv``, ``class.json`` (what the class files were built with), ``overrides.toml``
(the instructor's decisions) and, for a shard of a job array, ``shard.json``.

Batch, merge, overrides and review all find these files through a `ClassFolder`; what is
written into them is :mod:`grader.class_folder.outputs`' business.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from grader.class_folder.records import GradingRecord
from grader.errors import UsageError
from grader.spec.loader import load_assignment
from grader.spec.model import Assignment, AssignmentError
from grader.submission.inputs import SUBMISSION_SUFFIXES, StudentSubmission

RESULT_FILE = "submission_result.json"
REPORT_FILE = "report.html"
GRADESCOPE_FILE = "results.json"
SUBMITTED_STEM = "submitted"
INDEX_FILE = "index.html"
GRADES_FILE = "grades.csv"
SIMILARITY_FILE = "similarity.csv"
CLASS_FILE = "class.json"
OVERRIDES_FILE = "overrides.toml"
MANIFEST_FILE = "shard.json"
STUDENT_FILES = (REPORT_FILE, GRADESCOPE_FILE, RESULT_FILE)
"""A student's files after the submitted copy, in the order they are written: the stored
record last, so that a record on disk means everything for that student is."""


class UnknownAssignment(UsageError, ValueError):
    """The stored records do not name one assignment that can be loaded."""


@dataclass(frozen=True)
class ClassSettings:
    """What the class files were last built with, beyond the stored records: kept in
    ``class.json`` so that they can be rebuilt alone (after an instructor's decision)."""

    assignment_id: str
    skipped: tuple[tuple[str, str], ...]
    complete: bool
    similarity_threshold: float | None

    def to_json(self) -> str:
        data = {
            "assignment": self.assignment_id,
            "skipped": [list(pair) for pair in self.skipped],
            "complete": self.complete,
            "similarity_threshold": self.similarity_threshold,
        }
        return json.dumps(data, indent=2, ensure_ascii=False) + "\n"

    @classmethod
    def read(cls, path: Path) -> ClassSettings | None:
        try:
            data: Any = json.loads(path.read_text(encoding="utf-8"))
            threshold = data["similarity_threshold"]
            return cls(
                str(data["assignment"]),
                tuple((str(path), str(reason)) for path, reason in data["skipped"]),
                bool(data["complete"]),
                None if threshold is None else float(threshold),
            )
        except (OSError, ValueError, KeyError, TypeError):
            return None


@dataclass(frozen=True)
class ClassFolder:
    """One class's output folder (``grader batch --out``, a shard's, or a merge's)."""

    path: Path

    def student(self, submission: StudentSubmission) -> Path:
        """The folder of one student's files."""
        return self.path / submission.folder_name

    @property
    def index(self) -> Path:
        return self.path / INDEX_FILE

    @property
    def grades(self) -> Path:
        return self.path / GRADES_FILE

    @property
    def similarity(self) -> Path:
        return self.path / SIMILARITY_FILE

    @property
    def overrides(self) -> Path:
        return self.path / OVERRIDES_FILE

    @property
    def manifest(self) -> Path:
        return self.path / MANIFEST_FILE

    @property
    def settings_file(self) -> Path:
        return self.path / CLASS_FILE

    def settings(self) -> ClassSettings | None:
        """What the class files were last built with; None when ``class.json`` is missing or
        cannot be read."""
        return ClassSettings.read(self.settings_file)

    def record_paths(self) -> list[Path]:
        """Every stored record, in the order of the students' folder names."""
        return sorted(self.path.glob(f"*/{RESULT_FILE}"))

    def records(self) -> dict[str, GradingRecord]:
        """The stored records that can be read, by student id."""
        return {r.submission.student_id: r for path in self.record_paths() if (r := read_record(path)) is not None}

    def stamp(self) -> tuple[tuple[str, int], ...]:
        """What says whether the stored records changed: their folders and modification times."""
        stamp = []
        for path in self.record_paths():
            try:
                stamp.append((path.parent.name, path.stat().st_mtime_ns))
            except OSError:
                continue
        return tuple(stamp)


def read_record(path: Path) -> GradingRecord | None:
    """A stored record on its own: the student is rebuilt from what the record says."""
    try:
        meta = json.loads(path.read_text(encoding="utf-8"))["batch"]
        submission = StudentSubmission(
            student_id=str(meta["student_id"]),
            path=path.parent,
            original_name=str(meta.get("original_name", "")),
            display_name=str(meta.get("display_name", "")),
            late=bool(meta.get("late")),
            notes=tuple(meta.get("notes", ())),
        )
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return GradingRecord.load(path, submission)


def assignment_of_records(records: list[GradingRecord]) -> Assignment:
    """The one built-in assignment the records were graded with (`UnknownAssignment` when they
    name several, or one that cannot be loaded)."""
    ids = sorted({r.result.assignment_id for r in records})
    if len(ids) != 1:
        raise UnknownAssignment(
            f"the shards hold results of {len(ids)} assignments ({', '.join(ids) or 'none'}); merge one at a time"
        )
    try:
        return load_assignment(ids[0])
    except AssignmentError as exc:
        raise UnknownAssignment(f"{exc} (name the assignment folder with --assignment)") from None


def submitted_copy_names() -> tuple[str, ...]:
    """The names a student's copy can have: one per readable suffix."""
    return tuple(SUBMITTED_STEM + suffix for suffix in SUBMISSION_SUFFIXES)


def stored_submission(folder: Path) -> Path | None:
    """The copy of what was graded in a student's output folder, if any."""
    return next((path for name in submitted_copy_names() if (path := folder / name).is_file()), None)
