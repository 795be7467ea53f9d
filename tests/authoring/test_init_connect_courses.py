"""`grader init` on Connect-Four courses written as course labs commonly write them (each under
tests/authoring/connect/<style>/: a solution, the handout the course gives, and mutants, the
solution with one realistic mistake each, made by the edits its `expected.toml` gives). Init reads each with no edit; the folder it writes
gives the solution full marks and the handout at most a fifth, and each mutant fails exactly the
checks its `expected.toml` pins: its own function's, the checks built on that function passing
once the reference's version stands in for it."""

from __future__ import annotations

import ast
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from grader.authoring.create import InitRequest, create_assignment
from grader.check_notes import Regraded
from grader.grading import GradingOptions, grade_submission
from grader.results import CheckStatus, SubmissionResult
from grader.spec.loader import load_assignment
from grader.spec.model import Assignment
from grader.validation import validate_assignment
from tests.courses.build import edited
from tests.seed_sources import edited as replaced_everywhere

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib  # type: ignore[import-not-found,unused-ignore]

COURSES = Path(__file__).parent / "connect"
STYLES = ("in_place_rows", "board_class")
"""The styles init reads: rows changed in place by plain functions, and a board held by an object
(``ConnectFour().board``), moves made and undone through its methods."""


def _pinned(style: str) -> dict[str, dict[str, Any]]:
    return tomllib.loads((COURSES / style / "expected.toml").read_text(encoding="utf-8"))


@dataclass
class Course:
    style: str
    assignment: Assignment


