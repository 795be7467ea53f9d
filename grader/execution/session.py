"""Execute a student's notebook top to bottom in a sandboxed kernel, then keep it for calls.

::

    options = ExecutionOptions(stdin=("1", "2"), cell_timeout=30, sandbox="auto")
    with NotebookSession("submission.ipynb", options) as session:
        result = session.execute()
        outcomes = session.calls.call_many([Call("minimax", (board, True))])

Every cell runs, whatever happened before it: an error, a timeout (the kernel is
interrupted), a kernel death (a fresh kernel replays the cells before it and execution goes
on after it). Each outcome becomes a :class:`CellStatus` in one place, :meth:`_run_cell`,
whatever exception nbclient raised to report it.
"""

from __future__ import annotations

import copy
import logging
import math
import time
from dataclasses import dataclass, field, replace
from os import PathLike
from pathlib import Path
from queue import Empty
from typing import Any

from jupyter_core.utils import run_sync
from nbformat import NotebookNode

from grader.execution.channel.calls import CallChannel, KernelUnavailable
from grader.execution.channel.link import KernelDied, KernelUnresponsive, RequestAborted, ShimFailed, ShimLink
from grader.execution.channel.protocol import OP_DEFINED_NAMES, OP_STDIN_POSITION, TRACEBACK_CHARS
from grader.execution.hangs import Allowance, HangMemory, called_names
from grader.execution.output import CappedCellRunner, output_fields
from grader.execution.result import CellRecord, CellStatus, ExecutionResult, SandboxMode, StdinExchange, strip_ansi
from grader.execution.sandbox import Limits, RunningKernel, Sandbox, SandboxChoice, resolve_mode
from grader.execution.spare_kernels import KernelRecipe, SpareKernel
from grader.submission.reader import definition_statements, read_submission

_TIMEOUT_MARK = "GraderCellTimeout"
_quiet_log = logging.getLogger(__name__ + ".nbclient")
# nbclient logs every timeout and dead kernel at ERROR level; here they are expected
# outcomes and end up in the result instead.
_quiet_log.setLevel(logging.CRITICAL)


@dataclass(frozen=True)
class ExecutionOptions:
    """How to execute a notebook."""

    stdin: tuple[str, ...] = ()
    """Answers ``input()`` receives, in order; once used up, ``input()`` ends the cell."""
    cell_timeout: float = 30.0
    notebook_timeout: float = 300.0
    """Wall-clock budget of the whole execution, restarts and replays included."""
    sandbox: SandboxChoice = "auto"
    limits: Limits = field(default_factory=Limits)
    skip_cells: frozenset[int] = frozenset()
    """Notebook positions of code cells not to run (recorded as SKIPPED)."""
    startup_timeout: float = 60.0
    interrupt_grace: float = 3.0
    """How long an interrupted kernel has to become responsive before it is replaced."""
    max_kernel_restarts: int = 5
    short_limit: float | None = None
    """The limit of a cell that calls, directly or not, a notebook function an earlier cell
    ran out of its time in (`grader.execution.hangs`); None: every cell gets ``cell_timeout``."""
    support: tuple[Path, ...] = ()
    """The course's modules every kernel imports first (`grader.spec.support`)."""


