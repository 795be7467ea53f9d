"""A student whose only hand-in in an LMS zip was left out of it (too large once unpacked)
keeps a row: not graded, saying why, through reruns, ``--force``, shards and a merge."""

from __future__ import annotations

import csv
import html
import subprocess
import sys
import zipfile
from pathlib import Path

import nbformat
import pytest

from grader.batch.merge import merge_shards
from grader.batch.plan import BatchOptions, BatchResult, run_batch
from grader.batch.sharding import Shard
from grader.class_folder.layout import REPORT_FILE, RESULT_FILE
from grader.spec.loader import load_assignment
from grader.spec.model import Assignment
from tests.batch.fake_grading import grade_by_content
from tests.fewer_games import read_with_fewer_games

pytestmark = pytest.mark.kernel  # the fake grader needs no kernel, but the batch starts workers

REPO = Path(__file__).resolve().parents[2]
SOLUTION = REPO / "examples" / "lab05" / "ada-solution.ipynb"
GRADED = "lovelaceada_12345_67890_lab05.ipynb"
REFUSED = "roeric_23456_78901_lab05.ipynb"
REASON = "not unpacked: it unpacks to more than 52,428,800 bytes, the limit for one file"
MESSAGE = f"Not graded: lab05.ipynb was {REASON}."


@pytest.fixture(scope="module")
def lab05() -> Assignment:
    return load_assignment("lab05")


def canvas_zip(path: Path, graded: bytes, refused_bytes: int = 200 * 1024**2) -> Path:
    """One student's notebook and another's member of zeros, which deflate to a few hundred KB."""
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        zf.writestr(GRADED, graded)
        with zf.open(REFUSED, "w", force_zip64=True) as member:
            chunk = bytes(1 << 20)
            for _ in range(refused_bytes >> 20):
                member.write(chunk)
    return path


def gradebook(out: Path) -> dict[str, dict[str, str]]:
    with (out / "grades.csv").open(encoding="utf-8") as f:
        return {row["student_id"]: row for row in csv.DictReader(f)}


def records(out: Path) -> dict[str, float]:
    """Each student's stored record, by when it was written."""
    return {path.parent.name: path.stat().st_mtime_ns for path in out.glob(f"*/{RESULT_FILE}")}


@pytest.mark.slow
def test_grader_batch_gives_the_refused_member_its_row_and_keeps_it(tmp_path: Path) -> None:
    solution = nbformat.writes(read_with_fewer_games(SOLUTION)).encode()  # a few games of its experiment, not 200
    archive = canvas_zip(tmp_path / "canvas.zip", solution)
    out = tmp_path / "out"
    command = [sys.executable, "-m", "grader", "batch", str(archive), "-a", "lab05", "--out", str(out)]
    first = subprocess.run([*command, "--quiet"], cwd=REPO, capture_output=True, text=True, timeout=300)
    assert first.returncode == 0, first.stderr
    rows = gradebook(out)
    assert set(rows) == {"12345", "23456"}
    assert rows["12345"]["total"] == rows["12345"]["max"] != "0"  # the solution, fully graded
    assert rows["23456"]["total"] == "0"  # as an unreadable notebook scores
    report = (out / "23456" / REPORT_FILE).read_text(encoding="utf-8")
    assert MESSAGE in html.unescape(report)
    index = html.unescape((out / "index.html").read_text(encoding="utf-8"))
    assert MESSAGE in index and f"<code>canvas.zip/{REFUSED}</code>: {REASON}" in index
    assert f"23456: {MESSAGE}" in first.stdout  # named under "Could not be graded"
    assert f"canvas.zip/{REFUSED}: {REASON}" in first.stdout  # and still among the files left out
    assert not list((out / "23456").glob("submitted.*"))  # nothing stands in for what was never unpacked

    stored = records(out)
    again = subprocess.run([*command, "--quiet"], cwd=REPO, capture_output=True, text=True, timeout=300)
    assert again.returncode == 0, again.stderr
    assert "(0 graded now, 2 kept from an earlier run)" in again.stdout
    assert records(out) == stored  # neither record written again
    assert gradebook(out) == rows


def batch(source: Path, out: Path, assignment: Assignment, **options) -> BatchResult:
    options.setdefault("jobs", 1)
    options.setdefault("progress", False)
    return run_batch(source, assignment, out, BatchOptions(**options), grade=grade_by_content)


def test_the_row_survives_force_shards_and_their_merge(tmp_path: Path, lab05: Assignment) -> None:
    archive = canvas_zip(tmp_path / "canvas.zip", b"check-win", refused_bytes=60 * 1024**2)
    whole = tmp_path / "whole"
    first = batch(archive, whole, lab05)
    assert [(r.submission.student_id, r.failure) for r in first.records] == [("12345", None), ("23456", MESSAGE)]
    assert not any(r.grader_fault for r in first.records) and first.return_code == 0
    stored = records(whole)
    forced = batch(archive, whole, lab05, force=True)
    assert not any(r.reused for r in forced.records)
    assert [r.failure for r in forced.records] == [None, MESSAGE]
    assert set(records(whole)) == set(stored)
    kept = batch(archive, whole, lab05)
    assert all(r.reused for r in kept.records)

    shards = [tmp_path / f"shard{k}" for k in range(2)]
    for k, folder in enumerate(shards):
        batch(archive, folder, lab05, shard=Shard(k, 2))
    merged = merge_shards(tmp_path / "merged", shards, lab05)
    assert merged.complete and merged.return_code == 0, merged.problems
    assert (tmp_path / "merged" / "grades.csv").read_text() == (whole / "grades.csv").read_text()
    assert [r.failure for r in merged.records] == [None, MESSAGE]


def test_a_new_hand_in_replaces_the_refused_row(tmp_path: Path, lab05: Assignment) -> None:
    """The refused member's fingerprint is its name, size and CRC: another upload under the
    same name (here one that unpacks) is graded, and its copy is what is stored."""
    big = canvas_zip(tmp_path / "big.zip", b"check-win", refused_bytes=60 * 1024**2)
    out = tmp_path / "out"
    assert [r.failure for r in batch(big, out, lab05).records] == [None, MESSAGE]
    fixed = tmp_path / "fixed.zip"
    with zipfile.ZipFile(fixed, "w") as zf:
        zf.writestr(GRADED, b"check-win")
        zf.writestr(REFUSED, b"check-win check-draw")
    rerun = batch(fixed, out, lab05)
    assert [(r.reused, r.failure) for r in rerun.records] == [(True, None), (False, None)]
    assert list((out / "23456").glob("submitted.*")) == [out / "23456" / "submitted.ipynb"]


def test_a_student_with_another_file_is_graded_on_it_and_the_index_names_the_refused_one(
    tmp_path: Path, lab05: Assignment
) -> None:
    archive = tmp_path / "class.zip"
    with zipfile.ZipFile(archive, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("alice/lab05.ipynb", b"check-win")
        with zf.open("alice/big.ipynb", "w", force_zip64=True) as member:
            for _ in range(60):
                member.write(bytes(1 << 20))
    out = tmp_path / "out"
    [alice] = batch(archive, out, lab05).records
    assert (alice.submission.student_id, alice.submission.original_name, alice.failure) == (
        "alice",
        "lab05.ipynb",
        None,
    )
    note = f"Also handed in big.ipynb, which was {REASON}; graded lab05.ipynb."
    assert alice.submission.notes == (note,)
    assert note in html.unescape((out / "index.html").read_text(encoding="utf-8"))
