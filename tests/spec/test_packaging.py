"""A plain (non-editable) install carries the built-in assignments and grades with them, and
holds nothing a student must not see: no solution, no hidden check's test cases."""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
import setuptools

import grader.cli
from grader.cli import main
from grader.spec.loader import load_assignment
from tests.checks.in_process import STUDENT_CELL, solution_definitions
from tests.fewer_games import copy_with_fewer_games

pytestmark = pytest.mark.kernel

REPO = Path(__file__).resolve().parents[2]
SOURCES = ("pyproject.toml", "setup.py", "README.md", "grader", "reference", "assignments")
IGNORED = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info", "build")


def _builds_wheels() -> bool:
    """Whether pip can build a wheel without build isolation (offline) here: setuptools
    builds wheels itself since 70.1, older releases need the `wheel` package."""
    version = tuple(int(p) for p in setuptools.__version__.split(".")[:2] if p.isdigit())
    return version >= (70, 1) or importlib.util.find_spec("wheel") is not None


def _install(source: Path, target: Path) -> None:
    """Install ``source`` into ``target`` as a non-editable install lays it out, offline."""
    if _builds_wheels():
        command = [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation"]
        subprocess.run([*command, "--no-index", "--target", str(target), str(source)], check=True)
        return
    # What a wheel holds is what the build step puts in build/lib: run it, and copy that.
    build = source / "build"
    subprocess.run([sys.executable, "setup.py", "--quiet", "build", "--build-base", str(build)], cwd=source, check=True)
    shutil.copytree(build / "lib", target)


def _copy_sources(source: Path) -> None:
    for name in SOURCES:
        if (REPO / name).is_dir():
            shutil.copytree(REPO / name, source / name, ignore=IGNORED)
        else:
            source.mkdir(exist_ok=True)
            shutil.copy2(REPO / name, source / name)


def _wheel_contents(source: Path, unpacked: Path) -> Path:
    """What the wheel built from ``source`` holds, unpacked into ``unpacked``: the wheel itself
    where pip can build one offline, else the build step's ``build/lib``, which is what a wheel
    is made of."""
    if _builds_wheels():
        dist = source / "dist"
        command = [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation", "--no-index"]
        subprocess.run([*command, "--wheel-dir", str(dist), str(source)], check=True)
        (wheel,) = dist.glob("*.whl")
        with zipfile.ZipFile(wheel) as archive:
            archive.extractall(unpacked)
        return unpacked
    build = source / "build"
    subprocess.run([sys.executable, "setup.py", "--quiet", "build", "--build-base", str(build)], cwd=source, check=True)
    return build / "lib"


@pytest.mark.slow
def test_a_plain_install_lists_and_grades_the_builtin_assignments(tmp_path: Path) -> None:
    source = tmp_path / "source"
    _copy_sources(source)
    target = tmp_path / "installed"
    _install(source, target)
    shutil.rmtree(source)  # nothing may be read from the sources any more
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {**os.environ, "PYTHONPATH": str(target)}

    def grader_cli(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "grader", *args], cwd=elsewhere, env=env, capture_output=True, text=True, timeout=300
        )

    where = subprocess.run(
        [sys.executable, "-c", "import grader; print(grader.__file__)"],
        cwd=elsewhere,
        env=env,
        capture_output=True,
        text=True,
    )
    assert Path(where.stdout.strip()).is_relative_to(target)
    assert (target / "grader" / "review" / "templates" / "student.html.j2").is_file()  # the review pages' too
    listed = grader_cli("assignments")
    assert listed.returncode == 0, listed.stderr
    ids = [line.split()[0] for line in listed.stdout.splitlines() if line and not line.startswith(" ")]
    assert ids == ["alphabeta-challenges", "connect4", "depth-limits", "experiment04", "lab05", "minimax-enhanced"]
    assert "BROKEN" not in listed.stdout

    # the solution stays in the repository: a student may install this package
    assert not (target / "grader" / "assignments" / "lab05" / "solution.ipynb").exists()
    # a copy that plays a few games of the experiment, not 200 (`tests.fewer_games`)
    solution = copy_with_fewer_games(REPO / "assignments" / "lab05" / "solution.ipynb", elsewhere / "solution.ipynb")
    graded = grader_cli("grade", str(solution), "--assignment", "lab05")
    assert graded.returncode == 0, graded.stderr
    score = next(line for line in graded.stdout.splitlines() if line.startswith("Score:"))
    got, _, full = score.removeprefix("Score:").partition("/")
    assert float(got) == float(full) > 0, graded.stdout


HIDDEN_POSITIONS = ("X.O.....X", "O.X.X...O")
"""Test cases of a check made hidden in a copy of lab05: found nowhere else in the sources."""


@pytest.mark.slow
def test_a_students_install_holds_no_solution_and_no_hidden_test_case(tmp_path: Path) -> None:
    source = tmp_path / "source"
    _copy_sources(source)
    spec = source / "assignments" / "lab05" / "assignment.toml"
    text = spec.read_text(encoding="utf-8")
    hidden = text.replace(
        'positions = ["X........", "X...O...."]',
        f'visibility = "hidden"\npositions = ["{HIDDEN_POSITIONS[0]}", "{HIDDEN_POSITIONS[1]}"]',
    )
    assert hidden != text
    spec.write_text(hidden, encoding="utf-8")
    assert load_assignment(spec).checks[6].hidden  # the instructor's copy grades it

    shipped = _wheel_contents(source, tmp_path / "wheel")
    files = [path for path in shipped.rglob("*") if path.is_file()]
    assert (shipped / "grader" / "assignments" / "lab05" / "assignment.toml") in files
    assert [path for path in files if path.name.startswith("solution.")] == []
    for path in files:
        content = path.read_bytes()
        for position in HIDDEN_POSITIONS:
            assert position.encode() not in content, f"{path} holds a hidden test case"
    students_lab05 = load_assignment(shipped / "grader" / "assignments" / "lab05")
    assert "node-reduction" not in [c.id for c in students_lab05.checks]
    named = (shipped / "grader" / "assignments" / "lab05" / "hidden_checks.toml").read_text(encoding="utf-8")
    assert 'title = "alpha-beta visits fewer nodes than minimax"' in named

    # a student's notebook checks with it, and is told a hidden check is still to come
    lab05 = load_assignment("lab05")
    student = (
        "import sys\n"
        f"exec(compile({solution_definitions(lab05)!r}, {STUDENT_CELL!r}, 'exec'))\n"
        "from grader import notebook\n"
        "print(repr(notebook.check('lab05')))\n"
    )
    env = {**os.environ, "PYTHONPATH": str(shipped)}
    shown = subprocess.run(
        [sys.executable, "-c", student], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300
    )
    assert shown.returncode == 0, shown.stderr
    assert "All 8 public checks passed. 1 hidden check(s) run only when the assignment is graded" in shown.stdout
    assert "HIDDEN   alpha-beta visits fewer nodes than minimax" in shown.stdout


def test_nothing_to_list_is_a_failure(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(grader.cli, "list_assignments", lambda: [])
    assert main(["assignments"]) != 0
    assert "no assignments" in capsys.readouterr().err
