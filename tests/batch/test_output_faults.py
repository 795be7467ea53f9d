"""Faults of the output folder, with the fake grade function: another batch holding it, a
disk too full to take the outputs. Nothing is half-written and a rerun finishes the class."""

from __future__ import annotations

import os
import socket
from pathlib import Path

import pytest

from grader.batch.merge import merge_shards
from grader.batch.output_lock import LOCK_FILE, OutputFolderBusy, output_folder_lock
from grader.batch.sharding import Shard
from grader.batch.write_failure import OutputsNotWritten
from grader.class_folder.layout import RESULT_FILE
from grader.spec.loader import load_assignment
from grader.spec.model import Assignment
from tests.batch.small_filesystem import fill
from tests.batch.test_batch import batch, final_outputs, make_class, regraded

pytestmark = pytest.mark.kernel

HOLDER = f"pid {os.getpid()} on {socket.gethostname()}, started "
"""How a lock this process holds is described to a writer it refuses."""


@pytest.fixture(scope="module")
def lab05() -> Assignment:
    return load_assignment("lab05")


def test_a_batch_on_a_folder_another_batch_holds_is_refused_and_writes_nothing(
    tmp_path: Path, lab05: Assignment
) -> None:
    source = make_class(tmp_path / "in", {"alice.py": "check-win", "bob.py": "check-draw"})
    out = tmp_path / "out"
    with output_folder_lock(out):
        with pytest.raises(OutputFolderBusy, match=f"is being written by grader batch \\({HOLDER}"):
            batch(source, out, lab05)
        assert [p.name for p in out.iterdir()] == [LOCK_FILE]
    assert (out / LOCK_FILE).read_text() == ""  # released with the block, naming nobody
    result = batch(source, out, lab05)
    assert result.return_code == 0 and len(result.graded) == 2
    assert (out / LOCK_FILE).read_text() == ""


def test_a_merge_into_a_folder_a_batch_holds_is_refused_and_writes_nothing(tmp_path: Path, lab05: Assignment) -> None:
    source = make_class(tmp_path / "in", {"alice.py": "check-win", "bob.py": "check-draw"})
    shards = [batch(source, tmp_path / f"shard{k}", lab05, shard=Shard(k, 2)).out_dir for k in range(2)]
    out = tmp_path / "merged"
    with output_folder_lock(out):
        with pytest.raises(OutputFolderBusy, match=f"is being written by grader batch \\({HOLDER}"):
            merge_shards(out, shards)
        assert [p.name for p in out.iterdir()] == [LOCK_FILE]
    merged = merge_shards(out, shards)
    assert merged.complete and len(merged.records) == 2


def test_a_disk_full_before_anything_is_written_stops_the_batch_with_the_reason(
    tmp_path: Path, small_disk: Path, lab05: Assignment
) -> None:
    source = make_class(tmp_path / "in", {"alice.py": "check-win"})
    fill(small_disk / "filler")
    with pytest.raises(OutputsNotWritten, match="No space left on device \\(the disk is full\\)"):
        batch(source, small_disk / "out", lab05)
    assert not list(small_disk.rglob("*.tmp"))


def test_a_disk_full_midway_keeps_the_class_files_whole_and_a_rerun_adds_the_rest(
    tmp_path: Path, small_disk: Path, lab05: Assignment
) -> None:
    source = make_class(tmp_path / "in", {"alice.py": "check-win", "bob.py": "check-draw"})
    out = small_disk / "out"
    assert batch(source, out, lab05).return_code == 0
    gradebook, index = (out / "grades.csv").read_bytes(), (out / "index.html").read_bytes()
    make_class(source, {"carol.py": "check-win check-draw minimax-value"})
    fill(small_disk / "filler")

    stopped = batch(source, out, lab05)
    assert stopped.return_code == 1 and stopped.not_written is not None and stopped.not_written.full
    summary = str(stopped)
    assert summary.startswith("Stopped: 2 of 3 submission(s)")
    assert f"Stopped: cannot write into {out}: No space left on device (the disk is full)." in summary
    assert f"free some space on the disk holding {out}, then run the same command again" in summary
    assert [r.submission.student_id for r in stopped.records] == ["alice", "bob"]
    assert not (out / "carol" / RESULT_FILE).exists()  # graded again by the next run
    assert (out / "grades.csv").read_bytes() == gradebook and (out / "index.html").read_bytes() == index
    assert not list(out.rglob("*.tmp"))

    (small_disk / "filler").unlink()
    finished = batch(source, out, lab05)
    assert finished.return_code == 0 and regraded(finished) == {"carol"}
    assert final_outputs(out) == final_outputs(batch(source, tmp_path / "undisturbed", lab05).out_dir)
