"""A student bundle carries the support modules its spec names, so that the installed assignment
loads, and no other file of the support folder."""

from __future__ import annotations

import shutil
from pathlib import Path

from grader.release.bundle import _assignment_wheel
from grader.spec.format_doc import spec_text
from grader.spec.support import SUPPORT_FOLDER
from tests.courses.support_course import COURSE


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
