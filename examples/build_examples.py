"""Rebuild the example classes that `grader demo` grades: examples/<assignment-id>/.

    .venv/bin/python examples/build_examples.py [ID ...]

Each class is made of files an instructor really receives: a copy of the solution, wrong
submissions taken from tests/submissions/<id>/ (each has one typical mistake), an upload cut
off halfway (not valid JSON) and a notebook whose last cell loops forever. Student ids are
the file names, so the class index reads like a story: ``ben-alphabeta-wrong-cutoff`` ...
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "tests" / "submissions"
STUDENTS = ("ben", "cleo", "dan", "eve")

WRONG_SUBMISSIONS = {
    "lab05": ("alphabeta-wrong-cutoff", "minimax-no-undo", "missing-anti-diagonal", "draw-scored-as-loss"),
    "alphabeta-challenges": ("ab-cut-strict", "horizontal-win-missing", "min-keeps-largest", "is-valid-indices-swapped"),
    "depth-limits": ("anti-diagonal-missing", "depth-limit-off-by-one", "draw-utility-one", "expand-mutates-state"),
    "experiment04": ("best-move-wrong-turn", "missing-column-check", "move-not-undone", "score-without-depth"),
    "minimax-enhanced": ("anti-diagonal-ignored", "evaluate-o-positive", "min-places-x", "root-not-counted"),
}

ENDLESS_GAME_LOOP = """\
# Play until the game is over
game_over = False
while not game_over:
    pass  # TODO: ask for the next move and update game_over
"""


def build_class(assignment_id: str) -> Path:
    solution = REPO / "assignments" / assignment_id / "solution.ipynb"
    folder = REPO / "examples" / assignment_id
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    shutil.copyfile(solution, folder / "ada-solution.ipynb")
    for student, bug in zip(STUDENTS, WRONG_SUBMISSIONS[assignment_id]):
        shutil.copyfile(FIXTURES / assignment_id / f"{bug}.ipynb", folder / f"{student}-{bug}.ipynb")
    text = solution.read_text(encoding="utf-8")
    (folder / "fay-truncated-upload.ipynb").write_text(text[: len(text) // 3], encoding="utf-8")
    notebook = nbformat.read(solution, as_version=4)
    notebook.cells += [new_markdown_cell("## Playing the game"), new_code_cell(ENDLESS_GAME_LOOP)]
    nbformat.write(notebook, folder / "gus-infinite-loop.ipynb")
    return folder


def main(ids: list[str]) -> int:
    for assignment_id in ids or sorted(WRONG_SUBMISSIONS):
        print(f"{build_class(assignment_id).relative_to(REPO)}: {len(list((REPO / 'examples' / assignment_id).iterdir()))} files")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