class NotebookSession:
    """A notebook, its sandboxed kernel and, after :meth:`execute`, the kernel's state."""

    def __init__(
        self,
        notebook: NotebookNode | str | PathLike[str],
        options: ExecutionOptions | None = None,
        *,
        spare_kernel: SpareKernel | None = None,
    ) -> None:
        """``spare_kernel``: take the first kernel from there (launched ahead of time) and
        leave the next one booting; kernels after a restart are always started here."""
        if isinstance(notebook, NotebookNode):
            self.notebook = copy.deepcopy(notebook)
        else:
            self.notebook = read_submission(Path(notebook)).notebook
        self.options = options or ExecutionOptions()
        self._sandbox: Sandbox | None = None
        self._kernel: RunningKernel | None = None
        self._link: ShimLink | None = None
        self._records: dict[int, CellRecord] = {}
        self._stdin_spans: dict[int, tuple[int, int]] = {}
        self._stdin_used = 0
        self._transcript: list[StdinExchange] = []
        self._stdin_log_offset = 0
        self._replaying = False
        self._replay_skip: set[int] = set()
        self._restarts = 0
        self._kernel_start_seconds = 0.0
        self._result: ExecutionResult | None = None
        self._calls = CallChannel(self)
        self._spare_kernel = spare_kernel
        self._hangs = HangMemory(self.options.short_limit or self.options.cell_timeout)

    # --- lifecycle ----------------------------------------------------------------------

    def __enter__(self) -> NotebookSession:
        mode = resolve_mode(self.options.sandbox)
        started = time.perf_counter()
        try:
            run_sync(self._start_first_kernel)(mode)
        except BaseException:
            self.close()
            raise
        self._kernel_start_seconds = time.perf_counter() - started
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def close(self) -> None:
        if self._sandbox is None:
            return
        try:
            if self._link is not None:
                self._link.close()
            if self._kernel is not None:
                run_sync(self._sandbox.stop_kernel)(self._kernel)
        finally:
            self._kernel = None
            self._sandbox.close()
            self._sandbox = None

    @property
    def link(self) -> ShimLink:
        if self._link is None:
            raise RuntimeError("the session is not open; use it in a `with` block")
        return self._link

    @property
    def calls(self) -> CallChannel:
        """Call the notebook's functions (after :meth:`execute`)."""
        return self._calls

    @property
    def result(self) -> ExecutionResult | None:
        return self._result

    @property
    def kernel_restarts(self) -> int:
        """Restarts so far, including those caused by calls after execution."""
        return self._restarts

    # --- execution ------------------------------------------------------------------------

    def execute(self) -> ExecutionResult:
        """Run every code cell once, top to bottom; call once per session."""
        if self._result is not None:
            raise RuntimeError("this session has already executed its notebook")
        self._result = run_sync(self._execute)()
        return self._result

    async def _execute(self) -> ExecutionResult:
        options = self.options
        started = time.perf_counter()
        deadline = time.monotonic() + options.notebook_timeout
        notebook_timed_out = False
        unavailable: str | None = None
        runner = self._runner(self.notebook)
        number = 0
        for index, cell in enumerate(self.notebook.cells):
            if cell.cell_type != "code" or not cell.source.strip():
                continue
            number += 1
            remaining = deadline - time.monotonic()
            if index in options.skip_cells:
                self._records[index] = CellRecord(index, number, cell.source, CellStatus.SKIPPED)
            elif unavailable is not None or remaining <= 0:
                notebook_timed_out = notebook_timed_out or remaining <= 0
                reason = unavailable or f"the notebook's {options.notebook_timeout:g} s ran out"
                self._records[index] = CellRecord(index, number, cell.source, CellStatus.NOT_RUN, error_message=reason)
            else:
                timeout = min(options.cell_timeout, remaining)
                allowance = await self._cell_allowance(cell.source)
                # A cell is always run (it may define functions): never less than the short limit.
                shortened = allowance.because is not None and self._hangs.short_limit < timeout
                if shortened:
                    timeout = self._hangs.short_limit
                record, needs_new_kernel = await self._run_cell(runner, index, number, cell, timeout)
                if record.status is CellStatus.TIMEOUT and shortened and allowance.because is not None:
                    message = f"{record.error_message} (the shorter limit: {allowance.because.text()})"
                    record = replace(record, error_message=message)
                elif record.status is CellStatus.TIMEOUT and timeout < options.cell_timeout:
                    notebook_timed_out = True
                self._records[index] = record
                if needs_new_kernel:
                    try:
                        await self._replace_kernel(deadline)
                    except KernelUnavailable as error:
                        unavailable = str(error)
                    runner = self._runner(self.notebook)
                elif self._kernel is not None and self._kernel.pid is not None and self._sandbox is not None:
                    self._sandbox.kill_strays(keep=self._kernel.pid)
                if record.status is CellStatus.TIMEOUT and options.short_limit is not None and unavailable is None:
                    called = await self._called(cell.source)
                    self._hangs.ran_out(called, allowance, timeout, f"in cell {number}")
        assert self._sandbox is not None
        return ExecutionResult(
            cells=tuple(self._records[i] for i in sorted(self._records)),
            stdin_transcript=tuple(self._transcript),
            sandbox_mode=self._sandbox.mode,
            isolation_note=self._sandbox.isolation_note,
            kernel_restarts=self._restarts,
            total_duration=time.perf_counter() - started,
            kernel_start_seconds=self._kernel_start_seconds,
            notebook_timed_out=notebook_timed_out,
        )

    async def _run_cell(
        self, runner: CappedCellRunner, index: int, number: int, cell: NotebookNode, timeout: float
    ) -> tuple[CellRecord, bool]:
        """Run one cell; returns its record and whether the kernel must be replaced.

        This is the one place where nbclient's exceptions and replies become statuses.
        """
        replies: list[dict] = []
        runner.on_cell_executed = lambda **hook: replies.append(hook["execute_reply"])
        # nbclient declares whole seconds but takes fractions, which the notebook's budget needs.
        runner.timeout_func = lambda _cell: timeout  # type: ignore[assignment]
        self.link.leave()
        runner.start_cell()
        if not self._replaying:
            self._stdin_spans[index] = (self._stdin_used, self._stdin_used)
        started = time.perf_counter()
        failure: Exception | None = None
        try:
            await runner.async_execute_cell(cell, index, store_history=True)
        except Exception as error:  # nbclient's type for a dead kernel varies; the state decides
            failure = error
        if not self._replaying:
            self._collect_stdin(index)
        duration = time.perf_counter() - started
        fields: dict[str, Any] = {"index": index, "number": number, "source": cell.source, "duration": duration}
        fields.update(output_fields(cell, runner.truncated))
        assert self._kernel is not None
        alive = await self._kernel.manager.is_alive()
        if failure is not None or not alive:
            if alive:
                message = f"the kernel stopped answering ({type(failure).__name__}: {failure}) and was replaced"
            else:
                message = f"{self._kernel.death()} while running this cell"
            return CellRecord(status=CellStatus.KILLED, error_message=message, **fields), True
        content = replies[-1]["content"] if replies else {"status": "ok"}
        if content.get("ename") == _TIMEOUT_MARK:
            recovered = await self._responds(self.options.interrupt_grace)
            note = "it was interrupted" if recovered else "it ignored the interrupt, so the kernel was replaced"
            message = f"the cell ran longer than {timeout:g} s; {note}"
            record = CellRecord(status=CellStatus.TIMEOUT, error_name="Timeout", error_message=message, **fields)
            return record, not recovered
        if content.get("status") == "error":
            traceback = strip_ansi("\n".join(content.get("traceback", [])))[-TRACEBACK_CHARS:]
            return CellRecord(
                status=CellStatus.ERROR,
                error_name=content.get("ename"),
                error_message=content.get("evalue"),
                traceback=traceback,
                **fields,
            ), False
        return CellRecord(status=CellStatus.OK, **fields), False

    async def _cell_allowance(self, source: str) -> Allowance:
        """A cell's limit after what ran out of time in the cells before it."""
        if self.options.short_limit is None or not self._hangs.any:
            return Allowance(self.options.cell_timeout)
        return self._hangs.allowance(await self._called(source), self.options.cell_timeout)

    async def _called(self, source: str) -> list[str]:
        """The notebook functions and classes a cell's own statements call by name, as now
        defined."""
        try:
            names = await self.link.request(OP_DEFINED_NAMES)
        except (KernelDied, KernelUnresponsive, RequestAborted, ShimFailed):
            return []
        self._hangs.learn_references(names["references"])
        return sorted(called_names(source) & set(names["references"]))

    def _runner(self, notebook: NotebookNode) -> CappedCellRunner:
        assert self._kernel is not None
        runner = CappedCellRunner(
            notebook,
            output_limit=self.options.limits.output_chars,
            km=self._kernel.manager,
            allow_errors=True,
            interrupt_on_timeout=True,
            error_on_timeout={"ename": _TIMEOUT_MARK, "evalue": "", "traceback": []},
            iopub_timeout=math.ceil(self.options.interrupt_grace),
            record_timing=False,
            skip_cells_with_tag="grader-never-skips-cells",
            log=_quiet_log,
        )
        runner.kc = self._kernel.client
        return runner

    async def _responds(self, within: float) -> bool:
        """Whether the kernel answers a kernel_info request (it is idle again) in time."""
        assert self._kernel is not None
        self.link.leave()
        client = self._kernel.client
        msg_id = client.kernel_info()
        deadline = time.monotonic() + within
        while (left := deadline - time.monotonic()) > 0:
            try:
                reply = await client.get_shell_msg(timeout=left)
            except Empty:
                break
            if reply["parent_header"].get("msg_id") == msg_id:
                return True
        return False

    def _collect_stdin(self, index: int) -> None:
        """Attribute the input() exchanges logged since the last cell to cell ``index``."""
        exchanges, self._stdin_log_offset = self.link.read_stdin_log(self._stdin_log_offset)
        for prompt, answer in exchanges:
            self._transcript.append(StdinExchange(index, prompt, answer))
            if answer is not None:
                self._stdin_used += 1
        self._stdin_spans[index] = (self._stdin_spans[index][0], self._stdin_used)

    # --- kernels ------------------------------------------------------------------------------

    async def _start_first_kernel(self, mode: SandboxMode) -> None:
        if self._spare_kernel is None:
            self._sandbox = Sandbox(mode, self.options.limits, self.options.support)
            await self._start_kernel()
            return
        recipe = KernelRecipe(mode, self.options.limits, self.options.support)
        self._sandbox, kernel = await self._spare_kernel.take(recipe, self.options.startup_timeout)
        await self._start_kernel(kernel)

    async def _start_kernel(self, ready: RunningKernel | None = None) -> None:
        """Install the shim in ``ready`` (a kernel that answers), else in a kernel started now."""
        assert self._sandbox is not None
        self._kernel = ready or await self._sandbox.start_kernel(self.options.startup_timeout)
        runtime = self._sandbox.runtime
        self._link = ShimLink(self._kernel, runtime=runtime, interrupt_grace=self.options.interrupt_grace)
        with runtime.shim_files_open():
            await self._link.install(
                stdin=self.options.stdin,
                output_chars=self.options.limits.output_chars,
                timeout=self.options.startup_timeout,
            )

    async def recover_kernel(self) -> None:
        """Replace the kernel after a death or hang during calls (see ``KernelOwner``)."""
        await self._replace_kernel(time.monotonic() + self.options.notebook_timeout)

    async def _replace_kernel(self, deadline: float) -> None:
        """Start a fresh kernel and replay what has run so far.

        Cells that completed run again in full; a cell that timed out or killed the kernel
        runs only its definitions, so functions defined there can still be graded. A cell
        that kills the replay too is left out of later replays.
        """
        assert self._sandbox is not None
        while True:
            if self._restarts >= self.options.max_kernel_restarts:
                raise KernelUnavailable(f"not run: the kernel was restarted {self._restarts} times already")
            self._restarts += 1
            if self._link is not None:
                self._link.close()
            if self._kernel is not None:
                await self._sandbox.stop_kernel(self._kernel)
                self._kernel = None
            await self._start_kernel()
            failed = await self._replay(deadline)
            if failed is None:
                break
            self._replay_skip.add(failed)
        await self.link.request(OP_STDIN_POSITION, {"position": self._stdin_used})

    async def _replay(self, deadline: float) -> int | None:
        """Replay recorded cells; returns the index of a cell that broke the kernel, if any."""
        runner = self._runner(copy.deepcopy(self.notebook))
        self._replaying = True
        try:
            for index, record in sorted(self._records.items()):
                source = _replay_source(record)
                if index in self._replay_skip or not source.strip():
                    continue
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return None
                start, end = self._stdin_spans.get(index, (0, 0))
                if end > start:
                    await self.link.request(OP_STDIN_POSITION, {"position": start})
                scratch = copy.deepcopy(runner.nb.cells[index])
                scratch.source = source
                timeout = min(self.options.cell_timeout, remaining)
                _, broken = await self._run_cell(runner, index, record.number, scratch, timeout)
                if broken:
                    return index
        except (KernelDied, KernelUnresponsive):
            return index
        finally:
            self._replaying = False
            # What the replay typed is not part of the transcript.
            _, self._stdin_log_offset = self.link.read_stdin_log(self._stdin_log_offset)
        return None


def _replay_source(record: CellRecord) -> str:
    if record.status in (CellStatus.OK, CellStatus.ERROR):
        return record.source
    if record.status in (CellStatus.TIMEOUT, CellStatus.KILLED):
        return definition_statements(record.source)
    return ""


def execute_notebook(
    notebook: NotebookNode | str | PathLike[str], options: ExecutionOptions | None = None
) -> ExecutionResult:
    """Execute a notebook in a fresh sandboxed kernel and return what happened."""
    with NotebookSession(notebook, options) as session:
        return session.execute()


__all__ = [
    "CellRecord",
    "CellStatus",
    "ExecutionOptions",
    "ExecutionResult",
    "KernelUnavailable",
    "NotebookSession",
    "StdinExchange",
    "execute_notebook",
]
