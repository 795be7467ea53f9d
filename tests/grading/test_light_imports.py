"""Reading a stored result and writing its reports load none of the kernel machinery: a
report, a merge or a gradebook never pays for jupyter_client or nbclient."""

from __future__ import annotations

import subprocess
import sys

import pytest

KERNEL_MACHINERY = ("jupyter_client", "nbclient", "zmq")


@pytest.mark.parametrize(
    "module",
    [
        "grader.results",
        "grader.execution.result",
        "grader.feedback.views",
        "grader.feedback.html",
        "grader.feedback.gradescope",
        "grader.feedback.gradebook",
    ],
)
def test_a_result_type_loads_without_the_kernel_machinery(module: str) -> None:
    probe = (
        f"import sys, {module}; "
        f"print(' '.join(sorted({{name.split('.')[0] for name in sys.modules}} & set({KERNEL_MACHINERY!r}))))"
    )
    loaded = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout.split()
    assert loaded == []
