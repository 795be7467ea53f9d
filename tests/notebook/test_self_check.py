"""The in-notebook check on a live namespace, in this process: the lab05 solution passes,
mistakes get grading's counterexamples, and whatever the checks do to the globals is undone.

The namespace is built as a kernel holds a notebook's definitions: executed as ``__main__``
under a cell's file name (`tests.checks.in_process`)."""

from __future__ import annotations

import shutil
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from grader.notebook import NotebookCheck, check
from grader.notebook.magic import check_magic
from grader.notebook.self_check import check_namespace
from grader.results import CheckStatus
from grader.spec.loader import load_assignment
from tests.checks.in_process import STUDENT_CELL, solution_definitions

LAB05 = load_assignment("lab05")
SOLUTION = solution_definitions(LAB05)


def namespace_of(source: str) -> dict[str, Any]:
    namespace: dict[str, Any] = {"__name__": "__main__"}
    exec(compile(source, STUDENT_CELL, "exec"), namespace)
    return namespace


def statuses(found: NotebookCheck) -> dict[str, CheckStatus]:
    assert found.result is not None, found.problem
    return {c.check_id: c.status for c in found.result.checks}


def test_the_solution_passes_every_public_check_and_leaves_the_run_checks_to_grader_check() -> None:
    found = check_namespace(namespace_of(SOLUTION), "lab05")
    assert found.passed
    assert set(statuses(found).values()) == {CheckStatus.PASSED}
    # every public check but the one that judges the whole run
    assert set(statuses(found)) == {c.id for c in LAB05.checks} - {"runs-cleanly"}
    assert found.left_to_grader_check == ("the notebook runs top to bottom",)
    assert "All 9 checks passed." in repr(found)
    assert 'data-status="passed"' in found._repr_html_()


def test_one_check_by_id_shows_that_check_only() -> None:
    found = check_namespace(namespace_of(SOLUTION), "lab05", "minimax-value")
    assert statuses(found) == {"minimax-value": CheckStatus.PASSED}


def test_a_mistake_gets_its_counterexample_drawn_and_its_cause() -> None:
    # check_win misses the anti-diagonal
    wrong = SOLUTION.replace("(2, 4, 6)", "(0, 1, 2)")
    assert wrong != SOLUTION
    found = check_namespace(namespace_of(wrong), "lab05", "check-win")
    assert found.result is not None
    (result,) = found.result.checks
    assert result.status is CheckStatus.FAILED and result.counterexample is not None
    html = found._repr_html_()
    assert 'class="board"' in html and "mark-x" in html
    assert result.counterexample.call.replace("'", "&#39;") in html
    assert "FAIL     check-win" in repr(found)


@pytest.mark.parametrize(
    ("name", "check_id", "expected"),
    [
        ("lab5", None, "no assignment 'lab5': give a built-in id (alphabeta-challenges, connect4, depth-limits"),
        ("lab05", "minimax", "lab05 has no check 'minimax': its checks are check-win, check-draw"),
        ("lab05", "runs-cleanly", "'runs-cleanly' judges the whole notebook run: check it with `grader check`"),
    ],
)
def test_an_unknown_assignment_or_check_is_one_line(name: str, check_id: str | None, expected: str) -> None:
    found = check_namespace(namespace_of(SOLUTION), name, check_id)
    assert found.result is None
    assert expected in found.problem
    assert "\n" not in repr(found) and repr(found).startswith("The check could not run: ")
    assert "The check could not run" in found._repr_html_()


def test_a_function_not_yet_defined_is_named_and_its_checks_do_not_run() -> None:
    namespace = namespace_of(SOLUTION)
    del namespace["minimax"]
    found = check_namespace(namespace, "lab05")
    assert statuses(found)["minimax-value"] is CheckStatus.NOT_RUN
    assert statuses(found)["check-win"] is CheckStatus.PASSED
    assert found.result is not None
    assert any("`minimax`" in problem for problem in found.result.problems)


