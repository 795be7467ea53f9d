"""A fixed-assert checker of the CS50 tic-tac-toe API, shaped like the course's own checker: 33 checks,
each one call on one board written out by hand (see README.md, "The course's own checker", for what the
course's checker asks; the boards and the code here are this project's own).

It is the yardstick `grader init` is measured against on the `cs50/` class: which defects a checker of
fixed asserts catches, which correct functions it fails, and how long it takes for the whole class,
each hand-in in a fresh interpreter.

    .venv/bin/python -m tests.classes.fixed_checker          # figures for the cs50 class
"""

from __future__ import annotations

import contextlib
import importlib.util
import io
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import ModuleType
from typing import Any
from xml.etree import ElementTree

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib  # type: ignore[import-not-found,unused-ignore]

HERE = Path(__file__).parent
_ = None
Board = list[list[str | None]]


def board(text: str) -> Board:
    """``"XO.|...|..."`` as three rows of "X", "O" or None."""
    return [[None if c == "." else c for c in row] for row in text.split("|")]


def _is_invalid(module: ModuleType, text: str, action: tuple[int, int]) -> bool:
    try:
        module.result(board(text), action)
    except Exception:
        return True
    return False


def _leaves_board(module: ModuleType) -> bool:
    given = board("X..|.O.|...")
    kept = given.copy()  # a shallow copy, as a fixed checker usually takes
    module.result(given, (0, 2))
    return given == kept


FixedCheck = tuple[str, str, Callable[[ModuleType], bool]]
"""(function, what is checked, the check): the check returns True when the hand-in passes."""

CHECKS: tuple[FixedCheck, ...] = (
    ("initial_state", "the empty board", lambda m: m.initial_state() == board("...|...|...")),
    ("player", "X moves first", lambda m: m.player(board("...|...|...")) == "X"),
    ("player", "O after one move", lambda m: m.player(board("...|.X.|...")) == "O"),
    ("player", "X after four moves", lambda m: m.player(board("XO.|.XO|...")) == "X"),
    ("player", "O after five moves", lambda m: m.player(board("XO.|.XO|X..")) == "O"),
    (
        "actions",
        "nine on the empty board",
        lambda m: set(m.actions(board("...|...|..."))) == {(i, j) for i in range(3) for j in range(3)},
    ),
    (
        "actions",
        "eight after one move",
        lambda m: m.actions(board("X..|...|...")) == {(i, j) for i in range(3) for j in range(3) if (i, j) != (0, 0)},
    ),
    (
        "actions",
        "five after four moves",
        lambda m: m.actions(board("XO.|.XO|...")) == {(0, 2), (1, 0), (2, 0), (2, 1), (2, 2)},
    ),
    ("result", "the first move", lambda m: m.result(board("...|...|..."), (0, 0)) == board("X..|...|...")),
    ("result", "the second move", lambda m: m.result(board("X..|...|..."), (1, 1)) == board("X..|.O.|...")),
    ("result", "the third move", lambda m: m.result(board("X..|.O.|..."), (0, 1)) == board("XX.|.O.|...")),
    ("result", "raises on a taken cell", lambda m: _is_invalid(m, "X..|.O.|...", (1, 1))),
    ("result", "raises on (3, 1)", lambda m: _is_invalid(m, "X..|.O.|...", (3, 1))),
    ("result", "raises on (-1, 2)", lambda m: _is_invalid(m, "X..|.O.|...", (-1, 2))),
    ("result", "leaves the board unchanged", _leaves_board),
    ("winner", "nobody on the empty board", lambda m: m.winner(board("...|...|...")) is None),
    ("winner", "X across", lambda m: m.winner(board("XXX|OO.|...")) == "X"),
    ("winner", "O down", lambda m: m.winner(board("XO.|XO.|.OX")) == "O"),
    ("winner", "X diagonally", lambda m: m.winner(board("XO.|OX.|..X")) == "X"),
    ("winner", "nobody on a drawn board", lambda m: m.winner(board("XOX|XOO|OXX")) is None),
    ("terminal", "a drawn board", lambda m: m.terminal(board("XOX|XOO|OXX")) is True),
    ("terminal", "the empty board", lambda m: m.terminal(board("...|...|...")) is False),
    ("terminal", "an X win", lambda m: m.terminal(board("XXX|OO.|...")) is True),
    ("terminal", "a game in progress", lambda m: m.terminal(board("XO.|.X.|..O")) is False),
    ("utility", "0 on a draw", lambda m: m.utility(board("XOX|XOO|OXX")) == 0),
    ("utility", "1 on an X win", lambda m: m.utility(board("XXX|OO.|...")) == 1),
    ("minimax", "blocks a threat", lambda m: m.minimax(board("XX.|.O.|...")) == (0, 2)),
    ("minimax", "takes the only win", lambda m: m.minimax(board("XX.|OO.|...")) == (0, 2)),
    ("minimax", "the best of two cells", lambda m: m.minimax(board("XOX|OXX|O..")) == (2, 2)),
    ("minimax", "None on a draw", lambda m: m.minimax(board("XOX|XOO|OXX")) is None),
    ("minimax", "None after an X win", lambda m: m.minimax(board("XXX|OO.|...")) is None),
)


