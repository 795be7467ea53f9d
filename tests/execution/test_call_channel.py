"""Calling student functions in the executed kernel."""

from __future__ import annotations

import time

import numpy as np
import pytest
from jupyter_core.utils import run_sync

from grader.execution.channel.calls import Call, CallStatus, RemoteObject
from grader.execution.session import CellStatus, ExecutionOptions

pytestmark = pytest.mark.kernel

EMPTY_003 = [["1", "2", "3"], ["4", "5", "6"], ["7", "8", "9"]]


@pytest.fixture
def seed003(open_session):
    session = open_session("calls_seed003")
    result = session.execute()
    assert all(record.status is CellStatus.OK for record in result.cells)
    return session


def test_seed003_minimax_counts_every_node(seed003) -> None:
    outcome = seed003.calls.call(
        Call(
            "min",
            set_globals={"current_state": EMPTY_003},
            count=("min", "max"),
            read_globals=("current_state",),
            timeout=60,
        )
    )
    assert outcome.status is CallStatus.OK
    assert outcome.value == (0, 0, 0)
    assert outcome.counts["min"] + outcome.counts["max"] == 549_946
    # min() undoes its moves, so the global board comes back as it went in.
    assert outcome.globals_after["current_state"] == EMPTY_003
    assert not outcome.mutated


def test_seed003_alpha_beta_counts(seed003) -> None:
    outcome = seed003.calls.call(
        Call(
            "min_alpha_beta",
            (-2, 2),
            set_globals={"current_state": EMPTY_003},
            count=("min_alpha_beta", "max_alpha_beta"),
        )
    )
    assert outcome.value == (0, 0, 0)
    assert outcome.counts == {"min_alpha_beta": 8401, "max_alpha_beta": 9896}
    assert sum(outcome.counts.values()) == 18_297


def test_count_all_counts_helpers_the_target_delegates_to(seed003) -> None:
    outcome = seed003.calls.call(
        Call("min_alpha_beta", (-2, 2), set_globals={"current_state": EMPTY_003}, count_all=True)
    )
    assert outcome.counts["is_end"] == 18_297
    assert outcome.counts["min"] == 0 and outcome.counts["initialize_game"] == 0


def test_mutation_of_an_argument_is_reported(seed003) -> None:
    board = [" "] * 9
    board[:4] = ["X", "O", "X", "O"]
    careless, careful = seed003.calls.call_many(
        [Call("careless_minimax", (board, True)), Call("careful_minimax", (board, True))]
    )
    assert careless.status is CallStatus.OK and careless.mutated
    assert careful.status is CallStatus.OK and not careful.mutated


def test_a_batch_of_1000_calls_is_fast(seed003) -> None:
    calls = [Call("square", (n,)) for n in range(1000)]
    started = time.perf_counter()
    outcomes = seed003.calls.call_many(calls)
    elapsed = time.perf_counter() - started
    assert [outcome.value for outcome in outcomes] == [n * n for n in range(1000)]
    assert elapsed < 2.0, f"{elapsed:.3f} s for 1000 calls"


def test_objects_come_back_as_snapshots_and_methods_chain(open_session) -> None:
    session = open_session("calls_state")
    session.execute()
    board = np.zeros((3, 3), dtype=int)
    state, decision, expanded = session.calls.call_many(
        [
            Call("State", (board, 1), {"max_depth": 2}, count=("State.__init__",)),
            Call(
                "State",
                (board, 1),
                {"max_depth": 2},
                then=(("minmax", ("max",), {}),),
                set_globals={"State.generated": 0},
                read_globals=("State.generated",),
                count=("State.minmax",),
            ),
            Call("State", (board, 1), then=(("expand", ((1, 1),), {}),)),
        ]
    )
    assert isinstance(state.value, RemoteObject) and state.value.type_name == "State"
    assert state.counts == {"State.__init__": 1}
    assert state.value.player == 1 and state.value.max_depth == 2
    gameplan = state.value.gameplan
    assert isinstance(gameplan, np.ndarray)
    assert np.array_equal(gameplan, board) and gameplan.dtype == board.dtype
    assert decision.value == (0, (0, 0))
    assert decision.counts["State.minmax"] == 1 + 9 + 72
    assert decision.globals_after["State.generated"] == 1 + 9 + 72
    assert expanded.value.gameplan[1, 1] == 1
    assert (expanded.value.current_player, expanded.value.depth) == (2, 1)


