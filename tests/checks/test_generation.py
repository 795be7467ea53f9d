"""The boards a check asks depend on its seed alone, not on what the process has imported."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import pytest

from grader.checks.positions import positions
from grader.checks.properties import collect_examples
from reference import X


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
