"""Reading submission files: notebooks of any vintage, Python scripts, and unusable files."""

from __future__ import annotations

import json
from pathlib import Path

import nbformat
import pytest

from grader.submission.reader import (
    SubmissionUnreadable,
    definition_statements,
    notebook_from_script,
    read_submission,
)

V4_CELL: dict[str, object] = {
    "cell_type": "code",
    "metadata": {},
    "source": "x = 1",
    "outputs": [],
    "execution_count": None,
}


def write(tmp_path: Path, name: str, content: bytes | str) -> Path:
    path = tmp_path / name
    path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    return path


def notebook_json(cells: list, **extra: object) -> str:
    return json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5, **extra})


@pytest.mark.parametrize(
    ("name", "content", "reason"),
    [
        ("empty.ipynb", b"", "the file is empty"),
        ("blank.py", b"\n  \n", "the file is empty"),
        ("comments.py", b"# nothing but a comment\n", "contains no code"),
        ("prose.ipynb", b"This is my homework, sorry it is late.", "not valid JSON (line 1, column 1"),
        ("truncated.ipynb", b'{"cells": [', "not valid JSON"),
        ("list.ipynb", b"[1, 2, 3]", "JSON but not a Jupyter notebook: found a JSON list"),
        ("object.ipynb", b'{"name": "homework"}', "JSON but not a Jupyter notebook: found an object without 'cells'"),
        ("bad_cells.ipynb", b'{"cells": 7, "nbformat": 4}', "'cells' is not a list"),
        ("binary.ipynb", b"\x89PNG\r\n\x1a\n\xff\xfe", "not UTF-8 text"),
        ("binary.py", b"\x7fELF\x00\x01", "not Python source: the file is binary"),
        ("essay.py", "Minimax is an algorithm that chooses the best move.\nIt looks ahead.\n", "not Python source"),
        ("homework.docx", b"PK\x03\x04", "unsupported file type '.docx'"),
    ],
)
def test_unusable_files_get_their_own_message(tmp_path: Path, name: str, content: bytes, reason: str) -> None:
    path = write(tmp_path, name, content)
    with pytest.raises(SubmissionUnreadable) as caught:
        read_submission(path)
    assert caught.value.path == path
    assert reason in caught.value.reason
    assert str(caught.value).startswith(name)


def test_missing_file_and_directory(tmp_path: Path) -> None:
    with pytest.raises(SubmissionUnreadable, match="does not exist"):
        read_submission(tmp_path / "nowhere.ipynb")
    (tmp_path / "folder.ipynb").mkdir()
    with pytest.raises(SubmissionUnreadable, match="is a directory"):
        read_submission(tmp_path / "folder.ipynb")


def test_too_large_files_are_refused_before_reading(tmp_path: Path) -> None:
    path = write(tmp_path, "big.ipynb", notebook_json([V4_CELL]))
    with pytest.raises(SubmissionUnreadable, match="too large"):
        read_submission(path, max_bytes=10)


def test_a_syntax_error_in_a_cell_is_just_code(tmp_path: Path) -> None:
    broken = {**V4_CELL, "source": "def f(:\n    pass"}
    submission = read_submission(write(tmp_path, "nb.ipynb", notebook_json([broken, V4_CELL])))
    assert [cell.source for cell in submission.notebook.cells] == ["def f(:\n    pass", "x = 1"]
    assert submission.notes == ()


def test_nbformat_3_notebooks_are_upgraded(tmp_path: Path) -> None:
    v3 = {
        "nbformat": 3,
        "nbformat_minor": 0,
        "metadata": {"name": "old"},
        "worksheets": [
            {
                "cells": [
                    {"cell_type": "heading", "level": 1, "source": "Lab 5", "metadata": {}},
                    {"cell_type": "code", "input": "print('hi')", "language": "python", "outputs": [], "metadata": {}},
                ]
            }
        ],
    }
    submission = read_submission(write(tmp_path, "old.ipynb", json.dumps(v3)))
    cells = submission.notebook.cells
    assert [(c.cell_type, c.source) for c in cells] == [("markdown", "# Lab 5"), ("code", "print('hi')")]
    assert submission.notes == ("upgraded from nbformat 3 to 4",)
    nbformat.validate(submission.notebook)


def test_schema_problems_are_repaired(tmp_path: Path) -> None:
    sloppy = [
        {"cell_type": "code", "source": ["import math\n", "x = math.pi"]},  # no outputs/metadata
        {"cell_type": "markdown", "source": "notes", "metadata": {"tags": ["keep"]}, "attachments": 5},
        {"cell_type": "mystery", "source": "?"},
        42,
    ]
    submission = read_submission(write(tmp_path, "sloppy.ipynb", notebook_json(sloppy)))
    cells = submission.notebook.cells
    assert [(c.cell_type, c.source) for c in cells] == [
        ("code", "import math\nx = math.pi"),
        ("markdown", "notes"),
        ("raw", "?"),
    ]
    assert cells[1].metadata == {"tags": ["keep"]}
    assert any("rebuilt" in note for note in submission.notes)
    assert any("1 damaged cell" in note for note in submission.notes)
    nbformat.validate(submission.notebook)


def test_outputs_in_the_file_are_dropped(tmp_path: Path) -> None:
    cell = {**V4_CELL, "outputs": [{"output_type": "stream", "name": "stdout", "text": "old"}], "execution_count": 3}
    submission = read_submission(write(tmp_path, "nb.ipynb", notebook_json([cell])))
    assert submission.notebook.cells[0].outputs == []


