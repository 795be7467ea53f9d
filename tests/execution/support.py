"""Paths and markers shared by the execution tests."""

from __future__ import annotations

from pathlib import Path
from typing import TypedDict

import pytest

from grader.execution.sandbox import Limits, bwrap_problem

FIXTURES = Path(__file__).parent / "fixtures"
SEEDS = FIXTURES / "seeds"
REPO = Path(__file__).resolve().parents[2]


class OptionOverrides(TypedDict, total=False):
    """Execution options a test sets, typed so that ``ExecutionOptions(**overrides)`` is checked."""

    cell_timeout: float
    interrupt_grace: float
    limits: Limits


requires_bwrap = pytest.mark.skipif(
    bwrap_problem() is not None,
    reason=f"bubblewrap cannot sandbox kernels on this machine: {bwrap_problem()}",
)


def fixture(name: str) -> Path:
    """Path of ``tests/execution/fixtures/<name>.ipynb``."""
    path = FIXTURES / f"{name}.ipynb"
    assert path.exists(), path
    return path
