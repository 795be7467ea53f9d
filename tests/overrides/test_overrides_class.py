"""The instructor's decisions through the commands: `grader override`, then every rerun of
`grader batch` (resumed, --force, sharded and merged) keeps them in every output."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from grader.batch.merge import merge_shards
from grader.batch.sharding import Shard
from grader.cli import main
from grader.overrides.store import overrides_path
from grader.spec.loader import load_assignment
from grader.spec.model import Assignment
from tests.overrides.fake_class import AUTOMATIC, MANUAL, batch, write_class

pytestmark = pytest.mark.kernel  # grades with worker processes


@pytest.fixture(scope="module")
def depth_limits() -> Assignment:
    return load_assignment("depth-limits")


@pytest.fixture(scope="module")
def source(tmp_path_factory: pytest.TempPathFactory, depth_limits: Assignment) -> Path:
    return write_class(tmp_path_factory.mktemp("class"), depth_limits)


@pytest.fixture
def out(tmp_path: Path, source: Path, depth_limits: Assignment) -> Path:
    batch(source, tmp_path / "out", depth_limits)
    return tmp_path / "out"


def outputs(out: Path) -> dict[str, bytes]:
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}


def row(out: Path, student: str) -> dict[str, str]:
    header, *rows = (out / "grades.csv").read_text().splitlines()
    line = next(r for r in rows if r.startswith(f"{student},"))
    return dict(zip(header.split(","), line.split(",")))


def assert_decisions_shown(out: Path) -> None:
    assert row(out, "ana")[MANUAL] == "8" and row(out, "ana")["total"] == "108"
    assert row(out, "ben")[AUTOMATIC] == "4" and row(out, "ben")["adjustment"] == "-10"
    tests = {t["name"].split(" ")[0]: t for t in json.loads((out / "ben" / "results.json").read_text())["tests"]}
    assert tests["possible_actions"]["score"] == 4 and "regrade: accepted" in tests["possible_actions"]["output"]
    report = (out / "ben" / "report.html").read_text()
    assert "points set by the instructor" in report and "regrade: accepted" in report and "late" in report
    index = (out / "index.html").read_text()
    assert "marked 1 / 2" in index and 'class="check overridden"' in index


def decide(out: Path) -> None:
    assert main(["override", str(out), "ana", MANUAL, "8", "--comment", "clear and right"]) == 0
    assert main(["override", str(out), "ben", AUTOMATIC, "4", "--comment", "regrade: accepted"]) == 0
    assert main(["override", str(out), "ben", "--adjust", "-10", "--reason", "late by two days"]) == 0


def test_decisions_survive_every_rerun(
    out: Path, source: Path, depth_limits: Assignment, capsys: pytest.CaptureFixture[str]
) -> None:
    decide(out)
    assert "ben: score adjusted by -10 (late by two days)." in capsys.readouterr().out
    assert_decisions_shown(out)
    decided = overrides_path(out).read_text()
    result = batch(source, out, depth_limits)  # resumed: nothing to grade
    assert all(r.reused for r in result.records)
    assert_decisions_shown(out)
    batch(source, out, depth_limits, force=True)
    assert_decisions_shown(out)
    assert overrides_path(out).read_text() == decided
    stored = json.loads((out / "ben" / "submission_result.json").read_text())
    assert "adjustment" not in stored and all("instructor" not in c for c in stored["checks"])  # automatic only


def test_refused_decisions_change_nothing(out: Path, capsys: pytest.CaptureFixture[str]) -> None:
    decide(out)
    capsys.readouterr()
    before = outputs(out)
    for args, words in [
        (["zed", MANUAL, "1"], "no student 'zed'"),
        (["ana", "no-such-check", "1"], "has no check 'no-such-check'"),
        (["ana", MANUAL, "11"], "out of range 0..10"),
        (["ana", MANUAL, "-1"], "out of range"),
        (["ana", MANUAL, "eight"], "must be a number"),
        (["ana", "--adjust", "-3"], "needs a reason"),
    ]:
        assert main(["override", str(out), *args]) == 2, args
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and words in err, (args, err)
    assert outputs(out) == before


def test_a_malformed_file_stops_the_batch_before_it_writes(
    out: Path, source: Path, depth_limits: Assignment, capsys: pytest.CaptureFixture[str]
) -> None:
    overrides_path(out).write_text("[students.ana\n", encoding="utf-8")
    before = outputs(out)
    code = main(["batch", str(source), "-a", "depth-limits", "--out", str(out), "--force", "-q"])
    assert code == 2 and "overrides.toml: not valid TOML" in capsys.readouterr().err
    assert outputs(out) == before


def test_an_entry_that_no_longer_fits_is_reported_and_kept(out: Path, source: Path, depth_limits: Assignment) -> None:
    decide(out)
    text = overrides_path(out).read_text() + "\n[students.ana.checks.retired-check]\npoints = 2\n"
    overrides_path(out).write_text(text, encoding="utf-8")
    result = batch(source, out, depth_limits)
    assert "students.ana.checks.retired-check: depth-limits has no check 'retired-check'" in str(result)
    assert overrides_path(out).read_text() == text
    assert_decisions_shown(out)
    assert "retired-check" in (out / "index.html").read_text()


def test_merged_shards_carry_the_decisions_byte_for_byte(
    tmp_path: Path, source: Path, depth_limits: Assignment
) -> None:
    whole = tmp_path / "whole"
    batch(source, whole, depth_limits)
    decide(whole)
    batch(source, whole, depth_limits, force=True)  # the single run: graded with the decisions in place
    decided = overrides_path(whole).read_text()
    shards = [tmp_path / f"shard{k}" for k in range(2)]
    for k, folder in enumerate(shards):
        batch(source, folder, depth_limits, shard=Shard(k, 2))
    merged = tmp_path / "merged"
    merged.mkdir()
    overrides_path(merged).write_text(decided, encoding="utf-8")
    result = merge_shards(merged, shards)
    assert result.complete and not result.decision_problems
    assert_decisions_shown(merged)
    for name in ("grades.csv", "ana/results.json", "ben/results.json", "ana/report.html", "ben/report.html"):
        assert (merged / name).read_bytes() == (whole / name).read_bytes(), name
    shutil.rmtree(merged / "ben")  # and a merge of the merged folder's decisions stays in step
    assert merge_shards(merged, shards).complete
    assert (merged / "ben" / "report.html").read_bytes() == (whole / "ben" / "report.html").read_bytes()
