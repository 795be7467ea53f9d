"""Packaging hook: the built-in assignments ship inside the package, as ``grader/assignments``,
in the copy a student may hold.

In the repository they stay at the top level (``assignments/``), where course authors look
for them; a wheel carries a copy next to the code, where `grader.spec.loader` finds it. The
wheel is what students install to check their work in their notebook, so its copy holds no
solution and no hidden check (`grader.release.public_copy` says how). Grading with hidden
checks reads the assignment's folder in the repository. Everything else is declared in
pyproject.toml.
"""

import importlib.util
import shutil
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
ASSIGNMENTS = ROOT / "assignments"


def _public_copy():  # the package is not installed yet: its module is loaded from its file
    spec = importlib.util.spec_from_file_location("_public_copy", ROOT / "grader" / "release" / "public_copy.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclass looks its module up there
    spec.loader.exec_module(module)
    return module


class BuildWithAssignments(build_py):
    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return  # an editable install reads the repository's folder itself
        shipped = Path(self.build_lib) / "grader" / "assignments"
        public_copy = _public_copy()
        ignored = shutil.ignore_patterns(*public_copy.NOT_SHIPPED)
        shutil.copytree(ASSIGNMENTS, shipped, dirs_exist_ok=True, ignore=ignored)
        for spec in shipped.glob("*/assignment.toml"):
            public_copy.make_public(spec.parent)


setup(cmdclass={"build_py": BuildWithAssignments})
