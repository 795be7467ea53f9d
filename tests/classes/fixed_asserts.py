"""The fixed-assert checker of ``fixed_checker.py`` as a plain pytest file: the file exists, it
imports, and one test per check, 33 in all. It is the issue's other yardstick for a course's
checker ("a plain pytest file of 33 asserts per hand-in"), run the same way: one hand-in at a
time, each in a fresh ``python -m pytest``, with no plugin and no conftest.

    HANDIN=tests/classes/cs50/handins/bruno.py PYTEST_DISABLE_PLUGIN_AUTOLOAD=1 \\
        .venv/bin/python -m pytest -q -p no:cacheprovider --noconftest tests/classes/fixed_asserts.py

Its name does not start with ``test_``: the suite does not collect it; it is run on purpose.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest

from tests.classes.fixed_checker import CHECKS

HANDIN = Path(os.environ.get("HANDIN", "tictactoe.py"))


def test_the_file_exists() -> None:
    assert HANDIN.is_file()


@pytest.fixture(scope="module")
def handin() -> ModuleType:
    spec = importlib.util.spec_from_file_location("tictactoe", HANDIN)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["tictactoe"] = module
    spec.loader.exec_module(module)
    return module


def test_it_imports(handin: ModuleType) -> None:
    assert isinstance(handin, ModuleType)


@pytest.mark.parametrize(("function", "what", "check"), CHECKS, ids=[f"{f}: {w}" for f, w, _ in CHECKS])
def test_check(handin: ModuleType, function: str, what: str, check: Callable[[ModuleType], bool]) -> None:
    assert check(handin), f"{function}: {what}"