def test_statuses_for_calls_that_cannot_run(open_session) -> None:
    session = open_session("calls_hostile", ExecutionOptions(stdin=("1",)))
    session.execute()
    missing, not_callable, no_method, bad_count, generator, raised = session.calls.call_many(
        [
            Call("minimax"),
            Call("counter"),
            Call("increment", (1,), then=(("minmax", (), {}),)),
            Call("increment", (1,), count=("helper",)),
            Call("lazy"),
            Call("increment", ("a",)),
        ]
    )
    assert (missing.status, missing.error) == (CallStatus.MISSING, "name 'minimax' is not defined")
    assert not_callable.status is CallStatus.MISSING and "not a function" in not_callable.error
    assert no_method.status is CallStatus.MISSING and "'minmax'" in no_method.error
    assert bad_count.status is CallStatus.MISSING and "helper" in bad_count.error
    assert generator.status is CallStatus.UNSERIALIZABLE and "generator" in generator.error
    assert raised.status is CallStatus.RAISED and raised.error.startswith("TypeError")
    assert "increment" in raised.traceback


def test_globals_are_set_before_and_read_after(open_session) -> None:
    session = open_session("calls_hostile")
    session.execute()
    first, second = session.calls.call_many(
        [
            Call("bump", set_globals={"counter": 10}, read_globals=("counter", "nothing")),
            Call("bump", read_globals=("counter",)),
        ]
    )
    assert (first.value, first.globals_after) == (11, {"counter": 11})
    assert second.globals_after == {"counter": 12}


def test_printing_and_input_inside_calls(open_session) -> None:
    session = open_session("calls_hostile", ExecutionOptions(stdin=("never used",)))
    session.execute()
    chatty, ask = session.calls.call_many([Call("chatty", (100_000,)), Call("ask")])
    assert chatty.value == 100_000 and chatty.stdout.startswith("line 0\n")
    assert chatty.stdout.endswith("[output truncated]") and len(chatty.stdout) < 250_000
    assert ask.status is CallStatus.RAISED and ask.error.startswith("ScriptedInputExhausted")
    assert "no scripted answers for function calls" in ask.error


def test_input_exit_and_quit_inside_calls_end_only_the_call(open_session) -> None:
    """Calls run outside IPython's cells, so the shim gives them what a cell would see."""
    session = open_session("calls_hostile", ExecutionOptions(stdin=("never used",)))
    session.execute()
    names = ("ask", "secret", "leave", "leave_quietly", "cell_context")
    ask, secret, leave, leave_quietly, context, after = session.calls.call_many(
        [*(Call(name) for name in names), Call("increment", (1,))]
    )
    for refused in (ask, secret):
        assert refused.status is CallStatus.RAISED
        assert refused.error.startswith("ScriptedInputExhausted") and "function calls" in refused.error
    for left in (leave, leave_quietly):
        assert left.status is CallStatus.RAISED
        assert left.error.startswith("SystemExit: exit() was called"), left.error
    assert context.value == {"get_ipython": True, "exit_hidden": True, "hooks": True}
    assert after.value == 2
    assert session.kernel_restarts == 0
    assert session.calls.call(Call("increment", (2,))).value == 3


def test_a_call_that_spins_times_out_and_the_batch_goes_on(open_session) -> None:
    session = open_session("calls_hostile")
    session.execute()
    before, spin, after = session.calls.call_many(
        [Call("increment", (1,)), Call("spin", timeout=1.0), Call("increment", (2,))]
    )
    assert (before.value, after.value) == (2, 3)
    assert spin.status is CallStatus.TIMEOUT and 1.0 <= spin.duration < 2.0
    assert session.kernel_restarts == 0


