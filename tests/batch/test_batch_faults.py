"""Faults during a real batch (`python -m grader batch`, real kernels) lose nothing: kernels
that cannot start. Each ends with the gradebook and every student's results.json equal to
those of an undisturbed run, and every report present."""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from grader.class_folder.layout import GRADESCOPE_FILE, REPORT_FILE, RESULT_FILE
from tests.batch.example_class import ASSIGNMENT, example_class
from tests.batch.test_batch_end_to_end import gradebook_and_results, run_grader

pytestmark = [pytest.mark.slow, pytest.mark.kernel]

REPO = Path(__file__).resolve().parents[2]
CLASS = ["ada-solution", "ben-ab-cut-strict", "cleo-horizontal-win-missing"]
WAIT_SECONDS = 600


@pytest.fixture(scope="module")
def small_class(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return example_class(tmp_path_factory.mktemp("class"), CLASS)


@pytest.fixture(scope="module")
def undisturbed(small_class: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("undisturbed")
    done = batch(small_class, out)
    assert done.returncode == 0, done.stderr
    return out


def batch(source: Path, out: Path, *extra: str) -> subprocess.CompletedProcess:
    return run_grader("batch", str(source), "-a", ASSIGNMENT, "--out", str(out), "--jobs", "1", "--quiet", *extra)


def assert_nothing_lost(out: Path, undisturbed: Path) -> None:
    assert gradebook_and_results(out) == gradebook_and_results(undisturbed)
    rows = list(csv.DictReader((out / "grades.csv").open()))
    assert sorted(r["student_id"] for r in rows) == CLASS
    for name in CLASS:
        assert (out / name / REPORT_FILE).stat().st_size > 0, f"{name}: no report"
    assert (out / "index.html").is_file()
    assert not list(out.rglob("*.tmp"))


# -- kernels that cannot start ----------------------------------------------------------------------

_NO_INTERPRETER = '''\
"""Every kernel of this process is started with {python}, which cannot be executed."""
import sys

import grader.execution.sandbox as sandbox

_kernel_spec = sandbox.Sandbox._kernel_spec


def _without_python(self, start):
    spec = _kernel_spec(self, start)
    spec.argv = [{python!r} if arg == sys.executable else arg for arg in spec.argv]
    return spec


sandbox.Sandbox._kernel_spec = _without_python
'''


def test_kernels_that_cannot_start_become_a_row_per_student_and_a_rerun_grades_them(
    small_class: Path, undisturbed: Path, tmp_path: Path
) -> None:
    python = tmp_path / "broken" / "python3"
    python.parent.mkdir()
    python.write_text("not a program\n")  # and not executable
    hook = tmp_path / "hook"
    hook.mkdir()
    # Read at start-up by every process of the batch (its workers too), never by a kernel
    # (started with -S): only the kernels' interpreter changes.
    (hook / "sitecustomize.py").write_text(_NO_INTERPRETER.format(python=str(python)))
    out = tmp_path / "out"
    broken = _batch_with_hook(small_class, out, hook)

    assert broken.returncode == 1, broken.stderr  # the grader's failure, not the students'
    assert "Traceback" not in broken.stderr
    assert f"Done: {len(CLASS)} of {len(CLASS)} submission(s)" in broken.stdout
    assert f"Could not be graded: {len(CLASS)}." in broken.stdout
    for name in CLASS:
        (line,) = [line for line in broken.stdout.splitlines() if line.startswith(f"  {name}: ")]
        assert "The notebook could not be run: the kernel" in line and str(python) in line, line
        record = json.loads((out / name / RESULT_FILE).read_text())
        assert record["batch"]["grader_fault"] is True
        assert (out / name / REPORT_FILE).is_file() and (out / name / GRADESCOPE_FILE).is_file()
    rows = list(csv.DictReader((out / "grades.csv").open()))
    assert [(r["student_id"], r["total"]) for r in rows] == [(name, "") for name in CLASS]  # no false zero
    assert (out / "index.html").is_file()

    rerun = batch(small_class, out)  # the machine mended: every student graded again
    assert rerun.returncode == 0, rerun.stderr
    assert f"({len(CLASS)} graded now, 0 kept from an earlier run)" in rerun.stdout
    assert_nothing_lost(out, undisturbed)


def _batch_with_hook(source: Path, out: Path, hook: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "grader", "batch", str(source), "-a", ASSIGNMENT, "--out", str(out)]
        + ["--jobs", "2", "--quiet"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=WAIT_SECONDS,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(hook), os.environ.get("PYTHONPATH")]))},
    )
