"""Paths and markers shared by the execution tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from grader.execution.sandbox import bwrap_problem

FIXTURES = Path(__file__).parent / "fixtures"
SEEDS = FIXTURES / "seeds"
REPO = Path(__file__).resolve().parents[2]

requires_bwrap = pytest.mark.skipif(
    bwrap_problem() is not None,
    reason=f"bubblewrap cannot sandbox kernels on this machine: {bwrap_problem()}",
)


def fixture(name: str) -> Path:
    """Path of ``tests/execution/fixtures/<name>.ipynb``."""
    path = FIXTURES / f"{name}.ipynb"
    assert path.exists(), path
    return path