@pytest.fixture(scope="module", params=STYLES)
def course(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Course:
    folder = COURSES / request.param
    out = tmp_path_factory.mktemp(request.param) / "assignment"
    report = create_assignment(InitRequest(folder / "solution.py", out, template=folder / "handout.py"))
    assert report.return_code == 0, str(report)
    return Course(request.param, load_assignment(out))


def _mutant(style: str, name: str, folder: Path) -> Path:
    """The mutant ``name`` of ``style``, written into ``folder`` as ``<name>.py``."""
    solution = (COURSES / style / "solution.py").read_text(encoding="utf-8")
    path = folder / f"{name}.py"
    path.write_text(edited(solution, name, _pinned(style)[name]["edits"]), encoding="utf-8")
    return path


@pytest.mark.parametrize("style", STYLES)
def test_every_mutant_is_one_edit_of_the_solution_that_still_compiles(style: str, tmp_path: Path) -> None:
    solution = (COURSES / style / "solution.py").read_text(encoding="utf-8")
    for name, pinned in _pinned(style).items():
        assert pinned["edits"], name
        source = _mutant(style, name, tmp_path).read_text(encoding="utf-8")
        assert source != solution, name
        compile(source, name, "exec")


@pytest.mark.parametrize("mutant", sorted(_pinned("board_class")))
def test_each_board_class_mutant_breaks_what_it_pins(mutant: str, tmp_path: Path) -> None:
    """What each mutant's mistake reaches: the functions whose answers differ from the
    solution's (calls on fresh objects set to seeded positions, outside the grader)."""
    from tests.authoring.board_class_differ import differing

    pinned = _pinned("board_class")[mutant]
    assert differing(_mutant("board_class", mutant, tmp_path)) == set(pinned["breaks"]), pinned["mistake"]


@pytest.mark.kernel
@pytest.mark.slow
def test_the_folder_validates_untouched(course: Course) -> None:
    validation = validate_assignment(course.assignment)
    assert validation.ok, str(validation)
    assert validation.solution is not None and validation.solution.score == validation.solution.max_score
    assert validation.template is not None and validation.template.fraction <= 0.2


@pytest.mark.kernel
@pytest.mark.slow
def test_each_function_of_the_handout_but_the_given_ones_has_a_check(course: Course) -> None:
    called = {str(c.params.call.function) for c in course.assignment.checks if hasattr(c.params, "call")}
    given = {"create_board", "print_board", "evaluate_window"}  # evaluate_window: through score_position
    handout = ast.parse((COURSES / course.style / "handout.py").read_text(encoding="utf-8"))
    defined = {node.name for node in handout.body if isinstance(node, ast.FunctionDef)}
    for holder in (node for node in handout.body if isinstance(node, ast.ClassDef)):
        methods = (node.name for node in holder.body if isinstance(node, ast.FunctionDef))
        defined |= {f"{holder.name}.{name}" for name in methods if not name.startswith("__")}
    assert defined, course.style
    assert defined - given <= called, sorted(defined - given - called)


def _grade(course: Course, mutant: str, folder: Path) -> SubmissionResult:
    return grade_submission(_mutant(course.style, mutant, folder), course.assignment, GradingOptions())


@pytest.mark.kernel
@pytest.mark.slow
@pytest.mark.parametrize("mutant", sorted({name for style in STYLES for name in _pinned(style)}))
def test_each_mutant_fails_its_own_check_once(course: Course, mutant: str, tmp_path: Path) -> None:
    if mutant not in _pinned(course.style):
        pytest.skip(f"{mutant} is a mutant of another course")
    pinned = _pinned(course.style)[mutant]
    result = _grade(course, mutant, tmp_path)
    failed = {c.check_id for c in result.checks if c.status is not CheckStatus.PASSED}
    assert failed == set(pinned["failed"]), pinned["mistake"]
    regraded = {c.check_id for c in result.checks if any(isinstance(n, Regraded) and n.passed for n in c.notes)}
    assert regraded == set(pinned["regraded"])
    if "words" in pinned:
        mine = [c for c in result.checks if c.check_id in failed]
        said = " ".join(f"{c.headline} {c.cause.sentence if c.cause else ''} {c.counterexample}" for c in mine)
        assert pinned["words"] in said, said


@pytest.mark.kernel
@pytest.mark.slow
def test_on_the_board_object_every_call_that_plays_must_leave_it_as_it_was(course: Course) -> None:
    """The course's object holds the game: it is made for each call (the board and the side to
    move written to it), and every check but the move's and its taking back refuses a call that
    leaves it changed; taking a move back is asked on the position after it."""
    if course.style != "board_class":
        pytest.skip("the board is an argument")
    game = course.assignment.game
    assert game is not None and game.board_object is not None and game.board_written
    assert (game.board_object.text, game.board_attribute, game.turn_attribute) == (
        "ConnectFour()",
        "board",
        "current_player",
    )
    by_call = {str(c.params.call.text): c for c in course.assignment.checks if hasattr(c.params, "call")}
    make, undo = (
        by_call["ConnectFour.make_move(board, move)"].params,
        by_call["ConnectFour.undo_move(board, move)"].params,
    )
    assert (make.returns, make.answers) == ("in-place", "row")  # the row the piece lands in, as the course's
    assert (undo.returns, undo.answers) == ("undone", "none")


@pytest.mark.kernel
@pytest.mark.parametrize("source", ["solution.py", "handout.py"])
def test_a_board_object_init_cannot_read_gets_one_message_and_no_folder(tmp_path: Path, source: str) -> None:
    """The solution with its make_move a stub (and no game played at the top level): the object
    holds an empty board, but no method drops a piece into it. The handout alone stops in its
    top-level game, which calls the stub."""
    text = (COURSES / "board_class" / source).read_text(encoding="utf-8")
    if source == "solution.py":
        body = text[text.index("    def make_move(self, col):\n") : text.index("    def undo_move(")]
        text = text.replace(body, "    def make_move(self, col):\n        raise NotImplementedError\n\n")
        text = text[: text.index("game = ConnectFour()\n")]
    path = tmp_path / source
    path.write_text(text, encoding="utf-8")
    out = tmp_path / "assignment"
    report = create_assignment(InitRequest(path, out))
    assert report.return_code == 1
    if source == "solution.py":
        assert str(report).endswith(
            "no function of no arguments returns an empty board of 16 cells or more; "
            "ConnectFour().board holds the board, but no method of ConnectFour drops a piece into it"
        ), str(report)
    assert not out.exists()


# The board_class course as courses that test a column by trying it write it: row 0 is the bottom row,
# make_move answers True, or False for a full column (the board untouched), and the searches try every
# column and skip those make_move refuses. The mutant forgets to pass the turn, so its own searches play
# every piece as X.
FLAG_EDITS = [
    ("# row 0 is the top row", "# row 0 is the bottom row"),
    ("if self.board[0][col] == EMPTY]", "if self.board[-1][col] == EMPTY]"),
    ("for cell in self.board[0])", "for cell in self.board[-1])"),
    ('" ".join(row) for row in self.board)', '" ".join(row) for row in reversed(self.board))'),
    (
        "        for row in range(self.rows - 1, -1, -1):\n            if self.board[row][col] == EMPTY:\n",
        "        for row in range(self.rows):\n            if self.board[row][col] == EMPTY:\n",
    ),
    (
        "    def undo_move(self, col):\n        for row in range(self.rows):\n",
        "    def undo_move(self, col):\n        for row in range(self.rows - 1, -1, -1):\n",
    ),
    (
        '                return row\n        raise ValueError(f"column {col} is full")\n',
        "                return True\n        return False\n",
    ),
    (
        "    for col in game.get_valid_moves():\n        game.make_move(col)\n",
        "    for col in range(game.cols):\n        if not game.make_move(col):\n            continue\n",
    ),
]
TURN_KEPT = (
    "                self.board[row][col] = self.current_player\n"
    '                self.current_player = "O" if self.current_player == "X" else "X"\n'
    "                return True\n",
    "                self.board[row][col] = self.current_player\n                return True\n",
)


@pytest.mark.kernel
@pytest.mark.slow
def test_a_move_the_search_tests_by_its_answer_is_stood_in_for_with_the_same_answer(tmp_path: Path) -> None:
    """Init reads what the course's make_move and undo_move return; once the mutant's make_move
    is found wrong, the reference's move stands in for it in the searches and answers as the
    course's does (True, False for a full column), so the searches, which read that answer, pass.
    A move that answered its row instead would skip every piece landing in row 0, the bottom one,
    without taking it back, and end the searches' tries on a full column."""
    solution = replaced_everywhere((COURSES / "board_class" / "solution.py").read_text(encoding="utf-8"), FLAG_EDITS)
    (tmp_path / "solution.py").write_text(solution, encoding="utf-8")
    out = tmp_path / "assignment"
    report = create_assignment(InitRequest(tmp_path / "solution.py", out))
    assert report.return_code == 0, str(report)
    assignment = load_assignment(out)
    by_call = {str(c.params.call.text): c for c in assignment.checks if hasattr(c.params, "call")}
    make, undo = by_call["ConnectFour.make_move(board, move)"], by_call["ConnectFour.undo_move(board, move)"]
    assert (make.params.answers, undo.params.answers) == ("true", "none")
    written = (out / "assignment.toml").read_text(encoding="utf-8")
    assert 'answers = "true"' in written
    assert "then the next on top of it, and returns True;" in written  # the evidence says so
    assert "ConnectFour.undo_move(board, move) takes a piece back and returns None" in written
    mutant = tmp_path / "turn-kept.py"
    mutant.write_text(replaced_everywhere(solution, [TURN_KEPT]), encoding="utf-8")
    result = grade_submission(mutant, assignment, GradingOptions())
    failed = {c.check_id for c in result.checks if c.status is not CheckStatus.PASSED}
    assert failed == {make.id}, [(c.check_id, c.message) for c in result.checks if c.check_id in failed]
    regraded = {c.check_id for c in result.checks if any(isinstance(n, Regraded) and n.passed for n in c.notes)}
    searches = {c.id for c in assignment.checks if c.kind in ("game-search", "game-play")}
    assert searches and searches <= regraded, (searches, regraded)
