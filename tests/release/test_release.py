"""`grader release` end to end: real masters in nbgrader's and otter's style become a student's
version, an assignment that validates and a bundle; a second release keeps the hand edits; the
five built-ins' answer keys, marked as masters, release to handouts that score at most a fifth
under the built-ins' own checks; a master that cannot be read writes nothing."""

from __future__ import annotations

import shutil
import zipfile
from pathlib import Path

import nbformat
import pytest

from grader.cli import main
from grader.release.release import ReleaseRequest, drop_released_adapter, release_assignment
from grader.spec.loader import BUILTIN_ASSIGNMENTS, list_assignments, load_assignment
from grader.validation import TEMPLATE_MAX_FRACTION
from tests.release.marking import defined_functions, marked_source, write_master

MASTERS = Path(__file__).parent / "masters"


def _bundle_text(folder: Path) -> str:
    text = ""
    for wheel in folder.glob("*.whl"):
        with zipfile.ZipFile(wheel) as archive:
            text += "".join(archive.read(name).decode("utf-8", "replace") for name in archive.namelist())
    return text


@pytest.mark.kernel
@pytest.mark.slow
def test_an_nbgrader_master_releases_and_a_second_release_keeps_the_hand_edits(tmp_path: Path) -> None:
    """The master has settings and an adapter.py beside it for the first release, which the
    folder and the bundle carry; the second release, the adapter gone, leaves it out of both."""
    out = tmp_path / "release"
    master = tmp_path / "nbgrader-week5.ipynb"
    notebook = nbformat.read(MASTERS / "nbgrader-week5.ipynb", as_version=4)
    notebook.cells.append(nbformat.v4.new_raw_cell("# GRADER CONFIG\n[assignment]\nnotebook_timeout = 600\n"))
    nbformat.write(notebook, master)
    (tmp_path / "adapter.py").write_text('"""The checks week 5 once had."""\n', encoding="utf-8")
    report = release_assignment(ReleaseRequest(master, out, "week5"))
    assert report.return_code == 0, str(report)
    assert report.validation is not None and report.validation.template is not None
    assert report.validation.template.fraction <= TEMPLATE_MAX_FRACTION
    assignment = load_assignment(out / "week5")
    assert assignment.title == "Week 5: minimax on a flat board"
    student = nbformat.read(out / "student" / "week5.ipynb", as_version=4)
    assert nbformat.read(out / "week5" / "template.ipynb", as_version=4).cells == student.cells
    assert "BEGIN" not in (out / "week5" / "solution.ipynb").read_text(encoding="utf-8")
    bundle = _bundle_text(out / "bundle")
    assert 'assert not check_win([" "] * 9, "O")' not in bundle  # the hidden test
    assert "return any(all(board[i] == player for i in line) for line in LINES)" not in bundle
    assert sorted(p.name for p in (out / "bundle").glob("*.whl"))[0] == "gamesearch_assignment_week5-1-py3-none-any.whl"
    assert (out / "week5" / "adapter.py").is_file() and "The checks week 5 once had" in bundle

    spec = out / "week5" / "assignment.toml"
    text = spec.read_text(encoding="utf-8")
    check_win = text.index('id = "check-win"')
    points = text.index("points = 10\n", check_win)
    edited = text[:points] + "points = 30\n" + text[points + len("points = 10\n") :]
    spec.write_text(edited.replace('# first_player = "X"', 'first_player = "X"', 1), encoding="utf-8")
    (tmp_path / "adapter.py").unlink()
    again = release_assignment(ReleaseRequest(master, out, "week5"))
    assert again.return_code == 0, str(again)
    assert f"{out / 'week5' / 'adapter.py'} removed: the master gives none now" in again.notes
    assert not (out / "week5" / "adapter.py").exists()
    assert 'assignment.first_player = "X": yours' in again.kept
    assert "check check-win: points = 30: yours" in again.kept
    released = load_assignment(out / "week5")
    assert next(c.points for c in released.checks if c.id == "check-win") == 30
    assert released.first_player == "X"
    second = out / "bundle" / "gamesearch_assignment_week5-2-py3-none-any.whl"
    with zipfile.ZipFile(second) as archive:
        assert not [name for name in archive.namelist() if name.endswith("adapter.py")]


@pytest.mark.kernel
@pytest.mark.slow
def test_an_otter_master_releases_to_an_assignment_that_validates(tmp_path: Path) -> None:
    out = tmp_path / "release"
    report = release_assignment(ReleaseRequest(MASTERS / "otter-lab6.ipynb", out, "lab6"))
    assert report.return_code == 0, str(report)
    assert load_assignment(out / "lab6").title == "Lab 6: a best move, the otter way"
    student = (out / "student" / "lab6.ipynb").read_text(encoding="utf-8")
    assert "BEGIN" not in student and "check_win([" not in student and "won = ..." in student


