"""Similar submissions in a batch: computed from the stored copies, so that a resumed run and
a sharded, merged run list exactly what an uninterrupted run lists (fake grading: fast)."""

from __future__ import annotations

import argparse
import csv
import io
import os
import re
import signal
import threading
from pathlib import Path

import pytest

from grader.batch.merge import merge_shards
from grader.batch.plan import BatchOptions, BatchResult, run_batch
from grader.batch.sharding import Shard
from grader.class_folder.layout import RESULT_FILE, SIMILARITY_FILE
from grader.cli import main
from grader.cli.batch import similarity_threshold
from grader.spec.loader import load_assignment
from grader.spec.model import Assignment
from tests.batch.fake_grading import grade_by_content
from tests.similarity.lab05_class import write_class

STUDENTS = ["alice", "bogdan", "chen", "dana", "erik", "gina"]


# The class is graded by worker processes (with a stand-in grading function).
pytestmark = pytest.mark.kernel


@pytest.fixture(scope="module")
def lab05() -> Assignment:
    return load_assignment("lab05")


def batch(source: Path, out: Path, assignment: Assignment, **options) -> BatchResult:
    options.setdefault("jobs", 2)
    options.setdefault("progress", False)
    return run_batch(source, assignment, out, BatchOptions(**options), grade=grade_by_content)


def section(index_html: str) -> str:
    """The "Similar submissions" section of a class index."""
    match = re.search(r'<section id="similar-submissions">.*?</section>', index_html, re.DOTALL)
    assert match, "no similar-submissions section"
    return match.group()


@pytest.fixture(scope="module")
def class_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_class(tmp_path_factory.mktemp("class"))


@pytest.fixture(scope="module")
def whole(class_folder: Path, lab05: Assignment, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("whole")
    result = batch(class_folder, out, lab05)
    assert [r.submission.student_id for r in result.graded] == STUDENTS
    assert f"Similarity:   {out / SIMILARITY_FILE}" in str(result)
    return out


def test_the_copied_pair_comes_first_and_the_template_against_the_handout(whole: Path) -> None:
    rows = list(csv.reader(io.StringIO((whole / SIMILARITY_FILE).read_text(encoding="utf-8"))))
    assert rows[0] == ["student_a", "student_b", "similarity"]
    assert rows[1][:2] == ["bogdan", "erik"] and float(rows[1][2]) >= 0.9
    assert rows[2:] == [["gina", "handout", "1.000"]]  # independent answers are not listed


def test_the_section_is_in_the_class_index_only(whole: Path) -> None:
    index = (whole / "index.html").read_text(encoding="utf-8")
    shown = section(index)
    assert "<mark>" in shown and shown.count('<details class="similar"') == 2
    assert "bogdan" in shown and "erik" in shown and "handout" in shown
    for student in STUDENTS:
        report = (whole / student / "report.html").read_text(encoding="utf-8")
        results = (whole / student / "results.json").read_text(encoding="utf-8")
        assert "similar" not in report.lower() and "similar" not in results.lower()  # not even its styles
        other = "bogdan" if student == "erik" else "erik"
        assert other not in report and other not in results


def test_a_resumed_batch_lists_what_an_uninterrupted_one_lists(whole: Path, lab05: Assignment, tmp_path: Path) -> None:
    source = write_class(tmp_path / "in", slow=("chen", "dana"))
    out = tmp_path / "out"
    timer = threading.Timer(3.0, os.kill, (os.getpid(), signal.SIGINT))  # grading chen and dana takes 4 s
    timer.start()
    try:
        first = batch(source, out, lab05, jobs=1)
    finally:
        timer.cancel()
    assert first.interrupted and len(first.records) < len(STUDENTS)
    done = {r.submission.student_id for r in first.records}
    second = batch(source, out, lab05, jobs=1)
    assert not second.interrupted and len(second.records) == len(STUDENTS)
    assert {r.submission.student_id for r in second.records if r.reused} == done
    assert (out / SIMILARITY_FILE).read_bytes() == (whole / SIMILARITY_FILE).read_bytes()
    assert section((out / "index.html").read_text()) == section((whole / "index.html").read_text())

    (out / "bogdan" / "submitted.ipynb").unlink()  # a stored result without its copy
    third = batch(source, out, lab05)
    assert all(r.reused for r in third.records)
    assert (out / "bogdan" / "submitted.ipynb").read_bytes() == (source / "bogdan.ipynb").read_bytes()
    assert (out / SIMILARITY_FILE).read_bytes() == (whole / SIMILARITY_FILE).read_bytes()
    assert section((out / "index.html").read_text()) == section((whole / "index.html").read_text())


def test_merged_shards_list_what_an_unsharded_run_lists(
    whole: Path, class_folder: Path, lab05: Assignment, tmp_path: Path
) -> None:
    shards = [tmp_path / f"shard{k}" for k in range(3)]
    for k, folder in enumerate(shards):
        batch(class_folder, folder, lab05, shard=Shard(k, 3))
    assert all(list(folder.glob(f"*/{RESULT_FILE}")) for folder in shards)
    result = merge_shards(tmp_path / "merged", shards)
    assert result.complete
    merged = tmp_path / "merged"
    assert (merged / SIMILARITY_FILE).read_bytes() == (whole / SIMILARITY_FILE).read_bytes()
    assert section((merged / "index.html").read_text()) == section((whole / "index.html").read_text())
    assert f"Similarity:   {merged / SIMILARITY_FILE}" in str(result)


def test_the_threshold_and_switching_it_off(whole: Path, class_folder: Path, lab05: Assignment, tmp_path: Path) -> None:
    out = tmp_path / "out"
    batch(class_folder, out, lab05, similarity_threshold=0.0)
    everything = (out / SIMILARITY_FILE).read_text().splitlines()
    assert len(everything) > len((whole / SIMILARITY_FILE).read_text().splitlines())
    batch(class_folder, out, lab05, similarity_threshold=None)  # nothing regraded: the class outputs are rebuilt
    assert not (out / SIMILARITY_FILE).exists()  # the earlier run's list does not linger
    assert 'id="similar-submissions"' not in (out / "index.html").read_text()
    merged = merge_shards(tmp_path / "merged", [whole], similarity_threshold=None)
    assert not (tmp_path / "merged" / SIMILARITY_FILE).exists() and "Similarity:" not in str(merged)


def test_the_option_takes_a_share_or_off(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert similarity_threshold("0.7") == 0.7 and similarity_threshold("1") == 1.0
    assert similarity_threshold("off") is None and similarity_threshold("OFF") is None
    for bad in ("1.1", "-0.1", "half", "nan"):
        with pytest.raises(argparse.ArgumentTypeError, match="from 0 to 1"):
            similarity_threshold(bad)
    with pytest.raises(SystemExit) as refused:
        main(["batch", str(tmp_path), "-a", "lab05", "--out", str(tmp_path / "out"), "--similarity-threshold", "2"])
    assert refused.value.code == 2 and "--similarity-threshold" in capsys.readouterr().err
