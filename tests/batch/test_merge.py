"""Sharded runs merged equal an unsharded run (with the fake grader: fast)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from grader.batch.merge import MergeError, merge_shards
from grader.batch.plan import BatchOptions, run_batch
from grader.batch.sharding import Shard
from grader.cli import main
from grader.spec.loader import load_assignment
from grader.spec.model import Assignment
from tests.batch.fake_grading import grade_by_content

pytestmark = pytest.mark.kernel

SHARDS = 3


@pytest.fixture(scope="module")
def lab05() -> Assignment:
    return load_assignment("lab05")


@pytest.fixture(scope="module")
def class_folder(tmp_path_factory: pytest.TempPathFactory, lab05: Assignment) -> Path:
    folder = tmp_path_factory.mktemp("class")
    ids = [c.id for c in lab05.checks]
    for n in range(12):
        text = "CRASH" if n == 5 else "UNREADABLE" if n == 7 else " ".join(ids[: n % len(ids)])
        (folder / f"student{n:02d}.py").write_text(text)
    (folder / "student12").mkdir()
    (folder / "student12" / "lab05.py").write_text(" ".join(ids))
    (folder / "student12" / "draft.py").write_text("")  # a second file: left out, and listed as such
    return folder


def grade(source: Path, out: Path, assignment: Assignment, shard: Shard | None = None) -> None:
    run_batch(source, assignment, out, BatchOptions(jobs=2, progress=False, shard=shard), grade=grade_by_content)


@pytest.fixture(scope="module")
def whole(class_folder: Path, lab05: Assignment, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("whole")
    grade(class_folder, out, lab05)
    return out


@pytest.fixture(scope="module")
def shards(class_folder: Path, lab05: Assignment, tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    folders = [tmp_path_factory.mktemp(f"shard{k}") for k in range(SHARDS)]
    for k, folder in enumerate(folders):
        grade(class_folder, folder, lab05, Shard(k, SHARDS))
    return folders


def student_files(out: Path) -> dict[str, bytes]:
    return {f"{p.parent.name}/{p.name}": p.read_bytes() for p in sorted(out.glob("*/results.json"))}


def test_merged_shards_equal_the_unsharded_run(whole: Path, shards: list[Path], tmp_path: Path) -> None:
    counts = [len(list(s.glob("*/submission_result.json"))) for s in shards]
    assert sum(counts) == 13 and all(counts)
    result = merge_shards(tmp_path / "merged", shards)
    assert result.complete and result.return_code == 1  # student05's CRASH is a grader failure
    assert (tmp_path / "merged" / "grades.csv").read_bytes() == (whole / "grades.csv").read_bytes()
    assert student_files(tmp_path / "merged") == student_files(whole)
    index = (tmp_path / "merged" / "index.html").read_text()
    assert index.count("draft.py") == (whole / "index.html").read_text().count("draft.py") > 0
    assert "Merged 13 student(s): 11 graded, 2 could not be graded." in str(result)


def test_a_missing_shard_makes_the_merge_incomplete(shards: list[Path], tmp_path: Path) -> None:
    result = merge_shards(tmp_path / "merged", shards[:1] + shards[2:])
    assert not result.complete and result.return_code == 1
    assert f"shard 1/{SHARDS} is missing" in str(result)
    assert "student(s) without a result" not in str(result)  # each shard lists only its own students


def test_an_interrupted_shard_is_reported(shards: list[Path], tmp_path: Path) -> None:
    copy = tmp_path / "copy"
    for k, shard in enumerate(shards):
        target = copy / str(k)
        target.mkdir(parents=True)
        for path in shard.rglob("*"):
            if path.is_file():
                (target / path.relative_to(shard)).parent.mkdir(parents=True, exist_ok=True)
                (target / path.relative_to(shard)).write_bytes(path.read_bytes())
    manifest = json.loads((copy / "1" / "shard.json").read_text())
    manifest["complete"] = False
    (copy / "1" / "shard.json").write_text(json.dumps(manifest))
    victim = next((copy / "1").glob("*/submission_result.json"))
    victim.unlink()
    result = merge_shards(tmp_path / "merged", [copy / str(k) for k in range(SHARDS)])
    assert f"shard 1/{SHARDS} was interrupted" in str(result)
    assert "1 student(s) without a result: " in str(result)


def test_the_same_student_in_two_shards_is_refused(shards: list[Path], whole: Path, tmp_path: Path) -> None:
    with pytest.raises(MergeError, match="is in both") as refused:
        merge_shards(tmp_path / "merged", [whole, shards[0]])
    assert f"{whole} and {shards[0]}" in str(refused.value)


def test_merge_command_line(shards: list[Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["merge", str(tmp_path / "merged"), *map(str, shards)]) == 1  # complete, but a grader failure
    assert "Gradebook:" in capsys.readouterr().out
    assert main(["merge", str(tmp_path / "merged"), str(tmp_path / "nowhere")]) == 2
    assert "no such folder" in capsys.readouterr().err


def test_batch_refuses_a_bad_shard(class_folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["batch", str(class_folder), "-a", "lab05", "--out", str(tmp_path), "--shard", "3/3"]) == 2
    assert "between 0 and 2" in capsys.readouterr().err