# --- Python scripts ----------------------------------------------------------------------


def sources(text: str) -> list[str]:
    return [cell.source for cell in notebook_from_script(text).cells]


def test_scripts_split_at_percent_markers() -> None:
    script = "import math\n\n# %% [markdown]\n# # Title\n# Some words\n\n# %%\nx = 1\ny = 2\n# %% second\nprint(x)\n"
    notebook = notebook_from_script(script)
    assert [(c.cell_type, c.source) for c in notebook.cells] == [
        ("code", "import math"),
        ("markdown", "# Title\nSome words"),
        ("code", "x = 1\ny = 2"),
        ("code", "print(x)"),
    ]


def test_a_module_level_game_loop_cannot_hide_later_definitions() -> None:
    script = (
        "import random\nimport math\n\n"
        "def best_move(board):\n    return 0\n\n"
        "# the board\n@staticmethod\ndef decorated():\n    pass\n\n"
        "board = [' '] * 9\n"
        "while True:\n    move = int(input('move: '))\n\n"
        "def minimax(board):\n    return 0\n\n"
        "class Game:\n    pass\n\n"
        "print(minimax(board)); print('done')\n"
    )
    assert sources(script) == [
        "import random\nimport math",
        "def best_move(board):\n    return 0\n\n# the board\n@staticmethod\ndef decorated():\n    pass",
        "board = [' '] * 9",
        "while True:\n    move = int(input('move: '))",
        "def minimax(board):\n    return 0\n\nclass Game:\n    pass",
        "print(minimax(board)); print('done')",
    ]


def test_a_script_that_does_not_parse_is_split_best_effort() -> None:
    # A listing whose indentation was lost at a page break, like seed 001's.
    script = (
        "def check(board):\n    return board == 'X'\n\n"
        "def minimax(board, depth):\n    if check(board): return 10 - depth\n"
        "if check(board): return depth - 10\n"
        "return 0\n\n"
        "def convert(position):\n    return (position - 1) // 3, (\n"
        "position - 1) % 3\n\n"
        "board = [' ' for _ in range(9)]\n"
    )
    cells = sources(script)
    assert "def convert(position):\n    return (position - 1) // 3, (\nposition - 1) % 3" in cells
    assert "board = [' ' for _ in range(9)]" in cells
    assert "return 0" in cells
    assert cells[0].startswith("def check(board):\n    return board == 'X'\n\ndef minimax")


def test_scripts_in_other_encodings_are_read(tmp_path: Path) -> None:
    path = write(tmp_path, "latin.py", "# -*- coding: latin-1 -*-\nname = 'Jos\xe9'\n".encode("latin-1"))
    assert read_submission(path).notebook.cells[-1].source.endswith("name = 'José'")


def test_definition_statements_keep_what_a_replay_needs() -> None:
    cell = (
        "import os\nfrom math import inf\nBOARD = [' '] * 9\nlimit: int = 3\n"
        "builtins.max = None\nresult = play()\n"
        "@cache\ndef f():\n    return 1\n"
        "class State:\n    pass\n"
        "while True:\n    pass\n"
    )
    assert definition_statements(cell) == (
        "import os\nfrom math import inf\nBOARD = [' '] * 9\nlimit: int = 3\n"
        "@cache\ndef f():\n    return 1\nclass State:\n    pass\n"
    )
    assert definition_statements("def broken(:") == ""


def test_a_deeply_nested_notebook_is_refused_with_a_reason(tmp_path: Path) -> None:
    deep = "[" * 200_000 + "]" * 200_000
    text = notebook_json([V4_CELL]).replace('"metadata": {}', f'"metadata": {{"deep": {deep}}}', 1)
    with pytest.raises(SubmissionUnreadable, match="nested 200,004 levels deep; the limit is 64"):
        read_submission(write(tmp_path, "deep.ipynb", text))


def test_nesting_is_measured_outside_strings_only(tmp_path: Path) -> None:
    from grader.submission.json_depth import MAX_JSON_DEPTH, nesting_depth

    assert nesting_depth('{"a": ["[[[[", "\\"[[[", {"b": "}}}"}]}') == 3

    def in_cell_metadata(levels: int) -> str:  # the notebook's own four levels, then ``levels`` lists
        nested = "[" * levels + "]" * levels
        return notebook_json([V4_CELL]).replace('"metadata": {}', f'"metadata": {{"deep": {nested}}}', 1)

    at_limit = read_submission(write(tmp_path, "fine.ipynb", in_cell_metadata(MAX_JSON_DEPTH - 4)))
    assert at_limit.notebook.cells[0].source == "x = 1"
    with pytest.raises(SubmissionUnreadable, match=f"nested {MAX_JSON_DEPTH + 1} levels deep"):
        read_submission(write(tmp_path, "deep.ipynb", in_cell_metadata(MAX_JSON_DEPTH - 3)))


@pytest.mark.parametrize("expression", ["a." * 200_000 + "b", "-" * 200_000 + "1", "1" + "+1" * 300_000])
def test_a_script_too_deep_for_the_parser_is_refused_not_raised(tmp_path: Path, expression: str) -> None:
    with pytest.raises(SubmissionUnreadable, match="not Python source"):
        read_submission(write(tmp_path, "deep.py", f"x = {expression}\n"))
    notebook = read_submission(write(tmp_path, "half.py", f"def f():\n    return 1\n\nx = {expression}\n")).notebook
    assert [cell.source.splitlines()[0] for cell in notebook.cells] == ["def f():", f"x = {expression}"]
