"""`grader init` with a course's support modules: given with ``--support`` or found beside the
handout, stored in ``support/`` and named in the spec, so that the folder it writes validates;
a module that cannot be one is refused with its own message before anything runs."""

from __future__ import annotations

import json
import shutil
from dataclasses import replace
from pathlib import Path

import nbformat
import pytest

from grader.authoring.create import InitRequest, create_assignment
from grader.authoring.support_modules import HandedFile, SupportChoice, choose_support, imported_names
from grader.class_folder.layout import RESULT_FILE
from grader.cli import build_parser, main
from grader.grading import grade_submission
from grader.results import SubmissionResult
from grader.spec.loader import load_assignment
from grader.spec.support import SUPPORT_FOLDER, SupportModule
from grader.submission.reader import read_submission
from grader.validation import validate_assignment
from tests.courses.support_course import COURSE, tampered_module


def _course_copy(tmp_path: Path, *, with_module: bool = True) -> Path:
    """The course's solution and handout in a folder of their own, the module beside them or not."""
    folder = tmp_path / "course"
    folder.mkdir()
    names = ["solution.py", "handout.py"] + (["toygame.py"] if with_module else [])
    for name in names:
        shutil.copyfile(COURSE / name, folder / name)
    return folder


def _handed(path: Path, role: str = "handout") -> HandedFile:
    return HandedFile(role, path, read_submission(path).notebook)


def _init(capsys: pytest.CaptureFixture[str], *args: str | Path) -> tuple[int, str, str]:
    status = main(["init", *map(str, args)])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


# -- choosing the modules (no kernel) -----------------------------------------------------------


def test_imported_names_are_the_top_level_modules_in_order() -> None:
    sources = ["import os.path\nfrom toygame import Board\n", "%matplotlib inline\nimport game_api as api\n"]
    sources.append("from . import sibling\ndef f():\n    import toytree\n")
    assert imported_names(sources) == ["os", "toygame", "game_api", "toytree"]


def test_a_module_beside_the_handout_is_taken_and_the_standard_library_and_packages_are_not(tmp_path: Path) -> None:
    folder = _course_copy(tmp_path)
    for name in ("json", "numpy"):  # beside it too, but the standard library's and an installed package
        (folder / f"{name}.py").write_text("shadow = True\n", encoding="utf-8")
    handout = folder / "handout.py"
    handout.write_text("import json\nimport numpy\n" + handout.read_text(encoding="utf-8"), encoding="utf-8")
    choice = choose_support([], [_handed(handout), _handed(folder / "solution.py", "solution")])
    assert isinstance(choice, SupportChoice)
    assert choice.names == ("toygame.py",)
    assert choice.summary == (f"support: took toygame.py (imported by the handout, found in {folder})",)


def test_a_module_the_support_module_imports_is_taken_with_it(tmp_path: Path) -> None:
    folder = _course_copy(tmp_path)
    (folder / "toytree.py").write_text("LEAVES = 3\n", encoding="utf-8")
    module = folder / "toygame.py"
    module.write_text("import toytree\n" + module.read_text(encoding="utf-8"), encoding="utf-8")
    choice = choose_support([], [_handed(folder / "handout.py")])
    assert isinstance(choice, SupportChoice)
    assert choice.names == ("toygame.py", "toytree.py")
    assert "imported by the toygame.py" in choice.summary[1]


def test_nothing_beside_the_files_is_nothing_taken(tmp_path: Path) -> None:
    folder = _course_copy(tmp_path, with_module=False)
    assert choose_support([], [_handed(folder / "handout.py")]) == SupportChoice()


def test_given_modules_are_taken_as_given_and_nothing_is_looked_for(tmp_path: Path) -> None:
    folder = _course_copy(tmp_path)
    elsewhere = tmp_path / "lib" / "toygame.py"
    elsewhere.parent.mkdir()
    shutil.copyfile(COURSE / "toygame.py", elsewhere)
    choice = choose_support([elsewhere, elsewhere], [_handed(folder / "handout.py")])
    assert choice == SupportChoice((elsewhere,), ("support: toygame.py (given with --support)",))


# -- refused before anything runs (no kernel) ---------------------------------------------------


