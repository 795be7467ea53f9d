"""On a machine where bubblewrap cannot run, grading commands refuse before any student code
runs, unless someone chose a weaker sandbox; what ran is said on the terminal, on the class
page and in results.json.

Each test runs `python -m grader` with a PATH on which there is no ``bwrap`` (the interpreter
is named by its full path), and with no ``GRADER_SANDBOX``: a machine without bubblewrap.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

from grader.cli.options import USAGE_ERROR
from grader.execution.isolation import ENVIRONMENT_VARIABLE
from grader.spec.loader import load_assignment
from tests.feedback.test_output_formats import GRADESCOPE_SCHEMA

REPO = Path(__file__).resolve().parents[2]
ASSIGNMENT = "alphabeta-challenges"  # its notebooks run in a few seconds each
REFUSAL = "students' code is not run without isolation: no sandbox was chosen, and bubblewrap (bwrap) is not installed"


def without_bwrap(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    environment = {k: v for k, v in os.environ.items() if k != ENVIRONMENT_VARIABLE}
    environment["PATH"] = str(cwd / "bin")  # an empty folder: no bwrap, nor anything else
    (cwd / "bin").mkdir(exist_ok=True)
    return subprocess.run(
        [sys.executable, "-m", "grader", *args],
        cwd=cwd,
        env=environment,
        capture_output=True,
        text=True,
        timeout=600,
    )


@pytest.fixture
def hostile_class(tmp_path: Path) -> tuple[Path, Path]:
    """A class whose first hand-in leaves a file behind the moment it runs, and a marker path
    for it; with a copy of the solution."""
    source = tmp_path / "in"
    source.mkdir()
    marker = tmp_path / "the-notebook-ran"
    (source / "mallory.py").write_text(
        f"open({str(marker)!r}, 'w').write('student code ran')\n"
        "import urllib.request\n"
        "urllib.request.urlopen('http://127.0.0.1:9/', timeout=1)\n",
        encoding="utf-8",
    )
    shutil.copyfile(load_assignment(ASSIGNMENT).solution_path, source / "solution.ipynb")
    return source, marker


def test_batch_refuses_before_it_reads_or_runs_anything(tmp_path: Path, hostile_class: tuple[Path, Path]) -> None:
    source, marker = hostile_class
    out = tmp_path / "out"
    done = without_bwrap("batch", str(source), "-a", ASSIGNMENT, "--out", str(out), cwd=tmp_path)
    assert done.returncode == USAGE_ERROR, done.stdout + done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"grader batch: {REFUSAL}"), done.stderr
    assert "--sandbox limits" in lines[0] and f"{ENVIRONMENT_VARIABLE}=limits" in lines[0]
    assert not marker.exists()
    assert not out.exists()  # nothing written: no folder, no mark, no record


@pytest.mark.parametrize("command", ["grade", "run"])
def test_grade_and_run_refuse_before_running_the_file(
    command: str, tmp_path: Path, hostile_class: tuple[Path, Path]
) -> None:
    source, marker = hostile_class
    done = without_bwrap(command, str(source / "mallory.py"), "-a", ASSIGNMENT, cwd=tmp_path)
    assert done.returncode == USAGE_ERROR, done.stdout + done.stderr
    assert done.stderr.startswith(f"grader {command}: {REFUSAL}"), done.stderr
    assert not marker.exists()


def test_gradescope_refuses_and_still_writes_results_json(tmp_path: Path, hostile_class: tuple[Path, Path]) -> None:
    source, marker = hostile_class
    results = tmp_path / "results" / "results.json"
    submission = tmp_path / "submission"
    submission.mkdir()
    shutil.copyfile(source / "mallory.py", submission / "mallory.py")
    done = without_bwrap(
        "gradescope", "-a", ASSIGNMENT, "--submission-dir", str(submission), "--results", str(results), cwd=tmp_path
    )
    assert done.returncode == USAGE_ERROR, done.stdout + done.stderr
    assert not marker.exists()
    document = json.loads(results.read_text(encoding="utf-8"))
    jsonschema.validate(document, GRADESCOPE_SCHEMA)
    assert document["score"] == 0
    assert "the autograder ran nothing" in document["output"] and REFUSAL in document["output"]
    assert document["extra_data"]["isolation"]["mode"] is None


@pytest.mark.slow
@pytest.mark.kernel
def test_batch_with_limits_chosen_grades_and_says_isolation_reduced_everywhere(
    tmp_path: Path, hostile_class: tuple[Path, Path]
) -> None:
    source, _ = hostile_class
    out = tmp_path / "out"
    done = without_bwrap(
        "batch", str(source), "-a", ASSIGNMENT, "--out", str(out), "--sandbox", "limits", "-j", "1", cwd=tmp_path
    )
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stderr.strip().splitlines()
    said = next(i for i, line in enumerate(lines) if line.startswith("Isolation reduced: resource limits only"))
    assert "Chosen by --sandbox limits" in lines[said]
    assert said < next(i for i, line in enumerate(lines) if line.startswith("[1/"))  # before grading
    assert "Isolation reduced" in done.stdout  # the closing summary says it again
    index = (out / "index.html").read_text(encoding="utf-8")
    assert "Isolation reduced</strong> for 2 submissions" in index
    assert "Every submission ran with reduced isolation" in index
    for student in ("mallory", "solution"):
        document = json.loads((out / student / "results.json").read_text(encoding="utf-8"))
        jsonschema.validate(document, GRADESCOPE_SCHEMA)
        isolation = document["extra_data"]["isolation"]
        assert isolation["mode"] == "limits" and isolation["reduced"] is True
        assert "without bubblewrap" in isolation["note"]
    solution = json.loads((out / "solution" / "results.json").read_text(encoding="utf-8"))
    assert solution["score"] == load_assignment(ASSIGNMENT).max_score


@pytest.mark.slow
@pytest.mark.kernel
def test_a_students_own_check_falls_back_and_says_so(tmp_path: Path) -> None:
    notebook = tmp_path / "mine.ipynb"
    shutil.copyfile(load_assignment(ASSIGNMENT).solution_path, notebook)
    done = without_bwrap("check", str(notebook), "-a", ASSIGNMENT, cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Bubblewrap is not used because bubblewrap (bwrap) is not installed" in done.stderr
    assert (tmp_path / "mine-report.html").is_file()
