"""Shape headlines from real calls: the TypeErrors come from the running interpreter, so the
wordings are the ones a student's kernel produces."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

import pytest

from grader.checks.causes.shape import Observed, Signature, shape_headline
from grader.execution.channel.calls import CallOutcome, CallStatus

BOARDS = [[" "] * 9, ["X", " ", " ", " ", "O", " ", " ", " ", " "], ["X", "X", "X", "O", "O", " ", " ", " ", " "]]


def observe(
    function: Callable[..., Any], *args: Any, then: tuple[str, tuple[Any, ...]] | None = None, **kwargs: Any
) -> Observed:
    """One call as the call channel makes it: the student's function is called from here, so
    a traceback frame below this one is the student's code."""
    try:
        value = function(*args, **kwargs)
        if then is not None:
            value = getattr(value, then[0])(*then[1])
        return Observed(value=value)
    except Exception as error:
        return Observed.from_exception(error)


def on_every_board(
    function: Callable[..., Any], *args: Any, then: tuple[str, tuple[Any, ...]] | None = None, **kwargs: Any
) -> list[Observed]:
    return [observe(function, board, *args, then=then, **kwargs) for board in BOARDS]


def signature_of(function: Callable[..., Any]) -> str:
    return str(inspect.signature(function))


# -- arity --------------------------------------------------------------------


def check_winner(board):  # returns the winning mark; the assignment passes a player too
    return "X"


def test_one_parameter_where_two_are_passed() -> None:
    outcomes = on_every_board(check_winner, "X")
    call = "check_winner(board, player)"
    assert shape_headline("check_winner", call, outcomes) == (
        "`check_winner` takes 1 argument; this assignment calls `check_winner(board, player)`."
    )
    assert shape_headline("check_winner", call, outcomes, signature=signature_of(check_winner)) == (
        "`check_winner` takes 1 argument (board); this assignment calls `check_winner(board, player)`."
    )


def check_win(board, player):
    return False


def test_a_required_parameter_the_assignment_does_not_pass() -> None:
    outcomes = on_every_board(check_win)
    assert shape_headline("check_win", "check_win(board)", outcomes) == (
        "`check_win` requires an argument `player` that this assignment does not pass: it calls `check_win(board)`."
    )
    assert shape_headline("check_win", "check_win(board)", outcomes, signature="(board, player)") == (
        "`check_win` takes 2 arguments (board, player); this assignment calls `check_win(board)`."
    )


def minimax(board, depth=0):
    return 0


def test_a_range_of_positional_arguments() -> None:
    outcomes = on_every_board(minimax, 0, True)
    assert shape_headline("minimax", "minimax(board, 0, is_max)", outcomes) == (
        "`minimax` takes 1 to 2 arguments; this assignment calls `minimax(board, 0, is_max)`."
    )
    with_signature = shape_headline(
        "minimax", "minimax(board, 0, is_max)", outcomes, signature="def minimax(board, depth=0):"
    )
    assert (
        with_signature
        == "`minimax` takes 1 to 2 arguments (board, depth=0); this assignment calls `minimax(board, 0, is_max)`."
    )


def keyword_only(board, *, depth):
    return 0


def test_keyword_only_wording() -> None:
    outcomes = on_every_board(keyword_only, "X", depth=1)
    assert shape_headline("keyword_only", "keyword_only(board, player, depth=1)", outcomes) == (
        "`keyword_only` takes 1 argument; this assignment calls `keyword_only(board, player, depth=1)`."
    )


def method_shaped(self, board, player):  # copied out of a class
    return False


def test_a_method_where_a_function_is_called() -> None:
    outcomes = on_every_board(method_shaped, "X")
    call = "method_shaped(board, player)"
    assert shape_headline("method_shaped", call, outcomes) == (
        "`method_shaped` requires an argument `player` that this assignment does not pass: "
        "it calls `method_shaped(board, player)`."
    )
    assert shape_headline("method_shaped", call, outcomes, signature=signature_of(method_shaped)) == (
        "`method_shaped` is written as a method (its first parameter is `self`), "
        "but this assignment calls it as a function: `method_shaped(board, player)`."
    )