def test_a_call_that_kills_the_kernel_is_killed_and_the_rest_still_run(open_session) -> None:
    session = open_session("calls_hostile")
    session.execute()
    outcomes = session.calls.call_many(
        [Call("increment", (1,)), Call("bump", set_globals={"counter": 5}), Call("die"), Call("increment", (2,))]
    )
    assert [o.status for o in outcomes] == [CallStatus.OK, CallStatus.OK, CallStatus.KILLED, CallStatus.OK]
    assert "exit status 3" in outcomes[2].error
    assert outcomes[3].value == 3
    assert session.kernel_restarts == 1


@pytest.mark.slow
def test_a_call_that_ignores_interrupts_gets_a_new_kernel(open_session) -> None:
    session = open_session("calls_hostile", ExecutionOptions(interrupt_grace=1.0))
    session.execute()
    stubborn, after = session.calls.call_many([Call("stubborn", timeout=1.0), Call("increment", (1,))])
    assert stubborn.status is CallStatus.TIMEOUT and "restarted" in stubborn.error
    assert after.value == 2
    assert session.kernel_restarts == 1


def test_defined_names(seed003) -> None:
    names = seed003.calls.defined_names()
    assert {"min", "max", "min_alpha_beta", "is_end", "careless_minimax"} <= set(names.functions)
    assert {"current_state", "player_turn"} <= set(names.variables)
    assert "time" not in names.variables  # modules are not "defined names"


def test_defined_names_lists_classes_with_their_methods(open_session) -> None:
    session = open_session("calls_state")
    session.execute()
    names = session.calls.defined_names()
    assert "minmax" in names.classes["State"]


def test_calls_take_the_request_socket_and_the_comm_still_answers_between(open_session) -> None:
    session = open_session("calls_request_socket")
    session.execute()
    assert session.link.serves_requests
    assert [o.value for o in session.calls.call_many([Call("increment", (1,)), Call("increment", (2,))])] == [2, 3]
    # A request on the comm ends the shim's run on the socket first, or it would wait behind it.
    assert "increment" in session.calls.defined_names().functions
    assert session.calls.call(Call("increment", (3,))).value == 4
    assert session.link.serves_requests


def test_a_notebook_that_closes_the_request_socket_still_gets_its_calls(open_session) -> None:
    session = open_session("calls_request_socket")
    session.execute()
    closing, after = session.calls.call_many([Call("close_grader_sockets"), Call("increment", (1,))])
    # The batch runs again on the comm: by then the shim's end is gone and nothing is closed.
    assert (closing.status, closing.value) == (CallStatus.OK, 0)
    assert after.value == 2
    assert not session.link.serves_requests
    assert session.calls.call(Call("increment", (2,))).value == 3
    assert session.kernel_restarts == 0


def test_an_interrupt_on_the_request_socket_ends_only_the_call(open_session) -> None:
    session = open_session("calls_request_socket")
    session.execute()
    outlasting, after = session.calls.call_many(
        [Call("outlast_the_alarm", (30,), timeout=0.5), Call("increment", (1,))]
    )
    assert outlasting.status is CallStatus.TIMEOUT and outlasting.duration < 5
    assert after.value == 2
    assert session.kernel_restarts == 0


def test_a_kernel_that_died_between_requests_is_replaced_at_the_next(open_session) -> None:
    session = open_session("calls_request_socket")
    session.execute()
    assert session.calls.call(Call("exit_soon")).value is True
    kernel = session.link.kernel
    while run_sync(kernel.manager.is_alive)():  # the kernel's end of the socket is gone with it
        time.sleep(0.05)
    (next_call,) = session.calls.call_many([Call("increment", (1,))])
    assert next_call.status is CallStatus.KILLED and "restarted" in next_call.error
    assert session.kernel_restarts == 1
    assert session.calls.call(Call("increment", (2,))).value == 3
