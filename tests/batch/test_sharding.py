"""Splitting a class between the jobs of an array: by a stable hash of the student id."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from grader.batch.sharding import Shard, ShardError, ShardManifest, shard_of
from grader.submission.inputs import InputLayout, SkippedFile, StudentSubmission, SubmissionSet


@pytest.mark.parametrize(("text", "shard"), [("0/4", Shard(0, 4)), (" 3 / 4 ", Shard(3, 4)), ("0/1", Shard(0, 1))])
def test_parse(text: str, shard: Shard) -> None:
    assert Shard.parse(text) == shard and Shard.parse(str(shard)) == shard


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("4/4", "between 0 and 3"),
        ("1/0", "at least 1"),
        ("a/b", "expected K/N"),
        ("-1/3", "expected K/N"),
        ("2", "expected K/N"),
    ],
)
def test_bad_shards_are_refused_with_a_reason(text: str, problem: str) -> None:
    with pytest.raises(ShardError, match=problem):
        Shard.parse(text)


def test_the_split_is_the_same_on_every_machine() -> None:
    # SHA-256 of the id, not Python's per-process salted hash(): pinned values.
    assert [shard_of(s, 4) for s in ("alice", "bob", "12345", "Ünïcode name")] == [3, 2, 2, 2]


@pytest.mark.parametrize("count", [1, 2, 3, 5])
def test_every_student_is_in_exactly_one_shard_and_shards_are_balanced(count: int) -> None:
    students = [f"student{n:04d}" for n in range(600)]
    owners = Counter(k for s in students for k in range(count) if Shard(k, count).owns(s))
    assert sum(owners.values()) == len(students)
    assert all(owners[k] > 0.75 * len(students) / count for k in range(count))


def test_select_keeps_the_shard_s_students_and_every_skipped_file() -> None:
    subs = tuple(StudentSubmission(s, Path(f"{s}.ipynb"), f"{s}.ipynb") for s in ("alice", "bob", "carol", "dave"))
    found = SubmissionSet(InputLayout.FLAT, subs, (SkippedFile("notes.txt", "not a notebook"),))
    parts = [Shard(k, 2).select(found) for k in range(2)]
    assert sorted(s.student_id for p in parts for s in p.submissions) == ["alice", "bob", "carol", "dave"]
    assert all(p.skipped == found.skipped and p.layout is InputLayout.FLAT for p in parts)


def test_manifest_round_trips(tmp_path: Path) -> None:
    manifest = ShardManifest(Shard(1, 3), "lab05", ("a", "b"), (("x.txt", "not a notebook"),), complete=False)
    (tmp_path / "shard.json").write_text(manifest.to_json())
    assert ShardManifest.read(tmp_path) == manifest
    (tmp_path / "shard.json").write_text("{")
    assert ShardManifest.read(tmp_path) is None
