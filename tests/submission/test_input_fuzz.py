"""The input boundary under fuzzing: damaged notebooks and hostile LMS exports.

Each generated file goes through reading, the grading boundary, ``grader grade`` and the
copy a batch stores; each export through unpacking and collecting; a few samples of both
through a whole batch. Never a traceback, never a lost or empty row, the class outputs
always written. Runs derandomized (a fixed seed) with no example database, so CI sees the
same cases every time; each boundary prints how many cases it tried (run with ``-s``).

No kernel is started here (see `tests.submission.kernel_free_grading`); the same kinds of
file through the real ``grader batch`` are in `test_hostile_class_through_the_real_batch`.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from pathlib import Path
from unittest import mock

import nbformat
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from grader.batch.plan import BatchOptions, run_batch
from grader.class_folder.layout import GRADES_FILE, INDEX_FILE, SIMILARITY_FILE, STUDENT_FILES
from grader.class_folder.outputs import write_submitted_copy
from grader.cli import main
from grader.feedback.html import render_student_report
from grader.grading import GradingOptions
from grader.similarity.compare import _code_cells
from grader.spec.loader import load_assignment
from grader.submission.inputs import (
    IGNORED_PARTS,
    SUBMISSION_SUFFIXES,
    InputError,
    StudentSubmission,
    ZipLimits,
    collect_submissions,
)
from grader.submission.reader import DEFAULT_MAX_BYTES, SubmissionUnreadable, read_submission
from tests.submission.hostile_inputs import MEMBER_LIMIT, Export, Member, exports, notebook_files
from tests.submission.kernel_free_grading import NO_KERNEL, grade_without_kernel

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES_PER_BOUNDARY = 600
FUZZ = settings(
    max_examples=EXAMPLES_PER_BOUNDARY,
    derandomize=True,
    database=None,
    deadline=None,
    report_multiple_bugs=False,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example],
)
LAB05 = load_assignment("lab05")
CONTROLS = [chr(c) for c in range(32) if chr(c) not in "\n\t"] + ["\x7f", "\x9b", "\u202e"]


@pytest.fixture
def workdir() -> Iterator[Path]:
    with tempfile.TemporaryDirectory(prefix="grader-fuzz-") as folder:
        yield Path(folder)


def run_cases(name: str, cases: Counter[str], run: Callable[[], None]) -> None:
    """Run a hypothesis test and print the figure: cases tried, by kind (a failure raises)."""
    run()
    kinds = ", ".join(f"{kind} {count}" for kind, count in sorted(cases.items()))
    print(f"\n{name}: {sum(cases.values())} cases tried, 0 failures ({kinds})")
    assert sum(cases.values()) >= 500


def printable_only(text: str) -> bool:
    return not any(control in text for control in CONTROLS)


def check_file_boundary(path: Path, out: Path) -> None:
    """Reading, grading, `grader grade` and the stored copy of one submitted file."""
    try:
        submission = read_submission(path)
    except SubmissionUnreadable as refusal:
        assert refusal.reason.strip()
    else:
        nbformat.validate(submission.notebook)  # what the kernel is handed is a clean notebook
        assert all(isinstance(cell.source, str) for cell in submission.notebook.cells)
    try:
        _code_cells(path)  # what the class's similarity reads from the stored copy
    except SubmissionUnreadable:
        pass
    result = grade_without_kernel(path, LAB05, GradingOptions())
    reason = result.not_graded_reason
    assert reason, "a row with no reason"
    json.dumps(result.to_dict())
    assert "<script" not in render_student_report(result, assignment=LAB05).split("</style>", 1)[-1].lower()
    with mock.patch("grader.grading.NotebookSession", side_effect=RuntimeError(NO_KERNEL)):
        with contextlib.redirect_stdout(io.StringIO()) as printed, contextlib.redirect_stderr(io.StringIO()) as err:
            status = main(["grade", str(path), "-a", "lab05"])
    assert status == 0 and printed.getvalue().startswith("Not graded (0 / "), (printed.getvalue(), err.getvalue())
    assert printable_only(printed.getvalue() + err.getvalue())
    folder = out / "student"
    write_submitted_copy(folder, StudentSubmission("student", path, path.name))
    assert all(copy.stat().st_size <= DEFAULT_MAX_BYTES for copy in folder.iterdir())


def test_damaged_notebooks_are_read_or_refused_never_raised(workdir: Path) -> None:
    cases: Counter[str] = Counter()

    @FUZZ
    @given(notebook_files())
    def one(file: tuple[str, bytes]) -> None:
        name, content = file
        cases[Path(name).stem] += 1
        path = workdir / name
        path.write_bytes(content)
        check_file_boundary(path, workdir / "out")

    run_cases("notebook files", cases, one)


def _is_candidate(name: str) -> bool:
    parts = name.replace("\\", "/").split("/")
    return Path(parts[-1]).suffix.lower() in SUBMISSION_SUFFIXES and not any(
        part in IGNORED_PARTS or part.startswith(".") for part in parts
    )


def _escapes(name: str) -> bool:
    parts = name.replace("\\", "/").split("/")
    return name.startswith(("/", "\\")) or (len(name) > 1 and name[1] == ":") or ".." in parts


def check_export_boundary(export: Export, folder: Path) -> str:
    """Unpack and collect one export; returns what became of it."""
    archive = folder / "export.zip"
    archive.write_bytes(export.to_bytes())
    scratch = folder / "scratch"
    unpacked = scratch / "unpacked"
    try:
        found = collect_submissions(archive, "lab05", scratch, ZipLimits(max_member_bytes=MEMBER_LIMIT))
    except InputError as refusal:
        assert str(refusal).strip()
        outcome = "refused"
    else:
        outcome = "collected"
        # Two members may share a name (a link, then a file): each keeps its own reason.
        skipped: dict[str, list[str]] = defaultdict(list)
        for left_out in found.skipped:
            skipped[left_out.path].append(left_out.reason)
        assert all(reason.strip() for reasons in skipped.values() for reason in reasons)
        for submission in found.submissions:
            assert submission.path.resolve().is_relative_to(unpacked.resolve())
            if submission.refused is not None:  # a hand-in left out: listed, and nothing stands in for it
                assert f"{archive.name}/{submission.refused.name}" in skipped, (submission, skipped)
                assert submission.path not in {path for path in unpacked.rglob("*") if path.is_file()}, submission
                continue
            assert submission.path.is_file() and not submission.path.is_symlink()
            with contextlib.suppress(SubmissionUnreadable):
                read_submission(submission.path)
        if export.damage == "none":
            written = {path for path in unpacked.rglob("*") if path.is_file()}
            for member in export.members:
                shown = f"{archive.name}/{member.name}"
                if member.kind == "link" or _escapes(member.name):
                    assert any(r.startswith("not unpacked") for r in skipped.get(shown, [])), (member.name, skipped)
                elif member.kind == "file" and _is_candidate(member.name) and unpacked / member.name not in written:
                    assert shown in skipped, (member.name, skipped)  # never lost without a word
    for place, _, names in os.walk(folder):
        for name in names:
            path = Path(place) / name
            assert path == archive or path.is_relative_to(unpacked), f"written outside the unpacked folder: {path}"
            assert not path.is_symlink()
    return outcome


def test_hostile_exports_lose_only_their_bad_members(workdir: Path) -> None:
    cases: Counter[str] = Counter()

    @FUZZ
    @given(exports())
    @example(  # a link and a file of one name: the link's reason is not lost behind the file's
        Export(
            (
                Member("doejane_12345_67890_lab05.ipynb", b"null"),
                Member("doejane_LATE_12345_67891_lab05.py", b"/etc/passwd", "link"),
                Member("doejane_LATE_12345_67891_lab05.py", b'{"cells": [], "metadata": {}, "nbformat": 4}'),
            )
        )
    )
    def one(export: Export) -> None:
        folder = Path(tempfile.mkdtemp(dir=workdir))
        try:
            cases[check_export_boundary(export, folder)] += 1
        finally:
            shutil.rmtree(folder)

    run_cases("zip exports", cases, one)


def check_batch(source: Path, out: Path) -> int:
    """A whole batch over ``source``: a row with a reason for every submission, every output
    written; returns the number of rows."""
    result = run_batch(source, LAB05, out, BatchOptions(jobs=2, progress=False), grade=grade_without_kernel)
    assert result.return_code == 0
    assert len(result.records) == result.total
    # No kernel here: every row is "not graded", with its reason, and none is the grader's fault.
    assert all(record.failure and not record.grader_fault for record in result.records)
    for name in (INDEX_FILE, GRADES_FILE, SIMILARITY_FILE):
        assert (out / name).is_file()
    with (out / GRADES_FILE).open(newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == result.total
    for record in result.records:
        assert all((out / record.submission.folder_name / name).is_file() for name in STUDENT_FILES)
    return len(rows)


@pytest.mark.kernel  # worker processes, though they start no kernel
@settings(max_examples=3, derandomize=True, database=None, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(notebook_files(), min_size=4, max_size=8), exports())
def test_a_class_of_hostile_files_and_an_export_get_a_row_each(files: list[tuple[str, bytes]], export: Export) -> None:
    with tempfile.TemporaryDirectory(prefix="grader-fuzz-batch-") as folder:
        source = Path(folder) / "class"
        source.mkdir()
        for number, (name, content) in enumerate(files):
            (source / f"s{number}{Path(name).suffix}").write_bytes(content)
        assert check_batch(source, Path(folder) / "out") == len(files)
        archive = Path(folder) / "export.zip"
        archive.write_bytes(export.to_bytes())
        try:
            check_batch(archive, Path(folder) / "export-out")
        except InputError as refusal:  # nothing to grade in it, or the archive is damaged
            assert str(refusal).strip()


HOSTILE_SAMPLE = {
    "deep.ipynb": b'{"cells": [], "metadata": {"x": ' + b"[" * 200_000 + b"]" * 200_000 + b"}}",
    "truncated.ipynb": (ROOT / "examples" / "lab05" / "ada-solution.ipynb").read_bytes()[:700],
    "utf16.ipynb": (ROOT / "examples" / "lab05" / "ada-solution.ipynb").read_text(encoding="utf-8").encode("utf-16"),
    "wrong-types.ipynb": b'{"cells": {"source": 5}, "metadata": [], "nbformat": "4"}',
    "odd-cells.ipynb": json.dumps(
        {
            "cells": [
                {"cell_type": "code", "source": 7, "outputs": [{"output_type": "hologram"}]},
                {"cell_type": "code", "source": ["print(", "'kept')"], "outputs": {}, "metadata": []},
            ],
            "metadata": {},
            "nbformat": 4,
            "nbformat_minor": 5,
        }
    ).encode(),
}


@pytest.mark.kernel
def test_hostile_class_through_the_real_batch(tmp_path: Path) -> None:
    """The real `grader batch`, kernels and all, on one correct notebook and a fixed sample."""
    source = tmp_path / "class"
    source.mkdir()
    shutil.copy(ROOT / "examples" / "lab05" / "ada-solution.ipynb", source / "ada.ipynb")
    for name, content in HOSTILE_SAMPLE.items():
        (source / name).write_bytes(content)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = tmp_path / "out"
    completed = subprocess.run(
        [sys.executable, "-m", "grader", "batch", str(source), "-a", "lab05", "-o", str(out), "-j", "2", "--quiet"],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert completed.returncode == 0, completed.stderr
    assert "Traceback" not in completed.stdout + completed.stderr
    with (out / GRADES_FILE).open(newline="", encoding="utf-8") as handle:
        rows = {row["student_id"]: row for row in csv.DictReader(handle)}
    assert set(rows) == {"ada", *(Path(name).stem for name in HOSTILE_SAMPLE)}
    assert rows["ada"]["total"] == "100"
    assert (out / INDEX_FILE).is_file() and (out / SIMILARITY_FILE).is_file()
    deep = json.loads((out / "deep" / "submission_result.json").read_text(encoding="utf-8"))
    assert "nested 200,002 levels deep" in deep["batch"]["failure"]
    odd = json.loads((out / "odd-cells" / "submission_result.json").read_text(encoding="utf-8"))
    assert odd["execution"] is not None  # its one readable cell ran
