"""The record of one notebook execution: per cell its status and output, the scripted input,
the isolation used. Plain data, written as JSON into results and read back from it."""

from __future__ import annotations

import enum
import json
from dataclasses import asdict, dataclass
from typing import Any

from grader.execution.sandbox import SandboxMode


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
        return json.loads(self.to_json())

    def to_json(self, indent: int | None = None) -> str:
        return json.dumps(asdict(self), indent=indent, default=_enum_value)


def _enum_value(value: object) -> object:
    if isinstance(value, enum.Enum):
        return value.value
    raise TypeError(f"cannot serialize {type(value).__name__}")
