"""A lab05 notebook with a shorter experiment: its last cell plays 100 games against a random
player at depth 3 and 100 at full depth, about ten seconds of a kernel's time wherever the
notebook runs (nbclient, ``grader run``, every grading). A test whose point is not the
experiment plays a few of each instead: the same functions, the same checks (no check reads
what the experiment prints), seconds instead of ten."""

from __future__ import annotations

from pathlib import Path

import nbformat
from nbformat import NotebookNode

EXPERIMENT_LOOP = "for _ in range(100):"
GAMES = 2


def with_fewer_games(notebook: NotebookNode) -> NotebookNode:
    """``notebook`` (changed in place) with each of its experiment's two loops playing `GAMES`."""
    loops = 0
    for cell in notebook.cells:
        if cell.cell_type == "code" and EXPERIMENT_LOOP in cell.source:
            loops += cell.source.count(EXPERIMENT_LOOP)
            cell.source = cell.source.replace(EXPERIMENT_LOOP, f"for _ in range({GAMES}):")
    assert loops == 2, f"expected the experiment's two loops of 100 games, found {loops}"
    return notebook


def read_with_fewer_games(path: Path) -> NotebookNode:
    return with_fewer_games(nbformat.read(path, as_version=4))


def copy_with_fewer_games(path: Path, destination: Path) -> Path:
    """``path`` written to ``destination`` with `GAMES` games per loop of its experiment."""
    nbformat.write(read_with_fewer_games(path), destination)
    return destination
