"""Packaging hook: the built-in assignments ship inside the package, as ``grader/assignments``.

In the repository they stay at the top level (``assignments/``), where course authors look
for them; a wheel carries a copy next to the code, where `grader.spec.loader` finds it.
Everything else is declared in pyproject.toml.
"""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ASSIGNMENTS = Path(__file__).resolve().parent / "assignments"


class BuildWithAssignments(build_py):
    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return  # an editable install reads the repository's folder itself
        shutil.copytree(
            ASSIGNMENTS,
            Path(self.build_lib) / "grader" / "assignments",
            dirs_exist_ok=True,
            ignore=shutil.ignore_patterns("__pycache__", "*.pyc", ".ipynb_checkpoints"),
        )


setup(cmdclass={"build_py": BuildWithAssignments})
