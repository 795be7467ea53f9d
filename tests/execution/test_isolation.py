"""Fail closed: which isolation a command gets, who chose it, and the refusal where nobody did."""

from __future__ import annotations

import pytest

from grader.errors import UsageError
from grader.execution import isolation as isolation_module
from grader.execution import sandbox as sandbox_module
from grader.execution.isolation import (
    ENVIRONMENT_VARIABLE,
    Isolation,
    IsolationRefused,
    decide_isolation,
    requested_choice,
)
from grader.execution.result import SandboxMode
from grader.execution.sandbox import SandboxUnavailable, resolve_mode
from grader.feedback.class_index import ClassIsolation

MISSING = "bubblewrap (bwrap) is not installed"


@pytest.fixture
def no_bwrap(monkeypatch: pytest.MonkeyPatch) -> None:
    """A machine where bubblewrap cannot run, and nothing in the environment chose a mode."""
    monkeypatch.setattr(isolation_module, "bwrap_problem", lambda: MISSING)
    monkeypatch.setattr(sandbox_module, "bwrap_problem", lambda: MISSING)
    monkeypatch.delenv(ENVIRONMENT_VARIABLE, raising=False)


@pytest.fixture
def with_bwrap(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(isolation_module, "bwrap_problem", lambda: None)
    monkeypatch.delenv(ENVIRONMENT_VARIABLE, raising=False)


@pytest.mark.usefixtures("no_bwrap")
def test_nobody_chose_and_bwrap_cannot_run_refuses_with_the_ways_out() -> None:
    with pytest.raises(IsolationRefused) as refused:
        decide_isolation(None)
    message = str(refused.value)
    assert MISSING in message
    assert "apt-get install bubblewrap" in message
    for way_out in ("--sandbox limits", f"{ENVIRONMENT_VARIABLE}=limits", 'sandbox = "limits"'):
        assert way_out in message
    assert "\n" not in message
    assert isinstance(refused.value, UsageError)  # one line on the terminal, exit status 2


@pytest.mark.usefixtures("no_bwrap")
def test_an_explicit_auto_is_no_choice_of_a_weaker_mode() -> None:
    with pytest.raises(IsolationRefused):
        decide_isolation("auto")
    with pytest.raises(IsolationRefused):
        decide_isolation(None, "auto")


@pytest.mark.usefixtures("no_bwrap")
def test_asking_for_bwrap_by_name_where_it_cannot_run_refuses_and_names_who_asked() -> None:
    with pytest.raises(IsolationRefused, match="--sandbox bwrap asks for bubblewrap"):
        decide_isolation("bwrap")


@pytest.mark.usefixtures("no_bwrap")
def test_a_weaker_mode_chosen_by_name_runs_and_says_who_chose_it() -> None:
    chosen = decide_isolation("limits")
    assert chosen.mode is SandboxMode.LIMITS and chosen.reduced
    assert chosen.chosen_by == "--sandbox limits"
    assert "Isolation reduced" in chosen.summary() and "Chosen by --sandbox limits" in chosen.summary()
    off = decide_isolation("none")
    assert off.mode is SandboxMode.NONE and "Isolation off" in off.summary()


@pytest.mark.usefixtures("no_bwrap")
def test_a_command_on_the_callers_own_file_falls_back_and_says_why() -> None:
    fallen = decide_isolation(None, fall_back=True)
    assert fallen.mode is SandboxMode.LIMITS
    assert fallen.chosen_by is None and fallen.fallback_reason == MISSING
    assert f"Bubblewrap is not used because {MISSING}" in fallen.summary()
    # falling back is for the default only: a name still refuses
    with pytest.raises(IsolationRefused):
        decide_isolation("bwrap", fall_back=True)


@pytest.mark.usefixtures("with_bwrap")
def test_bubblewrap_is_the_default_where_it_runs() -> None:
    chosen = decide_isolation(None)
    assert chosen == Isolation(SandboxMode.BWRAP)
    assert not chosen.reduced and chosen.choice == "bwrap"
    assert decide_isolation(None, fall_back=True) == Isolation(SandboxMode.BWRAP)


def test_the_option_wins_over_the_environment_which_wins_over_the_assignment() -> None:
    environment = {ENVIRONMENT_VARIABLE: "limits"}
    assert requested_choice("bwrap", "none", environment) == ("bwrap", "--sandbox bwrap")
    assert requested_choice(None, "none", environment) == ("limits", f"{ENVIRONMENT_VARIABLE}=limits")
    assert requested_choice(None, "none", {}) == ("none", 'the assignment (sandbox = "none" in assignment.toml)')
    assert requested_choice(None, None, {ENVIRONMENT_VARIABLE: " "}) == ("auto", None)


def test_an_unknown_mode_in_the_environment_is_a_usage_error() -> None:
    with pytest.raises(UsageError, match="'bubblewrap' is not a sandbox mode"):
        requested_choice(None, None, {ENVIRONMENT_VARIABLE: "bubblewrap"})


@pytest.mark.usefixtures("no_bwrap")
def test_the_environment_choice_is_read_from_the_process(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENVIRONMENT_VARIABLE, "limits")
    assert decide_isolation(None).chosen_by == f"{ENVIRONMENT_VARIABLE}=limits"


@pytest.mark.usefixtures("no_bwrap")
def test_limits_that_cannot_drop_root_say_so_before_grading(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(isolation_module, "kernel_runs_as_root", lambda mode: mode is SandboxMode.LIMITS)
    chosen = decide_isolation("limits")
    assert chosen.runs_as_root
    assert "The kernels run as root" in chosen.summary()


@pytest.mark.usefixtures("no_bwrap")
def test_the_session_level_default_fails_closed_too() -> None:
    """Code that starts a session without deciding (a library caller) gets bubblewrap or nothing."""
    with pytest.raises(SandboxUnavailable, match="not run without isolation"):
        resolve_mode("auto")
    assert resolve_mode("limits") is SandboxMode.LIMITS


def test_the_class_page_counts_the_submissions_of_each_mode() -> None:
    mixed = ClassIsolation(((SandboxMode.BWRAP, 3), (SandboxMode.LIMITS, 1)))
    assert mixed.reduced == 1
    assert mixed.lines() == (
        "3 of 4 submissions ran under bubblewrap (no network, only the Python installation visible, resource limits).",
        "1 of 4 submissions ran with reduced isolation: resource limits only, without bubblewrap, so their code "
        "could reach the network and read every file its user can read.",
    )
    whole = ClassIsolation(((SandboxMode.BWRAP, 2),))
    assert whole.reduced == 0 and whole.lines()[0].startswith("Every submission ran under bubblewrap")
