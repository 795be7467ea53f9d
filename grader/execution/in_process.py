"""Call a student's functions in this very process: the session of the in-notebook check.

When a student checks their work from a cell, their functions already live in the kernel
that runs the check: nothing is executed again and no second kernel is started. The calls go
through the same :class:`~grader.execution.channel.kernel.executor.CallExecutor` the grading
kernel's shim uses, on the student's own namespace, and their outcomes through the same wire
format, so the checks see exactly what they see from a grading kernel: the same values, the
same node counts, the same recorded searches, the same time limits (an alarm stops a call at
its limit of CPU time; here, where no grader watches from outside, a wall-clock alarm stops a
call that waits without computing, at the same safety net).

What the grading kernel's shim adds around a call is added here for the length of a batch:
``input()`` raises instead of waiting for the student to type, ``exit()`` ends only the call,
and an interrupt from the notebook's stop button stops the whole check rather than one call.
It is not a sandbox: the code called is the student's own, in the student's own session.
"""

from __future__ import annotations

import builtins
import getpass
import signal
import threading
from collections.abc import Collection, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from grader.errors import GraderError
from grader.execution.channel.calls import Call, CallOutcome, DefinedNames, outcome_from
from grader.execution.channel.kernel.executor import CallExecutor
from grader.execution.channel.kernel.shim import ScriptedInputExhausted
from grader.execution.channel.protocol import OutcomeData
from grader.execution.sandbox import Limits


class CallsNotPossibleHere(GraderError, RuntimeError):
    """This thread or platform cannot stop a call at its time limit."""


class InProcessCalls:
    """Calls into ``namespace``, a live notebook's globals, from the thread that runs its cells."""

    def __init__(self, namespace: dict[str, Any], *, hidden: Collection[str] = (), shell: Any = None) -> None:
        self.namespace = namespace
        self.hidden = frozenset(hidden)
        """Names the shell put in the namespace, not the notebook."""
        self.shell = shell
        """The IPython shell the namespace belongs to, if any."""
        self.executor = CallExecutor(namespace, output_chars=Limits().output_chars, wall_net=True)

    def call_many(self, calls: Sequence[Call]) -> list[CallOutcome]:
        require_alarm()
        reported: list[OutcomeData] = []
        with self._call_context() as interrupted:

            def starting(index: int) -> None:
                # The executor reads an interrupt as the call raising; the student pressed
                # stop to end the check, not one call of it.
                if interrupted:
                    raise KeyboardInterrupt

            requests = [call.to_request() for call in calls]
            self.executor.run_batch(requests, lambda _, outcome: reported.append(outcome), starting)
            starting(len(calls))
        return [outcome_from(outcome) for outcome in reported]

    def defined_names(self) -> DefinedNames:
        reply = self.executor.defined_names(hidden=self.hidden)
        return DefinedNames(
            functions=tuple(reply["functions"]),
            classes={name: tuple(methods) for name, methods in reply["classes"].items()},
            variables=tuple(reply["variables"]),
            references={name: tuple(named) for name, named in reply["references"].items()},
        )

    @contextmanager
    def _call_context(self) -> Iterator[list[bool]]:
        """``input()``/``getpass()`` raise as in a grading kernel's calls, ``exit()`` raises
        ``SystemExit`` instead of ending the session, and an interrupt is noted; the list
        yielded holds True once the student interrupted."""
        interrupted: list[bool] = []
        previous_sigint = signal.getsignal(signal.SIGINT)

        def on_interrupt(signum: int, frame: Any) -> None:
            interrupted.append(True)
            raise KeyboardInterrupt

        saved_input, saved_getpass = builtins.input, getpass.getpass
        saved_exit = getattr(self.shell, "ask_exit", None)
        builtins.input = getpass.getpass = _no_input
        if saved_exit is not None:
            self.shell.ask_exit = _exit_ends_the_call
        signal.signal(signal.SIGINT, on_interrupt)
        try:
            yield interrupted
        finally:
            signal.signal(signal.SIGINT, previous_sigint)
            builtins.input, getpass.getpass = saved_input, saved_getpass
            if saved_exit is not None:
                self.shell.ask_exit = saved_exit


class InProcessSession:
    """A session whose student code is already defined in this process (`grader.grading`
    only needs its ``calls``)."""

    def __init__(self, namespace: dict[str, Any], *, hidden: Collection[str] = (), shell: Any = None) -> None:
        self.calls = InProcessCalls(namespace, hidden=hidden, shell=shell)


def require_alarm() -> None:
    """Raise `CallsNotPossibleHere` unless calls can be stopped at their limit here."""
    if not hasattr(signal, "SIGALRM") or not hasattr(signal, "SIGPROF"):
        raise CallsNotPossibleHere("the checks need SIGPROF to stop a call at its time limit (Linux or macOS)")
    if threading.current_thread() is not threading.main_thread():
        raise CallsNotPossibleHere(
            "the checks stop a call at its time limit with an alarm: run them in the main thread"
        )


def _no_input(prompt: Any = "", *args: Any, **kwargs: Any) -> str:
    # The same words as in a grading kernel, so a counterexample reads the same.
    raise ScriptedInputExhausted(
        "input() was called while the grader was calling a function; there are no scripted answers for function calls"
    )


def _exit_ends_the_call() -> None:
    raise SystemExit("exit() was called while the grader was calling a function")
