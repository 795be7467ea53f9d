"""overrides.toml: read into decisions, fitted to the class, applied to a result; and the
entries that no longer fit named and kept."""

from __future__ import annotations

from pathlib import Path

import pytest

from grader.overrides.apply import apply_decisions, fit_decisions
from grader.overrides.model import MalformedOverrides
from grader.overrides.store import Author, read_decisions, record_adjustment, record_check, student_version
from grader.results import CheckStatus, SubmissionResult
from grader.spec.loader import load_assignment
from grader.spec.model import Assignment
from tests.overrides.fake_class import AUTOMATIC, MANUAL, grade_with_manual_items, write_class

HAND_WRITTEN = """\
# decided in the office hour
[students.ana.checks.observation]
points = 9   # generous
comment = "Clear."

[students.ana.checks.removed-check]
points = 1

[students.ben.checks.expand]
points = 12

[students.ben.checks.terminal-test]
points = "ten"

[students.ben.adjustment]
points = -5
reason = "late"

[students.zed.checks.expand]
points = 1
"""


@pytest.fixture(scope="module")
def depth_limits() -> Assignment:
    return load_assignment("depth-limits")


@pytest.fixture(scope="module")
def results(depth_limits: Assignment, tmp_path_factory: pytest.TempPathFactory) -> dict[str, SubmissionResult]:
    folder = write_class(tmp_path_factory.mktemp("class"), depth_limits)
    return {p.stem: grade_with_manual_items(p, depth_limits, None) for p in sorted(folder.glob("*.ipynb"))}  # type: ignore[arg-type]


def test_entries_that_do_not_fit_are_named_and_the_rest_applies(
    tmp_path: Path, depth_limits: Assignment, results: dict[str, SubmissionResult]
) -> None:
    path = tmp_path / "overrides.toml"
    path.write_text(HAND_WRITTEN, encoding="utf-8")
    fitted = fit_decisions(read_decisions(path), depth_limits, set(results))
    problems = sorted(str(p) for p in fitted.problems)
    assert problems == [
        "students.ana.checks.removed-check: depth-limits has no check 'removed-check' (removed from the spec?) "
        "(kept in the file, not applied)",
        "students.ben.checks.expand: points 12 out of range 0..10 for 'expand' (kept in the file, not applied)",
        "students.ben.checks.terminal-test: points must be a number, not 'ten' (kept in the file, not applied)",
        "students.zed: no such student in this class (kept in the file, not applied)",
    ]
    ana = apply_decisions(results["ana"], fitted.of("ana"), depth_limits)
    assert ana.check(MANUAL).score == 9 and ana.check(MANUAL).max_score == 10 and ana.check(MANUAL).marked
    assert ana.score == results["ana"].score + 9 and ana.max_score == results["ana"].max_score + 10
    ben = apply_decisions(results["ben"], fitted.of("ben"), depth_limits)
    assert ben.score == max(0, results["ben"].score - 5) and ben.adjustment is not None
    assert ben.check("expand").instructor is None  # out of range: not applied


def test_a_decision_keeps_the_automatic_verdict(
    depth_limits: Assignment, results: dict[str, SubmissionResult], tmp_path: Path
) -> None:
    path = tmp_path / "overrides.toml"
    record_check(path, "ben", AUTOMATIC, 4, "regrade: accepted", Author.now("ta"))
    fitted = fit_decisions(read_decisions(path), depth_limits)
    before = results["ben"].check(AUTOMATIC)
    after = apply_decisions(results["ben"], fitted.of("ben"), depth_limits).check(AUTOMATIC)
    assert after.score == 4 and after.overridden and after.status == before.status == CheckStatus.PASSED
    assert after.instructor is not None and after.instructor.automatic_score == before.score
    assert after.instructor.by == "ta" and after.instructor.at


def test_writing_keeps_hand_edits_and_comments(tmp_path: Path) -> None:
    path = tmp_path / "overrides.toml"
    path.write_text(HAND_WRITTEN, encoding="utf-8")
    record_check(path, "ana", "expand", 5, "", Author.now("ta"))
    record_adjustment(path, "ana", 2, "bonus for the write-up", Author.now("ta"))
    text = path.read_text()
    lines = iter(text.splitlines())
    assert all(line in lines for line in HAND_WRITTEN.splitlines())  # every hand-written line, in order
    assert "# generous" in text and 'points = "ten"' in text and "[students.zed.checks.expand]" in text
    decisions = read_decisions(path)
    ana = decisions.of("ana")
    assert ana.checks["expand"].points == 5
    assert ana.adjustment is not None and ana.adjustment.points == 2


def test_clearing_removes_only_that_entry(tmp_path: Path) -> None:
    path = tmp_path / "overrides.toml"
    record_check(path, "ana", MANUAL, 7, "ok", Author.now())
    record_check(path, "ana", "expand", 3, "", Author.now())
    record_check(path, "ana", MANUAL, None, "", Author.now())
    assert list(read_decisions(path).of("ana").checks) == ["expand"]
    record_check(path, "ana", "expand", None, "", Author.now())
    assert "ana" not in read_decisions(path).students


def test_the_version_changes_with_the_students_entries_only(tmp_path: Path) -> None:
    path = tmp_path / "overrides.toml"
    empty = student_version(path, "ana")
    record_check(path, "ben", MANUAL, 7, "", Author.now())
    assert student_version(path, "ana") == empty
    record_check(path, "ana", MANUAL, 7, "", Author.now())
    assert student_version(path, "ana") != empty


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("[students.ana\n", "not valid TOML"),
        ("students = 3\n", "'students' must be a table"),
        ("[grades]\nana = 3\n", "unknown top-level entry 'grades'"),
    ],
)
def test_a_malformed_file_is_refused_as_a_whole(tmp_path: Path, text: str, words: str) -> None:
    path = tmp_path / "overrides.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(MalformedOverrides, match=words):
        read_decisions(path)
    with pytest.raises(MalformedOverrides):
        record_check(path, "ana", MANUAL, 1, "", Author.now())
    assert path.read_text() == text


def test_no_file_means_no_decisions(tmp_path: Path) -> None:
    assert read_decisions(tmp_path / "overrides.toml").students == {}
