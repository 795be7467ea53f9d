"""A plain (non-editable) install carries the built-in assignments and grades with them."""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import setuptools

import grader.cli
from grader.cli import main

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


@pytest.mark.slow
def test_a_plain_install_lists_and_grades_the_builtin_assignments(tmp_path: Path) -> None:
    source = tmp_path / "source"
    for name in SOURCES:
        if (REPO / name).is_dir():
            shutil.copytree(REPO / name, source / name, ignore=IGNORED)
        else:
            source.mkdir(exist_ok=True)
            shutil.copy2(REPO / name, source / name)
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
    assert ids == ["alphabeta-challenges", "depth-limits", "experiment04", "lab05", "minimax-enhanced"]
    assert "BROKEN" not in listed.stdout

    solution = target / "grader" / "assignments" / "lab05" / "solution.ipynb"
    graded = grader_cli("grade", str(solution), "--assignment", "lab05")
    assert graded.returncode == 0, graded.stderr
    score = next(line for line in graded.stdout.splitlines() if line.startswith("Score:"))
    got, _, full = score.removeprefix("Score:").partition("/")
    assert float(got) == float(full) > 0, graded.stdout


def test_nothing_to_list_is_a_failure(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(grader.cli, "list_assignments", lambda: [])
    assert main(["assignments"]) != 0
    assert "no assignments" in capsys.readouterr().err
