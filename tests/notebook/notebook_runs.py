"""Run a notebook as a student's Jupyter does (nbclient, a plain ipykernel, no sandbox and no
scripted input) with a cell that checks it, and read back what that cell displayed."""

from __future__ import annotations

import html
import os
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import nbformat
from nbclient import NotebookClient
from nbformat import NotebookNode

REPO = Path(__file__).resolve().parents[2]

CHECK_CELL = 'from grader import notebook\nnotebook.check("lab05")'
MAGIC_CELL = "%load_ext grader\n%check lab05"


def with_cells(path: Path, *sources: str) -> NotebookNode:
    notebook = nbformat.read(path, as_version=4)
    notebook.cells += [nbformat.v4.new_code_cell(source) for source in sources]
    return notebook


def execute(notebook: NotebookNode, workdir: Path) -> NotebookNode:
    """Every cell, errors and all, in a kernel that imports this checkout's grader.

    Only the kernel's environment names the checkout: set in this process, the path would reach
    every later subprocess of the test worker (a pip there would find the grader installed)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))}
    client = NotebookClient(
        notebook,
        kernel_name="python3",
        timeout=300,
        allow_errors=True,
        resources={"metadata": {"path": str(workdir)}},
    )
    client.execute(env=env)
    return notebook


def displayed(cell: NotebookNode, mime: str) -> str:
    """What the cell's result showed as ``mime``."""
    shown = [o["data"][mime] for o in cell.outputs if o.output_type in ("execute_result", "display_data")]
    assert shown, f"the cell displayed nothing: {cell.outputs}"
    return str(shown[-1])


def printed(cell: NotebookNode) -> str:
    return "".join(o.get("text", "") for o in cell.outputs if o.output_type == "stream")


@dataclass
class ShownCheck:
    status: str
    points: str = ""
    message: str = ""
    facts: dict[str, str] = field(default_factory=dict)
    """call, expected, actual (the counterexample) and cause, as the page reads them."""


class ShownChecks(HTMLParser):
    """The checks the result's HTML shows, by id: status, points, message and counterexample."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.checks: dict[str, ShownCheck] = {}
        self.problems: list[str] = []
        self._check: str | None = None
        self._cell = 0
        self._into: str | None = None
        self._until = ""
        self._text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        classes = (attributes.get("class") or "").split()
        if tag == "tr":
            self._check, self._cell = attributes.get("data-check"), 0
            if self._check and "gc-row" in classes:
                self.checks[self._check] = ShownCheck(str(attributes["data-status"]))
        elif tag == "td" and self._check:
            self._cell += 1
            self._begin("points" if self._cell == 3 else "message" if self._cell == 4 else None, tag)
        elif tag == "code" and {"call", "expected", "actual"} & set(classes):
            self._begin(next(c for c in classes if c in ("call", "expected", "actual")), tag)
        elif tag == "p" and "cause" in classes:
            self._begin("cause", tag)
        elif tag == "li" and self._check is None:
            self._begin("problem", tag)

    def _begin(self, into: str | None, tag: str) -> None:
        self._into, self._until, self._text = into, tag, []

    def handle_data(self, data: str) -> None:
        if self._into:
            self._text.append(data)

    def handle_endtag(self, tag: str) -> None:
        if self._into is None or tag != self._until:
            return
        text = " ".join("".join(self._text).split())
        if self._into == "problem":
            self.problems.append(text)
        elif self._check is not None:
            shown = self.checks[self._check]
            if self._into in ("points", "message"):
                setattr(shown, self._into, text)
            else:
                shown.facts[self._into] = text.removeprefix("Likely cause: ")
        self._into = None

    @classmethod
    def read(cls, page: str) -> ShownChecks:
        parser = cls()
        parser.feed(page)
        return parser


def unescaped(text: Any) -> str:
    return " ".join(html.unescape(str(text)).split())
