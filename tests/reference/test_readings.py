"""The general readings of an alpha-beta's exploration (only one side prunes, children handed
the full window, the window swapped on one side), replayed in the student's own move order,
against the lab05 fixture notebooks that make them, run in process; and the narrow-window call
that tells apart readings one window cannot."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from hypothesis import given, settings

from reference.engine import NO_PRUNING, Rules
from reference.mistakes import MISTAKES, SCOPED, Mistake
from reference.replay import StudentOrder, one_order, replayed_trace
from reference.search import SearchSpec
from reference.separate import confirmed, separating_window
from reference.strategies import nonterminal_boards, windows
from reference.tictactoe import Board
from reference.trace import fitting_mistakes, rules_trace
from tests.seed_sources import (
    LAB05_RECORDS_VISITS,
    LAB05_SOLUTION,
    NotebookSearch,
    edited,
    lab05_notebook_search,
)

SPEC = SearchSpec()  # lab05: O maximizes, X moves first
LAB05 = Path(__file__).resolve().parent.parent / "submissions" / "lab05"
FIXTURES = {
    "only-max-prunes": "alphabeta-only-max-prunes",
    "only-min-prunes": "alphabeta-only-min-prunes",
    "children-full-window": "alphabeta-children-full-window",
    "swapped-window-from-max": "alphabeta-window-swapped",
}
SEARCHES = {name: lab05_notebook_search(LAB05 / f"{notebook}.ipynb") for name, notebook in FIXTURES.items()}
CENTRE_FIRST = lab05_notebook_search(LAB05 / "alphabeta-centre-first.ipynb")
SORTED = lab05_notebook_search(LAB05 / "alphabeta-sorted-moves.ipynb")


def _mistake(name: str) -> Mistake:
    """A reading by name: the catalogue's, or one in part of the tree only."""
    return next(m for m in (*MISTAKES, *SCOPED) if m.name == name)


def _explores_as(student: list[str], mistake: Mistake, board: Board, window: tuple[float, float]) -> bool:
    """Whether one of the ways the mistake is written (fail-soft or fail-hard) explores as ``student``."""
    traces = [
        rules_trace(board, SPEC, rules, alpha=window[0], beta=window[1], fail=fail)
        for rules in mistake.rules
        for fail in ("soft", "hard")
    ]
    return student in [list(t.steps) for t in traces if t is not None]


@settings(max_examples=30, deadline=None, database=None)
@given(board=nonterminal_boards(max_empty=7))
def test_a_side_that_never_cuts_off_on_both_sides_is_plain_minimax(board: Board) -> None:
    never = rules_trace(board, SPEC, Rules(max_cut="never", min_cut="never"))
    assert never is not None and never.steps == rules_trace(board, SPEC, NO_PRUNING).steps  # type: ignore[union-attr]


@pytest.mark.parametrize("name", sorted(FIXTURES))
@pytest.mark.parametrize("position", ["X........", "X...O...."])
def test_the_whole_exploration_names_the_reading_and_a_narrow_call_settles_the_rest(name: str, position: str) -> None:
    board = Board.from_string(position)
    search = SEARCHES[name]
    student = search(board)
    order = StudentOrder(student)
    fitting = fitting_mistakes(student, board, SPEC, order=order)
    assert _mistake(name) in fitting
    if len(fitting) > 1:
        window = separating_window(board, SPEC, fitting, order=order)
        assert window is not None and window[0] < window[1]
        narrow = search(board, *window)
        kept = confirmed(narrow, board, SPEC, fitting, window, order=StudentOrder(narrow))
        assert kept == (_mistake(name),)


def test_children_handed_the_full_window_and_a_search_that_never_cuts_off_explore_alike_from_it() -> None:
    board = Board.from_string("X...O....")
    student = SEARCHES["children-full-window"](board)
    fitting = {m.name for m in fitting_mistakes(student, board, SPEC, order=StudentOrder(student))}
    assert {"children-full-window", "no-pruning", "window-reset"} <= fitting
    # the initial window is the full one here: handing it down is handing (-inf, inf) down
    narrow = (-1.0, 0.0)
    reset = rules_trace(board, SPEC, _mistake("window-reset").rules[0], alpha=narrow[0], beta=narrow[1])
    full = rules_trace(board, SPEC, _mistake("children-full-window").rules[0], alpha=narrow[0], beta=narrow[1])
    assert reset is not None and full is not None
    assert len(full.steps) > len(reset.steps)  # (-inf, inf) below a narrow root prunes less


