"""Which functions init takes as the course's API: the handout's, else what the solution's own
program runs; checks of the other functions (the solution's helpers) are left out."""

from __future__ import annotations

import nbformat
from nbformat import NotebookNode

from grader.authoring.api import given_whole, handout_api, keep_api_checks, program_api
from grader.authoring.draft import Draft, DraftCheck, call
from grader.checks.kinds.hygiene import NoMutationParams, RunsCleanlyParams
from grader.checks.kinds.node_counts import Params as NodeCountParams
from grader.checks.kinds.search import SearchParams


def _notebook(*cells: str) -> NotebookNode:
    return nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(source) for source in cells])


SOLUTION_FUNCTIONS = ("winner", "max_value", "min_value", "minimax")

CS50_HANDOUT = _notebook(
    "def winner(board):\n    raise NotImplementedError\n",
    "%timeit -n1 pass",  # a magic: the cell does not parse and names nothing
    "def minimax(board):\n    raise NotImplementedError\n",
)


def test_a_handout_makes_its_functions_the_api_and_the_others_helpers() -> None:
    api = handout_api(CS50_HANDOUT, "template.py")
    assert [n for n in SOLUTION_FUNCTIONS if api.admits(n)] == ["winner", "minimax"]
    assert api.helpers(SOLUTION_FUNCTIONS) == ["max_value", "min_value"]
    assert api.comment(SOLUTION_FUNCTIONS) == [
        "API (defined in the handout template.py, or called by its top-level code): winner, minimax",
        "Helpers of the solution, not graded: max_value, min_value",
    ]


def test_a_function_the_handout_gives_as_the_solution_has_it_is_not_graded() -> None:
    solution = _notebook(
        "def max_value(board):\n    return 1\n",
        "class Game:\n    def show(self):\n        print(self)\n    def best(self):\n        return 4\n",
    )
    handout = _notebook(
        "def max_value(board):\n    return 1\n",
        "class Game:\n    def show(self):\n        print(self)\n    def best(self):\n        raise NotImplementedError\n",
        "def minimax(board):\n    raise NotImplementedError\n",
    )
    given = given_whole(handout, solution)
    assert given == {"max_value", "Game.show"}
    api = handout_api(handout, "template.ipynb").without_given(given)
    assert [api.admits(name) for name in ("max_value", "Game.show", "Game.best", "minimax")] == [
        False,
        False,
        True,
        True,
    ]
    assert api.why.endswith("less what it gives as the solution has it: Game.show, max_value")
    assert handout_api(handout, "template.ipynb").without_given(frozenset()) == handout_api(handout, "template.ipynb")


def test_a_function_the_handout_only_calls_is_part_of_the_api() -> None:
    handout = _notebook(
        "def show(board):\n    print(board)\n",
        "if __name__ == '__main__':\n    for move in range(3):\n        show(best_move(board))\n",
    )
    api = handout_api(handout, "template.ipynb")
    assert api.admits("best_move") and api.admits("show")
    assert not api.admits("minimax")


def test_a_method_is_admitted_when_the_handout_defines_it_on_its_class_or_calls_it() -> None:
    handout = _notebook(
        "class Game:\n    def __init__(self, board):\n        self.board = board\n"
        "    def minimax(self):\n        raise NotImplementedError\n",
        "game = Game([' '] * 9)\nprint(game.best_move())\n",
    )
    api = handout_api(handout, "template.ipynb")
    assert api.admits_call(call("Game(board).minimax()"))
    assert api.admits_call(call("Game(board).best_move()"))
    assert not api.admits_call(call("Game(board).max_value()"))
    assert not api.admits_call(call("max_value(board)"))
    # A board held in an object's attribute: the check calls the method on the object it makes.
    assert api.admits_call(call("game.minimax()")) and not api.admits_call(call("game.max_value()"))


def test_without_a_handout_the_methods_of_an_object_the_program_makes_are_the_api() -> None:
    solution = _notebook(
        "class Game:\n    def __init__(self):\n        self.board = [' '] * 9\n"
        "    def minimax(self):\n        return self._value()\n"
        "    def _value(self):\n        return 0\n",
        "game = Game()\nprint(game.minimax())\n",
    )
    api = program_api(solution)
    assert api.admits_call(call("game.minimax()")) and api.admits_call(call("game._value()"))
    assert api.helpers(["Game.minimax", "Game._value"]) == []


