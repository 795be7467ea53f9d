"""What init reads from a solution where the obvious reading is not the course's: a node counter
kept by a copy of the minimax, not by the minimax itself; a board whose empty cells the
functions cannot tell apart, written out in the notebook's own code."""

from __future__ import annotations

from grader.authoring.draft import DraftCheck
from reference.codecs import CellName
from tests.authoring.test_inference import FLAT_UNDERSCORE, in_process_inference

_MINIMAX = FLAT_UNDERSCORE[FLAT_UNDERSCORE.index("def minimax(") : FLAT_UNDERSCORE.index("def best_move(")]
COUNTING_COPY = "\nnode_count = 0\n\n" + _MINIMAX.replace("minimax(", "minimax_with_count(").replace(
    "):\n", "):\n    global node_count\n    node_count += 1\n", 1
)
"""The solution's minimax again, under another name, adding one to a global at each call."""


def _counter_checks(checks: list[DraftCheck]) -> list[DraftCheck]:
    return [c for c in checks if c.kind == "node-counts" and getattr(c.params, "counter", None)]


def test_the_node_counter_is_judged_through_the_search_that_makes_it_grow() -> None:
    """The plain minimax comes first and never touches the counter: the counter is still found,
    and judged through the copy that counts."""
    draft, _, _, _ = in_process_inference("import math\n" + FLAT_UNDERSCORE + COUNTING_COPY)
    (counted,) = _counter_checks(draft.checks)
    assert counted.params.counter == "node_count"
    assert counted.params.minimax_call.text.startswith("minimax_with_count(board, 0, ")
    assert "the global node_count grows while minimax_with_count searches" in counted.evidence


def test_a_notebook_without_a_counter_gets_no_counter_check() -> None:
    draft, _, _, _ = in_process_inference("import math\n" + FLAT_UNDERSCORE)
    assert _counter_checks(draft.checks) == []


ANY_EMPTY_GRID = """
LINES = [[(r, 0), (r, 1), (r, 2)] for r in range(3)] + [[(0, c), (1, c), (2, c)] for c in range(3)]
LINES += [[(0, 0), (1, 1), (2, 2)], [(0, 2), (1, 1), (2, 0)]]

def start():
    board = STARTING_BOARD
    print(" ".join(str(cell) for row in board for cell in row))
    return board

def check_win(board, player):
    return any(all(board[r][c] == player for r, c in line) for line in LINES)
"""
"""A win test that takes any cell but X or O for an empty one: every encoding of the empty cell
reads alike, and only the board the notebook starts from tells which the course uses."""


def test_a_board_the_notebook_writes_decides_between_encodings_its_functions_read_alike() -> None:
    digits = ANY_EMPTY_GRID.replace("STARTING_BOARD", "[['1', '2', '3'], ['4', '5', '6'], ['7', '8', '9']]")
    draft, choice, _, _ = in_process_inference(digits)
    assert choice is not None and choice.others and choice.written
    assert choice.conventions.encoding.empty == CellName.DIGIT
    assert any("the one the notebook's own code writes a board in is kept" in note for note in draft.notes)

    spaces = ANY_EMPTY_GRID.replace("STARTING_BOARD", "[[' ', ' ', ' '], [' ', ' ', ' '], [' ', ' ', ' ']]")
    _, choice, _, _ = in_process_inference(spaces)
    assert choice is not None and choice.written
    assert choice.conventions.encoding.empty == " "


def test_without_a_written_board_the_first_encoding_is_kept() -> None:
    draft, choice, _, _ = in_process_inference(ANY_EMPTY_GRID.replace("STARTING_BOARD", "[[None] * 3] * 3"))
    assert choice is not None and choice.others and not choice.written
    assert any("as many functions answer alike; the first is kept" in note for note in draft.notes)


def test_a_function_init_writes_no_check_for_is_named_in_the_notes() -> None:
    """A display, a move validator: roles init does not check, said rather than passed over."""
    shown = "\ndef show(board):\n    print(' | '.join(board))\n"
    draft, _, _, _ = in_process_inference("import math\n" + FLAT_UNDERSCORE + shown)
    unchecked = [note for note in draft.notes if "none of the roles init checks" in note]
    assert unchecked == ["`show`: none of the roles init checks; write its check by hand if the course grades it"]
