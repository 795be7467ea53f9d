"""Plain nbclient, the floor any notebook grader pays: the stock python3 kernel, started and
shut down per notebook, no sandbox. Plain nbclient cannot answer ``input()``, so a first cell
hands the scripted answers to the kernel's ``raw_input``. Shared by the benchmarks."""

from __future__ import annotations

import subprocess
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import nbformat
from nbclient import NotebookClient
from nbformat.v4 import new_code_cell


@dataclass(frozen=True)
class FloorRun:
    seconds: float
    outcome: str
    """"ok", "unreadable", "timeout", or the exception that stopped the run."""


def plain_nbclient(path: Path, answers: Sequence[str], cell_timeout: float) -> FloorRun:
    """Plain nbclient: the stock python3 kernel, started and shut down, no sandbox."""
    started = time.perf_counter()
    try:
        notebook = nbformat.read(path, as_version=4)
    except Exception:  # noqa: BLE001 - what a truncated upload does to any grader
        return FloorRun(time.perf_counter() - started, "unreadable")
    if answers:
        notebook.cells.insert(0, new_code_cell(_scripted_input(answers)))
    timed_out = []
    client = NotebookClient(
        notebook,
        kernel_name="python3",
        timeout=cell_timeout,
        allow_errors=True,
        interrupt_on_timeout=True,
        record_timing=False,
        error_on_timeout={"ename": "Timeout", "evalue": "", "traceback": []},
        on_cell_error=lambda cell, cell_index, execute_reply: timed_out.append(
            execute_reply["content"].get("ename") == "Timeout"
        ),
    )
    outcome = "ok"
    try:
        client.execute(stderr=subprocess.DEVNULL)  # the stock kernel warns about unencrypted TCP
    except Exception as error:  # noqa: BLE001 - a kernel death ends the plain run; it is still a floor
        outcome = type(error).__name__
    if any(timed_out):
        outcome = "timeout"
    return FloorRun(time.perf_counter() - started, outcome)


def _scripted_input(answers: Sequence[str]) -> str:
    return (
        f"_answers = iter({list(answers)!r})\n"
        "def _scripted(prompt=''):\n"
        "    answer = next(_answers, None)\n"
        "    if answer is None:\n"
        "        raise EOFError('no more scripted input')\n"
        "    print(prompt + answer)\n"
        "    return answer\n"
        "get_ipython().kernel.raw_input = _scripted"
    )
