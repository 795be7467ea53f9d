"""Cell output the grader keeps: nbclient's output collection with a cap per cell.

The kernel already caps what a cell prints (see the shim); this cap catches the rest, such
as rich results and display data, so no cell's output grows the notebook without bound.
"""

from __future__ import annotations

import json
from typing import Any

from nbclient import NotebookClient
from nbformat import NotebookNode

from grader.execution.channel.protocol import GRADER_OUTPUT_TRUNCATED, NOTICE_ROOM, shows_cell_truncation


class CappedCellRunner(NotebookClient):
    """nbclient's cell execution with the output kept per cell capped."""

    def __init__(self, nb: NotebookNode, *, output_limit: int, **kwargs: Any) -> None:
        super().__init__(nb, **kwargs)
        # Room for the kernel's own truncation notice on top of the characters it kept.
        self.output_limit = output_limit + NOTICE_ROOM
        self.kept_chars = 0
        self.truncated = False

    def start_cell(self) -> None:
        self.kept_chars = 0
        self.truncated = False

    def output(
        self, outs: list[Any], msg: dict[str, Any], display_id: str | None, cell_index: int
    ) -> NotebookNode | None:
        if self.truncated:
            return None
        out = super().output(outs, msg, display_id, cell_index)
        if out is None or out.get("output_type") == "error":
            return out
        size = _output_chars(out)
        if self.kept_chars + size > self.output_limit:
            _trim_output(out, max(self.output_limit - self.kept_chars, 0))
            self.truncated = True
        self.kept_chars += size
        return out


def output_fields(cell: NotebookNode, truncated: bool) -> dict[str, Any]:
    """A cell's printed text and plain-text results, as a ``CellRecord``'s output fields;
    ``truncated``: the grader cut the cell's output."""
    parts = []
    for out in cell.get("outputs", []):
        if out.get("output_type") == "stream":
            parts.append(out.get("text", ""))
        elif out.get("output_type") in ("execute_result", "display_data"):
            text = out.get("data", {}).get("text/plain", "")
            parts.append(text if text.endswith("\n") else text + "\n")
    text = "".join(parts)
    return {"output": text, "output_truncated": truncated or shows_cell_truncation(text)}


def _output_chars(out: NotebookNode) -> int:
    if out.get("output_type") == "stream":
        return len(out.get("text", ""))
    values = out.get("data", {}).values()
    return sum(len(value) if isinstance(value, str) else len(json.dumps(value)) for value in values)


def _trim_output(out: NotebookNode, room: int) -> None:
    if out.get("output_type") == "stream":
        out["text"] = out.get("text", "")[:room] + GRADER_OUTPUT_TRUNCATED
    else:
        text = out.get("data", {}).get("text/plain", "")
        out["data"] = {"text/plain": text[:room] + GRADER_OUTPUT_TRUNCATED}
