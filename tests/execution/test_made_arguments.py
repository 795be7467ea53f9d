"""Arguments the kernel makes: a course's object built from a position through the course's own
classes for each call (`KernelMade`), and a name of the notebook passed as it is (`KernelName`),
looked up when the call is made so that a counted or logged function is passed wrapped."""

from __future__ import annotations

from typing import Any

from grader.execution.channel.call_data import KernelMade, KernelName
from grader.execution.channel.calls import Call, CallOutcome, CallStatus, RemoteObject, outcome_from
from grader.execution.channel.kernel.executor import CallExecutor

SOURCE = """
class Board:
    def __init__(self, cells, turn=None):
        self.cells = tuple(cells)
        self.turn = turn if turn is not None else "X"

class State:
    def __init__(self, board, over, children):
        self.snapshot = board
        self.over = over
        self.children = children

def over(board):
    return all(cell != " " for cell in board.cells)

def score(board, is_max):
    return len([c for c in board.cells if c == "X"]) * (1 if is_max else -1)

def walk(state, heuristic):
    if state.over(state.snapshot):
        return [state], 0
    return [state], heuristic(state.snapshot, True)

def same(board):
    return board
"""


def run(call: Call) -> CallOutcome:
    namespace: dict[str, Any] = {"__name__": "__main__"}
    exec(compile(SOURCE, "<ipython-input-1-0>", "exec"), namespace)
    reported: list[Any] = []
    CallExecutor(namespace, output_chars=10_000).run_batch([call.to_request()], lambda _, o: reported.append(o))
    return outcome_from(reported[0])


BOARD = KernelMade("Board", (["X", " ", "O"],), (("turn", "O"),))


def test_a_made_object_and_a_name_are_passed_and_the_answer_reads_two_levels_deep() -> None:
    state = KernelMade("State", (BOARD, KernelName("over"), KernelName("same")))
    outcome = run(Call("walk", (state, KernelName("score")), count=("score",), answer_levels=2))
    assert outcome.status is CallStatus.OK, outcome.error
    answer: Any = outcome.value
    path, value = answer
    assert value == 1
    (first,) = path
    assert isinstance(first, RemoteObject) and isinstance(first.snapshot, RemoteObject)
    assert first.snapshot.cells == ("X", " ", "O") and first.snapshot.turn == "O"
    assert outcome.counts == {"score": 1}  # the name was looked up wrapped
    assert not outcome.mutated  # an object the kernel made is compared with nothing


def test_one_level_keeps_the_nested_object_as_its_type_alone() -> None:
    state = KernelMade("State", (BOARD, KernelName("over"), KernelName("same")))
    outcome = run(Call("walk", (state, KernelName("score"))))
    answer: Any = outcome.value
    (first,), _ = answer
    assert first.snapshot.attributes is None


def test_a_name_the_notebook_does_not_hold_is_missing() -> None:
    outcome = run(Call("same", (KernelMade("NoSuchBoard", ([],)),)))
    assert outcome.status is CallStatus.MISSING
    assert "NoSuchBoard" in (outcome.error or "")


def test_a_constructor_that_raises_is_the_call_raising() -> None:
    outcome = run(Call("same", (KernelMade("Board", ()),)))
    assert outcome.status is CallStatus.RAISED
    assert "TypeError" in (outcome.error or "")


def test_a_dotted_name_reaches_a_module_the_notebook_did_not_bind() -> None:
    outcome = run(Call("same", (KernelMade("collections.OrderedDict", ()),)))
    assert outcome.status is CallStatus.OK, outcome.error
    assert outcome.value == {}
