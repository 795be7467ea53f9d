"""A student bundle installed into a fresh virtual environment: it holds no solution and none of
a hidden check's test cases, and the in-notebook check finds the assignment by its id and runs
its public checks in a Jupyter kernel there.

The wheels are installed offline (``--no-index --no-deps``); the grader's dependencies come from
this environment's site-packages, added to the new one's path by a ``.pth`` line after pip has
run (pip never sees them, so it cannot touch this environment's own copy of the grader)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import sysconfig
import textwrap
import time
from pathlib import Path

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_notebook

from grader.notebook.self_check import RUN_JUDGED_KINDS
from grader.release.bundle import write_bundle
from grader.spec.loader import BUILTIN_ASSIGNMENTS, load_assignment
from tests.checks.in_process import solution_definitions

pytestmark = [pytest.mark.kernel, pytest.mark.slow]

HIDDEN_POSITIONS = ("X.O.....X", "O.X.X...O")
"""Test cases of a check made hidden in a copy of lab05: found nowhere else in the sources."""
HIDDEN_EXPECTED = "the scripted game ends in a Q-tie"
"""A hidden check's expected printed line, as unlikely anywhere else."""

HIDDEN_CHECKS = f"""
# The hidden checks test {HIDDEN_POSITIONS[0]} too: this comment must not reach students.
[[checks]]
id = "node-reduction-hidden"
title = "alpha-beta visits fewer nodes than minimax, on positions kept secret"
kind = "node-counts"
points = 10
visibility = "hidden"
minimax_call = "minimax(board, 0, is_max)"
alphabeta_call = "minimaxAB(board, 0, is_max, alpha, beta)"
positions = ["{HIDDEN_POSITIONS[0]}", "{HIDDEN_POSITIONS[1]}"]
move_order = "any"

[[checks]]
id = "printed-hidden"
title = "the game's last line"
kind = "printed-sequence"
points = 5
visibility = "hidden"
pattern = "(.*tie.*)"
expected = ["{HIDDEN_EXPECTED}"]
"""


def _lab05_with_hidden_checks(folder: Path) -> Path:
    shutil.copytree(BUILTIN_ASSIGNMENTS / "lab05", folder)
    spec = folder / "assignment.toml"
    spec.write_text(spec.read_text(encoding="utf-8") + HIDDEN_CHECKS, encoding="utf-8")
    (folder / "marking-notes.md").write_text(f"watch {HIDDEN_POSITIONS[1]}\n", encoding="utf-8")  # the instructor's
    hidden = [c.id for c in load_assignment(folder).checks if c.hidden]
    assert hidden == ["node-reduction-hidden", "printed-hidden"]  # the instructor's copy grades them
    return folder


def _venv(path: Path) -> Path:
    subprocess.run([sys.executable, "-m", "venv", str(path)], check=True, timeout=120)
    return path / "bin" / "python"


def _student_notebook(path: Path) -> Path:
    definitions = solution_definitions(load_assignment("lab05"))
    cells = [
        new_code_cell("import grader\nprint(grader.__file__)"),
        new_code_cell(definitions),
        new_code_cell('from grader import notebook\nnotebook.check("lab05")'),
    ]
    nbformat.write(new_notebook(cells=cells), path)
    return path


RUN_NOTEBOOK = textwrap.dedent(
    """
    import sys, nbformat
    from nbclient import NotebookClient
    notebook = nbformat.read(sys.argv[1], as_version=4)
    NotebookClient(notebook, kernel_name="python3", timeout=240).execute()
    nbformat.write(notebook, sys.argv[1])
    """
)


def test_an_installed_bundle_holds_nothing_hidden_and_checks_a_notebook_in_a_kernel(tmp_path: Path) -> None:
    folder = _lab05_with_hidden_checks(tmp_path / "lab05")
    bundle = write_bundle(folder, "lab05", "1", tmp_path / "bundle")
    started = time.monotonic()
    python = _venv(tmp_path / "venv")
    wheels = [str(bundle.grader_wheel), str(bundle.assignment_wheel)]
    install = [str(python), "-m", "pip", "install", "--quiet", "--no-deps", "--no-index", *wheels]
    subprocess.run(install, check=True, timeout=120)
    installed_in = tmp_path / "venv" / "lib" / f"python{sys.version_info[0]}.{sys.version_info[1]}" / "site-packages"
    installed = [path for path in installed_in.rglob("*") if path.is_file()]
    install_seconds = time.monotonic() - started

    # nothing hidden: no solution, no hidden test case, position or expected value, not even in a comment
    assert [path for path in installed if path.name.startswith("solution.")] == []
    assert not (installed_in / "grader" / "assignments").exists()  # the built-ins stay with their graders
    for path in installed:
        content = path.read_bytes()
        for secret in (*HIDDEN_POSITIONS, HIDDEN_EXPECTED):
            assert secret.encode() not in content, f"{path} holds {secret!r}"
    named = (installed_in / "gamesearch_assignment_lab05" / "hidden_checks.toml").read_text(encoding="utf-8")
    assert 'title = "the game\'s last line"' in named

    # the grader's dependencies, from this environment, after pip has run
    (installed_in / "dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8")
    kernels = tmp_path / "jupyter" / "kernels" / "python3"
    kernels.mkdir(parents=True)
    spec = {"argv": [str(python), "-m", "ipykernel_launcher", "-f", "{connection_file}"], "language": "python"}
    (kernels / "kernel.json").write_text(json.dumps(spec | {"display_name": "bundle"}), encoding="utf-8")
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "JUPYTER_PATH": str(tmp_path / "jupyter")}
    env["JUPYTER_DATA_DIR"] = str(tmp_path / "jupyter-data")
    student_folder = tmp_path / "student"  # not beside the instructor's folder lab05/, which a path would name
    student_folder.mkdir()

    listed = subprocess.run(
        [str(tmp_path / "venv" / "bin" / "grader"), "assignments"],
        cwd=student_folder,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert listed.returncode == 0, listed.stderr
    public = [c for c in load_assignment(BUILTIN_ASSIGNMENTS / "lab05").checks if not c.hidden]
    assert listed.stdout.split()[0] == "lab05" and f"{len(public)} checks" in listed.stdout, listed.stdout

    notebook = _student_notebook(student_folder / "student.ipynb")
    ran = subprocess.run(
        [str(python), "-c", RUN_NOTEBOOK, str(notebook)],
        cwd=student_folder,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert ran.returncode == 0, ran.stderr[-3000:]
    cells = nbformat.read(notebook, as_version=4).cells
    where = "".join(output.get("text", "") for output in cells[0].outputs)
    assert Path(where.strip()).is_relative_to(installed_in), where
    shown = "".join(output.get("data", {}).get("text/plain", "") for output in cells[2].outputs)
    runnable = len([c for c in public if c.kind not in RUN_JUDGED_KINDS])
    assert f"All {runnable} public checks passed. 2 hidden check(s) run only when" in shown, shown
    assert "the game's last line" in shown
    html = "".join(output.get("data", {}).get("text/html", "") for output in cells[2].outputs)
    assert "minimax returns the game value" in html
    print(f"bundle installed into a fresh environment in {install_seconds:.1f} s")
