"""`grader merge`: combine the output folders of a sharded class into one.

Each shard of a job array (``grader batch ... --shard K/N``) writes a complete output folder
for its students. The merge copies every student's folder into OUT (each file atomically, the
stored record last, as a batch does) and rebuilds ``index.html``, ``grades.csv`` and
``similarity.csv`` from the stored records and submitted copies, with the functions the batch
itself uses: the merged gradebook and similarity list are byte for byte those an unsharded
run writes. The shards' ``shard.json`` manifests tell a complete
class from one with a shard missing or interrupted; the merge says which, and its exit code
is 1 until the class is complete. OUT is locked while the merge writes it, as a batch locks
its folder (``grader.batch.output_lock``): a merge into a folder a batch or another merge is
writing is refused.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from grader.atomic_write import write_atomic
from grader.batch.output_lock import output_folder_lock
from grader.batch.sharding import ShardManifest
from grader.class_folder.layout import (
    MANIFEST_FILE,
    STUDENT_FILES,
    ClassFolder,
    UnknownAssignment,
    assignment_of_records,
    read_record,
    stored_submission,
    submitted_copy_names,
)
from grader.class_folder.outputs import class_output_lines, write_class_outputs, write_student_feedback
from grader.class_folder.records import GradingRecord
from grader.errors import UsageError
from grader.overrides.apply import class_decisions
from grader.overrides.model import MalformedOverrides
from grader.similarity.compare import DEFAULT_THRESHOLD
from grader.spec.model import Assignment
from grader.submission.own_outputs import mark_output_folder


class MergeError(UsageError, ValueError):
    """The shard folders cannot be combined (missing, other assignments, a student twice)."""


@dataclass
class MergeResult:
    out_dir: Path
    records: list[GradingRecord]
    problems: list[str] = field(default_factory=list)
    """Why the merged class is incomplete (missing or interrupted shards, missing students)."""
    decision_problems: list[str] = field(default_factory=list)
    """Entries of ``overrides.toml`` that do not fit the class (kept in the file, not applied)."""

    @property
    def complete(self) -> bool:
        return not self.problems

    @property
    def return_code(self) -> int:
        """1 when the class is incomplete or the grader failed on a submission, else 0."""
        return 0 if self.complete and not any(r.grader_fault for r in self.records) else 1

    def __str__(self) -> str:
        graded = sum(r.failure is None for r in self.records)
        lines = [
            f"Merged {len(self.records)} student(s): {graded} graded, {len(self.records) - graded} could not be graded."
        ]
        if self.problems:
            lines.append("The class is incomplete:")
            lines += [f"  {problem}" for problem in self.problems]
        if self.decision_problems:
            lines.append(f"Instructor's decisions not applied: {len(self.decision_problems)}.")
            lines += [f"  {problem}" for problem in self.decision_problems]
        lines += class_output_lines(self.out_dir)
        return "\n".join(lines)


def merge_shards(
    out_dir: Path,
    shard_dirs: Sequence[Path],
    assignment: Assignment | None = None,
    *,
    similarity_threshold: float | None = DEFAULT_THRESHOLD,
) -> MergeResult:
    """Combine the shard output folders into ``out_dir`` (``similarity_threshold`` as for a
    batch: None compares nothing)."""
    if not shard_dirs:
        raise MergeError("no shard folders given")
    for folder in shard_dirs:
        if not folder.is_dir():
            raise MergeError(f"{folder}: no such folder")
        if folder.resolve() == out_dir.resolve():
            raise MergeError(f"{folder}: the merged output must go to a folder of its own")
    records: dict[str, tuple[GradingRecord, Path]] = {}
    for folder in shard_dirs:
        for path in ClassFolder(folder).record_paths():
            record = read_record(path)
            if record is None:
                raise MergeError(f"{path}: not a stored grading record")
            student = record.submission.student_id
            if student in records:
                raise MergeError(
                    f"student {student!r} is in both {records[student][1].parent} and {folder}: "
                    "were the shards run with different N?"
                )
            records[student] = (record, path.parent)
    try:
        assignment = assignment or assignment_of_records([r for r, _ in records.values()])
    except UnknownAssignment as exc:
        raise MergeError(str(exc)) from None
    manifests = [ShardManifest.read(folder) for folder in shard_dirs]
    problems = _completeness(shard_dirs, manifests, set(records), assignment.id)

    students = set(records) | {s for m in manifests if m for s in m.students}
    try:
        decisions = class_decisions(out_dir, assignment, students)
    except MalformedOverrides as exc:
        raise MergeError(str(exc)) from None

    with output_folder_lock(out_dir, "grader merge"):  # not while a batch or merge writes there
        mark_output_folder(out_dir)
        for record, source in records.values():
            target = ClassFolder(out_dir).student(record.submission)
            _copy_student_folder(source, target)
            decided = decisions.of(record.submission.student_id)
            if decided.checks or decided.adjustment or ClassFolder(source.parent).overrides.is_file():
                write_student_feedback(target, record, assignment, decisions)
        skipped = list(dict.fromkeys(pair for m in manifests if m for pair in m.skipped))  # each shard lists them
        ordered = sorted((r for r, _ in records.values()), key=lambda r: r.submission.student_id)
        write_class_outputs(out_dir, ordered, assignment, skipped, not problems, similarity_threshold, decisions)
    return MergeResult(out_dir, ordered, problems, [str(p) for p in decisions.problems])


def _completeness(
    shard_dirs: Sequence[Path], manifests: list[ShardManifest | None], found: set[str], assignment_id: str
) -> list[str]:
    problems = []
    present = [m for m in manifests if m is not None]
    for folder, manifest in zip(shard_dirs, manifests):
        if manifest is None:
            problems.append(f"{folder}: no {MANIFEST_FILE}; was it graded with --shard K/N?")
        elif manifest.assignment_id != assignment_id:
            raise MergeError(f"{folder}: a shard of {manifest.assignment_id!r}, not of {assignment_id!r}")
        elif not manifest.complete:
            problems.append(f"{folder}: shard {manifest.shard} was interrupted; run it again, then merge")
    counts = {m.shard.count for m in present}
    if len(counts) > 1:
        raise MergeError(f"the shards split the class different ways (N = {', '.join(map(str, sorted(counts)))})")
    if counts:
        (count,) = counts
        given = [m.shard.index for m in present]
        if len(set(given)) != len(given):
            raise MergeError(f"a shard was given twice: {', '.join(str(m.shard) for m in present)}")
        problems += [f"shard {k}/{count} is missing" for k in range(count) if k not in given]
    expected = {s for m in present for s in m.students}
    missing = sorted(expected - found)
    if missing:
        problems.append(
            f"{len(missing)} student(s) without a result: "
            f"{', '.join(missing[:10])}{' ...' if len(missing) > 10 else ''}"
        )
    return problems


def _copy_student_folder(source: Path, target: Path) -> None:
    """The submitted copy, report and results.json first, the record last, each atomically
    (as a batch writes them)."""
    submitted = stored_submission(source)
    for name in submitted_copy_names():
        if submitted is None or name != submitted.name:
            (target / name).unlink(missing_ok=True)  # left by an earlier merge into the same folder
    if submitted is not None:
        write_atomic(target / submitted.name, submitted.read_bytes())
    for name in STUDENT_FILES:
        path = source / name
        if path.is_file():
            write_atomic(target / name, path.read_bytes())
