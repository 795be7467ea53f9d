"""A student bundle carries the support modules its spec names, so that the installed assignment
loads, and no other file of the support folder; a master that imports the course's module from
beside it releases with that module in the assignment folder and beside the student's version."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from grader.release.bundle import _assignment_wheel
from grader.release.release import ReleaseRequest, release_assignment
from grader.spec.format_doc import spec_text
from grader.spec.loader import load_assignment
from grader.spec.support import SUPPORT_FOLDER
from tests.courses.support_course import COURSE
from tests.release.marking import marked_source


def test_the_assignment_wheel_holds_the_support_modules_and_no_other_file_of_the_folder(tmp_path: Path) -> None:
    assignment = {"id": "toy", "title": "Toy", "encoding": "flat-space", "support": ["toygame.py"]}
    (tmp_path / "assignment.toml").write_text(
        spec_text(assignment, {"id": "clean", "kind": "runs-cleanly", "points": 1}), encoding="utf-8"
    )
    (tmp_path / SUPPORT_FOLDER).mkdir()
    shutil.copyfile(COURSE / "toygame.py", tmp_path / SUPPORT_FOLDER / "toygame.py")
    (tmp_path / SUPPORT_FOLDER / "answers.py").write_text("SECRET = 1\n", encoding="utf-8")  # not named: kept back
    shutil.copyfile(COURSE / "solution.py", tmp_path / "solution.py")
    wheel = _assignment_wheel(tmp_path, "toy", "gamesearch-assignment-toy", "1", "0")
    package = "gamesearch_assignment_toy"
    assert wheel.files[f"{package}/support/toygame.py"] == (COURSE / "toygame.py").read_bytes()
    assert sorted(wheel.files) == [
        f"{package}/__init__.py",
        f"{package}/assignment.toml",
        f"{package}/support/toygame.py",
    ]


@pytest.mark.kernel
@pytest.mark.slow
def test_a_master_beside_its_support_module_releases_with_it_twice(tmp_path: Path) -> None:
    course = tmp_path / "course"
    course.mkdir()
    master = course / "toy-master.py"
    master.write_text(
        marked_source((COURSE / "solution.py").read_text(encoding="utf-8"), {"minimax", "best_move"}, "otter"),
        encoding="utf-8",
    )
    shutil.copyfile(COURSE / "toygame.py", course / "toygame.py")
    out = tmp_path / "release"
    for _ in range(2):  # the second release merges init's new folder into the first
        report = release_assignment(ReleaseRequest(master, out))
        assert report.return_code == 0, str(report)
        assert report.validation is not None and report.validation.ok, str(report.validation)
        assignment = load_assignment(out / "toy")
        assert [module.file_name for module in assignment.support] == ["toygame.py"]
        assert (out / "toy" / SUPPORT_FOLDER / "toygame.py").read_bytes() == (COURSE / "toygame.py").read_bytes()
        assert (out / "student" / "toygame.py").read_bytes() == (COURSE / "toygame.py").read_bytes()
