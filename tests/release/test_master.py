"""A master notebook written in nbgrader's style and one in otter's, read into the answer key
and the student's version; a master that cannot be read is one error saying where."""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_notebook, new_raw_cell

from grader.release.markers import MarkerError
from grader.release.master import read_master

MASTERS = Path(__file__).parent / "masters"


def _sources(notebook: nbformat.NotebookNode) -> str:
    return "\n".join(cell.source for cell in notebook.cells)


def test_an_nbgrader_master_keeps_its_locked_cells_locked_and_its_hidden_tests_from_students() -> None:
    master = read_master(MASTERS / "nbgrader-week5.ipynb")
    assert master.title == "Week 5: minimax on a flat board"
    student, key = _sources(master.student), _sources(master.solution)
    assert "return any(all(board[i] == player" not in student and "return any(all(board[i] == player" in key
    assert student.count("raise NotImplementedError()") == 3  # check_win, minimax, best_move
    assert 'assert not check_win([" "] * 9, "O")' in key and 'assert not check_win([" "] * 9, "O")' not in student
    assert "YOUR ANSWER HERE" in student and "fewer positions" not in student  # the markdown answer, whole
    assert "BEGIN" not in key + student and "END" not in key + student
    locked = [cell for cell in master.student.cells if cell.metadata.get("editable") is False]
    assert [cell.source.splitlines()[0] for cell in locked] == [
        "# Setup: leave this cell as it is.",
        'assert check_win(["X"] * 3 + [" "] * 6, "X")',
    ]
    assert all(cell.metadata["deletable"] is False for cell in locked)
    assert all(cell.get("outputs", []) == [] for cell in master.student.cells)


def test_an_otter_master_loses_its_frames_and_test_cells_in_both_versions() -> None:
    master = read_master(MASTERS / "otter-lab6.ipynb")
    assert master.title == "Lab 6: a best move, the otter way"
    for version in (master.student, master.solution):
        assert [cell.cell_type for cell in version.cells] == ["markdown", "code", "markdown", "code", "code"]
        assert "check_win([" not in _sources(version)  # the tests, public and hidden
    student = _sources(master.student)
    assert "        won = ...\n    return False" in student and "if won:" not in student
    assert "def minimax(board, is_max):\n    raise NotImplementedError()" in student
    assert "return max(moves, key=value)" in _sources(master.solution)
    assert len(master.notes) == 2 and "test cell" in master.notes[0]


def test_a_script_master_is_read_whole_and_titled_by_its_docstring(tmp_path: Path) -> None:
    path = tmp_path / "lab.py"
    path.write_text('"""Lab 2: minimax."""\n\ndef minimax(board):\n    return 0  # SOLUTION\n', encoding="utf-8")
    master = read_master(path)
    assert master.script and master.title == "Lab 2: minimax"
    assert _sources(master.student).endswith("def minimax(board):\n    raise NotImplementedError()\n")


def _write(tmp_path: Path, *cells: nbformat.NotebookNode) -> Path:
    path = tmp_path / "master.ipynb"
    nbformat.write(new_notebook(cells=list(cells)), path)
    return path


def test_a_master_without_markers_is_refused(tmp_path: Path) -> None:
    path = _write(tmp_path, new_code_cell("def minimax(board):\n    return 0"))
    with pytest.raises(MarkerError, match="master.ipynb marks no solution: put the answer key between"):
        read_master(path)


@pytest.mark.parametrize(
    ("cells", "message"),
    [
        (
            [new_raw_cell("# BEGIN QUESTION"), new_code_cell("x = 1  # SOLUTION")],
            "cell 1: BEGIN QUESTION is never closed",
        ),
        (
            [new_raw_cell("# BEGIN QUESTION"), new_raw_cell("# END SOLUTION")],
            "cell 2: END SOLUTION with no BEGIN SOLUTION before it inside BEGIN QUESTION of cell 1",
        ),
        (
            [new_code_cell("x = 1  # SOLUTION", metadata={"nbgrader": {"locked": True}})],
            "cell 1 is locked and holds a solution",
        ),
        ([new_code_cell("x = 1"), new_code_cell("def f():\n    # BEGIN SOLUTION\n    return 1")], "cell 2, line 2"),
    ],
    ids=["open-question", "crossed-frames", "locked-solution", "open-region"],
)
def test_a_master_that_cannot_be_read_names_the_cell(
    tmp_path: Path, cells: list[nbformat.NotebookNode], message: str
) -> None:
    with pytest.raises(MarkerError, match=message):
        read_master(_write(tmp_path, *cells))


def test_a_master_that_is_no_notebook_or_script_is_refused(tmp_path: Path) -> None:
    with pytest.raises(MarkerError, match=r"master.txt: a master is a notebook \(.ipynb\) or a script \(.py\)$"):
        read_master(tmp_path / "master.txt")
    with pytest.raises(MarkerError, match="gone.py: no such file$"):
        read_master(tmp_path / "gone.py")
    (tmp_path / "latin.py").write_bytes(b"x = '\xe9'  # SOLUTION\n")
    with pytest.raises(MarkerError, match="latin.py: not a script that can be read: 'utf-8' codec"):
        read_master(tmp_path / "latin.py")
    (tmp_path / "broken.ipynb").write_text("{not json", encoding="utf-8")
    with pytest.raises(MarkerError, match="broken.ipynb: not a notebook that can be read"):
        read_master(tmp_path / "broken.ipynb")