class State:
    def __init__(self, gameplan, player, maxdepth=3):
        self.gameplan, self.player, self.maxdepth = gameplan, player, maxdepth

    def minmax(self):
        return 0, None


def test_an_unexpected_keyword_in_the_constructor() -> None:
    outcomes = on_every_board(State, 1, max_depth=2, then=("minmax", ()))
    call = "State(board, to_move, max_depth=depth_limit).minmax('max')"
    shown = "`State(board, to_move, max_depth=depth_limit).minmax('max')`"
    assert (
        shape_headline("State", call, outcomes)
        == f"`State` has no parameter `max_depth`; this assignment calls {shown}."
    )
    assert shape_headline("State", call, outcomes, signature=signature_of(State)) == (
        f"`State` has no parameter `max_depth` (its parameters: gameplan, player, maxdepth=3); this assignment calls {shown}."
    )
    # the def line of __init__ has self; inspect.signature(State) has not: both read the same
    assert shape_headline("State", call, outcomes, signature="def __init__(self, gameplan, player, maxdepth=3)") == (
        shape_headline("State", call, outcomes, signature=signature_of(State))
    )


def test_a_chained_method_counts_its_arguments_without_self() -> None:
    outcomes = on_every_board(State, 1, then=("minmax", ("max",)))
    assert shape_headline("State", "State(board, to_move).minmax('max')", outcomes) == (
        "`State.minmax` takes no argument; this assignment calls `State(board, to_move).minmax('max')`."
    )


def test_arguments_given_twice() -> None:
    outcomes = on_every_board(check_win, board=[" "] * 9)
    assert shape_headline("check_win", "check_win(board, board=board)", outcomes) == (
        "`check_win` receives `board` twice, by position and by name: its parameters are in another order "
        "than this assignment's call `check_win(board, board=board)`."
    )


@pytest.mark.parametrize(
    "message, headline",
    [
        # Python 3.9 names a method without its class
        ("minmax() takes 1 positional argument but 2 were given", "`State.minmax` takes no argument;"),
        # Python 3.13 suggests a close keyword
        (
            "State.__init__() got an unexpected keyword argument 'max_depth'. Did you mean 'maxdepth'?",
            "`State` has no parameter `max_depth`;",
        ),
        ("State() takes no arguments", "`State` takes no argument;"),
    ],
)
def test_wordings_of_other_versions(message: str, headline: str) -> None:
    outcomes = [Observed(error_type="TypeError", message=message)] * 3
    text = shape_headline("State", "State(board, to_move, max_depth=depth_limit).minmax('max')", outcomes)
    assert text is not None and text.startswith(headline)


def test_signature_text_forms() -> None:
    for text in ("(board, player='X')", "check_win(board: list, player: str = 'X') -> bool", "board, player='X'"):
        signature = Signature.parse(text)
        assert signature is not None and signature.describe() == "takes 1 to 2 arguments (board, player='X')"
    assert Signature.parse("(board, ") is None


# -- stubs --------------------------------------------------------------------


def stub_pass(board, player):
    pass


def stub_raising(board, player):
    raise NotImplementedError


def test_a_pass_stub_is_not_implemented_yet() -> None:
    outcomes = on_every_board(stub_pass, "X")
    assert shape_headline("stub_pass", "stub_pass(board, player)", outcomes) == (
        "`stub_pass` is not implemented yet: it returns None on every call "
        "(is its body still `pass`, or is a `return` missing?)."
    )
    # a winner function may rightly answer None on every unfinished game
    assert shape_headline("stub_pass", "stub_pass(board, player)", outcomes, none_ok=True) is None


def test_a_stub_raising_not_implemented() -> None:
    outcomes = on_every_board(stub_raising, "X")
    assert shape_headline("stub_raising", "stub_raising(board, player)", outcomes) == (
        "`stub_raising` is not implemented yet: it raises NotImplementedError."
    )


def evaluate(board):
    raise NotImplementedError("write evaluate")


def uses_a_stub(board):
    return evaluate(board) + 1


