"""A student bundle installed into a fresh virtual environment: it holds no solution and none of
a hidden check's test cases; the in-notebook check finds the assignment by its id and runs its
public checks in a Jupyter kernel there, and ``grader check -a ID`` runs a student's notebook
there as grading does, with the exit statuses the manual gives.

The grader's dependencies (the distributions its metadata requires, followed transitively) are
first linked from this environment's site-packages into the new one, file by file, as an
installer lays them out: pip finds them installed, and the sandboxed kernel, which reads only
its environment's site-packages, finds them there. The bundle is then installed as students
install it from a course's web folder (``pip install --find-links ADDRESS PROJECT``), from its
folder served over HTTP on this machine, with no package index (``--no-index``)."""

from __future__ import annotations

import contextlib
import functools
import http.server
import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from importlib.metadata import Distribution, distribution
from pathlib import Path

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_notebook
from packaging.requirements import Requirement

from grader.notebook.self_check import RUN_JUDGED_KINDS
from grader.release.bundle import GRADER_PROJECT, write_bundle
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


def _requirements(project: str) -> list[Distribution]:
    """The distributions ``project`` needs here, followed transitively (extras left out)."""
    found: dict[str, Distribution] = {}
    waiting = [project]
    while waiting:
        name = waiting.pop()
        key = re.sub(r"[-_.]+", "-", name).lower()
        if key in found:
            continue
        found[key] = distribution(name)
        for text in found[key].requires or []:
            requirement = Requirement(text)
            if requirement.marker is None or requirement.marker.evaluate({"extra": ""}):
                waiting.append(requirement.name)
    return [d for key, d in found.items() if key != project]


def _link_dependencies(site_packages: Path) -> None:
    """Lay the grader's dependencies' files out in ``site_packages`` (hard links where the file
    system allows, else copies)."""
    for dependency in _requirements(GRADER_PROJECT):
        for name in dependency.files or []:
            source, target = Path(str(dependency.locate_file(name))), site_packages / name
            if ".." in name.parts or not source.is_file() or target.exists():
                continue  # scripts outside site-packages; what pip put there already
            target.parent.mkdir(parents=True, exist_ok=True)
            try:
                os.link(source, target)
            except OSError:
                shutil.copy2(source, target)


@contextlib.contextmanager
def _served(folder: Path) -> Iterator[str]:
    """``folder`` served over HTTP on this machine, as a course's web folder is: its address."""
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def _students_shell() -> dict[str, str]:
    """This environment without what would point pip or Python at this checkout or its settings:
    a student's shell has no ``PYTHONPATH`` naming the grader's source (pip would take the grader
    as installed) and no pip configuration of ours."""
    ours = ("PYTHONPATH", "PYTHONHOME", "PYTHONUSERBASE", "VIRTUAL_ENV")
    return {k: v for k, v in os.environ.items() if k not in ours and not k.startswith("PIP_")}


@dataclass(frozen=True)
class Installed:
    """A fresh environment holding the released bundle of a copy of lab05 with hidden checks."""

    root: Path
    python: Path
    site_packages: Path
    env: dict[str, str]
    """The environment the student's commands run with: no trace of this one."""
    student_folder: Path
    """Where the student works: not beside the instructor's folder, which a path would name."""
    install_seconds: float

    def grader(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(self.root / "venv" / "bin" / "grader"), *args],
            cwd=self.student_folder,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=300,
        )


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    root = tmp_path_factory.mktemp("bundle-install")
    folder = _lab05_with_hidden_checks(root / "lab05")
    bundle = write_bundle(folder, "lab05", "1", root / "bundle")
    python = _venv(root / "venv")
    site_packages = root / "venv" / "lib" / f"python{sys.version_info[0]}.{sys.version_info[1]}" / "site-packages"
    _link_dependencies(site_packages)
    assert not (site_packages / "grader").exists()
    # As the manual tells students: the bundle's page by its address, the assignment by its
    # project name; pip finds the grader's wheel on the same page.
    started = time.monotonic()
    with _served(bundle.folder) as address:
        install = [
            str(python),
            "-m",
            "pip",
            "install",
            "--quiet",
            "--no-index",
            "--find-links",
            address,
            "--no-cache-dir",  # a wheel cached from an earlier run at the same port and name
            bundle.project,
        ]
        subprocess.run(install, check=True, timeout=120, env=_students_shell())
    install_seconds = time.monotonic() - started
    assert (site_packages / "grader").is_dir() and (site_packages / "gamesearch_assignment_lab05").is_dir()
    kernels = root / "jupyter" / "kernels" / "python3"
    kernels.mkdir(parents=True)
    spec = {"argv": [str(python), "-m", "ipykernel_launcher", "-f", "{connection_file}"], "language": "python"}
    (kernels / "kernel.json").write_text(json.dumps(spec | {"display_name": "bundle"}), encoding="utf-8")
    env = {"PATH": "/usr/bin:/bin", "HOME": str(root), "JUPYTER_PATH": str(root / "jupyter")}
    env["JUPYTER_DATA_DIR"] = str(root / "jupyter-data")
    student_folder = root / "student"
    student_folder.mkdir()
    return Installed(root, python, site_packages, env, student_folder, install_seconds)


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