@pytest.mark.parametrize(
    ("file", "text", "words"),
    [
        ("missing.py", None, "missing.py does not exist"),
        ("toygame.txt", "x = 1\n", "toygame.txt is not a Python module (a support module is a .py file)"),
        ("toygame.py", "def winner(cells:\n", "toygame.py has a syntax error on line 1"),
    ],
)
def test_a_bad_support_file_gets_its_own_message_and_no_folder(
    file: str, text: str | None, words: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = _course_copy(tmp_path, with_module=False)
    given = tmp_path / "given" / file
    given.parent.mkdir()
    if text is not None:
        given.write_text(text, encoding="utf-8")
    out = tmp_path / "assignment"
    status, printed, said = _init(capsys, folder / "solution.py", "--out", out, "--support", given)
    assert status == 1 and printed == ""
    assert said.startswith("grader init: --support ") and said.count("\n") == 1
    assert words in said
    assert not out.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["course", "given"]


def test_two_modules_of_one_name_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = _course_copy(tmp_path)
    other = tmp_path / "other" / "toygame.py"
    other.parent.mkdir()
    shutil.copyfile(COURSE / "toygame.py", other)
    out = tmp_path / "assignment"
    status, _, said = _init(capsys, folder / "solution.py", "--out", out, "--support", folder / "toygame.py", other)
    assert status == 1 and "--support names two modules called toygame.py" in said
    assert not out.exists()


def test_a_module_found_beside_that_does_not_compile_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = _course_copy(tmp_path)
    (folder / "toygame.py").write_text("def winner(cells:\n", encoding="utf-8")
    out = tmp_path / "assignment"
    status, _, said = _init(capsys, folder / "solution.py", "--out", out, "--template", folder / "handout.py")
    assert status == 1
    assert "the handout imports toygame, found beside it, but " in said and "syntax error on line 1" in said
    assert not out.exists()


# -- the folder init writes, and a class graded with it (kernels) ------------------------------


def _assert_valid_folder(out: Path) -> None:
    assignment = load_assignment(out)
    assert [module.file_name for module in assignment.support] == ["toygame.py"]
    assert (out / SUPPORT_FOLDER / "toygame.py").read_bytes() == (COURSE / "toygame.py").read_bytes()
    assert 'support = ["toygame.py"]' in (out / "assignment.toml").read_text(encoding="utf-8")
    validation = validate_assignment(assignment)
    assert validation.ok, str(validation)
    assert validation.solution is not None and validation.solution.score == validation.solution.max_score
    assert validation.template is not None and validation.template.fraction <= 0.2


@pytest.fixture(scope="module")
def found_beside(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """init on the course, finding the module beside the handout: the folder and what init said."""
    tmp_path = tmp_path_factory.mktemp("found")
    folder = _course_copy(tmp_path)
    out = tmp_path / "assignment"
    report = create_assignment(InitRequest(folder / "solution.py", out, template=folder / "handout.py"))
    assert report.return_code == 0, str(report)
    return out, str(report)


@pytest.mark.kernel
@pytest.mark.slow
def test_init_finds_the_module_beside_the_handout(found_beside: tuple[Path, str]) -> None:
    out, said = found_beside
    assert "support: took toygame.py (imported by the handout, found in " in said
    _assert_valid_folder(out)


@pytest.mark.kernel
@pytest.mark.slow
def test_init_takes_the_module_given_with_support(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = _course_copy(tmp_path, with_module=False)  # nothing to find: only --support can supply it
    out = tmp_path / "assignment"
    status, printed, said = _init(
        capsys,
        folder / "solution.py",
        "--template",
        folder / "handout.py",
        "--out",
        out,
        "--support",
        COURSE / "toygame.py",
    )
    assert status == 0, said
    assert "support: toygame.py (given with --support)" in printed
    _assert_valid_folder(out)


@pytest.mark.kernel
@pytest.mark.slow
def test_a_class_is_graded_with_the_courses_module_whatever_a_student_hands_in(
    found_beside: tuple[Path, str], tmp_path: Path
) -> None:
    assignment = load_assignment(found_beside[0])
    class_folder = tmp_path / "class"
    for student, source in (("alice", "solution.py"), ("bob", "handout.py")):
        (class_folder / student).mkdir(parents=True)
        nbformat.write(read_submission(COURSE / source).notebook, class_folder / student / "lab.ipynb")
    (class_folder / "alice" / "toygame.py").write_text(tampered_module(), encoding="utf-8")
    # Graded with her copy, alice's right minimax would be wrong (her toygame sees no diagonal win):
    tampered = SupportModule(class_folder / "alice" / "toygame.py", digest="theirs")
    with_hers = grade_submission(class_folder / "alice" / "lab.ipynb", replace(assignment, support=(tampered,)))
    assert with_hers.score < with_hers.max_score
    out = tmp_path / "out"
    status = main(["batch", str(class_folder), "-a", str(found_beside[0]), "--out", str(out), "--jobs", "1", "--quiet"])
    assert status == 0
    results = {s: SubmissionResult.from_dict(json.loads((out / s / RESULT_FILE).read_text())) for s in ("alice", "bob")}
    alice, bob = results["alice"], results["bob"]
    assert alice.score == alice.max_score > 0
    ignored = "Your toygame.py was ignored: the course's own toygame.py is what your notebook imports when it is graded"
    assert any(line.startswith(ignored) for line in alice.problems), alice.problems
    assert bob.fraction <= 0.2 and not any("toygame.py" in line for line in bob.problems)


@pytest.mark.kernel
def test_without_the_module_the_solution_still_crashes_as_it_did(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = _course_copy(tmp_path, with_module=False)
    out = tmp_path / "assignment"
    status, _, said = _init(capsys, folder / "solution.py", "--out", out)
    assert status == 1
    assert "ModuleNotFoundError: No module named 'toygame'" in said
    assert not out.exists()


def test_the_handout_given_as_a_notebook_is_read_for_imports(tmp_path: Path) -> None:
    folder = _course_copy(tmp_path)
    notebook = read_submission(folder / "handout.py").notebook
    nbformat.write(notebook, folder / "handout.ipynb")
    choice = choose_support([], [_handed(folder / "handout.ipynb")])
    assert isinstance(choice, SupportChoice) and choice.names == ("toygame.py",)


def test_a_solution_swallowed_by_support_is_named_and_the_list_can_be_ended(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = _course_copy(tmp_path)
    out = tmp_path / "assignment"
    status, printed, said = _init(capsys, "--out", out, "--support", folder / "toygame.py", folder / "solution.py")
    assert status == 2 and printed == ""
    assert "no solution given: --support takes every file after it" in said
    assert not out.exists()
    # `--` ends the list: what follows is the solution
    parsed = build_parser().parse_args(
        ["init", "--out", str(out), "--support", str(folder / "toygame.py"), "--", str(folder / "solution.py")]
    )
    assert parsed.solution == folder / "solution.py" and parsed.support == [folder / "toygame.py"]
