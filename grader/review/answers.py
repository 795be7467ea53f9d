"""What a student wrote for a manual item: the cells of the submitted notebook that begin
with the words the item names (``cells`` in the spec), each with the cells the student added
right after it (cells that are not in the handout), markdown rendered as HTML."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import nbformat
from markdown_it import MarkdownIt
from markupsafe import Markup

from grader.submission.reader import read_submission

MAX_CELLS_PER_ANSWER = 8
"""Added cells shown after an answer cell, at most (a long appendix is not an answer)."""


@dataclass(frozen=True)
class AnswerCell:
    number: int
    """The cell's position in the notebook, from 1."""
    kind: str
    """``markdown`` or ``code``."""
    source: str
    html: Markup | None
    """The markdown rendered (raw HTML in it escaped); None for a code cell."""


@dataclass(frozen=True)
class Answer:
    cells: tuple[AnswerCell, ...]
    note: str = ""
    """Why nothing is shown, when nothing is."""


@functools.lru_cache(maxsize=1)
def _markdown() -> MarkdownIt:
    # commonmark without raw HTML: a student's <script> is shown as text; unsafe link
    # schemes (javascript:) are refused by markdown-it's own link validation
    return MarkdownIt("commonmark", {"html": False})


def render_markdown(text: str) -> Markup:
    return Markup(_markdown().render(text))


def find_answer(submitted: Path | None, handout: Path | None, starts: Sequence[str]) -> Answer:
    """The answer cells in ``submitted`` for an item whose cells begin with ``starts``."""
    if not starts:
        return Answer((), "The spec names no answer cell for this item (add cells = [...] to it).")
    if submitted is None or submitted.suffix.lower() != ".ipynb":
        return Answer((), "The submission is not a notebook: read it in the report.")
    try:
        notebook = nbformat.read(submitted, as_version=4)
    except Exception as exc:  # any unreadable upload: say so, the page still works
        return Answer((), f"The submitted notebook cannot be read ({type(exc).__name__}).")
    handout_sources = _sources(handout)
    cells = notebook.cells
    shown: list[AnswerCell] = []
    for n, cell in enumerate(cells):
        if not _starts_any(cell, starts):
            continue
        shown.append(_answer_cell(n, cell))
        for k in range(n + 1, min(len(cells), n + 1 + MAX_CELLS_PER_ANSWER)):
            if _source(cells[k]).strip() in handout_sources or _starts_any(cells[k], starts):
                break
            shown.append(_answer_cell(k, cells[k]))
    if not shown:
        return Answer((), f"No cell beginning with {' or '.join(repr(s) for s in starts)} in the submission.")
    return Answer(tuple(shown))


def _starts_any(cell: nbformat.NotebookNode, starts: Sequence[str]) -> bool:
    return any(_source(cell).lstrip().startswith(start) for start in starts)


def _answer_cell(index: int, cell: nbformat.NotebookNode) -> AnswerCell:
    source = _source(cell)
    markdown = cell.get("cell_type") == "markdown"
    return AnswerCell(
        index + 1, "markdown" if markdown else "code", source, render_markdown(source) if markdown else None
    )


def _sources(handout: Path | None) -> frozenset[str]:
    if handout is None or not handout.is_file():
        return frozenset()
    try:  # a handout given as a script is read as a script submission is
        is_script = handout.suffix.lower() == ".py"
        cells = read_submission(handout).notebook.cells if is_script else nbformat.read(handout, as_version=4).cells
        return frozenset(_source(c).strip() for c in cells)
    except Exception:  # a broken handout only means every following cell is shown
        return frozenset()


def _source(cell: nbformat.NotebookNode) -> str:
    source = cell.get("source", "")
    return "".join(source) if isinstance(source, list) else str(source)