def test_an_installed_bundle_holds_nothing_hidden_and_checks_a_notebook_in_a_kernel(installed: Installed) -> None:
    installed_in = installed.site_packages
    ours = [installed_in / name for name in ("grader", "reference", "gamesearch_assignment_lab05")]
    installed_files = [path for folder in ours for path in folder.rglob("*") if path.is_file()]
    installed_files += [path for path in installed_in.glob("gamesearch_*.dist-info/*") if path.is_file()]

    # nothing hidden: no solution, no hidden test case, position or expected value, not even in a comment
    assert [path for path in installed_files if path.name.startswith("solution.")] == []
    assert not (installed_in / "grader" / "assignments").exists()  # the built-ins stay with their graders
    for path in installed_files:
        content = path.read_bytes()
        for secret in (*HIDDEN_POSITIONS, HIDDEN_EXPECTED):
            assert secret.encode() not in content, f"{path} holds {secret!r}"
    named = (installed_in / "gamesearch_assignment_lab05" / "hidden_checks.toml").read_text(encoding="utf-8")
    assert 'title = "the game\'s last line"' in named

    listed = installed.grader("assignments")
    assert listed.returncode == 0, listed.stderr
    public = [c for c in load_assignment(BUILTIN_ASSIGNMENTS / "lab05").checks if not c.hidden]
    assert listed.stdout.split()[0] == "lab05" and f"{len(public)} checks" in listed.stdout, listed.stdout

    notebook = _student_notebook(installed.student_folder / "student.ipynb")
    ran = subprocess.run(
        [str(installed.python), "-c", RUN_NOTEBOOK, str(notebook)],
        cwd=installed.student_folder,
        env=installed.env,
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
    print(f"bundle installed into a fresh environment in {installed.install_seconds:.1f} s")


WRONG_CHECK_WIN = (
    "if board[a] == player and board[b] == player and board[c] == player:",
    "if board[a] == player and board[b] == player:",
)
"""lab05's check_win made to see a win in two pieces of a line."""


def test_grader_check_runs_a_students_notebook_from_the_installed_bundle(installed: Installed) -> None:
    """The terminal command on saved notebooks, as the manual gives it: a correct notebook scores
    the public checks' points and names the hidden ones; a wrong one gets its failing check with
    a counterexample; both exit 0 and write the report. A file that is not a notebook, or an id
    nothing installed, is one line and exit status 2."""
    public = [c for c in load_assignment(BUILTIN_ASSIGNMENTS / "lab05").checks if not c.hidden]
    points = sum(c.points for c in public)
    answer_key = nbformat.read(BUILTIN_ASSIGNMENTS / "lab05" / "solution.ipynb", as_version=4)
    nbformat.write(answer_key, installed.student_folder / "right.ipynb")
    wrong = nbformat.read(BUILTIN_ASSIGNMENTS / "lab05" / "solution.ipynb", as_version=4)
    edited = [cell for cell in wrong.cells if WRONG_CHECK_WIN[0] in cell.source]
    assert len(edited) == 1
    edited[0].source = edited[0].source.replace(*WRONG_CHECK_WIN)
    nbformat.write(wrong, installed.student_folder / "wrong.ipynb")

    right = installed.grader("check", "right.ipynb", "-a", "lab05")
    assert right.returncode == 0, right.stderr
    assert f"Score: {points:g} / {points:g}" in right.stdout, right.stdout
    assert all(f"PASS     {c.id} " in right.stdout for c in public), right.stdout
    assert "also has 2 hidden check(s) worth 15 point(s)" in right.stdout, right.stdout
    assert "node-reduction-hidden" not in right.stdout
    assert "the game&#39;s last line" in (installed.student_folder / "right-report.html").read_text(encoding="utf-8")

    failed = installed.grader("check", "wrong.ipynb", "-a", "lab05")
    assert failed.returncode == 0, failed.stderr
    check_win = next(c for c in public if c.id == "check-win")
    assert f"Score: {points - check_win.points:g} / {points:g}" in failed.stdout, failed.stdout
    assert f"FAIL     check-win               0/{check_win.points:g}" in failed.stdout, failed.stdout
    assert "expected: False" in failed.stdout and "actual:   True" in failed.stdout, failed.stdout
    assert (installed.student_folder / "wrong-report.html").is_file()

    (installed.student_folder / "notes.ipynb").write_text("{}", encoding="utf-8")
    not_a_notebook = installed.grader("check", "notes.ipynb", "-a", "lab05")
    assert not_a_notebook.returncode == 2 and not_a_notebook.stdout == ""
    assert not_a_notebook.stderr.strip() == (
        "grader check: notes.ipynb: JSON but not a Jupyter notebook: found an object without 'cells'"
    )
    unknown = installed.grader("check", "right.ipynb", "-a", "lab55")
    assert unknown.returncode == 2
    assert unknown.stderr.strip() == "grader check: lab55: no such assignment (installed: lab05)", unknown.stderr