def test_a_helper_stub_is_named() -> None:
    outcomes = on_every_board(uses_a_stub)
    assert shape_headline("uses_a_stub", "uses_a_stub(board)", outcomes) == (
        "`evaluate` is not implemented yet (it raises NotImplementedError), and `uses_a_stub` calls it."
    )


# -- not shape ----------------------------------------------------------------


def indexes_past_the_end(board, player):
    return board[9] == player if board[0] == "X" else False


def recursion_with_an_argument_missing(board, depth, is_max):
    if depth > 0:
        return 0
    return recursion_with_an_argument_missing(board, depth + 1)  # type: ignore[call-arg]


def test_errors_on_some_boards_are_not_shape() -> None:
    outcomes = on_every_board(indexes_past_the_end, "X")
    assert any(o.error_type == "IndexError" for o in outcomes) and any(o.returned for o in outcomes)
    assert shape_headline("indexes_past_the_end", "indexes_past_the_end(board, player)", outcomes) is None


def test_an_arity_error_inside_the_body_is_not_shape() -> None:
    outcomes = on_every_board(recursion_with_an_argument_missing, 0, True)
    assert all(o.error_type == "TypeError" and o.raised_in for o in outcomes)
    name = "recursion_with_an_argument_missing"
    assert shape_headline(name, f"{name}(board, 0, is_max)", outcomes) is None
    # without a traceback, the signature shows that the assignment's call binds
    bare = [Observed(error_type=o.error_type, message=o.message) for o in outcomes]
    assert shape_headline(name, f"{name}(board, 0, is_max)", bare, signature="(board, depth, is_max)") is None


def test_an_arity_error_about_another_function_is_not_shape() -> None:
    outcomes = [Observed(error_type="TypeError", message="check_win() takes 1 positional argument but 2 were given")]
    assert shape_headline("minimax", "minimax(board, 0, is_max)", outcomes * 3) is None
    # nor one whose count is not the count the assignment passes
    other_count = [Observed(error_type="TypeError", message="minimax() takes 2 positional arguments but 4 were given")]
    assert shape_headline("minimax", "minimax(board, 0, is_max)", other_count * 3) is None


def test_the_same_answer_everywhere_is_not_shape() -> None:
    outcomes = on_every_board(lambda board: 0)
    assert shape_headline("minimax", "minimax(board, 0, is_max)", outcomes) is None
    assert shape_headline("minimax", "minimax(board, 0, is_max)", []) is None


def test_other_type_errors_are_not_shape() -> None:
    outcomes = on_every_board(lambda board: board + 1)
    assert shape_headline("minimax", "minimax(board, 0, is_max)", outcomes) is None


def test_outcomes_from_the_call_channel() -> None:
    raised = CallOutcome(
        CallStatus.RAISED, error="TypeError: check_winner() takes 1 positional argument but 2 were given"
    )
    assert shape_headline("check_winner", "check_winner(board, player)", [Observed.from_outcome(raised)] * 2) == (
        "`check_winner` takes 1 argument; this assignment calls `check_winner(board, player)`."
    )
    inside = CallOutcome(
        CallStatus.RAISED,
        error="TypeError: minimax() missing 1 required positional argument: 'is_max'",
        traceback='  File "<cell 4>", line 9, in minimax\n    return minimax(board, depth + 1)\n'
        "TypeError: minimax() missing 1 required positional argument: 'is_max'",
    )
    assert Observed.from_outcome(inside).raised_in == ("minimax",)
    assert shape_headline("minimax", "minimax(board, 0)", [Observed.from_outcome(inside)] * 2) is None
    timeout = CallOutcome(CallStatus.TIMEOUT, error="the call took longer than 20 s")
    assert shape_headline("minimax", "minimax(board, 0)", [Observed.from_outcome(timeout)]) is None
    returned_none = CallOutcome(CallStatus.OK, value=None)
    assert shape_headline("minimax", "minimax(board, 0)", [Observed.from_outcome(returned_none)]).startswith(  # type: ignore[union-attr]
        "`minimax` is not implemented yet"
    )