def test_a_function_that_raises_or_asks_for_input_fails_without_waiting() -> None:
    source = SOLUTION + "\n\ndef check_draw(board):\n    return input('draw? ') == 'yes'\n"
    found = check_namespace(namespace_of(source), "lab05", "check-draw")
    assert found.result is not None
    (result,) = found.result.checks
    assert result.status is CheckStatus.FAILED
    assert result.counterexample is not None and "input() was called" in result.counterexample.actual


def test_the_globals_are_as_they_were_after_the_check() -> None:
    source = (
        SOLUTION
        + """

seen = []
shared = {"boards": seen}
class Counter:
    calls = 0
_original_check_win = check_win
def check_win(board, player):
    seen.append(list(board))
    Counter.calls += 1
    board_before_check = board
    global last_board
    last_board = board
    return _original_check_win(board, player)
"""
    )
    namespace = namespace_of(source)
    seen, shared = namespace["seen"], namespace["shared"]
    found = check_namespace(namespace, "lab05", "check-win")
    assert statuses(found) == {"check-win": CheckStatus.PASSED}
    assert namespace["seen"] is seen and seen == []
    assert namespace["shared"] is shared and shared["boards"] is seen
    assert namespace["Counter"].calls == 0
    assert "last_board" not in namespace


def test_html_is_escaped() -> None:
    source = SOLUTION + "\n\ndef check_draw(board):\n    raise ValueError('<script>alert(1)</script>')\n"
    html = check_namespace(namespace_of(source), "lab05", "check-draw")._repr_html_()
    assert "<script>" not in html and "&lt;script&gt;" in html


def test_a_course_assignment_from_a_folder_or_an_installed_package(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "course" / "lab1"
    shutil.copytree(LAB05.directory, folder, ignore=shutil.ignore_patterns("*.ipynb"))
    package = tmp_path / "site" / "cs101_games"
    shutil.copytree(folder, package / "lab1")
    (package / "__init__.py").write_text("", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    namespace = namespace_of(SOLUTION)
    for name in (folder, str(folder / "assignment.toml"), "cs101_games.lab1", "cs101_games/lab1"):
        found = check_namespace(namespace, name, "check-draw")
        assert statuses(found) == {"check-draw": CheckStatus.PASSED}, name
    assert "cs101_games" not in sys.modules  # found without running the package's code


def test_the_magic_reads_its_words_and_says_how_to_use_it() -> None:
    assert check_magic("").problem.startswith("usage: %check ASSIGNMENT")
    assert check_magic("a b c").problem.startswith("usage: %check ASSIGNMENT")
    assert "no assignment 'nope'" in check_magic("nope").problem


def test_check_reads_the_main_namespace_outside_ipython(monkeypatch: pytest.MonkeyPatch) -> None:
    main = type(sys)("__main__")
    exec(compile(SOLUTION, STUDENT_CELL, "exec"), vars(main))
    monkeypatch.setitem(sys.modules, "__main__", main)
    found = check("lab05", "check-win")
    assert statuses(found) == {"check-win": CheckStatus.PASSED}


def test_the_stop_button_stops_the_whole_check_and_the_globals_are_put_back() -> None:
    source = (
        SOLUTION
        + """
import os, signal
pressed = []
def check_win(board, player):
    pressed.append(1)
    os.kill(os.getpid(), signal.SIGINT)  # what the notebook's stop button sends the kernel
    return False
"""
    )
    namespace = namespace_of(source)
    with pytest.raises(KeyboardInterrupt):
        check_namespace(namespace, "lab05")
    assert namespace["pressed"] == []


def test_a_check_started_off_the_main_thread_says_why_it_cannot_run() -> None:
    found: list[NotebookCheck] = []
    worker = threading.Thread(target=lambda: found.append(check_namespace(namespace_of(SOLUTION), "lab05")))
    worker.start()
    worker.join()
    assert found[0].result is None
    assert found[0].problem == "the checks stop a call at its time limit with an alarm: run them in the main thread"