SETTINGS = Path(__file__).parent / "settings"
FIELDS = ("encoding", "board", "maximizer", "first_player", "scoring", "move_format")


def _master_of(assignment_id: str, folder: Path) -> Path:
    """The built-in's answer key marked as a master (otter's markers or nbgrader's), its
    author's settings in a ``# GRADER CONFIG`` cell, its adapter.py beside it."""
    builtin = BUILTIN_ASSIGNMENTS / assignment_id
    style = "otter" if len(assignment_id) % 2 else "nbgrader"
    master = folder / f"{assignment_id}-master.ipynb"
    write_master(str(builtin / "solution.ipynb"), str(builtin / "template.ipynb"), str(master), style)
    notebook = nbformat.read(master, as_version=4)
    settings = (SETTINGS / f"{assignment_id}.toml").read_text(encoding="utf-8")
    notebook.cells.append(nbformat.v4.new_raw_cell("# GRADER CONFIG\n" + settings))
    nbformat.write(notebook, master)
    if (builtin / "adapter.py").is_file():
        shutil.copyfile(builtin / "adapter.py", folder / "adapter.py")
    return master


@pytest.mark.kernel
@pytest.mark.slow
@pytest.mark.parametrize("assignment_id", list_assignments())
def test_a_built_ins_master_releases_to_the_built_ins_own_checks(assignment_id: str, tmp_path: Path) -> None:
    """Released into an empty folder: init writes the assignment from the answer key and the
    handout the markers make, the master's settings do the rest, and the checks are the
    built-in's own, under which the handout scores at most a fifth."""
    builtin = BUILTIN_ASSIGNMENTS / assignment_id
    stdin = builtin / "STDIN.txt"
    out = tmp_path / "release"
    report = release_assignment(
        ReleaseRequest(_master_of(assignment_id, tmp_path), out, stdin=stdin if stdin.is_file() else None)
    )
    assert report.return_code == 0, str(report)
    assert report.settings and report.notes == (), str(report)
    released, original = load_assignment(out / assignment_id), load_assignment(builtin)
    assert released.checks == original.checks
    for field in FIELDS:
        assert getattr(released, field) == getattr(original, field), field
    assert report.validation is not None and report.validation.template is not None
    assert report.validation.template.fraction <= TEMPLATE_MAX_FRACTION, str(report.validation)
    handout = (out / assignment_id / "template.ipynb").read_text(encoding="utf-8")
    assert "NotImplementedError" in handout and "GRADER CONFIG" not in handout
    print(f"{assignment_id}: handout {report.validation.template.score:g} / {report.validation.template.max_score:g}")
    if assignment_id == "alphabeta-challenges":  # its board: empty cells read alike, written as digits
        assert "encoding" not in (SETTINGS / f"{assignment_id}.toml").read_text(encoding="utf-8")
    if assignment_id == "minimax-enhanced":  # the node counter kept by minimax_with_count, not minimax
        assert "minimax_call" not in (SETTINGS / f"{assignment_id}.toml").read_text(encoding="utf-8")
        (counted,) = [c for c in released.checks if c.kind == "node-counts"]
        assert (counted.params.counter, counted.params.minimax_call.text) == (
            "node_count",
            "minimax_with_count(board, is_max)",
        )


@pytest.mark.kernel
@pytest.mark.slow
def test_a_folder_no_release_wrote_is_kept_whole_and_graded_with(tmp_path: Path) -> None:
    """The built-in's assignment.toml is its author's: kept whole (init does not run), and the
    handout the markers make scores at most a fifth under it."""
    builtin = BUILTIN_ASSIGNMENTS / "experiment04"
    master = tmp_path / "experiment04-master.ipynb"
    write_master(str(builtin / "solution.ipynb"), str(builtin / "template.ipynb"), str(master))
    out = tmp_path / "release"
    shutil.copytree(builtin, out / "experiment04", ignore=shutil.ignore_patterns("solution.*", "template.*"))
    report = release_assignment(ReleaseRequest(master, out))
    assert report.return_code == 0, str(report)
    assert any("was not written by a release: kept whole" in note for note in report.notes), str(report)
    assert (out / "experiment04" / "assignment.toml").read_bytes() == (builtin / "assignment.toml").read_bytes()
    assert report.validation is not None and report.validation.template is not None
    assert report.validation.template.fraction <= TEMPLATE_MAX_FRACTION, str(report.validation)