def test_no_window_separates_a_single_reading_or_readings_that_explore_alike_everywhere() -> None:
    board = Board.from_string("X...O....")
    assert separating_window(board, SPEC, (_mistake("no-pruning"),)) is None
    # the same rule written in both styles explores alike from every window
    twice = (_mistake("only-max-prunes"), _mistake("only-max-prunes"))
    assert separating_window(board, SPEC, twice) is None


def test_a_correct_search_in_its_own_order_fits_no_reading() -> None:
    board = Board.from_string("X........")
    for search in (CENTRE_FIRST, SORTED):
        student = search(board)
        order = StudentOrder(student)
        assert list(replayed_trace(student, board, SPEC).steps) == student
        assert fitting_mistakes(student, board, SPEC, order=order) == ()


def test_one_order_is_read_where_every_node_follows_it_and_none_where_it_changes() -> None:
    board = Board.from_string("X........")
    centre_first = StudentOrder(CENTRE_FIRST(board)).tried.values()
    assert one_order(centre_first) == (4, 2, 6, 8, 1, 3, 5, 7)  # the X in cell 0 is never tried
    assert one_order(StudentOrder(SORTED(board)).tried.values()) is None
    assert one_order([(0, 1), (1, 2)]) == (0, 1, 2)
    assert one_order([(0, 1), (1, 0)]) is None
    assert one_order([]) == ()


# -- a rule in part of the tree only ---------------------------------------------------------

ONLY_THE_ROOT_MIN_CUTS = (
    "                beta = min(beta, eval)\n                if beta <= alpha:",
    "                beta = min(beta, eval)\n                if depth == 0 and beta <= alpha:",
)
FIRST_CHILD_GETS_THE_WINDOW = [
    (
        "minimaxAB(board, depth + 1, False, alpha, beta)",
        'minimaxAB(board, depth + 1, False, *((alpha, beta) if max_eval == -float("inf") else (-math.inf, math.inf)))',
    ),
    (
        "minimaxAB(board, depth + 1, True, alpha, beta)",
        'minimaxAB(board, depth + 1, True, *((alpha, beta) if min_eval == float("inf") else (-math.inf, math.inf)))',
    ),
]


def _solution_search(edits: list[tuple[str, str]]) -> NotebookSearch:
    namespace: dict = {}
    exec(
        compile("visited = []\n" + edited(LAB05_SOLUTION, [LAB05_RECORDS_VISITS, *edits]), "<lab05>", "exec"), namespace
    )

    def explore(board: Board, alpha: float = -math.inf, beta: float = math.inf) -> list[str]:
        namespace["visited"] = []
        namespace["minimaxAB"]([" " if c == "." else c for c in board.cells], 0, board.to_move() == "O", alpha, beta)
        return namespace["visited"]

    return explore


SCOPED_SEARCHES = {
    "only-max-prunes, below-root": _solution_search([ONLY_THE_ROOT_MIN_CUTS]),
    "children-full-window, after-first-child": _solution_search(FIRST_CHILD_GETS_THE_WINDOW),
}


PROGRAMS = {**SEARCHES, **SCOPED_SEARCHES}


@pytest.mark.parametrize("name", sorted(PROGRAMS))
@settings(max_examples=15, deadline=None, database=None)
@given(board=nonterminal_boards(max_empty=7), window=windows())
def test_each_reading_explores_as_the_program_that_makes_it(
    name: str, board: Board, window: tuple[float, float]
) -> None:
    """The fixture notebooks', and the solution edited to make a rule in part of the tree only."""
    assert _explores_as(PROGRAMS[name](board, *window), _mistake(name), board, window)


def test_a_rule_in_part_of_the_tree_is_named_only_where_no_rule_everywhere_fits() -> None:
    board = Board.from_string("XO.......")  # X to move: the root is a MIN node
    only_root_cuts = SCOPED_SEARCHES["only-max-prunes, below-root"]
    # from the full window the root's cut-off (against alpha = -inf) never fires: the rule
    # everywhere reproduces the exploration, and the simpler rule is the one named
    assert fitting_mistakes(only_root_cuts(board), board, SPEC) == (_mistake("only-max-prunes"),)
    # from a narrow one the root cuts off, and only the rule below the root fits
    narrow = only_root_cuts(board, -1, 1)
    assert fitting_mistakes(narrow, board, SPEC, alpha=-1, beta=1) == (_mistake("only-max-prunes, below-root"),)
    first_child = SCOPED_SEARCHES["children-full-window, after-first-child"](board, -1, 1)
    assert fitting_mistakes(first_child, board, SPEC, alpha=-1, beta=1) == (
        _mistake("children-full-window, after-first-child"),
    )
