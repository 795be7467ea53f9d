"""An assignment's support modules: named by ``support``, kept in ``support/``, checked when the
assignment loads, compared by content, and a student's own copy named in the report."""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path

import pytest

from grader.class_folder.records import _SPEC_FILES, assignment_sha256, contents_sha256
from grader.spec.format_doc import spec_text
from grader.spec.loader import differences_from_folder, load_assignment
from grader.spec.model import AssignmentError
from grader.spec.support import SUPPORT_FOLDER, ignored_copies, module_problem
from tests.courses.support_course import COURSE, tampered_module

REQUIRED = {"id": "toy", "title": "Toy", "encoding": "flat-space"}
CHECK = {"id": "clean", "kind": "runs-cleanly", "points": 1}


def _folder(tmp_path: Path, support: list[str], files: dict[str, str]) -> Path:
    tmp_path.mkdir(exist_ok=True)
    (tmp_path / "assignment.toml").write_text(spec_text({**REQUIRED, "support": support}, CHECK), encoding="utf-8")
    (tmp_path / SUPPORT_FOLDER).mkdir()
    for name, text in files.items():
        (tmp_path / SUPPORT_FOLDER / name).write_text(text, encoding="utf-8")
    return tmp_path


def test_the_modules_named_load_with_their_content(tmp_path: Path) -> None:
    folder = _folder(tmp_path, ["toygame.py"], {})
    shutil.copyfile(COURSE / "toygame.py", folder / SUPPORT_FOLDER / "toygame.py")
    assignment = load_assignment(folder)
    (module,) = assignment.support
    assert (module.module, module.file_name) == ("toygame", "toygame.py")
    assert module.path == folder / SUPPORT_FOLDER / "toygame.py"
    assert differences_from_folder(assignment) == []


def test_a_support_module_edited_since_loading_is_a_difference(tmp_path: Path) -> None:
    folder = _folder(tmp_path, ["toygame.py"], {"toygame.py": "ROWS = 3\n"})
    assignment = load_assignment(folder)
    (folder / SUPPORT_FOLDER / "toygame.py").write_text("ROWS = 4\n", encoding="utf-8")
    assert differences_from_folder(assignment) == ["support"]
    assert differences_from_folder(dataclasses.replace(load_assignment(folder), support=())) == ["support"]


@pytest.mark.parametrize(
    "support, files, words",
    [
        (["toygame.py"], {}, "toygame.py does not exist"),
        (["notes.txt"], {"notes.txt": "x = 1\n"}, "notes.txt is not a Python module"),
        (["toygame.py"], {"toygame.py": "def winner(:\n"}, "toygame.py has a syntax error on line 1"),
        (["game-api.py"], {"game-api.py": "x = 1\n"}, "'game-api' is not a module name"),
        (["../toygame.py"], {}, "must be a file name in support/"),
        (["random.py"], {"random.py": "x = 1\n"}, "random.py would hide the standard library's random"),
        (["a.py", "a.py"], {"a.py": "x = 1\n"}, "a.py is named twice"),
    ],
)
def test_a_bad_support_module_is_refused_at_load_time(
    tmp_path: Path, support: list[str], files: dict[str, str], words: str
) -> None:
    with pytest.raises(AssignmentError) as info:
        load_assignment(_folder(tmp_path, support, files))
    assert info.value.field == "assignment.support"
    assert words in info.value.problem


def test_a_folder_is_not_a_module(tmp_path: Path) -> None:
    (tmp_path / "toygame.py").mkdir()
    assert module_problem(tmp_path / "toygame.py") == f"{tmp_path / 'toygame.py'} is not a file"


def test_a_students_own_copy_that_differs_is_named_and_an_identical_one_is_not(tmp_path: Path) -> None:
    folder = _folder(tmp_path / "course", ["toygame.py"], {})
    shutil.copyfile(COURSE / "toygame.py", folder / SUPPORT_FOLDER / "toygame.py")
    support = load_assignment(folder).support
    student = tmp_path / "alice"
    student.mkdir()
    notebook = student / "lab.ipynb"
    assert ignored_copies(notebook, support) == []  # nothing beside it
    shutil.copyfile(COURSE / "toygame.py", student / "toygame.py")
    assert ignored_copies(notebook, support) == []  # the course's own, unchanged: nothing to say
    (student / "toygame.py").write_text(tampered_module(), encoding="utf-8")
    (line,) = ignored_copies(notebook, support)
    assert line.startswith("Your toygame.py was ignored: the course's own toygame.py is what your notebook imports")


def test_a_fixed_support_module_regrades_the_class_and_no_support_leaves_old_results_valid(tmp_path: Path) -> None:
    folder = _folder(tmp_path, ["toygame.py"], {"toygame.py": "ROWS = 3\n"})
    first = assignment_sha256(load_assignment(folder))
    (folder / SUPPORT_FOLDER / "toygame.py").write_text("ROWS = 4\n", encoding="utf-8")
    assert assignment_sha256(load_assignment(folder)) != first
    without = dataclasses.replace(load_assignment(folder), support=())
    files = [(name, (folder / name).read_bytes() if (folder / name).is_file() else b"") for name in _SPEC_FILES]
    assert assignment_sha256(without) == contents_sha256([*files, ("stdin", b"")])  # as before support existed