def test_a_master_that_cannot_be_read_writes_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    master = tmp_path / "week5-master.ipynb"
    cell = nbformat.v4.new_code_cell("def minimax(board):\n    ### BEGIN SOLUTION\n    return 0\n")
    nbformat.write(nbformat.v4.new_notebook(cells=[cell]), master)
    assert main(["release", str(master), "--out", str(tmp_path / "out")]) == 1
    assert capsys.readouterr().err.strip() == (
        "grader release: cell 1, line 2: BEGIN SOLUTION is never closed by END SOLUTION"
    )
    assert not (tmp_path / "out").exists()


CS50 = Path(__file__).parents[1] / "classes" / "cs50"


@pytest.mark.kernel
@pytest.mark.slow
def test_a_script_master_releases_as_scripts_titled_by_its_docstring(tmp_path: Path) -> None:
    """Every function marked, the author's helpers too: a function the master gives whole is in
    the handout, and init grades what the handout defines."""
    solution = CS50 / "handins" / "abigail.py"
    functions = defined_functions(_script(solution))
    master = tmp_path / "tictactoe-master.py"
    master.write_text(marked_source(solution.read_text(encoding="utf-8"), functions, "otter"), encoding="utf-8")
    out = tmp_path / "release"
    report = release_assignment(ReleaseRequest(master, out))
    assert report.return_code == 0, str(report)
    folder = out / "tictactoe"
    assert sorted(p.name for p in folder.iterdir()) == ["assignment.toml", "solution.py", "template.py"]
    assert load_assignment(folder).title == "Tic Tac Toe Player"
    student = (out / "student" / "tictactoe.py").read_text(encoding="utf-8")
    assert student == (folder / "template.py").read_text(encoding="utf-8")
    assert student.count("raise NotImplementedError()") == len(functions)
    assert (folder / "solution.py").read_text(encoding="utf-8") == solution.read_text(encoding="utf-8")


@pytest.mark.kernel
@pytest.mark.slow
def test_the_helpers_a_master_gives_whole_are_not_graded(tmp_path: Path) -> None:
    """Only the handout's functions marked: the author's max_value and min_value reach students
    whole, and a check of them would give every student their points."""
    solution = CS50 / "handins" / "abigail.py"
    asked = defined_functions(_script(CS50 / "handout.py"))
    master = tmp_path / "given-master.py"
    master.write_text(marked_source(solution.read_text(encoding="utf-8"), asked, "nbgrader"), encoding="utf-8")
    report = release_assignment(ReleaseRequest(master, tmp_path / "release"))
    assert report.return_code == 0, str(report)
    assert report.validation is not None and report.validation.template is not None
    assert report.validation.template.score == 0, str(report.validation)
    text = (tmp_path / "release" / "given" / "assignment.toml").read_text(encoding="utf-8")
    assert "less what it gives as the solution has it: max_value, min_value" in text
    assert 'call = "max_value(' not in text and 'call = "min_value(' not in text


def _script(path: Path) -> nbformat.NotebookNode:
    return nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(path.read_text(encoding="utf-8"))])


@pytest.mark.kernel
def test_a_master_init_cannot_read_is_one_message(tmp_path: Path) -> None:
    source = (Path(__file__).parents[1] / "authoring" / "bad" / "not_tictactoe.py").read_text(encoding="utf-8")
    master = tmp_path / "sorting.py"
    master.write_text(source.replace("    items = list(items)\n", "    items = list(items)  # SOLUTION\n", 1))
    report = release_assignment(ReleaseRequest(master, tmp_path / "out"))
    assert report.return_code == 1
    assert str(report).startswith(
        "grader release: init could not make the assignment: this is not a tic-tac-toe solution init can read"
    ), str(report)
    assert not (tmp_path / "out" / "sorting").exists()


def test_an_adapter_no_release_wrote_as_it_is_is_kept_when_the_master_drops_its_own(tmp_path: Path) -> None:
    """Edited by hand since the release wrote it, or put there by hand: kept, and said so."""
    folder, state = tmp_path / "week5", tmp_path / ".release"
    folder.mkdir()
    state.mkdir()
    (state / "adapter.py").write_text("released\n", encoding="utf-8")
    (folder / "adapter.py").write_text("released, then edited\n", encoding="utf-8")
    note = drop_released_adapter(folder, state)
    assert note is not None and note.startswith(f"{folder / 'adapter.py'} kept, though the master gives none now")
    assert (folder / "adapter.py").read_text(encoding="utf-8") == "released, then edited\n"
    assert not (state / "adapter.py").exists()  # not the release's: a later release keeps it too
    assert drop_released_adapter(folder, state) == note
    (folder / "adapter.py").unlink()
    assert drop_released_adapter(folder, state) is None