def test_without_top_level_calls_every_function_is_the_api() -> None:
    solution = _notebook("def winner(board):\n    return None\n", "def minimax(board):\n    return winner(board)\n")
    api = program_api(solution)
    assert api.functions is None and api.admits("anything")
    assert api.comment(SOLUTION_FUNCTIONS) == [
        "API: every function of the solution (the solution's top-level code calls none of its functions)"
    ]


PROGRAM = _notebook(
    "def winner(board):\n    return None\n",
    "def minimax(board):\n    return winner(board)\n",
    "def best_move(board):\n    return minimax(board)\n",
    "def score(board):\n    return 0\n",
    "def alphabeta(board, alpha, beta):\n    return score(board)\n",
    "def play():\n    while winner(board) is None:\n        best_move(board)\n",
    "if __name__ == '__main__':\n    play()\n",
)


def test_without_a_handout_the_api_is_what_the_program_runs_and_what_stands_alone() -> None:
    api = program_api(PROGRAM)
    defined = ("winner", "minimax", "best_move", "score", "alphabeta", "play")
    # play runs best_move, which runs minimax and winner; alphabeta is named by no other
    # function (written to be called on its own); score only serves alphabeta.
    assert api.helpers(defined) == ["score"]
    assert api.source == "program"


def test_checks_that_call_a_helper_are_left_out() -> None:
    def search(name: str) -> DraftCheck:
        return DraftCheck(name, "minimax", name, "search-value", SearchParams(call(f"{name}(board)")), "seen")

    counts = NodeCountParams(call("max_value(board)"), call("minimax(board)"))
    draft = Draft(
        checks=[
            search("minimax"),
            search("max_value"),
            DraftCheck("node-reduction", "node-reduction", "fewer", "node-counts", counts, "seen"),
            DraftCheck(
                "minimax-no-mutation", "no-mutation", "t", "no-mutation", NoMutationParams(call("minimax(board)")), "e"
            ),
            DraftCheck("runs-cleanly", "runs-cleanly", "runs", "runs-cleanly", RunsCleanlyParams(), "runs"),
        ]
    )
    dropped = keep_api_checks(draft, handout_api(CS50_HANDOUT, "template.py"))
    assert [c.id for c in dropped] == ["max_value", "node-reduction"]
    assert [c.id for c in draft.checks] == ["minimax", "minimax-no-mutation", "runs-cleanly"]


def test_a_helpers_board_left_alone_check_moves_to_the_api_search() -> None:
    best_move = DraftCheck("minimax", "best-move", "t", "search-value", SearchParams(call("minimax(board)")), "e")
    helper = DraftCheck(
        "max-value-no-mutation", "no-mutation", "t", "no-mutation", NoMutationParams(call("max_value(board)")), "e"
    )
    draft = Draft(checks=[best_move, helper])
    keep_api_checks(draft, handout_api(CS50_HANDOUT, "template.py"))
    assert [c.id for c in draft.checks] == ["minimax", "minimax-no-mutation"]
    moved = draft.checks[1]
    assert moved.kind == "no-mutation" and moved.call is not None and moved.call.text == "minimax(board)"
    assert "max_value(board)" in moved.evidence


def test_a_call_on_the_object_that_holds_the_board_is_a_call_of_its_class() -> None:
    """`game.minimax()` calls a method of the object the grader makes: kept when the method is the API's."""
    handout = _notebook(
        "class Game:\n    def __init__(self):\n        self.board = [' '] * 9\n"
        "    def minimax(self):\n        raise NotImplementedError\n",
    )

    def method(name: str) -> DraftCheck:
        return DraftCheck(name, "minimax", name, "search-value", SearchParams(call(f"game.{name}()")), "seen")

    draft = Draft(checks=[method("minimax"), method("max_value")])
    dropped = keep_api_checks(draft, handout_api(handout, "template.ipynb"))
    assert [c.id for c in draft.checks] == ["minimax"] and [c.id for c in dropped] == ["max_value"]
