"""The boards a check asks depend on its seed alone, not on what the process has imported, and
hypothesis is changed for that only while the grader itself generates."""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis.internal.conjecture import providers

from grader.checks.positions import positions
from grader.checks.properties import collect_examples, without_local_constants
from reference import Board, X

REPO = Path(__file__).resolve().parents[2]


def test_examples_do_not_depend_on_imported_modules(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    before = collect_examples(positions(X), examples=300, run_seed=11)
    # A module outside site-packages full of small integers: what hypothesis would otherwise
    # mix into its draws (an adapter.py, or another grader module, imported in one mode only).
    # (hypothesis skips |n| < 100 and modules with more than 1,024 constants)
    (tmp_path / "course_constants.py").write_text("TABLE = [" + ", ".join(str(n) for n in range(100, 1000)) + "]\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    importlib.import_module("course_constants")
    try:
        after = collect_examples(positions(X), examples=300, run_seed=11)
    finally:
        sys.modules.pop("course_constants", None)
    assert after == before


def _hook_is_hypothesis_own() -> bool:
    hook = providers._get_local_constants
    return hook.__module__ == providers.__name__ and hook.__name__ == "_get_local_constants"


def test_importing_the_grader_leaves_hypothesis_as_it_was() -> None:
    # A fresh process: here, the grader was imported long before this test.
    script = (
        "from hypothesis.internal.conjecture import providers\n"
        "hook = providers._get_local_constants\n"
        "import grader, grader.checks.api, grader.checks.registry, grader.checks.properties, grader.grading\n"
        "assert providers._get_local_constants is hook, providers._get_local_constants\n"
    )
    done = subprocess.run([sys.executable, "-c", script], cwd=REPO, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr


def test_the_hook_is_replaced_only_while_the_grader_generates() -> None:
    seen_inside: list[bool] = []

    def noting(board: Board) -> Board:
        seen_inside.append(_hook_is_hypothesis_own())
        return board

    noted = positions(X).map(noting)
    collect_examples(noted, examples=5, run_seed=3)
    assert seen_inside and not any(seen_inside)
    assert _hook_is_hypothesis_own()
    with without_local_constants, without_local_constants:  # runs may overlap (threads)
        assert not _hook_is_hypothesis_own()
    assert _hook_is_hypothesis_own()
