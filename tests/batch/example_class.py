"""A small class of real notebooks for the end-to-end batch tests: copies of the bundled
examples of one assignment, whose notebooks run in a few seconds each."""

from __future__ import annotations

import shutil
from collections.abc import Sequence
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
ASSIGNMENT = "alphabeta-challenges"


def example_class(folder: Path, names: Sequence[str]) -> Path:
    """``folder`` holding a copy of each named example notebook of `ASSIGNMENT`."""
    for name in names:
        shutil.copyfile(EXAMPLES / ASSIGNMENT / f"{name}.ipynb", folder / f"{name}.ipynb")
    return folder