def run_fixed_checks(path: Path, checks: Sequence[FixedCheck], load: Callable[[Path], ModuleType]) -> dict[str, Any]:
    """Every check on one hand-in, in this process: file (1), import (1) and one a call; a check that raises
    fails, and so does every call of a hand-in that does not import."""
    outcomes: list[tuple[str, str, bool]] = [("file", "exists", path.is_file())]
    try:
        module = load(path)
    except Exception:
        outcomes.append(("file", "imports", False))
        return {"outcomes": outcomes + [(function, what, False) for function, what, _check in checks]}
    outcomes.append(("file", "imports", True))
    for function, what, check in checks:
        try:
            passed = bool(check(module))
        except Exception:
            passed = False
        outcomes.append((function, what, passed))
    return {"outcomes": outcomes}


def _load_tictactoe(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location("tictactoe", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["tictactoe"] = module
    spec.loader.exec_module(module)
    return module


def run_checks(path: Path) -> dict[str, Any]:
    """Every check on one hand-in, in this process: file (1), import (1) and the 31 calls."""
    return run_fixed_checks(path, CHECKS, _load_tictactoe)


def in_fresh_interpreter(checker: str, path: Path) -> list[tuple[str, str, bool]]:
    """The checks of the module ``checker`` (run with ``one PATH``) on one hand-in in a fresh interpreter, as a
    course's checker runs them."""
    completed = subprocess.run(
        [sys.executable, "-m", checker, "one", str(path)],
        capture_output=True,
        text=True,
        timeout=600,
        check=True,
        cwd=HERE.parent.parent,
    )
    return [(str(f), str(w), bool(p)) for f, w, p in json.loads(completed.stdout)["outcomes"]]


def check_handin(path: Path) -> list[tuple[str, str, bool]]:
    """The checks on one hand-in in a fresh interpreter, as a course's checker runs them."""
    return in_fresh_interpreter("tests.classes.fixed_checker", path)


def check_handin_with_pytest(path: Path) -> list[tuple[str, str, bool]]:
    """The same checks as a plain pytest file (``fixed_asserts.py``), on one hand-in in a fresh
    ``python -m pytest`` with no plugin and no conftest, as a course that grades with pytest
    runs them: (function, what, passed) for each, the file and import checks included."""
    with tempfile.TemporaryDirectory(prefix="fixed-asserts-") as folder:
        report = Path(folder) / "report.xml"
        subprocess.run(
            [
                sys.executable,
                "-m",
                "pytest",
                "-q",
                "-p",
                "no:cacheprovider",
                "--noconftest",
                "-W",
                "ignore::pytest.PytestConfigWarning",  # the suite's own options, for plugins not loaded here
                f"--junitxml={report}",
                str(HERE / "fixed_asserts.py"),
            ],
            capture_output=True,
            text=True,
            timeout=600,
            cwd=HERE.parent.parent,
            env={**os.environ, "HANDIN": str(path.resolve()), "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"},
        )
        cases = ElementTree.parse(report).getroot().iter("testcase")
        passed = {case.get("name", ""): not any(child.tag in ("failure", "error") for child in case) for case in cases}
    named = {"test_the_file_exists": ("file", "exists"), "test_it_imports": ("file", "imports")}
    named.update({f"test_check[{function}: {what}]": (function, what) for function, what, _check in CHECKS})
    return [(function, what, passed[name]) for name, (function, what) in named.items()]


def class_figures(course: str = "cs50", jobs: int = 2) -> str:
    expected = tomllib.loads((HERE / course / "expected.toml").read_text(encoding="utf-8"))["handins"]
    paths = sorted((HERE / course / "handins").glob("*.py"))
    started = time.monotonic()
    with ThreadPoolExecutor(jobs) as pool:
        results = dict(zip((p.stem for p in paths), pool.map(check_handin, paths)))
    seconds = time.monotonic() - started
    caught = defects = full = correct = wrongly = 0
    lines = []
    for stem, outcomes in results.items():
        verdict = expected[stem]
        failed = {function for function, _what, passed in outcomes if not passed}
        defective = set(verdict.get("defective", {}))
        own = defective - set(verdict.get("through", {}))
        if not verdict["imports"]:
            continue
        defects += len(own)
        caught += len(own & failed)
        lines += [f"    missed {stem}: {f}" for f in sorted(own - failed)]
        if not defective:
            correct += 1
            full += not failed
        for function in sorted(failed - defective - {"file"}):
            wrongly += 1
            lines.append(f"    correct function failed {stem}: {function}")
    return "\n".join(
        [
            f"{course}, fixed-assert checker ({len(CHECKS) + 2} checks), {len(paths)} hand-ins:",
            f"  own defects caught: {caught} of {defects}",
            f"  correct hand-ins at full marks: {full} of {correct}",
            f"  correct functions failed: {wrongly}",
            *lines,
            f"  whole class in {seconds:.1f} s ({jobs} at a time, a fresh interpreter each)",
        ]
    )


def main(argv: list[str]) -> int:
    if argv[:1] == ["one"]:
        with contextlib.redirect_stdout(io.StringIO()):  # what a hand-in prints is not the answer
            found = run_checks(Path(argv[1]))
        print(json.dumps(found))
        return 0
    print(class_figures())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
