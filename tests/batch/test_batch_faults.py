"""Faults during a real batch (`python -m grader batch`, real kernels) lose nothing: a disk
that fills midway, a second batch started on the same output folder, kernels that cannot
start. Each ends with the gradebook and every student's results.json equal to those of an
undisturbed run, and every report present."""

from __future__ import annotations

import contextlib
import csv
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from grader.batch.output_lock import LOCK_FILE
from grader.class_folder.layout import GRADESCOPE_FILE, REPORT_FILE, RESULT_FILE
from tests.batch.example_class import ASSIGNMENT, example_class
from tests.batch.small_filesystem import fill
from tests.batch.test_batch_end_to_end import gradebook_and_results, grader, run_grader

pytestmark = [pytest.mark.slow, pytest.mark.kernel]

REPO = Path(__file__).resolve().parents[2]
CLASS = ["ada-solution", "cleo-horizontal-win-missing"]
"""Two students: one stored and one still to come when a fault strikes (one at a time)."""
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


def start_batch(source: Path, out: Path) -> subprocess.Popen:
    """A batch in the background, one submission at a time, with a progress line each."""
    return grader("batch", str(source), "-a", ASSIGNMENT, "--out", str(out), "--jobs", "1")


def wait_for(condition: str, holds: Callable[[], object], process: subprocess.Popen) -> None:
    """Wait until ``holds()`` is true while ``process`` runs."""
    deadline = time.monotonic() + WAIT_SECONDS
    while not holds():
        assert process.poll() is None, f"the batch ended before {condition}"
        assert time.monotonic() < deadline, f"still waiting for {condition}"
        time.sleep(0.05)


@contextlib.contextmanager
def frozen(process: subprocess.Popen) -> Iterator[None]:
    """The batch's own process stopped (it stores nothing meanwhile), its workers running."""
    os.kill(process.pid, signal.SIGSTOP)
    try:
        yield
    finally:
        os.kill(process.pid, signal.SIGCONT)


def stored(out: Path) -> list[str]:
    return sorted(p.parent.name for p in out.glob(f"*/{RESULT_FILE}"))


def progress_lines(stderr: str) -> dict[str, int]:
    """How many times each student was reported graded."""
    return {name: stderr.count(f" {ASSIGNMENT} {name}: ") for name in CLASS}


def assert_nothing_lost(out: Path, undisturbed: Path) -> None:
    assert gradebook_and_results(out) == gradebook_and_results(undisturbed)
    rows = list(csv.DictReader((out / "grades.csv").open()))
    assert sorted(r["student_id"] for r in rows) == CLASS
    for name in CLASS:
        assert (out / name / REPORT_FILE).stat().st_size > 0, f"{name}: no report"
    assert (out / "index.html").is_file()
    assert not list(out.rglob("*.tmp"))


# -- the disk fills ---------------------------------------------------------------------------------


def test_a_disk_that_fills_midway_stops_the_batch_and_a_rerun_finishes_it(
    small_class: Path, undisturbed: Path, small_disk: Path
) -> None:
    out = small_disk / "out"
    process = start_batch(small_class, out)
    wait_for("a first student was stored", lambda: stored(out), process)
    with frozen(process):
        assert len(stored(out)) < len(CLASS)  # midway
        fill(small_disk / "filler")
    stdout, stderr = process.communicate(timeout=WAIT_SECONDS)

    assert process.returncode == 1, stderr
    assert f"Stopped: cannot write into {out}: No space left on device (the disk is full)." in stdout
    assert "run the same command again to finish" in stdout
    assert "Traceback" not in stderr
    kept = stored(out)
    assert 0 < len(kept) < len(CLASS)
    assert not list(out.rglob("*.tmp"))  # no half-written file, no temporary one left
    for name in kept:  # a stored student has every file, whole
        json.loads((out / name / RESULT_FILE).read_text())
        json.loads((out / name / GRADESCOPE_FILE).read_text())
        assert (out / name / REPORT_FILE).read_text().rstrip().endswith("</html>")

    (small_disk / "filler").unlink()
    rerun = batch(small_class, out)
    assert rerun.returncode == 0, rerun.stderr
    assert f"({len(CLASS) - len(kept)} graded now, {len(kept)} kept from an earlier run)" in rerun.stdout
    assert_nothing_lost(out, undisturbed)


# -- two batches on one output folder ---------------------------------------------------------------


def test_a_second_batch_on_the_same_output_folder_is_refused_and_the_first_is_unharmed(
    small_class: Path, undisturbed: Path, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    first = start_batch(small_class, out)
    lock = out / LOCK_FILE
    wait_for("the first batch held its folder", lambda: f"pid {first.pid} " in _text(lock), first)
    with frozen(first):
        before = _listing(out)
        second = batch(small_class, out)
        assert _listing(out) == before  # the second wrote nothing
    stdout, stderr = first.communicate(timeout=WAIT_SECONDS)

    assert second.returncode == 2
    assert (
        f"grader batch: {out} is being written by grader batch (pid {first.pid} on {socket.gethostname()}, "
        "started " in second.stderr
    )
    assert first.returncode == 0, stderr
    assert f"Done: {len(CLASS)} of {len(CLASS)} submission(s)" in stdout
    assert progress_lines(stderr) == {name: 1 for name in CLASS}
    assert_nothing_lost(out, undisturbed)

    after = batch(small_class, out)  # the lock went with the first batch
    assert after.returncode == 0 and f"(0 graded now, {len(CLASS)} kept from an earlier run)" in after.stdout


def _text(path: Path) -> str:
    try:
        return path.read_text()
    except OSError:
        return ""


def _listing(out: Path) -> dict[str, int]:
    return {str(p.relative_to(out)): p.stat().st_mtime_ns for p in out.rglob("*")}


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
