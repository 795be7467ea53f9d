"""How a process ended, in the words kernels and grading workers share."""

from __future__ import annotations

from grader.execution.exit_status import describe_exit


def test_a_signal_is_named_with_its_number_and_sigkill_hints_at_memory() -> None:
    assert describe_exit(-11) == "killed by SIGSEGV (signal 11)"
    assert describe_exit(-9) == "killed by SIGKILL (signal 9), perhaps out of memory"
    assert describe_exit(-200) == "killed by signal 200"


def test_exit_statuses_and_unknown_ends() -> None:
    assert describe_exit(3) == "exit status 3"
    assert describe_exit(None) == "no exit status"
