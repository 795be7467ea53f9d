"""The record of one notebook execution: per cell its status and output, the scripted input,
the isolation used. Plain data, written as JSON into results and read back from it.

Loading it loads nothing of the kernel machinery: a report or a batch that only reads stored
results never imports jupyter_client or nbclient.
"""

from __future__ import annotations

import dataclasses
import enum
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from grader.serialization import converter

ANSI_ESCAPES = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
"""Terminal colour and cursor codes (IPython colours its tracebacks): noise outside a terminal."""


def strip_ansi(text: str) -> str:
    return ANSI_ESCAPES.sub("", text)


class SandboxMode(str, enum.Enum):
    """How strongly a kernel is isolated."""

    BWRAP = "bwrap"
    LIMITS = "limits"
    NONE = "none"


class CellStatus(str, enum.Enum):
    """What happened to one code cell."""

    OK = "ok"
    ERROR = "error"
    """The cell raised (including SyntaxError, SystemExit, exhausted scripted input)."""
    TIMEOUT = "timeout"
    """The cell ran past its time and was interrupted (or its kernel replaced)."""
    KILLED = "killed"
    """The kernel died during the cell; a fresh kernel took over after it."""
    SKIPPED = "skipped"
    """Not run because the options said so."""
    NOT_RUN = "not_run"
    """Not reached: the notebook's time ran out or the kernel could not be restarted."""


@dataclass(frozen=True)
class CellRecord:
    """One code cell's execution."""

    index: int
    """Position of the cell in the notebook, from 0, markdown cells included."""
    number: int
    """The cell's number as Jupyter shows it (``In [n]``) when the notebook runs top to
    bottom: from 1, counting the code cells that are not empty."""
    source: str
    status: CellStatus
    error_name: str | None = None
    error_message: str | None = None
    output: str = ""
    """Printed text and plain-text results, truncated to the output limit."""
    output_truncated: bool = False
    duration: float = 0.0
    traceback: str = ""


@dataclass(frozen=True)
class StdinExchange:
    """One ``input()`` call: its prompt and the scripted answer (None: the script ran out)."""

    cell_index: int
    """The notebook position of the cell that asked, as ``CellRecord.index``."""
    prompt: str
    answer: str | None


@dataclass(frozen=True)
class ExecutionResult:
    """Everything about one execution of a notebook, as plain data."""

    cells: tuple[CellRecord, ...]
    stdin_transcript: tuple[StdinExchange, ...]
    sandbox_mode: SandboxMode
    isolation_note: str | None
    """Set when isolation was weaker than bubblewrap, in words for the report."""
    kernel_restarts: int
    total_duration: float
    kernel_start_seconds: float
    notebook_timed_out: bool

    @property
    def failed_cells(self) -> tuple[CellRecord, ...]:
        """Cells that did not run cleanly (skipped cells are not failures)."""
        return tuple(r for r in self.cells if r.status not in (CellStatus.OK, CellStatus.SKIPPED))

    def cell(self, index: int) -> CellRecord:
        """The record of the code cell at notebook position ``index``."""
        for record in self.cells:
            if record.index == index:
                return record
        raise KeyError(f"no code cell at index {index}")

    def to_dict(self) -> dict[str, Any]:
        unstructured: dict[str, Any] = converter.unstructure(self)
        return unstructured

    def to_json(self, indent: int | None = None) -> str:
        return json.dumps(self.to_dict(), indent=indent)

    @classmethod
    def from_dict(cls, data: object) -> ExecutionResult:
        """The record from its JSON form (`to_dict`).

        Tolerant: a field that is missing or of the wrong type gets a neutral value, so that any
        stored record, however old or damaged, can still be shown.
        """
        record = data if isinstance(data, Mapping) else {}
        cells = [c for c in _list(record.get("cells")) if isinstance(c, Mapping)]
        return cls(
            cells=tuple(_cell(c, n) for n, c in enumerate(cells)),
            stdin_transcript=tuple(
                StdinExchange(
                    cell_index=e["cell_index"] if isinstance(e.get("cell_index"), int) else -1,
                    prompt=_text(e.get("prompt")),
                    answer=None if e.get("answer") is None else _text(e.get("answer")),
                )
                for e in _list(record.get("stdin_transcript"))
                if isinstance(e, Mapping)
            ),
            sandbox_mode=_enum(SandboxMode, record.get("sandbox_mode"), SandboxMode.NONE),
            isolation_note=_optional_text(record.get("isolation_note")),
            kernel_restarts=_number(record.get("kernel_restarts"), int, 0),
            total_duration=_number(record.get("total_duration"), float, 0.0),
            kernel_start_seconds=_number(record.get("kernel_start_seconds"), float, 0.0),
            notebook_timed_out=bool(record.get("notebook_timed_out")),
        )


# -- reading stored records back, whatever their age ------------------------------------------


def _cell(data: Mapping[str, Any], position: int) -> CellRecord:
    known = {f.name for f in dataclasses.fields(CellRecord)}
    values: dict[str, Any] = {k: v for k, v in data.items() if k in known}
    values.update(
        index=data["index"] if isinstance(data.get("index"), int) else position,
        # Records written before cells carried their number: the recorded cells are the
        # non-empty code cells, so their position is the number Jupyter shows.
        number=data["number"] if isinstance(data.get("number"), int) else position + 1,
        source=_text(data.get("source")),
        status=_enum(CellStatus, data.get("status"), CellStatus.NOT_RUN),
        error_name=_optional_text(data.get("error_name")),
        error_message=_optional_text(data.get("error_message")),
        output=_text(data.get("output")) if isinstance(data.get("output"), str) else "",
        output_truncated=bool(data.get("output_truncated")),
        duration=_number(data.get("duration"), float, 0.0),
        traceback=_text(data.get("traceback")),
    )
    return CellRecord(**values)


def _list(value: object) -> list[Any]:
    return list(value) if isinstance(value, (list, tuple)) else []


def _text(value: object) -> str:
    return value if isinstance(value, str) else "" if value is None else str(value)


def _optional_text(value: object) -> str | None:
    return value if isinstance(value, str) else None


_Number = TypeVar("_Number", int, float)


def _number(value: object, kind: type[_Number], default: _Number) -> _Number:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return default
    return kind(value)


_Enum = TypeVar("_Enum", bound=enum.Enum)


def _enum(kind: type[_Enum], value: object, default: _Enum) -> _Enum:
    try:
        return kind(value)
    except ValueError:
        return default
