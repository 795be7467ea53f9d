"""A master's own settings for its assignment (``# GRADER CONFIG``): read from a notebook's raw
cells and a script's comment block, left out of both versions, applied to what init wrote; a
setting that cannot be applied is one error naming it and its cell."""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest
import tomlkit
from nbformat.v4 import new_code_cell, new_notebook, new_raw_cell

from grader.release.markers import MarkerError
from grader.release.master import read_master
from grader.release.master_settings import SettingsError, SettingsPiece, apply_settings

CODE = "def f():\n    return 1  # SOLUTION\n"
INIT_WROTE = """\
[assignment]
id = "week5"
title = "Week 5"

[[checks]]
id = "check-win"
kind = "predicate"
points = 10
examples = 200

[[checks]]
id = "minimax"
kind = "search-value"
points = 20
call = "minimax(board, 0, is_max, 9)"

[[checks]]
id = "runs-cleanly"
kind = "runs-cleanly"
points = 5
"""


def _apply(*texts: str) -> dict:
    pieces = tuple(SettingsPiece(f"cell {n}", text) for n, text in enumerate(texts, start=1))
    return tomlkit.parse(apply_settings(pieces, INIT_WROTE).text).unwrap()


def test_settings_set_fields_and_checks_leave_out_and_order_them() -> None:
    spec = _apply(
        '[assignment]\nseed = 4\n\n[[checks]]\nid = "minimax"\ncall = "minimax(board, 0, is_max)"\n',
        '[[checks]]\nid = "check-win"\nunset = ["examples"]\npoints = 15\nrename = "won"\n\n'
        '[[checks]]\nid = "printed"\nkind = "manual"\npoints = 5\n\n'
        '[release]\nleave_out = ["runs-cleanly"]\nunset = ["assignment.title"]\norder = ["printed", "won", "minimax"]\n',
    )
    assert spec["assignment"] == {"id": "week5", "seed": 4}
    checks = {c["id"]: c for c in spec["checks"]}
    assert [c["id"] for c in spec["checks"]] == ["printed", "won", "minimax"]
    assert checks["minimax"]["call"] == "minimax(board, 0, is_max)" and checks["minimax"]["points"] == 20
    assert checks["won"] == {"id": "won", "kind": "predicate", "points": 15}
    assert checks["printed"] == {"id": "printed", "kind": "manual", "points": 5}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('[release]\nleave_out = ["check-draw"]\n', "cell 1: leave_out names 'check-draw', a check init did not write"),
        ('[release]\norder = ["minimax"]\n', "order must name every check once: missing ['check-win', 'runs-cleanly']"),
        ('[release]\ndrop = ["minimax"]\n', "[release] has no setting 'drop'"),
        ('[release]\nunset = ["assignment.seed"]\n', "unset 'assignment.seed', which init did not write"),
        ('[release]\nunset = ["checks.id"]\n', "unset 'checks.id', which init did not write"),
        ('[[checks]]\nid = "minimax"\nunset = ["seed"]\n', "check minimax: unset 'seed', which init did not write"),
        ("[[checks]]\npoints = 3\n", "a [[checks]] entry without an id"),
        ('[[checks]]\nid = "minimax"\nrename = "check-win"\n', "rename to 'check-win', the id of another check"),
        ('[[checks]]\nid = "best"\nrename = "b"\n', "check best: unset and rename are for a check init wrote"),
        ("seed = 4\n", "seed = 4 is outside any table"),
        ("[assignment\n", "cell 1: the GRADER CONFIG settings are not TOML"),
    ],
)
def test_a_setting_that_cannot_be_applied_is_one_error_naming_it(text: str, message: str) -> None:
    with pytest.raises(SettingsError) as raised:
        _apply(text)
    assert message in str(raised.value)


def test_a_notebooks_settings_cells_reach_neither_version(tmp_path: Path) -> None:
    path = tmp_path / "master.ipynb"
    cells = [
        new_code_cell("def f():\n    ### BEGIN SOLUTION\n    return 1\n    ### END SOLUTION\n"),
        new_raw_cell('# GRADER CONFIG\n[[checks]]\nid = "f"\npoints = 3\n'),
        new_raw_cell("# a raw cell of the course's own\n"),
    ]
    nbformat.write(new_notebook(cells=cells), path)
    master = read_master(path)
    assert master.settings == (SettingsPiece("cell 2", '[[checks]]\nid = "f"\npoints = 3\n'),)
    for version in (master.student, master.solution):
        assert [cell.source for cell in version.cells if cell.cell_type == "raw"] == [
            "# a raw cell of the course's own\n"
        ]
        assert all("GRADER CONFIG" not in cell.source for cell in version.cells)


def test_a_scripts_settings_block_is_uncommented_and_taken_out(tmp_path: Path) -> None:
    path = tmp_path / "lab.py"
    path.write_text(
        '"""Lab 2."""\n# BEGIN GRADER CONFIG\n# [[checks]]\n# id = "f"\n#   points = 3\n# END GRADER CONFIG\n'
        "def f():\n    return 1  # SOLUTION\n",
        encoding="utf-8",
    )
    master = read_master(path)
    assert master.settings == (SettingsPiece("lab.py, lines 2-6", '[[checks]]\nid = "f"\n  points = 3\n'),)
    assert "GRADER" not in master.student.cells[0].source + master.solution.cells[0].source
    assert master.student.cells[0].source == '"""Lab 2."""\ndef f():\n    raise NotImplementedError()\n'


@pytest.mark.parametrize(
    ("source", "message"),
    [
        (
            "# BEGIN GRADER CONFIG\nx = 1\n# END GRADER CONFIG\n" + CODE,
            "line 2: code inside the GRADER CONFIG begun on line 1",
        ),
        ("# BEGIN GRADER CONFIG\n# x = 1\n" + CODE, "line 3: code inside the GRADER CONFIG begun on line 1"),
        (CODE + "# BEGIN GRADER CONFIG\n# x = 1\n", "line 3: BEGIN GRADER CONFIG is never closed"),
        ("# END GRADER CONFIG\n" + CODE, "line 1: END GRADER CONFIG with no BEGIN"),
    ],
)
def test_a_scripts_settings_block_that_cannot_be_read_names_its_line(tmp_path: Path, source: str, message: str) -> None:
    path = tmp_path / "lab.py"
    path.write_text(source, encoding="utf-8")
    with pytest.raises(MarkerError) as raised:
        read_master(path)
    assert message in str(raised.value)


@pytest.mark.parametrize("make", [new_code_cell, nbformat.v4.new_markdown_cell])
def test_settings_outside_a_raw_cell_are_refused_not_handed_to_students(tmp_path: Path, make: object) -> None:
    path = tmp_path / "master.ipynb"
    cells = [
        new_code_cell("def f():\n    ### BEGIN SOLUTION\n    return 1\n    ### END SOLUTION\n"),
        make('# GRADER CONFIG\n[[checks]]\nid = "f"\npositions = ["X.O.X...."]\n'),  # type: ignore[operator]
    ]
    nbformat.write(new_notebook(cells=cells), path)
    with pytest.raises(MarkerError) as raised:
        read_master(path)
    assert "cell 2:" in str(raised.value) and "make it a raw cell" in str(raised.value)
