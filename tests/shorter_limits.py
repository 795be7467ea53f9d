"""A built-in assignment's own folder, copied with other time limits: a test of a hang waits
seconds instead of a minute, under the same rules. The copy is a folder (not an Assignment
changed in memory) because a batch's workers and a notebook's self-check read it from there."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from grader.spec.loader import BUILTIN_ASSIGNMENTS, load_assignment
from grader.spec.model import Assignment


def with_limits(assignment_id: str, folder: Path, **seconds: float) -> Assignment:
    """The built-in ``assignment_id`` copied into ``folder``, each of its ``[assignment]`` table's
    limits named in ``seconds`` set to the value given (the built-in must set it already)."""
    shutil.copytree(BUILTIN_ASSIGNMENTS / assignment_id, folder)
    spec = folder / "assignment.toml"
    text = spec.read_text(encoding="utf-8")
    for key, value in seconds.items():
        text, count = re.subn(rf"(?m)^{key} = [0-9.]+$", f"{key} = {value:g}", text, count=1)
        assert count == 1, f"{assignment_id} sets no {key}"
    spec.write_text(text, encoding="utf-8")
    assignment = load_assignment(folder)
    assert all(getattr(assignment, key) == value for key, value in seconds.items())
    return assignment
